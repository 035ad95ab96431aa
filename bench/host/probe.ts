/**
 * Bench-only entry for the extension host (loaded as `extensionTestsPath` by bench/footprint.ts): times
 * `activate()` of the extension under development in a fresh extension host and writes the figure to
 * `$MODEL_ACCESS_BENCH_OUT/activation.json`. It then waits for `release` in that folder before returning,
 * because the extension host ends when a test entry returns, and the bench goes on to open the Models view
 * in this window.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'model-access-team.model-access';

export interface ActivationProbe {
  wasActive: boolean;
  /** `extension.activate()`: loading dist/extension.js and running activate(), in ms. */
  activateMs: number;
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
  };
  try {
    if (!ext) {
      throw new Error(`${EXTENSION_ID} is not loaded`);
    }
    result.startedAt = Date.now();
    const t0 = performance.now();
    const api: unknown = await ext.activate();
    result.activateMs = performance.now() - t0;
    result.endedAt = Date.now();
    result.exported = api !== undefined;
  } catch (e) {
    result.error = e instanceof Error ? e.message : String(e);
  }
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
