import { version } from '../../package.json';

/** What the extension sends as User-Agent: to the service, and for Model Cards. */
export const USER_AGENT = `model-access-vscode/${version}`;

/** Response headers as undici gives them: lower-case names, a repeated header as an array. */
export type Headers = Record<string, string | string[] | undefined>;

/**
 * A header's value; of a repeated header the first (the headers read here — Content-Type, Location,
 * Retry-After, error codes — are single-valued, and a second copy is more likely injected than meant).
 */
export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The headers of an answer as one string each (repeated ones joined), redacted, for PostResult. */
export function flatHeaders(headers: Headers, redact: (t: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) {
      out[k] = redact(Array.isArray(v) ? v.join(', ') : v);
    }
  }
  return out;
}

/** A rate-limit header's name: `x-ratelimit-*`, the draft standard's `ratelimit-*`, `retry-after`. */
const RATE_LIMIT_HEADER = /^(?:x-)?ratelimit-|^retry-after$/;

/**
 * The rate-limit headers of an answer (first value of each, at most 200 characters), for the last-seen limits of
 * an environment; undefined when it sent none. Counts and times only: nothing here is a secret.
 */
export function rateLimitHeaders(headers: Headers): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const name of Object.keys(headers)) {
    const value = header(headers, name);
    if (value !== undefined && RATE_LIMIT_HEADER.test(name.toLowerCase())) {
      (out ??= {})[name.toLowerCase()] = value.slice(0, 200);
    }
  }
  return out;
}
