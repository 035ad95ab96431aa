/**
 * Code loaded on first use. `load` is a `require()` of a module that esbuild.js builds into a file of its own
 * (dist/requests.js, dist/chat.js, …), so activation neither parses nor runs it; it runs once, the first time
 * the value is asked for, and every later call gets the same value. The one place a `require()` may be written
 * in src/ (eslint.config.mjs), so that every piece of deferred code is found by its name.
 */
export interface OnFirstUse<T> {
  (): T;
  /** The value, if something asked for it already (undefined: not loaded, and asking did not load it). */
  readonly loaded: T | undefined;
}

export function onFirstUse<T>(load: () => T): OnFirstUse<T> {
  let value: { v: T } | undefined;
  const get = (() => {
    value ??= { v: load() };
    return value.v;
  }) as OnFirstUse<T>;
  Object.defineProperty(get, 'loaded', { get: () => value?.v, enumerable: true });
  return get;
}
