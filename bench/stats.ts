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

/** `123 ms ±4%` style: the median with the relative spread of the runs. */
export function formatSummary(s: Summary, unit: string, digits = 0): string {
  if (!Number.isFinite(s.median)) {
    return 'n/a';
  }
  const spread = s.n > 1 ? ` ±${Math.round((s.spread * 100) / 2)}%` : '';
  return `${s.median.toFixed(digits)} ${unit}${spread}`.trim();
}

/**
 * Ratio of paired medians. The two sides ran alternately in the same run (ABBA order), so a machine that
 * got slower half way weighs on both alike.
 */
export function ratio(a: Summary, b: Summary): number {
  return a.median / b.median;
}
