/**
 * Which answers to a check's POST are retried, and after how long: 429 (but not `insufficient_quota`, which
 * waiting does not cure) and 503, after the `retry-after-ms` / `retry-after` the service asked for, capped;
 * without either, 1 s, 2 s, 4 s… Nothing else is retried: a POST may have cost tokens. Pure; no `vscode` import.
 */
import { retryAfterMs } from '../../api/retry';
import type { PostResult } from '../../api/types';

export interface PostRetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The longest single wait; a longer request is shortened to this. */
  maxWaitMs: number;
  /** The first wait when the service names none; doubled each time. */
  baseWaitMs: number;
}

export const DEFAULT_POST_RETRY: PostRetryPolicy = { maxRetries: 5, maxWaitMs: 30_000, baseWaitMs: 1000 };

export type RetryReason = 'rateLimited' | 'unavailable';

/** Why this answer is worth another try, or undefined. */
export function retryReason(r: Pick<PostResult, 'status' | 'error'>): RetryReason | undefined {
  if (r.status === 503) {
    return 'unavailable';
  }
  if (r.status !== 429) {
    return undefined;
  }
  const quota = r.error?.code === 'insufficient_quota' || r.error?.type === 'insufficient_quota';
  return quota ? undefined : 'rateLimited';
}

/** How long to wait before retry number `retry` (1-based), or undefined when the retries are used up. */
export function waitBeforeRetry(
  policy: PostRetryPolicy,
  retry: number,
  headers: Record<string, string>,
  now = Date.now(),
): number | undefined {
  if (retry > policy.maxRetries) {
    return undefined;
  }
  const asked = retryAfterMs(headers, now);
  const wait = asked ?? policy.baseWaitMs * 2 ** (retry - 1);
  return Math.min(Math.max(0, wait), policy.maxWaitMs);
}
