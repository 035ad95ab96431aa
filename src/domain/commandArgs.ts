/**
 * What model and environment a command was invoked for. Tree items pass a node (`{ model }`), pickers and other
 * features pass a `ModelEntry` or an id string; environment commands take a name. Pure, no `vscode` import, so
 * any feature can use it.
 */
import type { ModelEntry } from '../api/types';

/**
 * The environment named by a command's argument, for commands about an environment (Switch Environment, Set API
 * Key, Allow Stored Key): a name string, as the environment picker and other commands pass it; anything else
 * (no argument, a tree node) means "ask" or "the active one".
 */
export function environmentNameArg(arg: unknown): string | undefined {
  return typeof arg === 'string' ? arg : undefined;
}

/**
 * The environment a command's argument belongs to: a row under an environment's root in the Models view, or
 * `{ model, environment }` from another feature. Undefined: the active environment.
 */
export function environmentFromArg(arg: unknown): string | undefined {
  if (typeof arg === 'object' && arg !== null) {
    const name = (arg as { environment?: unknown }).environment;
    return typeof name === 'string' && name !== '' ? name : undefined;
  }
  return undefined;
}

export function modelFromArg(arg: unknown, known: readonly ModelEntry[] = []): ModelEntry | undefined {
  if (typeof arg === 'string') {
    return known.find((m) => m.id === arg) ?? (arg ? { id: arg, raw: undefined } : undefined);
  }
  if (typeof arg === 'object' && arg !== null) {
    const nested = (arg as { model?: unknown }).model;
    if (typeof nested === 'object' && nested !== null && typeof (nested as ModelEntry).id === 'string') {
      return nested as ModelEntry;
    }
    if (typeof (arg as ModelEntry).id === 'string') {
      return arg as ModelEntry;
    }
  }
  return undefined;
}
