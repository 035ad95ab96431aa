/**
 * Which key the command line sends to an environment. `MODEL_ACCESS_API_KEY` is the key of one service: the
 * origin and path prefix of `MODEL_ACCESS_BASE_URL` (else of the environment `--env` names). An environments
 * file (perhaps a workspace's `.vscode/settings.json`, written by whoever wrote the repository) may list other
 * URLs; a payload pinned to one of them (`// @env other`) must not carry that key there. Another environment
 * gets its own key from `MODEL_ACCESS_API_KEY_<NAME>` (`staging eu` → `MODEL_ACCESS_API_KEY_STAGING_EU`), else
 * its payloads cannot run. Pure; no `vscode` import.
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

/** `staging eu` → `MODEL_ACCESS_API_KEY_STAGING_EU`. */
export function environmentKeyVariable(name: string): string {
  return `MODEL_ACCESS_API_KEY_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export type KeyChoice = { key: string; variable: string } | { problem: string };

/**
 * The key for `env`: its own variable when set, else `MODEL_ACCESS_API_KEY` when `keyUrl` (the URL that key
 * belongs to) covers the environment's URL (same origin, its path under the prefix), else why there is none.
 */
export function keyForEnvironment(
  env: Environment,
  processEnv: Readonly<Record<string, string | undefined>>,
  keyUrl: string | undefined,
): KeyChoice {
  const variable = environmentKeyVariable(env.name);
  const own = processEnv[variable]?.trim();
  if (own) {
    return { key: own, variable };
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
