/**
 * The options of `model-access check` for runs at scale: graders, repeats, concurrency that backs off,
 * shards and the cache. Kept apart from check.ts so each stays readable. No `vscode` import.
 */
import type { GraderModels } from '../checks/core/graders';
import { MAX_REPEAT } from '../checks/core/repeats';
import { parseShard, type Shard } from '../checks/core/shard';
import type { CacheStats } from '../checks/core/answerCache';
import type { WaitStats } from '../checks/core/throttledService';

export interface ScaleOptions {
  graders: GraderModels;
  repeat?: number;
  maxConcurrency?: number;
  shard?: Shard;
  /** `--cache` / `--cache-dir DIR`: on, in DIR or the default folder; `--no-cache`: off (the default). */
  cache?: { dir?: string } | false;
}

export const SCALE_USAGE = [
  "  --grader-judge MODEL       the chat model that judges `judge` expectations (default: the payload's model)",
  "  --grader-embeddings MODEL  the embeddings model of `similar` (default: the service's newest current embeddings model)",
  '  --repeat N                 send each request N times (payloads without // @repeat); see // @pass-rate',
  '  --max-concurrency N        the most requests at once; halved on a 429, grown back slowly (default --concurrency)',
  '  --shard i/N                run slice i of N (stable by file and dataset row), for a CI job matrix',
  '  --cache                    reuse answers of earlier runs; --cache-dir DIR: in DIR (default: the OS cache dir)',
  '  --no-cache                 send every request (the default)',
];

/**
 * Reads one option at `args[i]` into `o`; returns how many arguments it took (0: not one of these), or the
 * problem.
 */
export function readScaleOption(args: readonly string[], i: number, o: ScaleOptions): number | string {
  const a = args[i];
  const next = args[i + 1];
  const needs = (): string | undefined => (next === undefined ? `${a} needs a value` : undefined);
  switch (a) {
    case '--grader-judge':
    case '--grader-embeddings':
      if (needs()) {
        return needs()!;
      }
      o.graders[a === '--grader-judge' ? 'judge' : 'embeddings'] = next;
      return 2;
    case '--repeat':
    case '--max-concurrency': {
      if (needs()) {
        return needs()!;
      }
      const n = Number(next);
      const top = a === '--repeat' ? MAX_REPEAT : 1000;
      if (!Number.isInteger(n) || n < 1 || n > top) {
        return `${a} needs a whole number from 1 to ${top}`;
      }
      if (a === '--repeat') {
        o.repeat = n;
      } else {
        o.maxConcurrency = n;
      }
      return 2;
    }
    case '--shard': {
      if (needs()) {
        return needs()!;
      }
      const shard = parseShard(next);
      if (typeof shard === 'string') {
        return shard;
      }
      o.shard = shard;
      return 2;
    }
    case '--cache':
      o.cache = { ...(o.cache || {}) };
      return 1;
    case '--cache-dir':
      if (needs()) {
        return needs()!;
      }
      o.cache = { dir: next };
      return 2;
    case '--no-cache':
      o.cache = false;
      return 1;
    default:
      return 0;
  }
}

/** The summary's line about waiting, or undefined when the run never waited. */
export function waitSummary(stats: WaitStats, halvings: number): string | undefined {
  if (stats.waits === 0 && stats.rateLimited === 0) {
    return undefined;
  }
  const seconds = (stats.waitedMs / 1000).toFixed(1);
  return `Waited ${stats.waits} time${stats.waits === 1 ? '' : 's'} for the service (429/503), ${seconds}s in all; concurrency halved ${halvings} time${halvings === 1 ? '' : 's'}`;
}

/** What the graders use, stated in the summary whenever a payload has a grader expectation. */
export function graderSummary(models: GraderModels, embeddingsDefaulted: boolean): string {
  const judge = models.judge ?? "the payload's own model (default)";
  const embeddings =
    models.embeddings === undefined
      ? 'none (the service lists no current embeddings model)'
      : embeddingsDefaulted
        ? `${models.embeddings} (default: the service's newest current embeddings model)`
        : models.embeddings;
  return `Graders: judge ${judge}; embeddings ${embeddings} (a payload's // @grader line goes first)`;
}

export function cacheSummary(stats: CacheStats): string {
  const unwritten = stats.unwritten > 0 ? `; ${stats.unwritten} could not be kept` : '';
  const rejected = stats.rejected
    ? `; ${stats.rejected} failed the integrity check (changed, or not written with this key) and ${stats.rejected === 1 ? 'was' : 'were'} sent again`
    : '';
  return `Cache: ${stats.hits} answer${stats.hits === 1 ? '' : 's'} reused, ${stats.misses} sent${unwritten}${rejected}`;
}
