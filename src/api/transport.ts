/**
 * One HTTP exchange with the service over the client's undici dispatcher: the key only to the configured
 * origin, timeouts, request log entries, and failures turned into ServiceErrors. Retries and redirects are
 * decided by the callers (get.ts, redirects.ts, client.ts).
 */
import type { Dispatcher } from 'undici';
import type { ServiceBase } from './baseUrl';
import { networkError, ServiceError, type Phase } from './errors';
import { idleTimer } from './sse';
import type { RequestLogEntry } from './types';
import { header, rateLimitHeaders, type Headers } from './headers';
import { l10n } from '../common/plainL10n';

export interface SendRequest {
  method: 'GET' | 'POST';
  url: string;
  key: string;
  /** Secret extra headers, sent like the client's extra headers (never replacing the request's own). */
  secretHeaders?: Record<string, string>;
  redact: (text: string) => string;
  headers?: Record<string, string>;
  body?: string | AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
  attempt?: number;
}

export interface Exchange {
  status: number;
  headers: Headers;
  body: Dispatcher.ResponseData['body'];
  url: string;
  startedAt: number;
  /** When the status line and headers had arrived (performance.now()): the answer's first bytes. */
  headersAt: number;
  requestId?: string;
}

export interface TransportOptions {
  userAgent: string;
  /** Sent with every request, under Authorization, User-Agent and the request's own headers. */
  headers?: Record<string, string>;
  connectMs: number;
  headersMs: number;
  bodyIdleMs: number;
  /** The proxy in use, without credentials (`http://proxy:3128`): failures to reach it are named as its. */
  proxy?: string;
  onRequest?: (entry: RequestLogEntry) => void;
}

const REQUEST_ID_HEADERS = [
  'x-request-id',
  'request-id',
  'x-amzn-requestid',
  'x-ms-request-id',
  'x-correlation-id',
  'cf-ray',
];

export function requestIdOf(headers: Headers): string | undefined {
  for (const h of REQUEST_ID_HEADERS) {
    const s = header(headers, h);
    if (s) {
      return s.length > 200 ? s.slice(0, 200) : s;
    }
  }
  return undefined;
}

/**
 * The client's extra headers without any a request sets itself (compared without case: undici would send
 * `User-Agent` and `user-agent` both), so they can never replace the key, the user agent or the framing.
 */
function extraHeaders(
  extra: Record<string, string> | undefined,
  own: Record<string, string> | undefined,
): Record<string, string> {
  if (!extra) {
    return {};
  }
  const taken = new Set(['authorization', 'user-agent', ...Object.keys(own ?? {}).map((n) => n.toLowerCase())]);
  return Object.fromEntries(Object.entries(extra).filter(([name]) => !taken.has(name.toLowerCase())));
}

function ignore(): void {
  // Deliberately empty.
}

export class Transport {
  constructor(
    readonly base: ServiceBase,
    private readonly dispatcher: Dispatcher,
    readonly options: TransportOptions,
  ) {}

  /** Aborted error when the caller's signal fired, else a network/timeout error for `phase`. */
  failure(e: unknown, phase: Phase, redact: (t: string) => string, signal?: AbortSignal): ServiceError {
    if (e instanceof ServiceError) {
      return e;
    }
    if (signal?.aborted) {
      return new ServiceError({
        kind: 'aborted',
        message: l10n.t('The request was cancelled.'),
        host: this.base.origin,
        cause: e,
      });
    }
    const limit =
      phase === 'connect'
        ? this.options.connectMs
        : phase === 'headers'
          ? this.options.headersMs
          : this.options.bodyIdleMs;
    return networkError(e, this.base.origin, phase, redact, limit, this.options.proxy);
  }

  log(entry: RequestLogEntry, redact: (t: string) => string): void {
    const hook = this.options.onRequest;
    if (!hook) {
      return;
    }
    try {
      const limits = entry.rateLimitHeaders;
      hook({
        ...entry,
        path: redact(entry.path),
        error: entry.error === undefined ? undefined : redact(entry.error),
        ...(limits
          ? { rateLimitHeaders: Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, redact(v)])) }
          : {}),
      });
    } catch {
      // A failing logger must not fail the request.
    }
  }

  /** Logs a finished exchange (its status, time and error, if any) when the client has a request log. */
  logDone(ex: Exchange, method: string, redact: (t: string) => string, error?: string, attempt?: number): void {
    if (!this.options.onRequest) {
      return;
    }
    const u = new URL(ex.url);
    const limits = rateLimitHeaders(ex.headers);
    this.log(
      {
        method,
        path: u.pathname + u.search,
        status: ex.status,
        elapsedMs: Math.round(performance.now() - ex.startedAt),
        requestId: ex.requestId,
        error,
        attempt,
        ...(limits ? { rateLimitHeaders: limits } : {}),
      },
      redact,
    );
  }

  async send(req: SendRequest): Promise<Exchange> {
    const target = new URL(req.url);
    // The one place the key is attached: refuse anything that is not the configured origin.
    if (target.origin !== this.base.origin) {
      throw new ServiceError({
        kind: 'config',
        message: l10n.t(
          'Refused to send a request to {0}: only {1} (the configured service) receives your API key.',
          target.origin,
          this.base.origin,
        ),
        host: this.base.origin,
      });
    }
    if (req.signal?.aborted) {
      throw new ServiceError({
        kind: 'aborted',
        message: l10n.t('The request was cancelled.'),
        host: this.base.origin,
      });
    }
    const path = target.pathname + target.search;
    const startedAt = performance.now();
    let res: Dispatcher.ResponseData;
    try {
      res = await this.dispatcher.request({
        origin: target.origin,
        path,
        method: req.method,
        headers: {
          ...extraHeaders({ ...this.options.headers, ...req.secretHeaders }, req.headers),
          authorization: `Bearer ${req.key}`,
          'user-agent': this.options.userAgent,
          ...req.headers,
        },
        body: req.body as Dispatcher.DispatchOptions['body'],
        signal: req.signal,
        headersTimeout: this.options.headersMs,
        bodyTimeout: this.options.bodyIdleMs,
        // undici follows no redirects here; the client follows GET redirects within the origin itself.
      });
    } catch (e) {
      const err = this.failure(e, 'headers', req.redact, req.signal);
      this.log(
        {
          method: req.method,
          path,
          elapsedMs: Math.round(performance.now() - startedAt),
          error: err.message,
          attempt: req.attempt,
        },
        req.redact,
      );
      throw err;
    }
    const requestId = requestIdOf(res.headers);
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      url: target.href,
      startedAt,
      headersAt: performance.now(),
      requestId: requestId && req.redact(requestId),
    };
  }

  /** Reads the whole body (at most `max` bytes; the rest is dropped and the connection closed). */
  readBody(
    ex: Exchange,
    max: number,
    redact: (t: string) => string,
    signal?: AbortSignal,
  ): Promise<{ text: string; bytes: number; truncated: boolean }> {
    const body = ex.body;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    const idle = idleTimer(body, this.options.bodyIdleMs);
    // 'data' events rather than an async iterator: this runs once per page, 1,000s of times per list.
    return new Promise((resolve, reject) => {
      const finish = (): void => {
        if (idle) {
          clearTimeout(idle);
        }
        body.off('data', onData);
        body.off('end', onEnd);
        body.off('error', onError);
        // A stream destroyed after we are done (truncation, a late reset) must not raise an unhandled error.
        body.on('error', ignore);
      };
      const onData = (chunk: Buffer): void => {
        idle?.refresh();
        if (bytes + chunk.length > max) {
          chunks.push(chunk.subarray(0, max - bytes));
          bytes = max;
          truncated = true;
          onEnd();
          body.destroy();
          return;
        }
        chunks.push(chunk);
        bytes += chunk.length;
      };
      const onEnd = (): void => {
        finish();
        const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, bytes).toString('utf8');
        resolve({ text: redact(text), bytes, truncated });
      };
      const onError = (e: unknown): void => {
        finish();
        reject(this.failure(e, 'body', redact, signal));
      };
      body.on('data', onData);
      body.once('end', onEnd);
      body.once('error', onError);
    });
  }
}
