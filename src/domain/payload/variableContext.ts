import { randomUUID } from 'node:crypto';
import type { Environment } from '../environments';
import type { EnvPolicy, VariableContext } from './variables';

/** Where `{{$env NAME}}` reads from: the extension host's process environment, or the command line's. */
export type EnvReader = (name: string) => string | undefined;

const processEnvironment: EnvReader = (name) => process.env[name];

/**
 * What `{{…}}` resolves against for `env`, the one way Send, Compare, Copy as Code, the variable editors, Test
 * Explorer's checks and the command line build it: the environment's variables and name, the process
 * environment (only the names `envPolicy` allows; none given: every name), fresh ids and the clock.
 */
export function variableContext(
  env: Pick<Environment, 'name' | 'variables'> | undefined,
  options: { readEnv?: EnvReader; envPolicy?: EnvPolicy } = {},
): VariableContext {
  return {
    variables: env?.variables ?? {},
    environment: env?.name,
    env: options.readEnv ?? processEnvironment,
    envPolicy: options.envPolicy,
    uuid: () => randomUUID(),
    now: () => Date.now(),
  };
}
