/**
 * Add Environment… and Edit Environment…: the checks of a name and the new value of the
 * `modelAccess.environments` setting. The setting's value is edited as the settings file holds it: other
 * entries, and an edited entry's headers, variables and any field this version does not know, are kept as
 * they are. Never a key: keys stay in SecretStorage. Pure; no `vscode` import.
 */
import { l10n } from '../common/l10n';
import { clean, type DisplayText } from '../common/text';
import { isRecord } from '../common/records';

/** What an environment is called and where it is: the two things the guided flow asks. */
export interface EnvironmentEntry {
  name: string;
  baseUrl: string;
}

/** The names in the setting's value, for {@link environmentNameProblem}. */
export function environmentNames(raw: unknown): string[] {
  return (Array.isArray(raw) ? raw : [])
    .map((e) => (isRecord(e) && typeof e.name === 'string' ? e.name.trim() : ''))
    .filter((n) => n !== '');
}

/**
 * Why `name` cannot name a new (or the renamed `editing`) environment, or undefined when it can. `taken`:
 * every name in use, the shorthand environment's among them.
 */
export function environmentNameProblem(
  name: string,
  taken: readonly string[],
  editing?: string,
): DisplayText | undefined {
  const n = name.trim();
  if (!n) {
    return l10n.t('Enter a name, e.g. Production or Staging.');
  }
  if (n.length > 60) {
    return l10n.t('Keep the name under 60 characters: it is shown in the status bar.');
  }
  if (/[\0-\x1f\x7f]/.test(n)) {
    return l10n.t('The name cannot hold a line break or control character.');
  }
  const same = (a: string) => a.trim().toLowerCase() === n.toLowerCase();
  if (taken.some(same) && !(editing !== undefined && same(editing))) {
    return l10n.t('There is already an environment named {0}.', clean(n));
  }
  return undefined;
}

/** The setting's value with `entry` added at the end (other entries as they were). */
export function withAddedEnvironment(raw: unknown, entry: EnvironmentEntry): unknown[] {
  const list = Array.isArray(raw) ? [...(raw as unknown[])] : [];
  list.push({ name: entry.name.trim(), baseUrl: entry.baseUrl });
  return list;
}

/**
 * The setting's value with the entry named `editing` renamed and pointed at `entry.baseUrl`; its headers,
 * variables and other fields stay. Undefined when no entry has that name (the settings changed meanwhile).
 */
export function withEditedEnvironment(raw: unknown, editing: string, entry: EnvironmentEntry): unknown[] | undefined {
  if (!Array.isArray(raw)) {
    return undefined;
  }
  const key = editing.trim().toLowerCase();
  // The first entry by that name counts, as when the setting is read.
  const index = raw.findIndex((e) => isRecord(e) && typeof e.name === 'string' && e.name.trim().toLowerCase() === key);
  if (index < 0) {
    return undefined;
  }
  const list = [...(raw as unknown[])];
  list[index] = { ...(list[index] as Record<string, unknown>), name: entry.name.trim(), baseUrl: entry.baseUrl };
  return list;
}
