/**
 * Bench-only entry for the extension host (loaded as `extensionTestsPath` by bench/footprint.ts): times
 * `activate()` of the extension under development in a fresh extension host and writes the figure to
 * `$MODEL_ACCESS_BENCH_OUT/activation.json`. It then waits for `release` in that folder before returning,
 * because the extension host ends when a test entry returns, and the bench goes on to open the Models view
 * in this window.
 */
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'model-access-team.model-access';
const FIRST_COMMAND = 'modelAccess.toggleResponseHeaders';

export interface ActivationProbe {
  wasActive: boolean;
  /** Files of the extension's dist/ loaded by the end of activation, with the time each took to load (compile and run its top level). */
  loaded: { file: string; ms: number }[];
  /** The extension's own `activate()` function, without loading its file and without the host's part. */
  ownActivateMs?: number;
  /** `extension.activate()`: loading dist/extension.js and running activate(), in ms. */
  activateMs: number;
  /**
   * The first run of a command whose code loads on first use (FIRST_COMMAND: with no response open it loads the
   * requests feature and changes nothing), in ms; and the files of dist/ it loaded.
   */
  firstCommandMs?: number;
  loadedByCommand?: { file: string; ms: number }[];
  /** Wall-clock bounds (ms since the epoch), to match the service's request log. */
  startedAt: number;
  endedAt: number;
  exported: boolean;
  error?: string;
}

export async function run(): Promise<void> {
  const dir = process.env.MODEL_ACCESS_BENCH_OUT;
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  const result: ActivationProbe = {
    wasActive: ext?.isActive ?? false,
    activateMs: Number.NaN,
    startedAt: Date.now(),
    endedAt: 0,
    exported: false,
    loaded: [],
  };
  const restore = ext
    ? timeLoads(path.join(ext.extensionPath, 'dist'), result.loaded, (ms) => (result.ownActivateMs = ms))
    : () => undefined;
  try {
    if (!ext) {
      throw new Error(`${EXTENSION_ID} is not loaded`);
    }
    // A profiled window (the bench left `profile` in the folder) is for the profile, not for the timing.
    const profile = dir && fs.existsSync(path.join(dir, 'profile')) ? await startProfile() : undefined;
    result.startedAt = Date.now();
    const t0 = performance.now();
    const api: unknown = await ext.activate();
    result.activateMs = performance.now() - t0;
    if (profile && dir) {
      fs.writeFileSync(path.join(dir, `activation-${process.pid}.cpuprofile`), JSON.stringify(await profile()));
    }
    result.endedAt = Date.now();
    result.exported = api !== undefined;
    const loadedByActivate = result.loaded.length;
    const c0 = performance.now();
    await vscode.commands.executeCommand(FIRST_COMMAND);
    result.firstCommandMs = performance.now() - c0;
    result.loadedByCommand = result.loaded.splice(loadedByActivate);
  } catch (e) {
    result.error = e instanceof Error ? e.message : String(e);
  }
  restore();
  if (dir) {
    const tmp = path.join(dir, `activation.json.${process.pid}`);
    fs.writeFileSync(tmp, JSON.stringify(result));
    fs.renameSync(tmp, path.join(dir, 'activation.json'));
    const release = path.join(dir, 'release');
    const deadline = Date.now() + 180_000;
    while (!fs.existsSync(release) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts V8's sampling profiler in this extension host; the function returned stops it and gives the profile. */
async function startProfile(): Promise<() => Promise<unknown>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) =>
      session.post(method, params, (e, r) => (e ? reject(e) : resolve(r as Record<string, unknown>))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return async () => {
    const { profile } = await post('Profiler.stop');
    session.disconnect();
    return profile;
  };
}

/**
 * Times the loading of every `.js` file under `dist` (Node's CommonJS loader, as the extension host uses it),
 * into `into`; returns the function that puts the loader back.
 */
function timeLoads(dist: string, into: { file: string; ms: number }[], onActivate: (ms: number) => void): () => void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('node:module') as { _extensions: Record<string, (m: unknown, file: string) => unknown> };
  const original = Module._extensions['.js'];
  Module._extensions['.js'] = function (this: unknown, m: unknown, file: string) {
    if (!file.startsWith(dist)) {
      return original.call(this, m, file);
    }
    const t0 = performance.now();
    try {
      return original.call(this, m, file);
    } finally {
      into.push({ file: path.relative(dist, file), ms: performance.now() - t0 });
      if (path.relative(dist, file) === 'extension.js') {
        timeActivate(m as { exports: Record<string, unknown> }, onActivate);
      }
    }
  };
  return () => {
    Module._extensions['.js'] = original;
  };
}

/** Hands the host a copy of the module's exports whose `activate` is timed (esbuild's exports are getters). */
function timeActivate(m: { exports: Record<string, unknown> }, onActivate: (ms: number) => void): void {
  const activate = m.exports.activate;
  if (typeof activate !== 'function') {
    return;
  }
  m.exports = {
    ...m.exports,
    activate: (...args: unknown[]) => {
      const t0 = performance.now();
      try {
        return (activate as (...a: unknown[]) => unknown)(...args);
      } finally {
        onActivate(performance.now() - t0);
      }
    },
  };
}
