/**
 * A payload's results that are not one request's: its `total cost` expectations (judged per model over the
 * run) and the requests `--max-cost` kept from going out (reported as not run: a JUnit error, never a pass).
 * No `vscode` import.
 */
import type { FileResult } from '../checks/core/fileRun';
import type { JUnitCase } from './junit';

export interface CostCases {
  lines: string[];
  cases: JUnitCase[];
  passed: number;
  failed: number;
  notRun: number;
}

/** "1 request", "4 requests". */
export function requestCount(n: number): string {
  return `${n} request${n === 1 ? '' : 's'}`;
}

export function costCases(result: FileResult, relative: string, stopReason: string | undefined): CostCases {
  const out: CostCases = { lines: [], cases: [], passed: 0, failed: 0, notRun: 0 };
  for (const total of result.totals ?? []) {
    const name = total.model === undefined ? total.source : `${total.source} · ${total.model}`;
    const where = `${relative}:${total.line + 1}`;
    if (total.outcome.passed) {
      out.passed++;
      out.lines.push(`        ${name}: passed`);
      out.cases.push({ name, time: 0 });
    } else {
      out.failed++;
      const message = total.outcome.message ?? '';
      out.lines.push(`        FAIL  ${name}  line ${total.line + 1}  ${message}`);
      out.cases.push({ name, time: 0, failure: { message, detail: `${where}  ${message}` } });
    }
  }
  for (const skipped of result.notRun ?? []) {
    out.notRun++;
    const message = `not run: ${stopReason ?? 'the run was stopped'}`;
    out.cases.push({ name: skipped.label, time: 0, error: { message, detail: `${relative}  ${message}` } });
  }
  if (out.notRun > 0) {
    out.lines.push(`        ${requestCount(out.notRun)} not run (--max-cost)`);
  }
  return out;
}
