/**
 * The `x-ratelimit-*` headers the local service sends on every answer to a POST, as OpenAI does: the limits
 * of the caller's organization per minute, what remains of them in the current window, and when each resets
 * (Go duration text, "59.2s"). Only reported, never enforced: refusals come from the fault plan (faults.ts).
 */
const WINDOW_MS = 60_000;

export interface RateLimitOptions {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

interface Window {
  startedAt: number;
  requests: number;
  tokens: number;
}

export class RateLimitWindows {
  private readonly windows = new Map<string, Window>();
  private readonly requests: number;
  private readonly tokens: number;

  constructor(
    options: RateLimitOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.requests = options.requestsPerMinute ?? 600;
    this.tokens = options.tokensPerMinute ?? 1_000_000;
  }

  /** Counts one request of `organization` that reads about `tokens` tokens; the headers of its answer. */
  take(organization: string, tokens: number): Record<string, string> {
    const now = this.now();
    let w = this.windows.get(organization);
    if (!w || now - w.startedAt >= WINDOW_MS) {
      w = { startedAt: now, requests: 0, tokens: 0 };
      this.windows.set(organization, w);
    }
    w.requests++;
    w.tokens += tokens;
    const reset = `${(Math.max(0, w.startedAt + WINDOW_MS - now) / 1000).toFixed(1).replace(/\.0$/, '')}s`;
    return {
      'x-ratelimit-limit-requests': String(this.requests),
      'x-ratelimit-remaining-requests': String(Math.max(0, this.requests - w.requests)),
      'x-ratelimit-reset-requests': reset,
      'x-ratelimit-limit-tokens': String(this.tokens),
      'x-ratelimit-remaining-tokens': String(Math.max(0, this.tokens - w.tokens)),
      'x-ratelimit-reset-tokens': reset,
    };
  }
}
