/**
 * Which requests a check run makes (every row of its dataset × every model asked for, up to a cap) and
 * running them at a bounded concurrency that one signal cancels. Pure; no `vscode` import.
 */
import type { DatasetRow } from '../../domain/payload/dataset';

export interface PlannedRun {
  /** The dataset row (none for a payload without `@each`). */
  row?: DatasetRow;
  /** The model to send to instead of the payload's own (several-models runs). */
  model?: string;
  /** 1-based attempt of a repeated request (`@repeat`); undefined when it is sent once. */
  attempt?: number;
}

export interface Plan {
  runs: PlannedRun[];
  /** Rows left out by the cap. */
  skippedRows: number;
}

export function planRuns(
  rows: readonly DatasetRow[] | undefined,
  models: readonly string[],
  maxRows: number,
  repeat = 1,
): Plan {
  const cap = Math.max(1, Math.floor(maxRows));
  const kept = rows === undefined ? [undefined] : rows.slice(0, cap);
  const skippedRows = rows === undefined ? 0 : Math.max(0, rows.length - cap);
  const forModels = models.length > 0 ? models : [undefined];
  const runs: PlannedRun[] = [];
  for (const model of forModels) {
    for (const row of kept) {
      if (repeat > 1) {
        for (let attempt = 1; attempt <= repeat; attempt++) {
          runs.push({ row, model, attempt });
        }
      } else {
        runs.push({ row, model });
      }
    }
  }
  return { runs, skippedRows };
}

/**
 * Runs `work` over `items`, at most `concurrency` at once, in order of start. Once `signal` aborts, no new
 * item starts (those are `undefined` in the results) and the ones in flight get the same signal.
 */
export async function runLimited<T, R>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  work: (item: T, index: number) => Promise<R>,
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = new Array<R | undefined>(items.length).fill(undefined);
  let next = 0;
  const lane = async () => {
    while (!signal.aborted && next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

/** The median of some numbers (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) {
    return undefined;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
