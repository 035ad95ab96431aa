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
  return compareSplit(a, chunks(a), b, chunks(b), prerelease);
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
  family: string;
  familyChunks: string[];
  id: string;
  idChunks: string[];
  version: string;
  versionChunks: string[];
}

function sortKey<T extends ModelEntry>(model: T): SortKey<T> {
  const family = familyOf(model);
  const version = model.version ?? '';
  return { model, family, familyChunks: chunks(family), id: model.id, idChunks: chunks(model.id), version, versionChunks: chunks(version) };
}

function compareKeys<T>(a: SortKey<T>, b: SortKey<T>): number {
  let c = 0;
  if (a.family !== b.family) {
    c = a.family === OTHER_FAMILY ? 1 : b.family === OTHER_FAMILY ? -1 : compareSplit(a.family, a.familyChunks, b.family, b.familyChunks, false);
  }
  return c || compareSplit(a.id, a.idChunks, b.id, b.idChunks, false) || compareSplit(a.version, a.versionChunks, b.version, b.versionChunks, true);
}

/** Sorted copy (same order as {@link compareModels}); each string is split once, so 100,000 models sort quickly. */
export function sortModels<T extends ModelEntry>(models: readonly T[]): T[] {
  return models.map(sortKey).sort(compareKeys).map((k) => k.model);
}

export interface FamilyGroup<T extends ModelEntry = ModelEntry> {
  family: string;
  models: T[];
}

/** Groups sorted models by family; groups in family order, "Other" last. */
export function groupByFamily<T extends ModelEntry>(models: readonly T[]): FamilyGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const m of sortModels(models)) {
    const f = familyOf(m);
    let list = groups.get(f);
    if (!list) {
      list = [];
      groups.set(f, list);
    }
    list.push(m);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareFamilies(a, b))
    .map(([family, list]) => ({ family, models: list }));
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
