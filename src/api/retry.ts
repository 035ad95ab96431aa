/**
 * When and how long to wait before retrying an idempotent request: 429/502/503/504 and connection
 * resets, exponential backoff with jitter, `retry-after-ms` / `Retry-After` honoured, capped in count
 * and time. POSTs never come here.
 */
import { isReset, type ServiceError } from './errors';
import { header, type Headers } from './headers';

export interface RetryPolicy {
  /** Retries after the first attempt. Default 3. */
  max: number;
  /** First backoff step. Default 500 ms. */
  baseDelayMs: number;
  /** Longest single wait; a server asking for longer is not retried. Default 20 s. */
  maxDelayMs: number;
  /** Longest total time spent waiting across retries. Default 60 s. */
  maxTotalMs: number;
}

export function retryPolicy(
  o: { max?: number; baseDelayMs?: number; maxDelayMs?: number; maxTotalMs?: number } = {},
): RetryPolicy {
  const num = (v: number | undefined, d: number): number =>
    typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d;
  return {
    max: Math.floor(num(o.max, 3)),
    baseDelayMs: num(o.baseDelayMs, 500),
    maxDelayMs: num(o.maxDelayMs, 20_000),
    maxTotalMs: num(o.maxTotalMs, 60_000),
  };
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);

/** Milliseconds the server asked to wait (`retry-after-ms`, then `Retry-After` in seconds or as an HTTP date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) {
    return Math.round(Number(ms));
  }
  const after = header(headers, 'retry-after')?.trim();
  if (after === undefined || after === '') {
    return undefined;
  }
  if (/^\d+(\.\d+)?$/.test(after)) {
    return Math.round(Number(after) * 1000);
  }
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether an error of an idempotent request is worth another try, by the rules above. */
export function isRetryable(e: ServiceError, headers: Headers = {}): boolean {
  const should = header(headers, 'x-should-retry')?.trim().toLowerCase();
  if (should === 'false') {
    return false;
  }
  if (e.status !== undefined) {
    if (e.status === 429 && (e.code === 'insufficient_quota' || e.type === 'insufficient_quota')) {
      return false;
    }
    return should === 'true' || RETRY_STATUS.has(e.status);
  }
  return isReset(e);
}

/**
 * How long to wait before retry number `attempt` (1-based), or undefined when the policy says stop:
 * the count is used up, the server asks for longer than `maxDelayMs`, or the total budget is spent.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  serverDelayMs: number | undefined,
  waitedMs: number,
  random = Math.random,
): number | undefined {
  if (attempt > policy.max) {
    return undefined;
  }
  let delay: number;
  if (serverDelayMs !== undefined) {
    if (serverDelayMs > policy.maxDelayMs) {
      return undefined;
    }
    // A little jitter on top so many clients told the same time do not return together.
    delay = serverDelayMs + Math.floor(random() * Math.min(250, policy.baseDelayMs / 2 + 1));
  } else {
    const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    delay = Math.floor(step / 2 + random() * (step / 2));
  }
  if (waitedMs + delay > policy.maxTotalMs) {
    return undefined;
  }
  return delay;
}

/** One try of an idempotent request: its value, or the failure and the headers of the answer (if any). */
export type Attempt<T> = { value: T } | { failure: ServiceError; headers?: Headers };

/**
 * Runs `run` (attempt 1, 2, …) until it gives a value, retrying a failure the rules above call retryable after
 * the wait `policy` allows; throws the last failure otherwise. Cancellations and set-up errors are never retried.
 * `wait` sleeps (it rejects with the failure to report when the caller cancels during a wait).
 */
export async function retrying<T>(
  policy: RetryPolicy,
  run: (attempt: number) => Promise<Attempt<T>>,
  wait: (ms: number) => Promise<void>,
): Promise<T> {
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    const result = await run(attempt);
    if ('value' in result) {
      return result.value;
    }
    const { failure, headers } = result;
    if (failure.kind === 'aborted' || failure.kind === 'config' || !isRetryable(failure, headers)) {
      throw failure;
    }
    const delay = retryDelay(policy, attempt, failure.retryAfterMs, waited);
    if (delay === undefined) {
      throw failure;
    }
    waited += delay;
    await wait(delay);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
