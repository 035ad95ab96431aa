/**
 * The client a check run sends through: every POST (the checks' and the graders') takes a slot of the AIMD
 * limiter, and a 429 or 503 is waited out and sent again by the retry policy; the run's summary reports how
 * often it waited. GETs and uploads pass through untouched. Pure; no `vscode` import.
 */
import { wrapPost } from './wrapPost';
import type { ModelService, PostResult } from '../../api/types';
import type { AimdLimiter } from './aimd';
import { retryReason, waitBeforeRetry, type PostRetryPolicy } from './retryPolicy';

export interface WaitStats {
  /** Retries after a 429 or 503. */
  waits: number;
  waitedMs: number;
  /** Answers 429 that were not retried or were the last straw. */
  rateLimited: number;
}

// How long the run waited before an answer, by the answer's headers object (kept by copies of the result):
// a check's `time < 2s` measures the service, not the run's waiting for its turn.
const waitedFor = new WeakMap<object, number>();

/** Milliseconds spent waiting (429/503) before this answer came; 0 when there was no wait. */
export function waitedBefore(result: Pick<PostResult, 'headers'>): number {
  return waitedFor.get(result.headers) ?? 0;
}

export function newWaitStats(): WaitStats {
  return { waits: 0, waitedMs: 0, rateLimited: 0 };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function throttledService(
  inner: ModelService,
  limiter: AimdLimiter,
  policy: PostRetryPolicy,
  stats: WaitStats,
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = sleep,
  /** Told before each wait, with the refused answer (its status and headers: the rate limits it reported). */
  onWait?: (ms: number, refused: PostResult) => void,
): ModelService {
  const post: ModelService['post'] = async (endpoint, body, options) => {
    let waited = 0;
    for (let retry = 1; ; retry++) {
      const release = await limiter.acquire();
      let result: PostResult;
      try {
        result = await inner.post(endpoint, body, options);
      } finally {
        // The slot is held until the answer's headers: a stream then reads on without blocking others.
        release();
      }
      const reason = retryReason(result);
      if (result.status === 429) {
        stats.rateLimited++;
        limiter.onRateLimited();
      } else {
        limiter.onAnswered();
      }
      const ms = reason === undefined ? undefined : waitBeforeRetry(policy, retry, result.headers);
      if (ms === undefined || options?.signal?.aborted) {
        if (waited > 0) {
          waitedFor.set(result.headers, waited);
        }
        return result;
      }
      // The refused answer's body is not read further: drop its stream, if any, so its connection frees.
      await result.events?.[Symbol.asyncIterator]().return?.();
      stats.waits++;
      stats.waitedMs += ms;
      onWait?.(ms, result);
      const before = performance.now();
      await wait(ms, options?.signal);
      waited += performance.now() - before;
      if (options?.signal?.aborted) {
        return result;
      }
    }
  };
  return wrapPost(inner, post);
}
