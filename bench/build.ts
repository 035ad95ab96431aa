/**
 * Bundles bench/worker.ts the way the extension ships (esbuild, CommonJS, Node 20), so the measured code
 * runs as plain JavaScript in plain Node — no TypeScript loader in the measured processes, whose time and
 * RSS would otherwise count against both sides. `vscode` maps to bench/vscodeShim.ts for the explorer's
 * tree code. Not minified, so CPU profiles keep function names; the source map leads back to src/.
 */
import * as esbuild from 'esbuild';
import * as path from 'node:path';

export async function buildWorker(outDir: string, benchDir = __dirname): Promise<string> {
  const outfile = path.join(outDir, 'worker.js');
  await esbuild.build({
    entryPoints: [path.join(benchDir, 'worker.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    // jsonc-parser's `main` is a UMD build whose internal requires esbuild cannot follow (esbuild.js reads its
    // ESM build the same way); payload reading (the checks scenario) uses it.
    alias: { vscode: path.join(benchDir, 'vscodeShim.ts'), 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    logLevel: 'silent',
  });
  return outfile;
}
