/**
 * What to offer when a payload names a model the environment does not list, or one that is going away: the
 * closest listed id ("did you mean"), the newest model of the same family, and the successor the registry
 * names. Pure; no `vscode`.
 */
import type { ModelEntry } from '../../api/types';
import { compareVersions, familyOf } from '../modelSorting';
import { isGoingAway, readLifecycle } from './lifecycle';

/** Edit distance of `a` and `b`, or `limit + 1` as soon as it is certainly above `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) {
    return limit + 1;
  }
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) {
    prev[j] = j;
  }
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > limit) {
      return limit + 1;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/**
 * The listed id closest to `value` (case-insensitive edit distance, at most a third of its length and never
 * more than 8), preferring models that are not going away; undefined when none is close.
 */
export function closestModel(value: string, models: readonly ModelEntry[], now: number): ModelEntry | undefined {
  const target = value.toLowerCase();
  const limit = Math.min(8, Math.max(1, Math.floor(target.length / 3)));
  let best: ModelEntry | undefined;
  let bestScore = Infinity;
  for (const m of models) {
    if (m.id === value) {
      continue;
    }
    const d = editDistance(target, m.id.toLowerCase(), limit);
    if (d > limit) {
      continue;
    }
    // A model that is going away is a worse suggestion than a live one as close.
    const score = d * 2 + (isGoingAway(readLifecycle(m.raw), now) ? 1 : 0);
    if (score < bestScore) {
      best = m;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The family `value` most likely belongs to: the family of the model it names in `known` (a list seen
 * earlier), else the longest listed family name it starts with (`atlas-3` → `atlas`).
 */
export function familyFor(value: string, models: readonly ModelEntry[], known?: ModelEntry): string | undefined {
  if (known?.family) {
    return known.family;
  }
  const lower = value.toLowerCase();
  let best: string | undefined;
  for (const m of models) {
    const f = m.family;
    if (f && lower.startsWith(f.toLowerCase()) && (best === undefined || f.length > best.length)) {
      best = f;
    }
  }
  return best;
}

/**
 * The newest model of `family` that is not going away (highest version, then the latest `created`), or the
 * newest of all when every one is. Undefined for a family with no listed model.
 */
export function newestOfFamily(family: string, models: readonly ModelEntry[], now: number): ModelEntry | undefined {
  let best: ModelEntry | undefined;
  let bestAway = true;
  for (const m of models) {
    if (familyOf(m) !== family) {
      continue;
    }
    const away = isGoingAway(readLifecycle(m.raw), now);
    if (best === undefined || (bestAway && !away) || (away === bestAway && newer(m, best))) {
      best = m;
      bestAway = away;
    }
  }
  return best;
}

function created(m: ModelEntry): number {
  const raw = m.raw as { created?: unknown } | undefined;
  return typeof raw?.created === 'number' ? raw.created : 0;
}

function newer(a: ModelEntry, b: ModelEntry): boolean {
  const v = compareVersions(a.version ?? '', b.version ?? '');
  return v > 0 || (v === 0 && created(a) > created(b));
}
