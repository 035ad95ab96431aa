// A real VS Code offline: code-server (VS Code in the browser, with a Node extension host) driven by
// Debian's Chromium through playwright-core. Used by the integration runner, the e2e suite and the demo.
// scripts/setup-vscode.js installs code-server (one per VS Code version) and says why it is installed so.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { chromium, type Browser } from 'playwright-core';
import { childEnv } from '../../scripts/nested-npm';
import { setupVSCode, vscodePaths, type VSCodePaths } from '../../scripts/setup-vscode';
import { freePort, startGroup, waitFor, type ProcessGroup } from './processes';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Settings that keep a fresh profile quiet and deterministic (no welcome page, no update checks, no AI). */
export const QUIET_USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'git.enabled': false,
  'window.commandCenter': false,
};

/** Workspace trust on and no prompt: a folder nobody trusted opens in Restricted Mode. */
const RESTRICTED_MODE_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

/** Scratch folders for one code-server: HOME, profile, extensions and a workspace, all under `root`. */
export interface ScratchDirs {
  root: string;
  home: string;
  data: string;
  extensions: string;
  workspace: string;
}

export function makeScratchDirs(prefix: string): ScratchDirs {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const dirs: ScratchDirs = {
    root,
    home: path.join(root, 'home'),
    data: path.join(root, 'data'),
    extensions: path.join(root, 'extensions'),
    workspace: path.join(root, 'workspace'),
  };
  for (const d of [dirs.home, dirs.data, dirs.extensions, dirs.workspace]) {
    fs.mkdirSync(d, { recursive: true });
  }
  return dirs;
}

export interface CodeServerOptions {
  dirs: ScratchDirs;
  /** VS Code version ("1.139", "1.104", "oldest", a code-server version); default $MODEL_ACCESS_VSCODE or the newest. */
  vscodeVersion?: string;
  /** Merged over QUIET_USER_SETTINGS into the profile's User/settings.json. */
  userSettings?: Record<string, unknown>;
  /**
   * Keep what the profile's settings.json already holds (the demo's folder is reused: the person's own
   * settings, environments included, stay), `userSettings` laid over it. Tests start from a fresh file.
   */
  keepUserSettings?: boolean;
  /** Extra environment for code-server and its extension host. */
  env?: Record<string, string>;
  /** Needed for the workbench `payload` (extensionDevelopmentPath / extensionTestsPath). */
  smokeTestDriver?: boolean;
  /** Domains `openExternal` may open without a confirmation dialog (test mode refuses the dialog). */
  trustedDomains?: string[];
  /**
   * Workspace trust on, with the folder untrusted (Restricted Mode, no startup prompt). Off by default: the
   * window is trusted (`--disable-workspace-trust`).
   */
  untrustedWorkspace?: boolean;
  /** Fixed port; a random free one on 127.0.0.1 by default. */
  port?: number;
  /** Called with each line code-server prints. */
  onLine?: (line: string) => void;
  /** How long to wait for /healthz (default 90 s). */
  startTimeoutMs?: number;
}

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  /** host:port exactly as the page is loaded from (`vscode-remote://` URIs must use it). */
  readonly authority: string;
  readonly group: ProcessGroup;
  readonly paths: VSCodePaths;
  /** `vscode-remote://authority/abs/path` for a path on this machine. */
  remoteUri(absPath: string): string;
  /** URL opening `folder` (default: the scratch workspace), optionally with a workbench payload. */
  workbenchUrl(options?: { folder?: string; payload?: Array<[string, string]> }): string;
  /** Extension-host and server log files (for diagnostics). */
  logFiles(): string[];
  stop(): Promise<void>;
}

function commonArgs(paths: VSCodePaths, dirs: ScratchDirs): string[] {
  return [paths.codeServerEntry, '--user-data-dir', dirs.data, '--extensions-dir', dirs.extensions];
}

function codeServerEnv(dirs: ScratchDirs, paths: VSCodePaths, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // childEnv: nothing of an outer `npm run` (npm_config_*, its PATH prefix) reaches code-server, its
  // extension host or anything they start.
  const env: NodeJS.ProcessEnv = {
    ...childEnv(),
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    PATH: `${path.dirname(paths.node)}${path.delimiter}${childEnv().PATH ?? ''}`,
    ...extra,
  };
  // Keep Node settings of the caller away from code-server's own Node.
  delete env.NODE_OPTIONS;
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

/** Installs VSIX files (or marketplace ids) into the scratch extensions folder with code-server's CLI. */
export function installExtensions(dirs: ScratchDirs, vsixFiles: string[], paths: VSCodePaths = vscodePaths()): void {
  for (const vsix of vsixFiles) {
    const r = spawnSync(paths.node, [...commonArgs(paths, dirs), '--install-extension', vsix, '--force'], {
      env: codeServerEnv(dirs, paths),
      encoding: 'utf8',
      timeout: 180_000,
    });
    if (r.status !== 0 || (/error|failed/i.test(r.stderr) && !/successfully installed/i.test(r.stdout))) {
      throw new Error(`installing ${vsix} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
  }
}

/**
 * Writes the profile's User/settings.json: `defaults`, then what the file holds when `keep` (read as JSON with
 * comments, as VS Code writes it; a file that cannot be read is kept aside as settings.json.unreadable), then
 * `settings`.
 */
export function writeUserSettings(
  dirs: ScratchDirs,
  defaults: Record<string, unknown>,
  settings: Record<string, unknown>,
  keep: boolean,
): void {
  const userDir = path.join(dirs.data, 'User');
  const file = path.join(userDir, 'settings.json');
  fs.mkdirSync(userDir, { recursive: true });
  let existing: Record<string, unknown> = {};
  if (keep && fs.existsSync(file)) {
    const errors: ParseError[] = [];
    const parsed: unknown = parseJsonc(fs.readFileSync(file, 'utf8'), errors, { allowTrailingComma: true });
    if (errors.length === 0 && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      existing = parsed as Record<string, unknown>;
    } else {
      fs.copyFileSync(file, `${file}.unreadable`);
    }
  }
  fs.writeFileSync(file, JSON.stringify({ ...defaults, ...existing, ...settings }, null, 2));
}

/** Starts code-server on 127.0.0.1 in its own process group and waits until /healthz answers. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const paths = setupVSCode({ quiet: true, versions: [options.vscodeVersion ?? ''] });
  const { dirs } = options;
  writeUserSettings(
    dirs,
    { ...QUIET_USER_SETTINGS, ...(options.untrustedWorkspace ? RESTRICTED_MODE_SETTINGS : {}) },
    options.userSettings ?? {},
    options.keepUserSettings === true,
  );
  const configFile = path.join(dirs.root, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const port = options.port ?? (await freePort());
  const authority = `127.0.0.1:${port}`;
  const args = [
    ...commonArgs(paths, dirs),
    '--auth',
    'none',
    '--bind-addr',
    authority,
    '--config',
    configFile,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.untrustedWorkspace ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (options.smokeTestDriver && acceptsVscodeOption(paths)) {
    // VS Code 1.139 ignores the workbench payload without it. code-server 4.104 (VS Code 1.104) has no
    // --vscode-option and its workbench takes the payload as it is.
    args.push('--vscode-option', 'enable-smoke-test-driver');
  }
  for (const domain of options.trustedDomains ?? []) {
    args.push('--link-protection-trusted-domains', domain);
  }
  const group = startGroup('code-server', paths.node, args, {
    cwd: dirs.workspace,
    env: codeServerEnv(dirs, paths, options.env),
    onLine: options.onLine ? (line) => options.onLine?.(line) : undefined,
  });
  const url = `http://${authority}`;
  let exited = false;
  void group.exited.then(() => {
    exited = true;
  });
  try {
    await waitFor(
      'code-server /healthz',
      options.startTimeoutMs ?? 90_000,
      async () => {
        if (exited) {
          throw new Error(`code-server exited while starting:\n${group.tail(40)}`);
        }
        try {
          const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
          return res.ok ? true : undefined;
        } catch {
          return undefined;
        }
      },
      300,
    );
  } catch (e) {
    await group.stop();
    throw e;
  }
  const remoteUri = (absPath: string) =>
    `vscode-remote://${authority}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`;
  return {
    url,
    port,
    authority,
    group,
    paths,
    remoteUri,
    workbenchUrl: ({ folder = dirs.workspace, payload } = {}) => {
      let u = `${url}/?folder=${encodeURIComponent(folder)}`;
      if (payload) {
        u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      }
      return u;
    },
    logFiles: () => listFiles(path.join(dirs.data, 'logs')).filter((f) => f.endsWith('.log')),
    stop: () => group.stop(),
  };
}

/** Whether this code-server passes `--vscode-option NAME` through to VS Code (4.139 does, 4.104 not). */
function acceptsVscodeOption(paths: VSCodePaths): boolean {
  const cli = path.join(path.dirname(paths.codeServerEntry), 'cli.js');
  try {
    return fs.readFileSync(cli, 'utf8').includes('vscode-option');
  } catch {
    return true;
  }
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) {
    return [];
  }
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Debian Chromium, headless, nothing that phones home (no sandbox: CI often runs as root). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-crash-reporter',
  '--disable-breakpad',
];

/** Launches headless Chromium with HOME redirected into the scratch folder. */
export async function launchChromium(dirs: ScratchDirs, options: { headless?: boolean } = {}): Promise<Browser> {
  const paths = vscodePaths();
  return chromium.launch({
    executablePath: paths.chromium,
    headless: options.headless ?? true,
    args: CHROMIUM_ARGS,
    env: {
      ...process.env,
      HOME: dirs.home,
      XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
      XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    },
    timeout: 60_000,
  });
}
