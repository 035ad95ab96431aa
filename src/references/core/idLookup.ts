/**
 * The registry's ids as a set, plus a one-edit neighbourhood index for "did you mean": each id's deletion
 * variants (the id less one character, SymSpell-style), stored as 32-bit hashes packed with the id's index
 * into one sorted Float64Array. A candidate one edit from an id shares a deletion variant with it (or is
 * one, or has the id as one), so `nearest` hashes the candidate's own variants and looks each up by binary
 * search: its cost grows with the candidate's length and the logarithm of the ids, not with their number,
 * and 100,000 ids of ~25 characters take ~20 MB. Every hit is verified character by character, so a hash
 * collision costs a comparison, never a wrong answer. Pure; no `vscode` import.
 */
import type { IdLookup } from './types';

/** Ids longer than this are found when written exactly, but get no "did you mean". */
export const MAX_NEAREST_LENGTH = 128;
/** Bits of an entry that hold the id's index (the hash takes the 32 above them: 53 bits, a double's mantissa). */
const INDEX_BITS = 21;
const INDEX_SPAN = 2 ** INDEX_BITS;
/** Shorter candidates are always looked up; longer ones only when their first or last few characters are an id's. */
const EDGE = 3;
const FILTER_FROM = 8;
const P = 0x01000193;

const POW = new Uint32Array(MAX_NEAREST_LENGTH + 2);
POW[0] = 1;
for (let i = 1; i < POW.length; i++) {
  POW[i] = Math.imul(POW[i - 1], P) >>> 0;
}

/** A length as one bit of a mask; lengths from 31 on share the last bit. */
function lengthBit(length: number): number {
  return 1 << Math.min(length, 31);
}

/**
 * The polynomial hash of `s` (into `pre`) and of each deletion variant (into `out`, `out[i]` = `s` less its
 * character `i`): O(length). Returns the hash of `s` itself.
 */
function hashes(s: string, pre: Uint32Array, suf: Uint32Array, out: Uint32Array): number {
  const n = s.length;
  pre[0] = 0;
  for (let i = 0; i < n; i++) {
    pre[i + 1] = (Math.imul(pre[i], P) + s.charCodeAt(i)) >>> 0;
  }
  suf[n] = 0;
  for (let i = n - 1; i >= 0; i--) {
    suf[i] = (Math.imul(s.charCodeAt(i), POW[n - 1 - i]) + suf[i + 1]) >>> 0;
  }
  for (let i = 0; i < n; i++) {
    out[i] = (Math.imul(pre[i], POW[n - 1 - i]) + suf[i + 1]) >>> 0;
  }
  return pre[n];
}

/** Whether `a` and `b` are exactly one edit apart: one insertion, deletion, substitution or adjacent swap. */
export function oneEditApart(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la === lb) {
    let i = 0;
    while (i < la && a.charCodeAt(i) === b.charCodeAt(i)) {
      i++;
    }
    if (i === la) {
      return false;
    }
    if (a.slice(i + 1) === b.slice(i + 1)) {
      return true;
    }
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  if (Math.abs(la - lb) !== 1) {
    return false;
  }
  const [long, short] = la > lb ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && long.charCodeAt(i) === short.charCodeAt(i)) {
    i++;
  }
  return long.slice(i + 1) === short.slice(i);
}

/** The first position of `sorted` whose value is at least `v`. */
function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < v) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** What `nearest` has cost so far: for the benchmark, and for tests that hold its cost down. */
export interface NearestCost {
  /** Binary searches of the sorted hashes. */
  searches: number;
  /** Candidates compared character by character (a true neighbour, or a hash collision). */
  comparisons: number;
}

class NeighbourhoodLookup implements IdLookup {
  readonly cost: NearestCost = { searches: 0, comparisons: 0 };
  private readonly set: Set<string>;
  private readonly list: string[];
  /** (hash of a deletion variant) · 2^21 + index of its id, sorted. */
  private readonly deletions: Float64Array;
  /** (hash of an id) · 2^21 + its index, sorted. */
  private readonly wholes: Float64Array;
  /** First (last) EDGE characters of the ids → the lengths of the ids that have them ({@link lengthBit}). */
  private readonly heads = new Map<string, number>();
  private readonly tails = new Map<string, number>();
  private readonly minLength: number;
  private readonly maxLength: number;
  private readonly pre = new Uint32Array(MAX_NEAREST_LENGTH + 3);
  private readonly suf = new Uint32Array(MAX_NEAREST_LENGTH + 3);
  private readonly variants = new Uint32Array(MAX_NEAREST_LENGTH + 2);

  constructor(ids: Iterable<string>) {
    this.set = new Set();
    for (const id of ids) {
      if (typeof id === 'string' && id !== '') {
        this.set.add(id);
      }
    }
    // Past 2^21 ids the index bits would overflow: such a registry gets no "did you mean".
    const list = this.set.size < INDEX_SPAN ? [...this.set].filter((id) => id.length <= MAX_NEAREST_LENGTH) : [];
    this.list = list;
    let variants = 0;
    let min = Infinity;
    let max = 0;
    for (const id of list) {
      variants += id.length;
      min = Math.min(min, id.length);
      max = Math.max(max, id.length);
    }
    this.minLength = min;
    this.maxLength = max;
    const deletions = new Float64Array(variants);
    const wholes = new Float64Array(list.length);
    let d = 0;
    for (let k = 0; k < list.length; k++) {
      const id = list[k];
      wholes[k] = hashes(id, this.pre, this.suf, this.variants) * INDEX_SPAN + k;
      for (let i = 0; i < id.length; i++) {
        // A run of one character gives the same variant once per character: keep one.
        if (i === 0 || id.charCodeAt(i) !== id.charCodeAt(i - 1)) {
          deletions[d++] = this.variants[i] * INDEX_SPAN + k;
        }
      }
      if (id.length >= FILTER_FROM - 1) {
        const head = id.slice(0, EDGE);
        const tail = id.slice(-EDGE);
        this.heads.set(head, (this.heads.get(head) ?? 0) | lengthBit(id.length));
        this.tails.set(tail, (this.tails.get(tail) ?? 0) | lengthBit(id.length));
      }
    }
    this.deletions = deletions.subarray(0, d).sort();
    this.wholes = wholes.sort();
  }

  get size(): number {
    return this.set.size;
  }

  has(id: string): boolean {
    return this.set.has(id);
  }

  nearest(candidate: string): string | undefined {
    const n = candidate.length;
    if (n === 0 || n < this.minLength - 1 || n > this.maxLength + 1) {
      return undefined;
    }
    // One edit leaves the first or the last EDGE characters of a long enough string as they were, and changes
    // its length by one at most: an id with the same first (or last) characters and such a length must exist.
    if (n >= FILTER_FROM) {
      const near = lengthBit(n - 1) | lengthBit(n) | lengthBit(n + 1);
      if (
        ((this.heads.get(candidate.slice(0, EDGE)) ?? 0) & near) === 0 &&
        ((this.tails.get(candidate.slice(-EDGE)) ?? 0) & near) === 0
      ) {
        return undefined;
      }
    }
    const whole = hashes(candidate, this.pre, this.suf, this.variants);
    let best: string | undefined;
    const consider = (sorted: Float64Array, hash: number) => {
      this.cost.searches++;
      for (let i = lowerBound(sorted, hash * INDEX_SPAN); i < sorted.length; i++) {
        const v = sorted[i];
        if (Math.floor(v / INDEX_SPAN) !== hash) {
          break;
        }
        const id = this.list[v % INDEX_SPAN];
        this.cost.comparisons++;
        if ((best === undefined || id < best) && oneEditApart(candidate, id)) {
          best = id;
        }
      }
    };
    // The candidate is an id less one character.
    consider(this.deletions, whole);
    for (let i = 0; i < n; i++) {
      const variant = this.variants[i];
      // An id is the candidate less one character (a character too many)…
      consider(this.wholes, variant);
      // …or both less one character are alike (one character changed, or two neighbours swapped).
      consider(this.deletions, variant);
    }
    return best;
  }
}

/** The lookup for `ids` (empty strings and repeats dropped). */
export function makeIdLookup(ids: Iterable<string>): IdLookup {
  return new NeighbourhoodLookup(ids);
}

/** What `nearest` of a lookup made by {@link makeIdLookup} has cost so far. */
export function nearestCost(lookup: IdLookup): NearestCost | undefined {
  return lookup instanceof NeighbourhoodLookup ? { ...lookup.cost } : undefined;
}
