/**
 * Ordering, grouping and filtering of models for the Models view and the pickers.
 * Pure functions, no `vscode` import: the unit layer tests them in plain Node.
 */
import type { ModelEntry } from '../api/types';

/** Label of the group for models that name no family. */
export const OTHER_FAMILY = 'Other';

const CHUNK = /(\d+)|(\D+)/g;

function chunks(s: string): string[] {
  return s.match(CHUNK) ?? [];
}

function isDigits(s: string): boolean {
  return s.length > 0 && s.charCodeAt(0) >= 48 && s.charCodeAt(0) <= 57;
}

function compareDigits(a: string, b: string): number {
  // Compare as unbounded integers without parsing: fewer significant digits is smaller.
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) {
    return x.length < y.length ? -1 : 1;
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Natural order: digit runs compare as numbers (`v2` < `v10`, `1.9` < `1.10`), text case-insensitively.
 * Total and deterministic: strings equal under these rules fall back to plain code-unit order.
 */
export function naturalCompare(a: string, b: string): number {
  return compareChunks(a, b, false);
}

/** Natural order for versions: additionally a pre-release sorts before its release (`1.0.0-rc1` < `1.0.0`). */
export function compareVersions(a: string, b: string): number {
  return compareChunks(a, b, true);
}

function compareChunks(a: string, b: string, prerelease: boolean): number {
  if (a === b) {
    return 0;
  }
  return quickCompare(a, b) || compareSplit(a, chunks(a), b, chunks(b), prerelease);
}

const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;

/**
 * The natural-order result decided at the first differing character, without splitting or allocating,
 * for the common case: an ASCII prefix up to that character, and there either two different letters (after
 * lower-casing) inside a text run, or two digit runs that differ as numbers. 0 when it cannot tell
 * (one string is a prefix of the other, case-only or non-ASCII differences, a digit run against text,
 * numerically equal runs such as `07`/`7`): the caller then compares chunk by chunk, which gives the same
 * answer wherever this one gives any.
 */
function quickCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let p = 0;
  let x = 0;
  let y = 0;
  for (; p < n; p++) {
    x = a.charCodeAt(p);
    y = b.charCodeAt(p);
    if (x >= 128 || y >= 128) {
      return 0;
    }
    if (x !== y) {
      break;
    }
  }
  if (p === n) {
    return 0;
  }
  const dx = isDigitCode(x);
  const dy = isDigitCode(y);
  if (!dx && !dy) {
    // Inside the same text run (the prefix is identical): the lower-cased letters decide.
    const lx = x >= 65 && x <= 90 ? x + 32 : x;
    const ly = y >= 65 && y <= 90 ? y + 32 : y;
    return lx === ly ? 0 : lx < ly ? -1 : 1;
  }
  if (dx !== dy) {
    return 0;
  }
  // Two digit runs that start at the same place: compare them as numbers (leading zeros dropped).
  let start = p;
  while (start > 0 && isDigitCode(a.charCodeAt(start - 1))) {
    start--;
  }
  let endA = p;
  while (endA < a.length && isDigitCode(a.charCodeAt(endA))) {
    endA++;
  }
  let endB = p;
  while (endB < b.length && isDigitCode(b.charCodeAt(endB))) {
    endB++;
  }
  let sa = start;
  while (sa < endA - 1 && a.charCodeAt(sa) === 48) {
    sa++;
  }
  let sb = start;
  while (sb < endB - 1 && b.charCodeAt(sb) === 48) {
    sb++;
  }
  if (endA - sa !== endB - sb) {
    return endA - sa < endB - sb ? -1 : 1;
  }
  for (let i = 0; i < endA - sa; i++) {
    const c = a.charCodeAt(sa + i) - b.charCodeAt(sb + i);
    if (c !== 0) {
      return c < 0 ? -1 : 1;
    }
  }
  return 0;
}

function compareSplit(a: string, ca: readonly string[], b: string, cb: readonly string[], prerelease: boolean): number {
  if (a === b) {
    return 0;
  }
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    const x = ca[i];
    const y = cb[i];
    const dx = isDigits(x);
    const dy = isDigits(y);
    const c = dx && dy ? compareDigits(x, y) : dx !== dy ? (dx ? -1 : 1) : compareText(x, y);
    if (c !== 0) {
      return c;
    }
  }
  if (ca.length !== cb.length) {
    const aLonger = ca.length > cb.length;
    const rest = aLonger ? ca[n] : cb[n];
    // A version that continues with a pre-release tag (`-rc1`, `-beta`) comes before the release.
    const longerFirst = prerelease && /^-[a-z]/i.test(rest);
    return aLonger === longerFirst ? -1 : 1;
  }
  return a < b ? -1 : 1;
}

/** The family a model is shown under. */
export function familyOf(model: Pick<ModelEntry, 'family'>): string {
  const f = model.family?.trim();
  return f ? f : OTHER_FAMILY;
}

/** Families in natural order, with "Other" (no family) last. */
export function compareFamilies(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  if (a === OTHER_FAMILY) {
    return 1;
  }
  if (b === OTHER_FAMILY) {
    return -1;
  }
  return naturalCompare(a, b);
}

/** Family, then id, then version — all in natural order. */
export function compareModels(a: ModelEntry, b: ModelEntry): number {
  return (
    compareFamilies(familyOf(a), familyOf(b)) ||
    naturalCompare(a.id, b.id) ||
    compareVersions(a.version ?? '', b.version ?? '')
  );
}

interface SortKey<T> {
  model: T;
  id: string;
  idChunks?: string[];
  version: string;
  versionChunks?: string[];
}

function sortKey<T extends ModelEntry>(model: T): SortKey<T> {
  return { model, id: model.id, version: model.version ?? '' };
}

/** Id, then version; a string is split (once) only when the quick comparison cannot decide. */
function compareKeys<T>(a: SortKey<T>, b: SortKey<T>): number {
  if (a.id !== b.id) {
    const c = quickCompare(a.id, b.id) || compareSplit(a.id, (a.idChunks ??= chunks(a.id)), b.id, (b.idChunks ??= chunks(b.id)), false);
    if (c !== 0) {
      return c;
    }
  }
  if (a.version === b.version) {
    return 0;
  }
  return quickCompare(a.version, b.version) || compareSplit(a.version, (a.versionChunks ??= chunks(a.version)), b.version, (b.versionChunks ??= chunks(b.version)), true);
}

/**
 * Sorted copy (same order as {@link compareModels}). Models are bucketed by family first (a family's
 * models are contiguous in that order: distinct family strings never compare equal), the few families are
 * sorted, then each bucket by id and version, so 100,000 models sort quickly.
 */
export function sortModels<T extends ModelEntry>(models: readonly T[]): T[] {
  const buckets = new Map<string, SortKey<T>[]>();
  for (const model of models) {
    const family = familyOf(model);
    let bucket = buckets.get(family);
    if (!bucket) {
      bucket = [];
      buckets.set(family, bucket);
    }
    bucket.push(sortKey(model));
  }
  const out: T[] = [];
  for (const family of [...buckets.keys()].sort(compareFamilies)) {
    const bucket = (buckets.get(family) as SortKey<T>[]).sort(compareKeys);
    for (const k of bucket) {
      out.push(k.model);
    }
  }
  return out;
}

export interface FamilyGroup<T extends ModelEntry = ModelEntry> {
  family: string;
  models: T[];
}

/** Groups models by family, each group sorted; groups in family order, "Other" last. */
export function groupByFamily<T extends ModelEntry>(models: readonly T[]): FamilyGroup<T>[] {
  return groupSorted(sortModels(models));
}

/** Groups models already in {@link sortModels} order, in one pass and without sorting again. */
export function groupSorted<T extends ModelEntry>(sorted: readonly T[]): FamilyGroup<T>[] {
  const groups: FamilyGroup<T>[] = [];
  let current: FamilyGroup<T> | undefined;
  for (const m of sorted) {
    const f = familyOf(m);
    if (current?.family !== f) {
      current = { family: f, models: [] };
      groups.push(current);
    }
    current.models.push(m);
  }
  return groups;
}

/**
 * Keeps the models whose id, family or version contain every word of `query` (case-insensitive).
 * An empty query keeps everything.
 */
export function filterModels<T extends ModelEntry>(models: readonly T[], query: string | undefined): T[] {
  const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) {
    return [...models];
  }
  return models.filter((m) => {
    const hay = `${m.id}\n${m.family ?? ''}\n${m.version ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
