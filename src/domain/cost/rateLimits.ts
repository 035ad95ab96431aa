/**
 * The rate limits an answer's headers report: `x-ratelimit-limit-requests`, `x-ratelimit-remaining-requests`,
 * the same for `-tokens`, `x-ratelimit-reset-requests` / `-tokens` (a duration such as "6m0s", "1s", "20ms", a
 * number of seconds, an epoch time or a date), the unsuffixed `x-ratelimit-limit` / `-remaining` / `-reset`
 * (counted in requests, GitHub style) and `retry-after` (seconds or an HTTP date). Malformed or lying values —
 * a negative or fractional count, more remaining than the limit, a reset in the past — are left out: nothing
 * here is ever made up. Pure; no `vscode` import.
 */
import { retryAfterMs } from '../../api/retry';
import { header } from '../../api/headers';
import { l10n } from '../../common/plainL10n';

export interface RateLimits {
  remainingRequests?: number;
  limitRequests?: number;
  remainingTokens?: number;
  limitTokens?: number;
  /** Epoch milliseconds. */
  resetRequestsAt?: number;
  /** Epoch milliseconds. */
  resetTokensAt?: number;
  /** How long the service asked to wait before the next request (a 429's `retry-after`). */
  retryAfterMs?: number;
  /** Epoch milliseconds: when these headers were read. */
  seenAt: number;
}

type HeaderValues = Record<string, string | string[] | undefined>;

/** A reset further away than this is not believed (a misread unit, a date in another century). */
const MAX_RESET_MS = 31 * 24 * 3600 * 1000;

function countOf(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) {
    return undefined;
  }
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** "6m0s", "1h2m3.5s", "20ms", "1.5s" → milliseconds (Go's time.Duration text, as OpenAI sends it). */
export function parseDurationText(text: string): number | undefined {
  const t = text.trim();
  if (!/^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(t)) {
    return undefined;
  }
  const factor: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };
  let ms = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) {
    ms += Number(m[1]) * factor[m[2]];
  }
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * When a limit resets, in epoch milliseconds: a duration ("6m0s"), a number of seconds ("30", "0.5"), an epoch
 * time in seconds or milliseconds, or a date. Undefined when malformed, in the past or absurdly far.
 */
export function resetTime(value: string | undefined, now: number): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const v = value.trim();
  let at: number | undefined;
  const duration = parseDurationText(v);
  if (duration !== undefined) {
    at = now + duration;
  } else if (/^\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    // An epoch time (seconds since 2001, or milliseconds) rather than a delay.
    at = n >= 1e12 ? n : n >= 1e9 ? n * 1000 : now + n * 1000;
  } else if (/[a-z]/i.test(v) && /\d{4}|\d{2}:\d{2}/.test(v)) {
    const parsed = Date.parse(v);
    at = Number.isNaN(parsed) ? undefined : parsed;
  }
  if (at === undefined || !Number.isFinite(at) || at < now || at - now > MAX_RESET_MS) {
    return undefined;
  }
  return Math.round(at);
}

/** The limits an answer's headers report, or undefined when they report none that can be believed. */
export function readRateLimits(headers: HeaderValues, now: number): RateLimits | undefined {
  const h = (name: string) => header(headers, name);
  const limits: RateLimits = { seenAt: now };
  const limitRequests = countOf(h('x-ratelimit-limit-requests')) ?? countOf(h('x-ratelimit-limit'));
  const remainingRequests = countOf(h('x-ratelimit-remaining-requests')) ?? countOf(h('x-ratelimit-remaining'));
  const limitTokens = countOf(h('x-ratelimit-limit-tokens'));
  const remainingTokens = countOf(h('x-ratelimit-remaining-tokens'));
  const resetRequestsAt = resetTime(h('x-ratelimit-reset-requests') ?? h('x-ratelimit-reset'), now);
  const resetTokensAt = resetTime(h('x-ratelimit-reset-tokens'), now);
  if (limitRequests !== undefined && limitRequests > 0) {
    limits.limitRequests = limitRequests;
  }
  // More remaining than the limit is a lie one of the two tells: the remaining count is not believed.
  if (
    remainingRequests !== undefined &&
    (limits.limitRequests === undefined || remainingRequests <= limits.limitRequests)
  ) {
    limits.remainingRequests = remainingRequests;
  }
  if (limitTokens !== undefined && limitTokens > 0) {
    limits.limitTokens = limitTokens;
  }
  if (remainingTokens !== undefined && (limits.limitTokens === undefined || remainingTokens <= limits.limitTokens)) {
    limits.remainingTokens = remainingTokens;
  }
  if (resetRequestsAt !== undefined) {
    limits.resetRequestsAt = resetRequestsAt;
  }
  if (resetTokensAt !== undefined) {
    limits.resetTokensAt = resetTokensAt;
  }
  const after =
    h('retry-after') !== undefined || h('retry-after-ms') !== undefined ? retryAfterMs(headers, now) : undefined;
  // A retry-after date in the past asks for no wait at all: nothing to report.
  if (after !== undefined && after > 0 && after <= MAX_RESET_MS) {
    limits.retryAfterMs = after;
  }
  return Object.keys(limits).length > 1 ? limits : undefined;
}

/**
 * The limits to keep after a new answer: the new ones, except a remaining count that grew before the reset the
 * previous answer announced — answers of concurrent requests arrive out of order, and a count that grows
 * within its window is not the newest: the lower, earlier count is kept. Values the new answer does not
 * report are not carried over from the old one (they may no longer hold).
 */
export function nextRateLimits(previous: RateLimits | undefined, seen: RateLimits | undefined): RateLimits | undefined {
  if (!seen) {
    return previous;
  }
  if (!previous) {
    return seen;
  }
  const next: RateLimits = { ...seen };
  const keep = (remaining: 'remainingRequests' | 'remainingTokens', reset: 'resetRequestsAt' | 'resetTokensAt') => {
    const before = previous[remaining];
    const now = seen[remaining];
    const resetAt = previous[reset];
    if (before !== undefined && now !== undefined && now > before && resetAt !== undefined && seen.seenAt < resetAt) {
      next[remaining] = before;
      next[reset] = resetAt;
    }
  };
  keep('remainingRequests', 'resetRequestsAt');
  keep('remainingTokens', 'resetTokensAt');
  return next;
}

/** The requests still allowed at `now`: undefined when unknown or when the window they were counted in is over. */
export function requestsLeft(limits: RateLimits | undefined, now: number): number | undefined {
  if (limits?.remainingRequests === undefined) {
    return undefined;
  }
  if (limits.resetRequestsAt !== undefined && now >= limits.resetRequestsAt) {
    return undefined;
  }
  return limits.remainingRequests;
}

/** "2 s", "6 min 0 s", "350 ms". */
export function formatWait(ms: number): string {
  if (ms < 1000) {
    return l10n.t('{0} ms', Math.max(0, Math.round(ms)));
  }
  const s = Math.round(ms / 1000);
  return s < 60 ? l10n.t('{0} s', s) : l10n.t('{0} min {1} s', Math.floor(s / 60), s % 60);
}

/**
 * The limits in one line: "requests: 59 of 60 left (resets in 1 s); tokens: 149000 of 150000 left (resets in
 * 6 min 0 s); retry after 2 s". A reset already past at `now` is not shown.
 */
export function formatRateLimits(limits: RateLimits | undefined, now: number): string {
  if (!limits) {
    return l10n.t('no rate limits reported');
  }
  const parts: string[] = [];
  const one = (what: string, remaining?: number, limit?: number, resetAt?: number) => {
    if (remaining === undefined && limit === undefined) {
      return;
    }
    let text =
      remaining !== undefined && limit !== undefined
        ? l10n.t('{0}: {1} of {2} left', what, remaining, limit)
        : remaining !== undefined
          ? l10n.t('{0}: {1} left', what, remaining)
          : l10n.t('{0}: limit {1}', what, limit ?? 0);
    if (resetAt !== undefined && resetAt > now) {
      text = l10n.t('{0} (resets in {1})', text, formatWait(resetAt - now));
    }
    parts.push(text);
  };
  one(l10n.t('requests'), limits.remainingRequests, limits.limitRequests, limits.resetRequestsAt);
  one(l10n.t('tokens'), limits.remainingTokens, limits.limitTokens, limits.resetTokensAt);
  if (limits.retryAfterMs !== undefined) {
    parts.push(l10n.t('retry after {0}', formatWait(limits.retryAfterMs)));
  }
  return parts.length === 0 ? l10n.t('no rate limits reported') : parts.join('; ');
}
