/**
 * A payload's results as the CLI reports them: the attempts of each request (`@repeat`) folded into one
 * test with its tally ("4 of 5") and flakiness, and the graders' scores and reasons, for passes too.
 * No `vscode` import.
 */
import { describeExpectation } from '../checks/core/expectations';
import type { ExpectationLine } from '../checks/core/checkFile';
import { firstFailure, type FileResult, type RowResult } from '../checks/core/fileRun';
import { groupAttempts, judgeAttempts } from '../checks/core/repeats';

export interface TestOutcome {
  label: string;
  passed: boolean;
  flaky: boolean;
  /** "4 of 5" for a repeated request. */
  tally?: string;
  /** The attempt whose failure is reported (the first failed one), else the first. */
  shown: RowResult;
  /** Seconds, all attempts. */
  time: number;
  /** "line 3  similar "…" >= 0.8: similarity 0.91 to the reference (model)" for each graded expectation. */
  grades: string[];
}

export function foldAttempts(result: FileResult, expectations: readonly ExpectationLine[]): TestOutcome[] {
  const groups = groupAttempts(
    result.rows,
    (r) => r.label,
    (r) => firstFailure(r) === undefined,
  );
  return [...groups.entries()].map(([label, g]) => {
    const verdict = judgeAttempts(g, result.passRate ?? 1);
    const shown = g.items.find((r) => firstFailure(r) !== undefined) ?? g.items[0];
    return {
      label,
      passed: verdict.passed,
      flaky: verdict.flaky,
      tally: verdict.tally,
      shown,
      time: g.items.reduce((t, r) => t + (r.kind === 'run' ? r.result.observed.elapsedMs / 1000 : 0), 0),
      grades: gradesOf(shown, expectations),
    };
  });
}

function gradesOf(row: RowResult, expectations: readonly ExpectationLine[]): string[] {
  if (row.kind !== 'run') {
    return [];
  }
  return row.result.results.flatMap((r) => {
    if (r.outcome.reason === undefined) {
      return [];
    }
    const e = expectations.find((l) => l.line === r.line)?.expectation;
    return [`line ${r.line + 1}  ${e ? describeExpectation(e) : r.source}: ${r.outcome.reason}`];
  });
}
