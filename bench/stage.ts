/**
 * The footprint's builds: a copy of what the VSIX is made of with dist/ built by the project's own esbuild.js
 * (and packed into a VSIX to weigh it), and the probe the windows' extension host loads (bench/host/probe.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT } from './proc';

const PACKAGED = ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore'];

/**
 * A copy of what the VSIX is made of, with dist/ built by the project's own esbuild.js --production (and
 * `--one-bundle`: every feature in dist/extension.js, nothing loaded on first use but undici).
 */
export function stageExtension(
  root = REPO_ROOT,
  oneBundle = false,
): { stage: string; distBytes: number; vsixBytes: number; vsixError?: string } {
  const stage = fs.mkdtempSync(path.join(tmpdir(), 'model-access-bench-ext-'));
  for (const f of PACKAGED) {
    if (fs.existsSync(path.join(root, f))) {
      fs.copyFileSync(path.join(root, f), path.join(stage, f));
    }
  }
  fs.cpSync(path.join(root, 'media'), path.join(stage, 'media'), { recursive: true });
  // The message bundle, as `npm run package` makes it (l10n/ is generated, so it may not exist yet).
  const l10n = spawnSync(process.execPath, [path.join(root, 'scripts', 'l10n.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (l10n.status !== 0) {
    throw new Error(`scripts/l10n.mjs failed: ${l10n.stdout}${l10n.stderr}`);
  }
  fs.cpSync(path.join(root, 'l10n'), path.join(stage, 'l10n'), { recursive: true });
  const links = ['src', 'scripts', 'node_modules', 'tsconfig.json'];
  for (const l of links) {
    fs.symlinkSync(path.join(root, l), path.join(stage, l));
  }
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, 'esbuild.js'),
      // MODEL_ACCESS_BENCH_UNMINIFIED=1: a build whose profile names our functions (its sizes are not the VSIX's).
      ...(process.env.MODEL_ACCESS_BENCH_UNMINIFIED ? [] : ['--production']),
      ...(oneBundle ? ['--one-bundle'] : []),
    ],
    {
      cwd: stage,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  for (const l of links) {
    fs.unlinkSync(path.join(stage, l));
  }
  if (build.status !== 0) {
    throw new Error(`esbuild.js --production failed: ${build.stdout}${build.stderr}`);
  }
  const distBytes = fs.statSync(path.join(stage, 'dist', 'extension.js')).size;
  if (oneBundle) {
    // Measured for its activation only: no VSIX.
    leaveActivationToProbe(stage);
    return { stage, distBytes, vsixBytes: Number.NaN };
  }
  const vsix = path.join(stage, '..', `${path.basename(stage)}.vsix`);
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const pack = spawnSync(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '-o', vsix],
    { cwd: stage, encoding: 'utf8', input: 'y\n', timeout: 180_000 },
  );
  let vsixBytes = Number.NaN;
  let vsixError: string | undefined;
  if (pack.status === 0 && fs.existsSync(vsix)) {
    vsixBytes = fs.statSync(vsix).size;
  } else {
    vsixError = `${pack.stdout}${pack.stderr}`.trim().split('\n').slice(-3).join(' ');
  }
  fs.rmSync(vsix, { force: true });
  leaveActivationToProbe(stage);
  return { stage, distBytes, vsixBytes, vsixError };
}

/**
 * The staged manifest without `onStartupFinished` (after the VSIX is packed, which keeps it): VS Code fires it
 * right after the window starts, so the host began loading dist/extension.js before the probe's hooks were in
 * place and the probe timed only the end of an activation already under way (loading and the extension's own
 * activate() were "not seen"). Without it the probe's `activate()` is the one that loads and runs the same code.
 */
function leaveActivationToProbe(stage: string): void {
  const file = path.join(stage, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { activationEvents?: string[] };
  manifest.activationEvents = (manifest.activationEvents ?? []).filter((e) => e !== 'onStartupFinished');
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
}

export function buildProbe(stage: string): string {
  const outfile = path.join(stage, 'bench-probe', 'index.js');
  esbuild.buildSync({
    entryPoints: [path.join(__dirname, 'host', 'probe.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'silent',
  });
  return outfile;
}
