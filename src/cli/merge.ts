/**
 * `model-access merge a.xml b.xml … [--junit all.xml]`: one report and one exit code for a sharded run —
 * 0 when every test of every shard passed, 1 when one failed or did not run to its end (an `<error>`: a
 * request's timeout), 2 when a shard's run was stopped (its deadline) or the reports cannot be merged (not
 * readable, not well-formed, of different runs, a shard missing or twice) — the meaning `check` gives them.
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expandPatterns } from './glob';
import { writeReportFile } from './reportFile';
import { junitXml, type JUnitCase } from './junit';
import { MAX_REPORT_BYTES, mergeReports, parseReport, type NamedReport } from './junitMerge';

export interface MergeIo {
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const MERGE_USAGE = [
  'Usage: model-access merge <JUnit reports or "globs"> [--junit FILE]',
  '',
  "Merges the JUnit reports of a sharded run's slices (model-access check --shard i/N --junit …) into one",
  'report with one pass/fail count. Exit code: 0 every test passed, 1 a test failed or did not run to its end',
  "(an error, such as a request's timeout), 2 a shard's run was stopped at its deadline or the reports cannot be merged.",
];

export async function mergeMain(args: readonly string[], io: MergeIo): Promise<number> {
  let junit: string | undefined;
  const patterns: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--junit') {
      junit = args[++i];
      if (junit === undefined) {
        io.err('model-access merge: --junit needs a file name');
        return 2;
      }
    } else if (args[i] === '--help' || args[i] === '-h') {
      MERGE_USAGE.forEach((l) => io.out(l));
      return 0;
    } else if (args[i].startsWith('--')) {
      io.err(`model-access merge: unknown option ${args[i]}. Run model-access merge --help.`);
      return 2;
    } else {
      patterns.push(args[i]);
    }
  }
  const { files, unmatched } = expandPatterns(patterns, io.cwd);
  unmatched.forEach((p) => io.err(`model-access merge: no file matches ${p}`));
  const out = junit === undefined ? undefined : path.resolve(io.cwd, junit);
  const reports: NamedReport[] = [];
  for (const file of files.filter((f) => f !== out)) {
    const name = path.relative(io.cwd, file).split(path.sep).join('/');
    let text: string;
    try {
      // Measured before it is read: a huge file is refused, not loaded.
      if (fs.statSync(file).size > MAX_REPORT_BYTES) {
        io.err(
          `model-access merge: ${name}: it is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MB, more than any report of model-access check`,
        );
        return 2;
      }
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      io.err(`model-access merge: ${name} cannot be read: ${(e as Error).message}`);
      return 2;
    }
    const report = parseReport(text);
    if (typeof report === 'string') {
      io.err(`model-access merge: ${name}: ${report}`);
      return 2;
    }
    reports.push({ file: name, report });
  }
  const merged = mergeReports(reports);
  if (typeof merged === 'string') {
    io.err(`model-access merge: ${merged}`);
    return 2;
  }
  // As in the report: a case with a <failure> failed; one with only an <error> (a request's timeout, the
  // run's deadline, a service that went away) did not run to its end — never a pass.
  const isFailed = (c: JUnitCase) => c.failure !== undefined;
  const isError = (c: JUnitCase) => c.failure === undefined && c.error !== undefined;
  const cases = merged.suites.flatMap((s) => s.cases);
  const failed = cases.filter(isFailed).length;
  const errors = cases.filter(isError).length;
  const flaky = cases.filter((c) => c.properties?.some((p) => p.name === 'flaky')).length;
  io.out(`model-access merge: ${reports.length} report${reports.length === 1 ? '' : 's'}`);
  for (const s of merged.suites) {
    const f = s.cases.filter(isFailed).length;
    const e = s.cases.filter(isError).length;
    const passedHere = s.cases.length - f - e;
    const counts = [
      ...(s.cases.length > 1 ? [`${passedHere}/${s.cases.length} passed`] : []),
      ...(e > 0 ? [`${e} error${e === 1 ? '' : 's'}`] : []),
    ].join(', ');
    io.out(`  ${f > 0 ? 'FAIL' : e > 0 ? 'ERROR' : 'PASS'}  ${s.name}${counts ? `  ${counts}` : ''}`);
    s.cases.filter(isError).forEach((c) => io.out(`        ${c.name}: error: ${oneLine(c.error!.message)}`));
  }
  io.out('');
  io.out(
    `${cases.length - failed - errors} passed, ${failed} failed${errors > 0 ? `, ${errors} error${errors === 1 ? '' : 's'}` : ''}${flaky > 0 ? `, ${flaky} flaky` : ''}`,
  );
  if (out) {
    try {
      // The reports were redacted when they were written; nothing of the run's secrets is known here.
      writeReportFile(
        out,
        junitXml(merged.suites, (text) => text, { run: merged.run }),
      );
      io.out(`JUnit report: ${junit}`);
    } catch (e) {
      io.err(`model-access merge: the report could not be written to ${junit}: ${(e as Error).message}`);
      return 2;
    }
  }
  if (errors > 0) {
    io.err(
      `model-access merge: ${errors} test${errors === 1 ? '' : 's'} did not run to the end (see "error" above); the run did not pass`,
    );
  }
  // check's meaning: 2 when the run itself was stopped (its deadline: an error outside any payload file),
  // 1 when a test failed or was stopped (a request's timeout counts as a failed check there too).
  const runStopped = merged.suites.some((s) => s.file === '' && s.cases.some(isError));
  return runStopped ? 2 : failed + errors > 0 ? 1 : 0;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '⏎');
}
