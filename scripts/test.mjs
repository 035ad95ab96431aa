#!/usr/bin/env node
// `npm test`: every layer, in order — lint, type check, unit tests, packaging check, the integration
// suite inside a real VS Code (code-server), and the end-to-end UI tests (Chromium driving code-server
// with the packaged VSIX). Later layers still run when an earlier one fails (except those that need its
// output), and a summary with counts and times is printed at the end. Exit code 1 if anything failed.
//
//   npm test                     all layers
//   npm test -- --unit           only the fast layer (unit tests); same as `npm run test:unit`
//   npm test -- --only lint,unit  a subset: lint, typecheck, unit, package, integration, e2e
//   npm test -- --skip e2e        everything but some layers
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const LAYERS = ['lint', 'typecheck', 'unit', 'package', 'integration', 'e2e'];

const args = process.argv.slice(2);
function listArg(name) {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1].split(',').map((s) => s.trim()) : undefined;
}
let selected = LAYERS;
if (args.includes('--unit')) {
  selected = ['unit'];
} else if (listArg('--only')) {
  selected = listArg('--only');
}
const skip = listArg('--skip') ?? [];
for (const name of [...selected, ...skip]) {
  if (!LAYERS.includes(name)) {
    console.error(`unknown layer "${name}" (layers: ${LAYERS.join(', ')})`);
    process.exit(2);
  }
}
selected = selected.filter((l) => !skip.includes(l));

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const VSIX = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);

/** Runs a command with live output; resolves with its exit code and captured output. */
let current;
function run(cmd, cmdArgs, { env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      const text = String(d);
      output += text;
      // npm's warnings about the machine's npmrc are noise here.
      const kept = text.split('\n').filter((l) => !/^npm warn Unknown (user|env) config "nodedir"/.test(l)).join('\n');
      process.stderr.write(kept);
    });
    child.on('error', (e) => {
      output += String(e);
      resolve({ code: 1, output });
    });
    child.on('close', (code) => {
      current = undefined;
      resolve({ code: code ?? 1, output });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The runners stop their own process groups on the signal they receive from the terminal too.
    current?.kill(signal);
    setTimeout(() => process.exit(130), 15000).unref();
  });
}

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
function mochaCounts(output) {
  const text = stripAnsi(output);
  const num = (re) => {
    const all = [...text.matchAll(re)];
    return all.length ? Number(all[all.length - 1][1]) : 0;
  };
  return { passed: num(/(\d+) passing/g), failed: num(/(\d+) failing/g), pending: num(/(\d+) pending/g) };
}

// ---- packaging check -------------------------------------------------------------------------------

/** Entry names of a zip file, read from its central directory. */
function zipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    throw new Error(`${file} is not a zip file`);
  }
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) {
      throw new Error(`${file}: bad central directory`);
    }
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

// What the VSIX may hold (vsce writes readme/changelog in lower case and LICENSE as LICENSE.txt).
const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/dist\/(extension|undici)\.js$/,
  /^extension\/media\/.+/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/license(\.txt|\.md)?$/i,
];
const REQUIRED = ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/undici.js'];

async function packageLayer() {
  fs.rmSync(VSIX, { force: true });
  const r = await run('npm', ['run', 'package']);
  if (r.code !== 0 || !fs.existsSync(VSIX)) {
    return { ok: false, note: 'npm run package failed' };
  }
  const entries = zipEntries(VSIX).filter((e) => !e.endsWith('/'));
  const unexpected = entries.filter((e) => !ALLOWED.some((re) => re.test(e)) || e.endsWith('.map'));
  const missing = REQUIRED.filter((e) => !entries.includes(e));
  console.log(`\n${path.basename(VSIX)}: ${entries.length} files, ${(fs.statSync(VSIX).size / 1024).toFixed(1)} KB`);
  for (const e of entries) {
    console.log(`  ${unexpected.includes(e) ? '✘' : '✔'} ${e}`);
  }
  if (unexpected.length || missing.length) {
    const why = [
      unexpected.length ? `unexpected: ${unexpected.join(', ')}` : '',
      missing.length ? `missing: ${missing.join(', ')}` : '',
    ].filter(Boolean).join('; ');
    console.log(`packaging check failed: ${why}`);
    return { ok: false, note: why };
  }
  return { ok: true, note: `${entries.length} files, only dist/extension.js + dist/undici.js, media/ and docs` };
}

// ---- layers ----------------------------------------------------------------------------------------

let vscodeReady;
async function ensureVSCode() {
  vscodeReady ??= run(process.execPath, [path.join(ROOT, 'scripts', 'setup-vscode.js')]).then((r) => r.code === 0);
  return vscodeReady;
}

const layers = {
  lint: async () => {
    const r = await run(path.join(BIN, 'eslint'), ['.']);
    return { ok: r.code === 0 };
  },
  typecheck: async () => {
    const r = await run(path.join(BIN, 'tsc'), ['-p', '.', '--noEmit']);
    return { ok: r.code === 0 };
  },
  unit: async () => {
    const r = await run(path.join(BIN, 'mocha'), []);
    const counts = mochaCounts(r.output);
    const ok = r.code === 0 && counts.passed > 0;
    return { ok, counts, note: counts.passed === 0 ? 'no unit tests ran' : undefined };
  },
  package: packageLayer,
  integration: async () => {
    if (!(await ensureVSCode())) {
      return { ok: false, note: 'setup of code-server/Chromium failed' };
    }
    const r = await run(path.join(BIN, 'tsx'), ['test/integration/runner.ts']);
    const m = /integration: (\d+) passed, (\d+) failed, (\d+) pending/.exec(stripAnsi(r.output));
    const counts = m ? { passed: Number(m[1]), failed: Number(m[2]), pending: Number(m[3]) } : undefined;
    return { ok: r.code === 0 && !!counts && counts.passed > 0, counts, note: counts ? undefined : 'no results' };
  },
  e2e: async () => {
    if (!fs.existsSync(VSIX) || results.package?.ok === false) {
      return { ok: false, note: 'needs the packaging layer (VSIX)' };
    }
    if (!(await ensureVSCode())) {
      return { ok: false, note: 'setup of code-server/Chromium failed' };
    }
    const r = await run(path.join(BIN, 'mocha'), ['--config', 'test/e2e/.mocharc.json'], { env: { MODEL_ACCESS_VSIX: VSIX } });
    const counts = mochaCounts(r.output);
    return { ok: r.code === 0 && counts.passed > 0, counts, note: counts.passed === 0 ? 'no e2e steps ran' : undefined };
  },
};

const results = {};
const times = {};
const started = Date.now();
for (const name of LAYERS) {
  if (!selected.includes(name)) {
    continue;
  }
  console.log(`\n━━━━ ${name} ${'━'.repeat(Math.max(0, 70 - name.length))}`);
  const t = Date.now();
  if (name === 'e2e' && !selected.includes('package')) {
    // e2e alone: let its session package the VSIX itself.
    const r = await run(path.join(BIN, 'mocha'), ['--config', 'test/e2e/.mocharc.json']);
    const counts = mochaCounts(r.output);
    results[name] = { ok: r.code === 0 && counts.passed > 0, counts };
  } else {
    try {
      results[name] = await layers[name]();
    } catch (e) {
      results[name] = { ok: false, note: e instanceof Error ? e.message : String(e) };
    }
  }
  times[name] = (Date.now() - t) / 1000;
}

console.log(`\n━━━━ summary ${'━'.repeat(63)}`);
for (const name of Object.keys(results)) {
  const r = results[name];
  const counts = r.counts ? ` ${r.counts.passed} passed, ${r.counts.failed} failed${r.counts.pending ? `, ${r.counts.pending} pending` : ''}` : '';
  const note = r.note ? ` (${r.note})` : '';
  console.log(`${r.ok ? '✔' : '✘'} ${name.padEnd(12)} ${times[name].toFixed(1).padStart(6)} s ${counts}${note}`);
}
const failed = Object.keys(results).filter((n) => !results[n].ok);
console.log(`\n${failed.length ? `FAILED: ${failed.join(', ')}` : 'all layers passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed.length ? 1 : 0);
