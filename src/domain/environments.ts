/**
 * Environments: the services a person works with side by side (production, staging, a local gateway),
 * read from the `modelAccess.environments` setting, plus `modelAccess.baseUrl` as the one-service
 * shorthand. Each has a name, a base URL, non-secret headers sent with every request to it, and the
 * variables its payloads may use. Pure; no `vscode` import.
 */
import { hostOf } from '../common/text';
import { isRecord } from '../common/records';

/** Where an environment's URL came from: a workspace's settings are treated with more caution. */
export type EnvironmentSource = 'user' | 'workspace' | 'environment';

export interface Environment {
  /** Unique among the environments (case-insensitively). */
  name: string;
  baseUrl: string;
  source: EnvironmentSource;
  /** Extra headers for every request to this environment (never the Authorization header). */
  headers: Readonly<Record<string, string>>;
  /**
   * Headers whose value is a secret (`"{{secret}}"` in the setting): the value lives in SecretStorage,
   * bound to this environment's URL like its key, and is never shown.
   */
  secretHeaders: readonly string[];
  /** Values for `{{name}}` in payloads sent to this environment. */
  variables: Readonly<Record<string, string>>;
  /** True for the environment made from `modelAccess.baseUrl` (it has no headers or variables). */
  shorthand: boolean;
}

/** Something in the setting that was left out, said so a person can fix it. */
export interface EnvironmentProblem {
  index: number;
  message: string;
}

/** A header name as HTTP allows it (an RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers an environment may not set: the key goes only in Authorization, and the transport owns the
 * framing and the target (a Host header could redirect a shared proxy's routing).
 */
const RESERVED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'cookie',
  'user-agent',
]);

/** Why a header cannot be sent as given, or undefined when it can. */
export function headerProblem(name: string, value: unknown): string | undefined {
  if (!TOKEN.test(name)) {
    return `"${name.slice(0, 60)}" is not a valid header name`;
  }
  if (RESERVED_HEADERS.has(name.toLowerCase())) {
    return `the ${name} header is set by the extension itself`;
  }
  if (typeof value !== 'string') {
    return `the value of ${name} is not a string`;
  }
  // A line break would start another header; other control characters are refused by HTTP clients.
  if (/[\0-\x08\x0a-\x1f\x7f]/.test(value)) {
    return `the value of ${name} holds a line break or control character`;
  }
  return undefined;
}

/** The value that marks a header as secret in the setting: its value is set with a command, never in settings. */
export const SECRET_HEADER_VALUE = '{{secret}}';

/** A variable name usable as `{{name}}`: letters, digits, `_`, `-` and `.`, not starting with `$`. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export interface ReadEnvironments {
  environments: Environment[];
  problems: EnvironmentProblem[];
}

/**
 * The environments of the setting's value (`raw`, as settings.json holds it) from `source`, then the
 * `shorthand` URL as an environment named after its host unless an environment already has that URL.
 * Entries without a usable name or URL are left out with a problem; bad headers and variables are
 * dropped one by one (the rest of the entry stays).
 */
export function readEnvironments(
  raw: unknown,
  source: EnvironmentSource,
  shorthand?: { url: string; source: EnvironmentSource },
): ReadEnvironments {
  const environments: Environment[] = [];
  const problems: EnvironmentProblem[] = [];
  const taken = new Set<string>();
  const entries = Array.isArray(raw) ? raw : [];
  if (raw !== undefined && !Array.isArray(raw)) {
    // A log line (src/setup/environments.ts), like the other problems here: English.
    // eslint-disable-next-line no-restricted-syntax
    problems.push({ index: -1, message: 'modelAccess.environments is not a list; it was ignored' });
  }
  entries.forEach((entry, index) => {
    const where = `modelAccess.environments[${index}]`;
    if (!isRecord(entry)) {
      problems.push({ index, message: `${where} is not an object` });
      return;
    }
    const name = typeof entry.name === 'string' ? entry.name.trim() : '';
    const baseUrl = typeof entry.baseUrl === 'string' ? entry.baseUrl.trim().replace(/\/+$/, '') : '';
    if (!name) {
      problems.push({ index, message: `${where} has no name` });
      return;
    }
    if (!baseUrl) {
      problems.push({ index, message: `${where} (${name}) has no baseUrl` });
      return;
    }
    if (taken.has(name.toLowerCase())) {
      problems.push({ index, message: `${where}: the name "${name}" is used twice; the first one counts` });
      return;
    }
    taken.add(name.toLowerCase());
    const headers: Record<string, string> = {};
    const secretHeaders: string[] = [];
    if (isRecord(entry.headers)) {
      for (const [header, value] of Object.entries(entry.headers)) {
        const problem = headerProblem(header, value);
        if (problem) {
          problems.push({ index, message: `${where} (${name}): ${problem}; it is not sent` });
        } else if (
          secretHeaders.some((h) => h.toLowerCase() === header.toLowerCase()) ||
          header.toLowerCase() in lower(headers)
        ) {
          problems.push({
            index,
            message: `${where} (${name}): the ${header} header is given twice; the first one counts`,
          });
        } else if ((value as string).trim() === SECRET_HEADER_VALUE) {
          secretHeaders.push(header);
        } else {
          headers[header] = value as string;
        }
      }
    }
    const variables: Record<string, string> = {};
    if (isRecord(entry.variables)) {
      for (const [variable, value] of Object.entries(entry.variables)) {
        if (!VARIABLE_NAME.test(variable)) {
          problems.push({ index, message: `${where} (${name}): "${variable}" is not a variable name` });
        } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          variables[variable] = String(value);
        } else {
          problems.push({ index, message: `${where} (${name}): the variable ${variable} is not a string` });
        }
      }
    }
    environments.push({ name, baseUrl, source, headers, secretHeaders, variables, shorthand: false });
  });
  if (shorthand && !environments.some((e) => sameUrl(e.baseUrl, shorthand.url))) {
    const name = uniqueName(hostOf(shorthand.url) || shorthand.url, taken);
    environments.unshift({
      name,
      baseUrl: shorthand.url,
      source: shorthand.source,
      headers: {},
      secretHeaders: [],
      variables: {},
      shorthand: true,
    });
  }
  return { environments, problems };
}

function lower(headers: Record<string, string>): Record<string, true> {
  return Object.fromEntries(Object.keys(headers).map((h) => [h.toLowerCase(), true]));
}

function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, '').toLowerCase();
  return norm(a) === norm(b);
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) {
    name = `${base} (${n})`;
  }
  taken.add(name.toLowerCase());
  return name;
}

/** The environment called `name` (case-insensitively), else undefined. */
export function findEnvironment(
  environments: readonly Environment[],
  name: string | undefined,
): Environment | undefined {
  if (name === undefined) {
    return undefined;
  }
  const lower = name.trim().toLowerCase();
  return environments.find((e) => e.name.toLowerCase() === lower);
}

/** The active environment: the one remembered by name when it still exists, else the first. */
export function activeEnvironment(
  environments: readonly Environment[],
  remembered: string | undefined,
): Environment | undefined {
  return findEnvironment(environments, remembered) ?? environments[0];
}

/**
 * The environments as a team can share them: name, URL, headers and variables, never a key; a secret
 * header keeps its `{{secret}}` marker, so each person sets their own value. The shorthand environment is
 * left out (it is `modelAccess.baseUrl`, not part of the list).
 */
export function shareableEnvironments(environments: readonly Environment[]): object[] {
  return environments
    .filter((e) => !e.shorthand)
    .map((e) => ({
      name: e.name,
      baseUrl: e.baseUrl,
      ...(Object.keys(e.headers).length || e.secretHeaders.length
        ? { headers: { ...e.headers, ...Object.fromEntries(e.secretHeaders.map((h) => [h, SECRET_HEADER_VALUE])) } }
        : {}),
      ...(Object.keys(e.variables).length ? { variables: { ...e.variables } } : {}),
    }));
}
