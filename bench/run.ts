/**
 * `npm run bench [-- --quick] [--only catalog,peers,upload,streaming,footprint,conversation,registry] [--no-profile] [--save-baseline] [--write-docs]`
 *
 * Starts the local Model Access Service (test/server/) and measures the extension against the raw floor
 * (undici + JSON.parse, no extension logic) on this machine, in this run: every figure is a median over
 * several runs after a warm-up, with its spread, its target and whether it is met. Each measured side runs
 * in a process of its own (peak RSS is per process) and the service in another. Prints a table and writes
 * it as JSON (and Markdown) under bench/results/. Not a test: it exits 0 when targets are missed, and
 * non-zero only when a scenario could not run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCatalog } from './catalog';
import { runChecks } from './checks';
import { runGraders } from './graders';
import { runConversation } from './conversation';
import { runRegistry } from './registryChanges';
import { describeLoad, machineLoad, type BenchContext } from './context';
import { writeDocs } from './docs';
import { runFootprint } from './footprint';
import { buildWorker } from './build';
import { killChildren, setWorkerBundle } from './proc';
import { runStreaming } from './streaming';
import { renderConsole, renderMarkdown, renderTargets, type Row } from './table';
import { runUpload } from './upload';
import { runPeers } from './peers';

const SCENARIOS: Record<string, (ctx: BenchContext) => Promise<void>> = {
  catalog: runCatalog,
  peers: runPeers,
  upload: runUpload,
  streaming: runStreaming,
  footprint: runFootprint,
  checks: runChecks,
  graders: runGraders,
  conversation: runConversation,
  registry: runRegistry,
};

const USAGE = `Usage: npm run bench -- [--quick] [--only ${Object.keys(SCENARIOS).join(',')}] [--no-profile] [--save-baseline] [--write-docs]

  --quick          fewer runs (A/B instead of A/B/B/A, fewer repetitions): ~2 minutes instead of ~3–4
  --only LIST      run only these scenarios
  --no-profile     no CPU profiles where a catalog or streaming target is missed
  --save-baseline  also write the results to bench/results/baseline.json (commit it deliberately)
  --write-docs     write the run's results to docs/benchmark-results.md (generated; commit it deliberately)
  --docs-from FILE write that page from a saved run's JSON (latest.json, partial.json) and exit
  --compare-with DIR  also measure another checkout (with node_modules) in the same run: the footprint
                   alternates its windows with this tree's
  --windows N      footprint: N code-server windows per build (default 20, --quick 8)
  --no-saved-list  footprint: skip the 100,000-model saved-list windows
  --activation-only  footprint: time activation only, not the Models view (shorter windows on a busy machine)
`;

const RESULTS_DIR = path.join(__dirname, 'results');

function parse(argv: string[]): {
  quick: boolean;
  only: string[];
  profile: boolean;
  saveBaseline: boolean;
  writeDocs: boolean;
  compareWith?: string;
  docsFrom?: string;
  windows?: number;
  savedList: boolean;
  modelsView: boolean;
} {
  const out: ReturnType<typeof parse> = {
    quick: false,
    only: Object.keys(SCENARIOS),
    profile: true,
    saveBaseline: false,
    writeDocs: false,
    savedList: true,
    modelsView: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') {
      out.quick = true;
    } else if (a === '--no-profile') {
      out.profile = false;
    } else if (a === '--save-baseline') {
      out.saveBaseline = true;
    } else if (a === '--write-docs') {
      out.writeDocs = true;
    } else if (a === '--docs-from') {
      out.docsFrom = path.resolve(argv[++i] ?? '');
    } else if (a === '--compare-with') {
      out.compareWith = path.resolve(argv[++i] ?? '');
    } else if (a === '--only' || a.startsWith('--only=')) {
      const list = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      out.only = (list ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = out.only.filter((s) => !(s in SCENARIOS));
      if (unknown.length > 0 || out.only.length === 0) {
        throw new Error(`unknown scenario(s): ${unknown.join(', ') || '(none given)'}`);
      }
    } else if (a === '--windows') {
      out.windows = Math.max(1, Math.floor(Number(argv[++i])));
      if (!Number.isFinite(out.windows)) {
        throw new Error('--windows needs a number');
      }
    } else if (a === '--no-saved-list') {
      out.savedList = false;
    } else if (a === '--activation-only') {
      out.modelsView = false;
      out.savedList = false;
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else {
      throw new Error(`unknown option ${a}`);
    }
  }
  return out;
}

function machine(): Record<string, unknown> {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** The header of a run's results: when, where, how loaded, what the figures are. */
function describeRun(
  quick: boolean,
  started: number,
  before: Record<string, unknown>,
  loadWarnings: string[],
  partial?: string,
): { header: string; seconds: number; after: Record<string, unknown> } {
  const seconds = (Date.now() - started) / 1000;
  const after = machine();
  const header =
    `Model Access benchmark, ${new Date().toISOString()}: ${String(after.cores)} cores (${String(after.cpu)}), ${String(after.node)}, ` +
    `load ${(before.loadAverage as number[]).join('/')} → ${(after.loadAverage as number[]).join('/')}, ${quick ? 'quick' : 'full'} run in ${seconds.toFixed(0)} s${partial ? ` (${partial})` : ''}.\n` +
    'Medians over several runs after a warm-up; ±x% is half the spread (max−min) relative to the median, min the best run, n the runs. The raw floor ran alternately with the extension in the same run.' +
    (loadWarnings.length > 0
      ? `\nWARNING: the machine's load exceeded its cores (${loadWarnings.join('; ')}): absolute times are stretched; compare ratios, and read the spreads.`
      : '');
  return { header, seconds, after };
}

function summaryOf(rows: readonly Row[], failed: number): string {
  const met = rows.filter((r) => r.verdict === 'met').length;
  const missed = rows.filter((r) => r.verdict === 'missed').length;
  return `${met} targets met, ${missed} missed${failed ? `, ${failed} scenario(s) could not run` : ''}.`;
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.docsFrom) {
    const run = JSON.parse(fs.readFileSync(options.docsFrom, 'utf8')) as {
      header: string;
      summary: string;
      rows: Row[];
    };
    const written = await writeDocs(run.header, run.rows, run.summary);
    process.stdout.write(`Wrote ${written.join(' and ')} from ${options.docsFrom}.\n`);
    return 0;
  }
  process.on('SIGINT', () => {
    killChildren();
    process.exit(130);
  });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const started = Date.now();
  const before = machine();
  const log = (m: string) =>
    process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}\n`);
  log(
    `${before.cores} cores (${String(before.cpu)}), ${String(before.node)}, load ${(before.loadAverage as number[]).join(' ')}; ${options.quick ? 'quick' : 'full'} run`,
  );
  setWorkerBundle(await buildWorker(path.join(RESULTS_DIR, '.build')));
  const ctx: BenchContext = {
    quick: options.quick,
    compareWith: options.compareWith,
    windows: options.windows,
    savedList: options.savedList,
    modelsView: options.modelsView,
    profile: options.profile,
    outDir: RESULTS_DIR,
    rows: [],
    data: {},
    notes: [],
    log,
  };
  let failed = 0;
  const loadWarnings: string[] = [];
  for (const name of options.only) {
    const load = machineLoad();
    if (load.over) {
      loadWarnings.push(`${name}: ${describeLoad(load)}`);
      log(
        `WARNING: ${describeLoad(load)} before ${name}: other work is waiting for a core, so times stretch and spread; noisy scenarios are repeated`,
      );
    }
    try {
      await SCENARIOS[name](ctx);
    } catch (e) {
      failed++;
      const message = e instanceof Error ? e.message : String(e);
      log(`${name} failed: ${message}`);
      ctx.rows.push({
        scenario: name,
        metric: 'could not run',
        value: message.split('\n')[0].slice(0, 100),
        verdict: 'n/a',
      });
      ctx.notes.push(`${name} could not run: ${message}`);
      killChildren();
    }
    // What is done so far, in case the run is stopped before the end (`--docs-from bench/results/partial.json`).
    const done = options.only.slice(0, options.only.indexOf(name) + 1);
    const partial = describeRun(options.quick, started, before, loadWarnings, `partial: ${done.join(', ')} done`);
    fs.writeFileSync(
      path.join(RESULTS_DIR, 'partial.json'),
      `${JSON.stringify({ header: partial.header, summary: summaryOf(ctx.rows, failed), rows: ctx.rows, notes: ctx.notes, data: ctx.data }, null, 2)}\n`,
    );
  }
  const { header, seconds, after } = describeRun(options.quick, started, before, loadWarnings);
  const table = renderConsole(ctx.rows);
  const summary = summaryOf(ctx.rows, failed);
  process.stdout.write(`\n${header}\n\n${table}\n\n${summary}\n\n${renderTargets(ctx.rows)}\n`);
  if (ctx.notes.length > 0) {
    process.stdout.write(`\nNotes:\n${ctx.notes.map((n) => `- ${n}`).join('\n')}\n`);
  }
  const result = {
    date: new Date().toISOString(),
    quick: options.quick,
    seconds,
    machine: { before, after },
    loadWarnings,
    header,
    summary,
    rows: ctx.rows,
    notes: ctx.notes,
    data: ctx.data,
  };
  const stamp = result.date.replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(RESULTS_DIR, `${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), `${header}\n\n${renderMarkdown(ctx.rows)}\n\n${summary}\n`);
  if (options.writeDocs) {
    const written = await writeDocs(header, ctx.rows, summary);
    process.stdout.write(`\nWrote ${written.join(' and ')}.\n`);
  }
  if (options.saveBaseline) {
    fs.writeFileSync(path.join(RESULTS_DIR, 'baseline.json'), `${JSON.stringify(result, null, 2)}\n`);
  }
  process.stdout.write(
    `\nWritten: ${path.relative(process.cwd(), path.join(RESULTS_DIR, `${stamp}.json`))} (and latest.json, latest.md${options.saveBaseline ? ', baseline.json' : ''})\n`,
  );
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    killChildren();
    process.exit(code);
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    killChildren();
    process.exit(1);
  },
);
