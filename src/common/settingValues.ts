/** Numbers from settings, which a hand-edited settings.json may hold as anything: bad values give the default. */

/** A whole number ≥ 1. */
export function positive(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : fallback;
}

/** A size in megabytes (> 0, fractions allowed), as bytes. */
export function megabytes(v: unknown, fallback: number): number {
  const mb = typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
  return Math.floor(mb * 1024 * 1024);
}
