#!/usr/bin/env node
// `npm test`: installs what it needs, then every layer — lint, format check (Prettier) and type check beside the unit tests,
// packaging check, the integration suite inside a real VS Code (code-server) on the newest VS Code and
// on the oldest one the suite passes on (scripts/setup-vscode.js TESTED_VSCODE), the end-to-end UI tests (Chromium driving code-server with the packaged
// VSIX) and the demo smoke test (`npm run demo` started, checked and stopped with Ctrl+C; it runs beside the
// older VS Code's compatibility suite). Later layers
// still run when an earlier one fails (except those that need its output), and a summary with counts
// and times is printed at the end. Exit code 1 if anything failed.
//
// What it installs, from a fresh clone with an empty HOME:
//   - `npm ci` when node_modules is missing or does not match package-lock.json;
//   - in the background while lint/typecheck/unit run: `node scripts/setup-vscode.js` (Chromium, and
//     per VS Code version its Node + code-server, cached in ~/.cache/model-access or $MODEL_ACCESS_CACHE).
// With CI=true (or MODEL_ACCESS_FRESH_SETUP=1) code-server is installed again from nothing, into a
// throwaway HOME, the way a newcomer's first `npm test` does it (nested npm installs started from inside
// `npm test`), and the integration, e2e and demo layers use that install. This costs ~3-4 min (in
// parallel with the first layers: the second version reuses the first one's compiled native modules)
// and turns CI red whenever a first run would break.
// MODEL_ACCESS_FRESH_SETUP=0 turns it off.
//
//   npm test                     all layers
//   npm test -- --unit           only the fast layer (unit tests); same as `npm run test:unit`
//   npm test -- --only lint,unit  a subset: lint, format, typecheck, unit, package, integration, e2e, demo
//   npm test -- --skip e2e        everything but some layers
//   npm test -- --vscode 1.139   the integration layer on these VS Code versions (default: tested =
//                                1.139,1.135; also 1.104, all): the whole suite on the newest of them,
//                                its compatibility suites on the others (test/integration/runner.ts)
//   npm test -- --full-compat    the whole integration suite on every version
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nestedNpm from './nested-npm.js';
import setup from './setup-vscode.js';

const { childEnv, dependenciesStale } = nestedNpm;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const LAYERS = ['lint', 'format', 'typecheck', 'unit', 'package', 'integration', 'e2e', 'demo'];

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
let vscodeVersions;
try {
  vscodeVersions = setup.resolveVSCodeVersions(listArg('--vscode')?.join(',') ?? 'tested');
} catch (e) {
  console.error(e.message);
  process.exit(2);
}

// The whole integration suite runs on the newest version asked for; the older ones run the suites whose
// behaviour rests on APIs that change between VS Code versions (runner.ts COMPAT_SUITES), unless asked.
const fullCompat = args.includes('--full-compat');
const minor = (v) => Number(String(v).split('.')[1] ?? 0);
const newestAsked = [...vscodeVersions].sort((a, b) => minor(b) - minor(a))[0];
const fullOn = (version) => fullCompat || version === newestAsked;

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const VSIX = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);

const freshSetup = process.env.MODEL_ACCESS_FRESH_SETUP
  ? !/^(0|false|no)$/i.test(process.env.MODEL_ACCESS_FRESH_SETUP)
  : /^(1|true)$/i.test(process.env.CI ?? '');

const NOISE = /^npm warn Unknown (user|env|cli) config "(nodedir|unsafe-perm)"/;

/** Live output, or output held back until `live()` (for the background setup). */
function makeSink(held = false) {
  let buffer = held ? [] : undefined;
  return {
    write(stream, text) {
      if (buffer) {
        buffer.push([stream, text]);
      } else {
        stream.write(text);
      }
    },
    live() {
      for (const [stream, text] of buffer ?? []) {
        stream.write(text);
      }
      buffer = undefined;
    },
  };
}

/**
 * Runs a command (stdin closed) with its output shown; resolves with its exit code and captured output.
 * The child gets childEnv() — nothing of the outer `npm test` — unless `rawEnv` is set.
 */
const children = new Set();
function run(cmd, cmdArgs, { env = {}, rawEnv = false, sink = makeSink() } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, {
      cwd: ROOT,
      env: rawEnv ? { ...process.env, ...env } : childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      sink.write(process.stdout, String(d));
    });
    child.stderr.on('data', (d) => {
      const text = String(d);
      output += text;
      // npm's warnings about the machine's npmrc are noise here.
      const kept = text
        .split('\n')
        .filter((l) => !NOISE.test(l))
        .join('\n');
      sink.write(process.stderr, kept);
    });
    child.on('error', (e) => {
      output += String(e);
      children.delete(child);
      resolve({ code: 1, output });
    });
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code: code ?? 1, output });
    });
  });
}

let freshRoot;
function removeFreshRoot() {
  if (freshRoot) {
    fs.rmSync(freshRoot, { recursive: true, force: true });
    freshRoot = undefined;
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The runners stop their own process groups on the signal they receive from the terminal too.
    for (const child of children) {
      child.kill(signal);
    }
    setTimeout(() => {
      removeFreshRoot();
      process.exit(130);
    }, 15000).unref();
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

/**
 * The failed tests' titles and first error lines, from mocha's spec report ("1) suite / test: / Error…")
 * or the integration runner's ("✘ test" then the error indented). CI keeps only the tail of the output,
 * so the summary repeats them: a red run must say which test failed without the full log.
 */
function failedTests(output) {
  const lines = stripAnsi(output).split('\n');
  const found = [];
  const start = lines.findIndex((l) => /^\s*\d+ failing/.test(l));
  if (start >= 0) {
    for (let i = start + 1; i < lines.length; i++) {
      if (!/^\s+\d+\) \S/.test(lines[i])) {
        continue;
      }
      const title = [lines[i].replace(/^\s+\d+\) /, '').trim()];
      let j = i + 1;
      while (j < lines.length && !title[title.length - 1].endsWith(':') && lines[j].trim()) {
        title.push(lines[j].trim());
        j++;
      }
      found.push(`${title.join(' › ').replace(/:$/, '')}: ${(lines[j] ?? '').trim()}`);
      i = j;
    }
  } else {
    lines.forEach((l, i) => {
      const m = /^\s*✘ (.+)/.exec(l);
      if (m) {
        found.push(`${m[1].trim()}: ${(lines[i + 1] ?? '').trim()}`);
      }
    });
  }
  return found.map((f) => (f.length > 240 ? `${f.slice(0, 239)}…` : f));
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
  /^extension\/package\.nls\.json$/,
  // Translations; VS Code never reads the English source bundle (bundle.l10n.json), so it is not shipped.
  /^extension\/l10n\/bundle\.l10n\.[a-z-]+\.json$/i,
  // The main bundle, and the ones loaded on first use (esbuild.js).
  /^extension\/dist\/(extension|undici|client|requests|chat|details|diagnose|checks|refs)\.js$/,
  /^extension\/media\/.+/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/license(\.txt|\.md)?$/i,
];
const REQUIRED = [
  'extension/package.json',
  'extension/package.nls.json',
  'extension/dist/extension.js',
  'extension/dist/undici.js',
  'extension/dist/client.js',
  'extension/dist/requests.js',
  'extension/dist/chat.js',
  'extension/dist/details.js',
  'extension/dist/diagnose.js',
  'extension/dist/checks.js',
  'extension/dist/refs.js',
  // The schema that lets VS Code's JSON server accept the comments of scratch payloads (package.json jsonValidation).
  'extension/media/payload.schema.json',
];

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
    ]
      .filter(Boolean)
      .join('; ');
    console.log(`packaging check failed: ${why}`);
    return { ok: false, note: why };
  }
  return {
    ok: true,
    note: `${entries.length} files, dist/ bundles (extension + loaded on first use), manifest strings, media/ and docs`,
  };
}

// ---- setup: dependencies, then Chromium + code-server in the background ---------------------------

const results = {};
const times = {};
const started = Date.now();

function header(name) {
  console.log(`\n━━━━ ${name} ${'━'.repeat(Math.max(0, 70 - name.length))}`);
}

// VS Code versions the layers need, and the cache each one comes from.
const newest = setup.NEWEST_VSCODE;
const itVersions = selected.includes('integration') ? vscodeVersions : [];
const needVersions = [
  ...new Set([...itVersions, ...(selected.some((l) => l === 'e2e' || l === 'demo') ? [newest] : [])]),
];
// Every version goes into the same throwaway HOME: one cache folder, so the second version's native
// modules come out of the first one's compiler cache (scripts/setup-vscode.js compilerCache).
const useFresh = freshSetup && needVersions.length > 0;
/** Environment for the layers that run VS Code `version`. */
const vscodeEnv = (version) => ({
  MODEL_ACCESS_VSCODE: version,
  ...(useFresh ? { MODEL_ACCESS_CACHE: path.join(freshRoot, 'home', '.cache', 'model-access') } : {}),
});
const setupSink = makeSink(true);
const setupReady = {};
let setupStarted;
let setupEnded;
if (needVersions.length > 0) {
  setupStarted = Date.now();
  // The setup gets the raw environment of `npm test`, as on a newcomer's first run: it must clean it
  // itself before its nested npm installs (scripts/nested-npm.js), or code-server's install fails.
  const runSetup = (versions, env = {}) =>
    run(process.execPath, [path.join(ROOT, 'scripts', 'setup-vscode.js'), '--vscode', versions.join(',')], {
      rawEnv: true,
      env,
      sink: setupSink,
    }).then((r) => {
      setupEnded = Date.now();
      return r.code === 0;
    });
  let freshEnv = {};
  if (useFresh) {
    freshRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'model-access-fresh-'));
    const home = path.join(freshRoot, 'home');
    fs.mkdirSync(home);
    // A newcomer: empty HOME (no ~/.npmrc, no npm cache, no code-server cache), default cache folder.
    freshEnv = {
      HOME: home,
      MODEL_ACCESS_CACHE: '',
      XDG_CACHE_HOME: '',
      XDG_CONFIG_HOME: '',
      npm_config_cache: path.join(home, '.npm'),
    };
  }
  // One version after the other (two native builds at once would only compete for the cores), the newest
  // first: the whole integration suite, e2e and demo need it, the older versions only the shorter
  // compatibility run. The integration layer of a version starts as soon as that version is ready.
  let chain = Promise.resolve(true);
  for (const v of [...needVersions].sort((a, b) => minor(b) - minor(a))) {
    chain = chain.then(() => runSetup([v], freshEnv));
    setupReady[v] = chain;
  }
  const what = needVersions
    .map((v) => `VS Code ${v}${useFresh ? ' (fresh install into an empty HOME, CI)' : ''}`)
    .join(', ');
  console.log(`\nsetup of Chromium and code-server started in the background: ${what}`);
}

// Dependencies after the setup has started: the setup needs nothing of node_modules (node: modules and its
// own npm installs into its own prefixes), so code-server installs while `npm ci` runs instead of after it.
header('install');
{
  const t = Date.now();
  const why = dependenciesStale(ROOT);
  if (why) {
    console.log(`npm ci (${why})`);
    const r = await run('npm', ['ci', '--no-audit', '--no-fund']);
    results.install = { ok: r.code === 0, note: r.code === 0 ? `npm ci: ${why}` : 'npm ci failed' };
  } else {
    console.log('node_modules matches package-lock.json');
    results.install = { ok: true, note: 'node_modules up to date' };
  }
  times.install = (Date.now() - t) / 1000;
  if (!results.install.ok) {
    console.log('\nFAILED: npm ci; nothing else can run');
    for (const child of children) {
      child.kill('SIGTERM');
    }
    removeFreshRoot();
    process.exit(1);
  }
}

/** Waits for the setup of `version`; shows its output from then on. */
async function ensureVSCode(version) {
  const ready = setupReady[version];
  if (!ready) {
    return false;
  }
  setupSink.live();
  const ok = await ready;
  if (!results.setup || results.setup.ok) {
    times.setup = (setupEnded - setupStarted) / 1000;
    const what = needVersions.map((v) => `${v}${useFresh ? ' fresh into an empty HOME' : ''}`).join(', ');
    results.setup = { ok, note: ok ? `VS Code ${what}` : `failed for VS Code ${version}` };
  }
  return ok;
}

// ---- layers ----------------------------------------------------------------------------------------

async function integrationLayer(version) {
  if (!(await ensureVSCode(version))) {
    return { ok: false, note: 'setup of code-server/Chromium failed' };
  }
  const r = await run(
    path.join(BIN, 'tsx'),
    ['test/integration/runner.ts', '--vscode', version, ...(fullOn(version) ? [] : ['--compat'])],
    { env: vscodeEnv(version) },
  );
  const m = /integration: (\d+) passed, (\d+) failed, (\d+) pending/.exec(stripAnsi(r.output));
  const counts = m ? { passed: Number(m[1]), failed: Number(m[2]), pending: Number(m[3]) } : undefined;
  return {
    ok: r.code === 0 && !!counts && counts.passed > 0,
    counts,
    failures: failedTests(r.output),
    note: counts ? undefined : 'no results',
  };
}

const layers = {
  lint: async (sink) => {
    const r = await run(path.join(BIN, 'eslint'), ['.'], { sink });
    return { ok: r.code === 0 };
  },
  format: async (sink) => {
    const r = await run(path.join(BIN, 'prettier'), ['--check', '.'], { sink });
    return { ok: r.code === 0, note: r.code === 0 ? undefined : 'run `npm run format`' };
  },
  typecheck: async (sink) => {
    const r = await run(path.join(BIN, 'tsc'), ['-p', '.', '--noEmit'], { sink });
    return { ok: r.code === 0 };
  },
  unit: async () => {
    const r = await run(path.join(BIN, 'mocha'), []);
    const counts = mochaCounts(r.output);
    const ok = r.code === 0 && counts.passed > 0;
    return {
      ok,
      counts,
      failures: failedTests(r.output),
      note: counts.passed === 0 ? 'no unit tests ran' : undefined,
    };
  },
  package: packageLayer,
  e2e: async () => {
    if (!(await ensureVSCode(newest))) {
      return { ok: false, note: 'setup of code-server/Chromium failed' };
    }
    const env = vscodeEnv(newest);
    if (selected.includes('package')) {
      if (!fs.existsSync(VSIX) || results.package?.ok === false) {
        return { ok: false, note: 'needs the packaging layer (VSIX)' };
      }
      env.MODEL_ACCESS_VSIX = VSIX;
    } // else: e2e alone, its session packages the VSIX itself.
    const r = await run(path.join(BIN, 'mocha'), ['--config', 'test/e2e/.mocharc.json'], { env });
    const counts = mochaCounts(r.output);
    return {
      ok: r.code === 0 && counts.passed > 0,
      counts,
      failures: failedTests(r.output),
      note: counts.passed === 0 ? 'no e2e steps ran' : undefined,
    };
  },
  demo: async (sink) => {
    if (!(await ensureVSCode(newest))) {
      return { ok: false, note: 'setup of code-server/Chromium failed' };
    }
    const r = await run(path.join(BIN, 'tsx'), ['test/demo/smoke.ts'], { env: vscodeEnv(newest), sink });
    const m = /demo smoke: (.*)$/m.exec(stripAnsi(r.output));
    return { ok: r.code === 0, note: m ? m[1] : undefined };
  },
};

// Integration runs in the order of the setup: the newest version (the whole suite) first.
const plan = [];
for (const name of LAYERS) {
  if (!selected.includes(name)) {
    continue;
  }
  if (name === 'integration') {
    const ordered = [...itVersions].sort((a, b) => minor(b) - minor(a));
    for (const v of ordered) {
      plan.push([`integration ${v}`, () => integrationLayer(v)]);
    }
  } else {
    plan.push([name, layers[name]]);
  }
}
/** Runs one layer, its output live or held in `sink`; records its result and time. */
async function runLayer(name, layer, sink) {
  const t = Date.now();
  try {
    results[name] = await layer(sink);
  } catch (e) {
    results[name] = { ok: false, note: e instanceof Error ? e.message : String(e) };
  }
  times[name] = (Date.now() - t) / 1000;
}

// The static checks need one core for about a minute together and the unit tests one core for two
// minutes: the checks run one after the other beside the unit tests (their output is held and shown after
// them), which saves a minute of `npm test` on two cores. From packaging on, one layer at a time.
const BESIDE_UNIT = ['lint', 'format', 'typecheck'];
const held = [];
let chain = Promise.resolve();
for (const [name, layer] of plan.filter(([n]) => BESIDE_UNIT.includes(n))) {
  const sink = makeSink(true);
  chain = chain.then(() => runLayer(name, layer, sink));
  held.push({ name, sink });
}
const besideDone = chain;
async function showHeld() {
  await besideDone;
  for (const { name, sink } of held.splice(0)) {
    header(name);
    sink.live();
  }
}
// The demo smoke mostly waits for code-server to start, twice: it runs beside the compatibility suite of an
// older VS Code (a minute of light tests), its output held and shown after, and ends before e2e, which is
// sensitive to a busy machine, begins. Without such a suite it runs in its turn.
const compat = plan.find(([n]) => n.startsWith('integration ') && !fullOn(n.slice('integration '.length)));
const demoEntry = compat ? plan.find(([n]) => n === 'demo') : undefined;
let demoBeside;
async function endDemoBeside() {
  const beside = demoBeside;
  demoBeside = undefined;
  if (beside) {
    await beside.done;
    header('demo (ran beside the compatibility suite)');
    beside.sink.live();
  }
}
for (const [name, layer] of plan.filter(([n]) => !BESIDE_UNIT.includes(n))) {
  if (name !== 'unit') {
    await showHeld();
  }
  await endDemoBeside();
  if (name === 'demo' && demoEntry) {
    continue; // Already ran.
  }
  if (demoEntry && name === compat[0]) {
    const sink = makeSink(true);
    demoBeside = { sink, done: runLayer('demo', demoEntry[1], sink) };
  }
  header(name);
  await runLayer(name, layer);
}
await endDemoBeside();
await showHeld();
if (setupStarted && !results.setup) {
  // Nothing waited for it (all layers needing it were skipped): still report how it went.
  await ensureVSCode(needVersions[0]);
}
removeFreshRoot();

console.log(`\n━━━━ summary ${'━'.repeat(63)}`);
const order = ['install', 'setup', ...plan.map(([n]) => n)];
for (const name of order.filter((n) => results[n])) {
  const r = results[name];
  const counts = r.counts
    ? ` ${r.counts.passed} passed, ${r.counts.failed} failed${r.counts.pending ? `, ${r.counts.pending} pending` : ''}`
    : '';
  const note = r.note ? ` (${r.note})` : '';
  const when = name === 'setup' ? ' (background)' : name === 'demo' && demoEntry ? ` (beside ${compat[0]})` : '';
  console.log(`${r.ok ? '✔' : '✘'} ${name.padEnd(17)} ${times[name].toFixed(1).padStart(6)} s${when}${counts}${note}`);
  for (const f of (r.failures ?? []).slice(0, 8)) {
    console.log(`    ✘ ${f}`);
  }
}
const failed = order.filter((n) => results[n] && !results[n].ok);
console.log(
  `\n${failed.length ? `FAILED: ${failed.join(', ')}` : 'all layers passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed.length ? 1 : 0);
