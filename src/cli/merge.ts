/**
 * `model-access merge a.xml b.xml … [--junit all.xml]`: one report and one exit code for a sharded run —
 * 0 when every test of every shard passed, 1 when one failed, 2 when the reports cannot be merged (not
 * readable, of different runs, a shard missing or twice). No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expandPatterns } from './glob';
import { junitXml } from './junit';
import { mergeReports, parseReport, type NamedReport } from './junitMerge';

export interface MergeIo {
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const MERGE_USAGE = [
  'Usage: model-access merge <JUnit reports or "globs"> [--junit FILE]',
  '',
  "Merges the JUnit reports of a sharded run's slices (model-access check --shard i/N --junit …) into one",
  'report with one pass/fail count. Exit code: 0 every test passed, 1 a test failed, 2 the reports cannot be merged.',
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
  const cases = merged.suites.flatMap((s) => s.cases);
  const failed = cases.filter((c) => c.failure).length;
  const flaky = cases.filter((c) => c.properties?.some((p) => p.name === 'flaky')).length;
  io.out(`model-access merge: ${reports.length} report${reports.length === 1 ? '' : 's'}`);
  for (const s of merged.suites) {
    const f = s.cases.filter((c) => c.failure).length;
    io.out(
      `  ${f === 0 ? 'PASS' : 'FAIL'}  ${s.name}${s.cases.length > 1 ? `  ${s.cases.length - f}/${s.cases.length} passed` : ''}`,
    );
  }
  io.out('');
  io.out(`${cases.length - failed} passed, ${failed} failed${flaky > 0 ? `, ${flaky} flaky` : ''}`);
  if (out) {
    try {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      // The reports were redacted when they were written; nothing of the run's secrets is known here.
      fs.writeFileSync(
        out,
        junitXml(merged.suites, (text) => text, { run: merged.run }),
      );
      io.out(`JUnit report: ${junit}`);
    } catch (e) {
      io.err(`model-access merge: the report could not be written to ${junit}: ${(e as Error).message}`);
      return 2;
    }
  }
  return failed > 0 ? 1 : 0;
}
