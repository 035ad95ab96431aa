/**
 * Which key the command line sends to an environment. `MODEL_ACCESS_API_KEY` is the key of one service: the
 * origin and path prefix of `MODEL_ACCESS_BASE_URL` (else of the environment `--env` names). An environments
 * file (perhaps a workspace's `.vscode/settings.json`, written by whoever wrote the repository) may list other
 * URLs; a payload pinned to one of them (`// @env other`) must not carry that key there. Another environment
 * gets its own key from `MODEL_ACCESS_API_KEY_<NAME>` (`staging eu` → `MODEL_ACCESS_API_KEY_STAGING_EU`), else
 * its payloads cannot run. Names that read the same variable (`staging eu`, `staging-eu`, `Staging_EU`) at
 * different URLs are refused: that variable would go wherever the file put the last of them. Secret headers
 * (`"X-Org-Token": "{{secret}}"`) read `MODEL_ACCESS_SECRET_<HEADER>` only when one service of the file names
 * that header; else each environment needs its own `MODEL_ACCESS_SECRET_<HEADER>_<NAME>`. Pure; no `vscode`
 * import.
 */
import { displayUrl, scopeCovers, scopeOf } from '../domain/keyScope';
import type { Environment } from '../domain/environments';

/** The environment `MODEL_ACCESS_BASE_URL` describes when no `--env` names one (the key's own service). */
export function baseUrlEnvironment(baseUrl: string): Environment {
  return {
    name: 'MODEL_ACCESS_BASE_URL',
    baseUrl,
    source: 'environment',
    headers: {},
    secretHeaders: [],
    variables: {},
    shorthand: true,
  };
}

/** A name as variable names hold it: `staging eu` → `STAGING_EU` (upper case, every other character `_`). */
function variablePart(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** `staging eu` → `MODEL_ACCESS_API_KEY_STAGING_EU`. */
export function environmentKeyVariable(name: string): string {
  return `MODEL_ACCESS_API_KEY_${variablePart(name)}`;
}

/**
 * `X-Org-Token` → `MODEL_ACCESS_SECRET_X_ORG_TOKEN`; with an environment's name, that environment's own
 * value: `MODEL_ACCESS_SECRET_X_ORG_TOKEN_STAGING_EU`.
 */
export function secretHeaderVariable(header: string, environment?: string): string {
  const own = environment === undefined ? '' : `_${variablePart(environment)}`;
  return `MODEL_ACCESS_SECRET_${variablePart(header)}${own}`;
}

export type KeyChoice = { key: string; variable: string } | { problem: string };

/** The service an environment's URL is (origin and path prefix), to tell two URLs apart. */
function serviceOf(env: Environment): string {
  return scopeOf(env.baseUrl) ?? env.baseUrl.trim();
}

/**
 * The other environments of the file, at another service than `env`, that read `variable` too (a name that
 * differs only in case, spaces or punctuation), or whose secret header it is too.
 */
function sharing(
  env: Environment,
  environments: readonly Environment[],
  variablesOf: (e: Environment) => readonly string[],
  variable: string,
): Environment[] {
  return environments.filter((e) => e !== env && serviceOf(e) !== serviceOf(env) && variablesOf(e).includes(variable));
}

/** `"a", "b" and "c"`. */
function names(list: readonly Environment[]): string {
  const quoted = list.map((e) => `"${e.name}"`);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

function ambiguous(env: Environment, others: readonly Environment[], variable: string): string {
  return `the environments ${names([env, ...others])} are at different URLs but all read ${variable} (a variable's name keeps only letters and digits), so it is sent to none of them: rename them in the environments file so that their names differ in letters or digits`;
}

/**
 * The key for `env`: its own variable when set, else `MODEL_ACCESS_API_KEY` when `keyUrl` (the URL that key
 * belongs to) covers the environment's URL (same origin, its path under the prefix), else why there is none.
 */
export function keyForEnvironment(
  env: Environment,
  processEnv: Readonly<Record<string, string | undefined>>,
  keyUrl: string | undefined,
  /** Every environment of the environments file (`env` among them, unless it is MODEL_ACCESS_BASE_URL's). */
  environments: readonly Environment[] = [],
): KeyChoice {
  const variable = environmentKeyVariable(env.name);
  const own = processEnv[variable]?.trim();
  if (own) {
    const others = sharing(env, environments, (e) => [environmentKeyVariable(e.name)], variable);
    return others.length > 0 ? { problem: ambiguous(env, others, variable) } : { key: own, variable };
  }
  const shared = processEnv.MODEL_ACCESS_API_KEY?.trim();
  const scope = keyUrl === undefined ? undefined : scopeOf(keyUrl);
  if (shared && scope !== undefined && scopeCovers(scope, env.baseUrl)) {
    return { key: shared, variable: 'MODEL_ACCESS_API_KEY' };
  }
  return {
    problem:
      scope === undefined
        ? `the environment ${env.name} (${displayUrl(env.baseUrl)}) has no key: set ${variable}`
        : `the environment ${env.name} (${displayUrl(env.baseUrl)}) is not the service of MODEL_ACCESS_API_KEY (${scope}), so that key is not sent there: set ${variable} to its own key`,
  };
}

/**
 * The values of `env`'s secret headers: `MODEL_ACCESS_SECRET_<HEADER>_<NAME>` when set (its name shared with
 * no environment at another URL), else `MODEL_ACCESS_SECRET_<HEADER>` when no environment of the file at
 * another URL sends that header too (a file that lists the header for a second service does not get the value
 * sent there); else why there is none.
 */
export function secretHeadersFor(
  env: Environment,
  processEnv: Readonly<Record<string, string | undefined>>,
  environments: readonly Environment[] = [],
): { secrets: Record<string, string> } | { problem: string } {
  const secrets: Record<string, string> = {};
  for (const header of env.secretHeaders) {
    const ownVariable = secretHeaderVariable(header, env.name);
    const own = processEnv[ownVariable];
    if (own) {
      const others = sharing(
        env,
        environments,
        (e) => e.secretHeaders.map((h) => secretHeaderVariable(h, e.name)),
        ownVariable,
      );
      if (others.length > 0) {
        return { problem: ambiguous(env, others, ownVariable) };
      }
      secrets[header] = own;
      continue;
    }
    const shared = secretHeaderVariable(header);
    const others = sharing(env, environments, (e) => e.secretHeaders.map((h) => secretHeaderVariable(h)), shared);
    if (others.length > 0) {
      return {
        problem: `the environments ${names([env, ...others])} all send the secret header ${header}, at different URLs, so ${shared} is sent to none of them: set ${ownVariable} to the value for ${env.name}`,
      };
    }
    const value = processEnv[shared];
    if (!value) {
      return { problem: `the environment ${env.name} sends the secret header ${header}: set ${shared}` };
    }
    secrets[header] = value;
  }
  return { secrets };
}
