/**
 * What people read about registry changes: the few words a Models view row adds ("new", "version 2 → 3",
 * "gone", "now deprecated") and the Show Changes page, grouped by family, with old and new version, card
 * link and lifecycle. Registry text goes through displayText; the page is plain text. Pure; no `vscode`.
 */
import { compareFamilies, familyOf } from '../modelSorting';
import { l10n } from '../../common/l10n';
import { displayText, type DisplayText } from '../../common/text';
import type { ModelEntry } from '../../api/types';
import { changesSummary, type ModelChange, type RegistryChanges } from './changes';
import { lifecycleSentence, readLifecycle } from './lifecycle';

/** The row's mark: "new", "gone", "version 2 → 3", "family a → b", "lifecycle: retires 2027-01-31". */
export function changeMark(change: ModelChange, now: number): DisplayText {
  if (change.kind === 'added') {
    return l10n.t('new');
  }
  if (change.kind === 'gone') {
    return l10n.t('gone');
  }
  const parts: DisplayText[] = [];
  const { before, after, update } = change;
  if (update?.version) {
    parts.push(
      l10n.t(
        'version {0} → {1}',
        displayText(before?.version, 40) || ('—' as DisplayText),
        displayText(after?.version, 40) || ('—' as DisplayText),
      ),
    );
  }
  if (update?.family) {
    parts.push(l10n.t('moved from {0}', displayText(familyOf(before as ModelEntry), 60)));
  }
  if (update?.lifecycle) {
    const sentence = lifecycleSentence(readLifecycle(after?.raw), now);
    parts.push(sentence ? l10n.t('now {0}', sentence) : l10n.t('lifecycle changed'));
  }
  return parts.join(', ') as DisplayText;
}

function entryLine(label: DisplayText, m: ModelEntry | undefined, now: number): string {
  if (!m) {
    return '';
  }
  const lines = [`    ${label}: ${l10n.t('version {0}', displayText(m.version, 80) || ('—' as DisplayText))}`];
  const lifecycle = lifecycleSentence(readLifecycle(m.raw), now);
  if (lifecycle) {
    lines.push(`      ${l10n.t('Lifecycle: {0}', lifecycle)}`);
  }
  if (m.cardUrl) {
    lines.push(`      ${l10n.t('Model Card: {0}', displayText(m.cardUrl, 300))}`);
  }
  return lines.join('\n');
}

/**
 * The Show Changes page: a title with the summary, then one section per family (natural order) listing its
 * changed models — new, updated, gone — each with the version(s), lifecycle and card link.
 */
export function changesPage(changes: RegistryChanges, seenAt: number, now: number, title: DisplayText): string {
  const groups = new Map<string, ModelChange[]>();
  for (const c of [...changes.added, ...changes.updated, ...changes.gone]) {
    const family = familyOf((c.after ?? c.before) as ModelEntry);
    let list = groups.get(family);
    if (!list) {
      list = [];
      groups.set(family, list);
    }
    list.push(c);
  }
  const out: string[] = [title, changesSummary(changes, seenAt, now), ''];
  if (groups.size === 0) {
    out.push(l10n.t('No changes.'));
  }
  for (const family of [...groups.keys()].sort(compareFamilies)) {
    out.push(l10n.t('Family {0}', displayText(family, 120)));
    for (const c of groups.get(family) ?? []) {
      out.push(`  ${displayText(c.id, 200)} — ${changeMark(c, now)}`);
      if (c.kind === 'updated') {
        out.push(entryLine(l10n.t('before'), c.before, now), entryLine(l10n.t('now'), c.after, now));
      } else {
        out.push(entryLine(c.kind === 'gone' ? l10n.t('last seen') : l10n.t('now'), c.after ?? c.before, now));
      }
    }
    out.push('');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
