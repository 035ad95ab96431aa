/** Small statistics for benchmark samples: the median and how far the samples spread around it. */

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
  /** (max − min) / median, as a fraction: how much the runs disagreed. */
  spread: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function summarize(values: readonly number[]): Summary {
  const m = median(values);
  const min = values.length ? Math.min(...values) : Number.NaN;
  const max = values.length ? Math.max(...values) : Number.NaN;
  return { n: values.length, median: m, min, max, spread: m > 0 ? (max - min) / m : 0 };
}

/** Half the spread in percent, as printed after `±`. */
export function halfSpreadPercent(s: Summary): number {
  return Math.round((s.spread * 100) / 2);
}

/**
 * `123 ms ±4% (min 118, n 20)`: the median, half the spread of the runs around it, the best run and how many
 * runs there were — the median says what to expect, the minimum what the code costs on a quiet moment.
 */
export function formatSummary(s: Summary, unit: string, digits = 0): string {
  if (!Number.isFinite(s.median)) {
    return 'n/a';
  }
  if (s.n <= 1) {
    return `${s.median.toFixed(digits)} ${unit} (n 1)`;
  }
  return `${s.median.toFixed(digits)} ${unit} ±${halfSpreadPercent(s)}% (min ${s.min.toFixed(digits)}, n ${s.n})`;
}

/** A figure whose runs disagree by more than this (half the spread, relative to the median) is noisy. */
export const NOISY_HALF_SPREAD = 0.2;

export function isNoisy(s: Summary): boolean {
  return s.n > 1 && s.spread / 2 > NOISY_HALF_SPREAD;
}

/**
 * Ratio of paired medians. The two sides ran alternately in the same run (ABBA order), so a machine that
 * got slower half way weighs on both alike.
 */
export function ratio(a: Summary, b: Summary): number {
  return a.median / b.median;
}
