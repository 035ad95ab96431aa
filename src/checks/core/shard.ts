/**
 * `--shard i/N`: a stable slice of a run, so N CI jobs share one run. Every test (a payload, or one row of
 * its dataset) goes to one shard by a hash of its file path and row, so the slices are disjoint, cover
 * everything, and do not move when other files are added. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** A sane bound: a CI matrix of more jobs than this is a mistake. */
export const MAX_SHARDS = 1000;

export function parseShard(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) {
    return l10n.t('--shard takes the form i/N, as in --shard 2/4, not "{0}"', text);
  }
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) {
    return l10n.t('--shard {0}: the number of shards is from 1 to {1}', text.trim(), MAX_SHARDS);
  }
  if (index < 1) {
    return l10n.t('--shard {0}: shards are counted from 1, as in 1/{1}', text.trim(), count);
  }
  if (index > count) {
    return l10n.t('--shard {0}: shard {1} does not exist in a run of {2} shards', text.trim(), index, count);
  }
  return { index, count };
}

/** FNV-1a, 32 bits: stable across platforms and Node versions, enough spread for slicing. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The key of a test: its payload's path (forward slashes, relative to the run's folder) and dataset row. */
export function testKey(file: string, row: number | undefined): string {
  return row === undefined ? file : `${file}#${row}`;
}

/** The shard (1-based) a test belongs to. */
export function shardOf(file: string, row: number | undefined, count: number): number {
  return (fnv1a(testKey(file, row)) % count) + 1;
}

export function inShard(shard: Shard, file: string, row: number | undefined): boolean {
  return shardOf(file, row, shard.count) === shard.index;
}
