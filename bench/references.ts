/**
 * Model references at scale (issue 45): a generated workspace of 20,000 files / 200 MB in the default
 * languages, and a registry of 100,000 models served by the local service. Measures
 * - the command line end to end (`node dist/cli.js references DIR`: list 100,000 models, build the lookup,
 *   scan), wall time per run (target ≤ 10 s on 2 cores);
 * - its parts in this process: the lookup's build, the scan, and the memory they add (retained, after a
 *   collection; target ≤ 100 MB);
 * - one file's update: the matcher on a typical file and on the largest, and scanOneFile (read + match)
 *   (target ≤ 20 ms);
 * - the floor: ripgrep searching the same ids as fixed strings (`rg -F -f ids.txt -c`), when `rg` is
 *   installed (a substring search with no notion of literals, which is all the floor needs to be).
 * Run alone: `node --expose-gc --import tsx bench/references.ts [--files N] [--mb N] [--ids N] [--runs N]`
 * (needs `npm run build:cli`). Prints figures and a Markdown table for docs/benchmarks.md.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeIdLookup } from '../src/references/core/idLookup';
import { findModelReferences } from '../src/references/core/matcher';
import { scanFolders, scanOneFile } from '../src/references/core/scan';
import { startServer } from '../test/server';
import { formatSummary, summarize } from './stats';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

/** A small deterministic generator (mulberry32), so every run scans the same workspace. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['value', 'result', 'client', 'request', 'items', 'config', 'index', 'handler', 'options', 'payload'];
const KINDS = ['py', 'ts', 'js', 'java', 'go', 'cs', 'rb', 'yaml', 'json', 'toml', 'properties', 'tf'];

/** One line of code of a kind, naming `id` when given (a model reference as that language writes it). */
function line(kind: string, rnd: () => number, id?: string): string {
  const w = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const n = Math.floor(rnd() * 100000);
  const text = id ?? `${w()} ${w()} ${n}`;
  switch (kind) {
    case 'py':
    case 'rb':
      return `    ${w()}_${n} = call_${w()}(model="${text}", ${w()}='${w()}-${n}')  # ${w()}`;
    case 'yaml':
      return `  ${w()}_${n}: ${id ?? `"${text}"`}`;
    case 'json':
      return `  "${w()}_${n}": "${text}",`;
    case 'toml':
    case 'properties':
      return `${w()}_${n} = "${text}"`;
    case 'tf':
      return `  ${w()}_${n} = "${text}" # ${w()}`;
    default:
      return `  const ${w()}${n} = ${w()}("${text}", '${w()}-${n}'); // ${w()} ${w()}`;
  }
}

interface Workspace {
  dir: string;
  bytes: number;
  files: number;
  references: number;
  largest: string;
  typical: string;
}

/** Writes the workspace: `files` files, `mb` MB in all, one model id every ~150 lines. */
function generate(dir: string, files: number, mb: number, ids: readonly string[]): Workspace {
  fs.rmSync(dir, { recursive: true, force: true });
  const rnd = random(45);
  const perFile = Math.floor((mb * 1024 * 1024) / files);
  let bytes = 0;
  let references = 0;
  let largest = '';
  let largestSize = 0;
  for (let f = 0; f < files; f++) {
    const kind = KINDS[f % KINDS.length];
    const folder = path.join(dir, `pkg${f % 50}`, `mod${Math.floor(f / 50) % 40}`);
    fs.mkdirSync(folder, { recursive: true });
    // Sizes vary from a third to twice the mean, as files do.
    const target = f === 7 ? 1000 * 1024 : Math.floor(perFile * (0.34 + rnd() * 1.32));
    const lines: string[] = [];
    let size = 0;
    while (size < target) {
      const id = rnd() < 1 / 150 ? ids[Math.floor(rnd() * ids.length)] : undefined;
      if (id) {
        references++;
      }
      const l = line(kind, rnd, id);
      lines.push(l);
      size += l.length + 1;
    }
    const text = kind === 'json' ? `{\n${lines.join('\n')}\n  "end": 0\n}\n` : `${lines.join('\n')}\n`;
    const file = path.join(folder, `file${f}.${kind}`);
    fs.writeFileSync(file, text);
    bytes += text.length;
    if (text.length > largestSize) {
      largestSize = text.length;
      largest = file;
    }
  }
  const typical = path.join(dir, 'pkg1', 'mod0', 'file1.ts');
  return { dir, bytes, files, references, largest, typical };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

async function main(): Promise<void> {
  const files = option('files', 20_000);
  const size = option('mb', 200);
  const count = option('ids', 100_000);
  const runs = option('runs', 3);
  if (!fs.existsSync(CLI)) {
    throw new Error('dist/cli.js is missing: run npm run build:cli first');
  }
  console.log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const server = await startServer({ models: count, maxPageSize: 1000, pageSize: 1000 });
  const org = server.registry.organizations[0];
  const ids = server.registry.models.filter((m) => m.organization === org).map((m) => m.id);
  const dir = path.join(os.tmpdir(), 'ma-bench-references');
  const started = performance.now();
  const ws = generate(dir, files, size, ids);
  console.log(
    `workspace: ${ws.files} files, ${mb(ws.bytes)}, ${ws.references} references, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`registry: ${ids.length} models`);
  try {
    // The command line, end to end, in its own process.
    const env = { ...process.env, MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys[org] };
    const cliTimes: number[] = [];
    let summary = '';
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      // Not spawnSync: the service answers from this process, whose event loop must run meanwhile.
      const ran = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [CLI, 'references', dir], { env, maxBuffer: 1 << 30 }, (error, stdout, stderr) =>
          resolve({ status: error ? Number(error.code ?? 2) : 0, stdout, stderr }),
        );
      });
      cliTimes.push(performance.now() - t);
      if (ran.status !== 0 && ran.status !== 1) {
        throw new Error(`the command line failed (${ran.status}): ${ran.stderr}`);
      }
      summary = ran.stdout.trim().split('\n').pop() ?? '';
    }
    console.log(`CLI references: ${formatSummary(summarize(cliTimes), 'ms')}\n  ${summary}`);
    // The same on an empty folder: listing the models and building the lookup, without the scan.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-bench-references-empty-'));
    const listTimes: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      await new Promise((resolve) => execFile(process.execPath, [CLI, 'references', empty], { env }, resolve));
      listTimes.push(performance.now() - t);
    }
    fs.rmSync(empty, { recursive: true, force: true });
    console.log(`CLI references on an empty folder (list + lookup): ${formatSummary(summarize(listTimes), 'ms')}`);

    // Its parts, in this process, and the memory they keep.
    collect();
    const base = process.memoryUsage();
    const buildTimes: number[] = [];
    let lookup = makeIdLookup(ids);
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      lookup = makeIdLookup(ids);
      buildTimes.push(performance.now() - t);
    }
    const scanTimes: number[] = [];
    let result = await scanFolders([dir], { ids: lookup });
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      result = await scanFolders([dir], { ids: lookup });
      scanTimes.push(performance.now() - t);
    }
    collect();
    const after = process.memoryUsage();
    let found = 0;
    result.files.forEach((refs) => (found += refs.length));
    console.log(`lookup of ${lookup.size} ids: ${formatSummary(summarize(buildTimes), 'ms')}`);
    console.log(
      `scan: ${formatSummary(summarize(scanTimes), 'ms')}; ${result.scanned} files read, ${found} references in ${result.files.size} files, skipped ${JSON.stringify(result.skipped)}`,
    );
    console.log(
      `memory kept (lookup + result): heap ${mb(after.heapUsed - base.heapUsed)}, external+arrays ${mb(after.external + after.arrayBuffers - base.external - base.arrayBuffers)}, RSS ${mb(after.rss - base.rss)}`,
    );

    // One file's update.
    for (const [label, file] of [
      ['typical', ws.typical],
      ['largest', ws.largest],
    ]) {
      const text = fs.readFileSync(file, 'utf8');
      const match: number[] = [];
      const read: number[] = [];
      for (let r = 0; r < 30; r++) {
        let t = performance.now();
        findModelReferences(text, file, lookup);
        match.push(performance.now() - t);
        t = performance.now();
        await scanOneFile(file, lookup);
        read.push(performance.now() - t);
      }
      console.log(
        `one file (${label}, ${mb(text.length)}): match ${formatSummary(summarize(match), 'ms', 2)}; read + match ${formatSummary(summarize(read), 'ms', 2)}`,
      );
    }

    // The floor.
    let rg: string | undefined;
    try {
      rg = execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0];
    } catch {
      console.log('ripgrep: not installed (apt-get install ripgrep): no floor measured');
    }
    if (rg) {
      const list = path.join(os.tmpdir(), 'ma-bench-references-ids.txt');
      fs.writeFileSync(list, `${ids.join('\n')}\n`);
      const rgTimes: number[] = [];
      let matches = 0;
      for (let r = 0; r < runs; r++) {
        const t = performance.now();
        const ran = spawnSync('rg', ['-F', '-c', '-f', list, dir], { encoding: 'utf8', maxBuffer: 1 << 30 });
        rgTimes.push(performance.now() - t);
        matches = ran.stdout
          .split('\n')
          .filter(Boolean)
          .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(':') + 1)), 0);
      }
      console.log(`${rg} -F -f ids.txt: ${formatSummary(summarize(rgTimes), 'ms')}; ${matches} matching lines`);
    }
  } finally {
    await server.close();
    if (!process.argv.includes('--keep')) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
