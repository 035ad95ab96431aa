#!/usr/bin/env node
// `npm run mutate`: mutation testing of the modules without the VS Code API (stryker.config.mjs), then the
// mutation score per folder (src/api, src/common, src/domain, each src/<feature>/core) and the mutants that survived,
// read from the JSON report. Exit code non-zero when Stryker failed, or when a folder of the report is below
// its target (TARGET below; the report holds every folder of the incremental file, not only those run).
//
//   npm run mutate                          incremental run (reports/stryker-incremental.json)
//   npm run mutate -- --force               every mutant again, ignoring the incremental file
//   npm run mutate -- --mutate src/api/sse.ts   only these files (a glob); other results are kept
//   npm run mutate -- --static              also the static mutants (module-level code: runs every test each)
//   npm run mutate -- --score               no run: the scores and survivors of the last report
//   npm run mutate -- --docs                no run: the reasons file, the page's tables and the full survivor list
// Anything but --score, --docs and --static is passed to `stryker run`. See docs/mutation-testing.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderOf, writeMutationDocs } from './mutation-docs.mjs';
import nestedNpm from './nested-npm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'reports', 'mutation', 'mutation.json');
/** The targets of docs/mutation-testing.md: the client core and the shared domain, and every other pure module. */
const TARGET = { 'src/api': 85, 'src/domain': 85, other: 75 };
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
/** Static mutants left out by `ignoreStatic` (stryker.config.mjs): counted apart, in no score. */
const IGNORED = 'Ignored';
const SHOW_SURVIVORS = 60;

/** Prints the scores and survivors; returns the folders below their target. */
function printScores(report) {
  const folders = new Map();
  const survivors = [];
  const total = { detected: 0, undetected: 0 };
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const rel = path.isAbsolute(file) ? path.relative(ROOT, file) : file;
    const folder = folderOf(rel.split(path.sep).join('/'));
    const f = folders.get(folder) ?? { detected: 0, undetected: 0, ignored: 0 };
    folders.set(folder, f);
    for (const m of mutants) {
      if (DETECTED.has(m.status)) {
        f.detected++;
        total.detected++;
      } else if (UNDETECTED.has(m.status)) {
        f.undetected++;
        total.undetected++;
        survivors.push(`${rel}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}`);
      } else if (m.status === IGNORED) {
        f.ignored++;
      }
    }
  }
  const pct = ({ detected, undetected }) =>
    detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
  console.log('\nMutation score per folder (killed + timed out) / (killed + timed out + survived + no coverage):');
  const below = [];
  for (const [folder, f] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    const target = TARGET[folder] ?? TARGET.other;
    const score = pct(f);
    const mark = score >= target ? 'ok' : `BELOW ${target} %`;
    if (score < target) {
      below.push(folder);
    }
    const ignored = f.ignored ? `, ${f.ignored} static not run` : '';
    console.log(
      `  ${folder.padEnd(22)} ${score.toFixed(2).padStart(6)} %  (${f.detected} of ${f.detected + f.undetected}${ignored})  target ${target} %: ${mark}`,
    );
  }
  console.log(`  ${'all'.padEnd(22)} ${pct(total).toFixed(2).padStart(6)} %`);
  if (survivors.length > 0) {
    console.log(`\n${survivors.length} mutant(s) not detected (mutation/survivor-reasons.json says why each is left):`);
    for (const s of survivors.slice(0, SHOW_SURVIVORS)) {
      console.log(`  ${s}`);
    }
    if (survivors.length > SHOW_SURVIVORS) {
      console.log(`  … and ${survivors.length - SHOW_SURVIVORS} more: reports/mutation/index.html`);
    }
  }
  console.log('\nReports: reports/mutation/index.html, reports/mutation/mutation.json');
  return below;
}

const args = process.argv.slice(2);
if (args.includes('--docs')) {
  let counted;
  try {
    counted = writeMutationDocs();
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
  const { rows, notTriaged, notTriagedApi, reasons, lost, gone } = counted;
  console.log(
    `${rows} mutants left, ${notTriaged} not triaged yet (${notTriagedApi} in src/api): every one with its reason in reports/mutation/survivors.md (reasons: mutation/survivor-reasons.json).`,
  );
  console.log(`  by reason: ${[...reasons].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (gone.length > 0) {
    console.log(
      `  results of ${gone.length} files that no longer exist, left out of the page until the next run: ${gone.join(' ')}`,
    );
  }
  if (lost.length > 0) {
    console.log(
      `  reasons of ${lost.length} rows whose mutant is gone (killed, or its code changed): ${lost.join(' ')}`,
    );
  }
  process.exit(0);
}
let status = 0;
if (!args.includes('--score')) {
  nestedNpm.ensureDependencies({ root: ROOT });
  const bin = path.join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  const env = { ...process.env, ...(args.includes('--static') ? { MODEL_ACCESS_MUTATE_STATIC: '1' } : {}) };
  const strykerArgs = args.filter((a) => a !== '--static');
  const r = spawnSync(process.execPath, [bin, 'run', ...strykerArgs], { cwd: ROOT, stdio: 'inherit', env });
  status = r.status ?? 1;
}
if (fs.existsSync(REPORT)) {
  const below = printScores(JSON.parse(fs.readFileSync(REPORT, 'utf8')));
  if (below.length > 0) {
    console.error(
      `\nBelow target: ${below.join(', ')}. Kill the survivors, or explain them in mutation/survivor-reasons.json.`,
    );
    status ||= 1;
  }
} else {
  console.error('No report at reports/mutation/mutation.json: run `npm run mutate` first.');
  status ||= 1;
}
process.exit(status);
