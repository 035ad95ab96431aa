/**
 * Ordering, grouping and filtering of models for the Models view and the pickers.
 * Pure functions, no `vscode` import: the unit layer tests them in plain Node.
 */
import type { ModelEntry } from '../api/types';

/** Label of the group for models that name no family. */
export const OTHER_FAMILY = 'Other';

/**
 * Letters and numbers compare as the `en` collation does at base strength with numeric digit runs:
 * accents and case do not separate letters (`Émeraude` sits next to `emeraude`, before `zeta`), and
 * `v2` < `v10`. A fixed locale, not the host's, so the order (and the tests that pin it) does not change
 * with the machine: some locales move plain ASCII letters (Lithuanian puts `y` after `i`).
 */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const collate = collator.compare;

/** Plain code-unit order: the last tie-break, so strings the collation calls equal still have one order. */
function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Natural order: the collation above (digit runs as numbers, `1.9` < `1.10`; accents and case ignored),
 * then plain code-unit order, so the order is total and deterministic.
 */
export function naturalCompare(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  return quickCompare(a, b) || collate(a, b) || codeUnitOrder(a, b);
}

/** Natural order for versions: additionally a pre-release sorts before its release (`1.0.0-rc1` < `1.0.0`). */
export function compareVersions(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  return quickCompare(a, b) || compareVersionParts(a, b);
}

/** Where a version's pre-release tag starts: the first `-` followed by a letter (`1.0.0-rc1`, `2-beta`, `3-été`), or -1. */
function tagStart(version: string): number {
  const m = /-\p{L}/u.exec(version);
  return m ? m.index : -1;
}

/**
 * The version order in full: the release part (before the tag) in natural order; for equal releases the one
 * with a tag first, two tags in natural order; then code-unit order.
 */
function compareVersionParts(a: string, b: string): number {
  const ta = tagStart(a);
  const tb = tagStart(b);
  const c = collate(ta < 0 ? a : a.slice(0, ta), tb < 0 ? b : b.slice(0, tb));
  if (c !== 0) {
    return c;
  }
  if (ta < 0 || tb < 0) {
    if (ta !== tb) {
      return ta < 0 ? 1 : -1;
    }
  } else {
    const t = collate(a.slice(ta + 1), b.slice(tb + 1));
    if (t !== 0) {
      return t;
    }
  }
  return codeUnitOrder(a, b);
}

const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;
const isLetterCode = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Digit runs this long or longer are left to the collation (which splits very long runs). */
const QUICK_DIGITS = 100;

/**
 * The result decided at the first differing character, without the collator, for the common case: an
 * ASCII prefix up to that character, and there two ASCII letters that differ after lower-casing, two digit
 * runs that differ as numbers, or a digit against a letter where no digit run or `-` comes before (digits
 * sort before letters). 0 when it cannot tell (one string is a prefix of the other, case-only, punctuation
 * or non-ASCII differences, numerically equal runs such as `07`/`7`): the caller then asks the collator,
 * which gives the same answer wherever this one gives any — for names and for versions alike (after a `-`
 * a letter may open a pre-release tag, so a digit against a letter there is left to the caller).
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
    if (!isLetterCode(x) || !isLetterCode(y)) {
      return 0;
    }
    // Inside the same text (the prefix is identical): the lower-cased letters decide.
    const lx = x | 32;
    const ly = y | 32;
    return lx === ly ? 0 : lx < ly ? -1 : 1;
  }
  if (dx !== dy) {
    const before = p > 0 ? a.charCodeAt(p - 1) : 0;
    if (isDigitCode(before) || before === 45 || !isLetterCode(dx ? y : x)) {
      return 0;
    }
    return dx ? -1 : 1;
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
  if (endA - start >= QUICK_DIGITS || endB - start >= QUICK_DIGITS) {
    return 0;
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
  version: string;
}

function sortKey<T extends ModelEntry>(model: T): SortKey<T> {
  return { model, id: model.id, version: model.version ?? '' };
}

function compareKeys<T>(a: SortKey<T>, b: SortKey<T>): number {
  return naturalCompare(a.id, b.id) || compareVersions(a.version, b.version);
}

/**
 * Sorted copy (same order as {@link compareModels}). Models are bucketed by family first (a family's
 * models are contiguous in that order: distinct family strings never compare equal), the few families are
 * sorted, then each bucket by id and version, so 100,000 models sort quickly.
 */
export function sortModels<T extends ModelEntry>(models: readonly T[]): T[] {
  const out: T[] = [];
  for (const group of groupByFamily(models)) {
    for (const m of sortFamily(group.models)) {
      out.push(m);
    }
  }
  return out;
}

/** A family's models (all of one family) sorted by id, then version: the order of {@link compareModels}. */
export function sortFamily<T extends ModelEntry>(models: readonly T[]): T[] {
  const keys = models.map(sortKey).sort(compareKeys);
  const out = new Array<T>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    out[i] = keys[i].model;
  }
  return out;
}

/**
 * The families in display order ("Other" last), each with its models in list order — not sorted: the tree
 * sorts a family's models only when it is expanded ({@link sortFamily}), so a 100,000-model list shows its
 * families after one pass.
 */
export function groupByFamily<T extends ModelEntry>(models: readonly T[]): FamilyGroup<T>[] {
  const buckets = new Map<string, T[]>();
  for (const model of models) {
    const family = familyOf(model);
    const bucket = buckets.get(family);
    if (bucket) {
      bucket.push(model);
    } else {
      buckets.set(family, [model]);
    }
  }
  return [...buckets.keys()].sort(compareFamilies).map((family) => ({
    family,
    models: buckets.get(family) as T[],
  }));
}

export interface FamilyGroup<T extends ModelEntry = ModelEntry> {
  family: string;
  models: T[];
}

/**
 * Groups models already in {@link sortModels} order by family, in one pass and without sorting again: groups
 * in family order, "Other" last.
 */
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
