// Types for scripts/nested-npm.js, so the TypeScript test harness can import it.
/** `base` (default process.env) without what an outer `npm run` added (npm_* variables, INIT_CWD, its PATH prefix), merged with `extra`. */
export function childEnv(extra?: Record<string, string | undefined>, base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
/** Why node_modules does not match package-lock.json, or undefined when it does. */
export function dependenciesStale(root?: string): string | undefined;
/** npm ci when node_modules is missing or stale; true when it installed. */
export function ensureDependencies(options?: {
  root?: string;
  log?: (msg: string) => void;
  stdio?: import('node:child_process').StdioOptions;
}): boolean;
