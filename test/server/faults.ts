/**
 * Fault injection, so the client's retry, timeout and error paths meet the failures real services and
 * proxies produce. Every fault takes a `FaultSpec`: `first: N` hits the first N matching requests (a
 * deterministic "429 then success"), `rate: p` hits each matching request with probability p from a
 * seeded generator (reproducible runs). `paths` limits faults to some endpoints (prefix match on the path
 * after the server's path prefix, e.g. `/v1/models`).
 */
import type { ServerResponse } from 'node:http';
import { plainWriter, type BodyWriter } from './http';

export interface FaultSpec {
  /** Probability in [0, 1] that a matching request gets the fault. */
  rate?: number;
  /** The first N matching requests get the fault. */
  first?: number;
}

export interface RetryingFaultSpec extends FaultSpec {
  /** `Retry-After` value in seconds (default 1; 0 is allowed and means "retry now"). */
  retryAfterSeconds?: number;
}

export interface FaultOptions {
  /** Added before anything is answered, on every matching request (slow headers). */
  latencyMs?: number;
  /** 429 `rate_limit_exceeded` with `Retry-After`. */
  rateLimit?: RetryingFaultSpec;
  /** 500 `server_error`. */
  serverError?: FaultSpec;
  /** 503 `service_unavailable` (overloaded), with `Retry-After` when `retryAfterSeconds` is set. */
  unavailable?: RetryingFaultSpec;
  /** 502 with an HTML page, as a reverse proxy in front of the service would send. */
  htmlError?: FaultSpec;
  /** The request is read but never answered (until the client gives up or the server closes). */
  hang?: FaultSpec;
  /** Successful JSON answers are cut in half (status 200, `application/json`, invalid JSON); streams get a broken event. */
  malformedJson?: FaultSpec;
  /** Headers and part of the body are sent, then the socket is destroyed. */
  resetMidBody?: FaultSpec;
  /** Error messages repeat the presented API key verbatim (tests the client's redaction). */
  echoKey?: boolean;
  /** Prefixes of paths the faults apply to; all paths when absent or empty. */
  paths?: string[];
  /** Seed of the generator behind `rate` (default 1). */
  seed?: number;
}

export type EarlyFault = 'hang' | 'rateLimit' | 'unavailable' | 'serverError' | 'htmlError';

/** What the fault layer decided for one request. */
export interface RequestFaults {
  latencyMs: number;
  early?: EarlyFault;
  malformedJson: boolean;
  resetMidBody: boolean;
  echoKey: boolean;
}

const NO_FAULTS: RequestFaults = { latencyMs: 0, malformedJson: false, resetMidBody: false, echoKey: false };

export class FaultPlan {
  private matched = 0;
  private readonly random: () => number;

  constructor(private readonly options: FaultOptions = {}) {
    this.random = mulberry32(options.seed ?? 1);
  }

  /** Decides the faults of one request; counts it towards `first: N` when the path matches. */
  decide(path: string): RequestFaults {
    const o = this.options;
    const paths = o.paths ?? [];
    if (paths.length > 0 && !paths.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))) {
      return { ...NO_FAULTS, echoKey: o.echoKey ?? false };
    }
    const n = ++this.matched;
    const hits = (spec: FaultSpec | undefined): boolean => {
      if (!spec) {
        return false;
      }
      // Draw even when `first` already decided, so adding a `first` fault does not shift later draws.
      const draw = spec.rate !== undefined && spec.rate > 0 ? this.random() < spec.rate : false;
      return (spec.first !== undefined && n <= spec.first) || draw;
    };
    const order: [EarlyFault, FaultSpec | undefined][] = [
      ['hang', o.hang],
      ['rateLimit', o.rateLimit],
      ['unavailable', o.unavailable],
      ['serverError', o.serverError],
      ['htmlError', o.htmlError],
    ];
    let early: EarlyFault | undefined;
    for (const [kind, spec] of order) {
      if (hits(spec) && early === undefined) {
        early = kind;
      }
    }
    return {
      latencyMs: o.latencyMs ?? 0,
      early,
      malformedJson: hits(o.malformedJson),
      resetMidBody: hits(o.resetMidBody),
      echoKey: o.echoKey ?? false,
    };
  }

  retryAfter(kind: 'rateLimit' | 'unavailable'): number | undefined {
    const spec = kind === 'rateLimit' ? this.options.rateLimit : this.options.unavailable;
    return spec?.retryAfterSeconds ?? (kind === 'rateLimit' ? 1 : undefined);
  }
}

/** Answers an early fault. Returns false for `hang`, which deliberately answers nothing. */
export function sendEarlyFault(res: ServerResponse, kind: EarlyFault, plan: FaultPlan, requestId: string): boolean {
  const json = (
    status: number,
    type: string,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ): void =>
    plainWriter(
      res,
      status,
      'application/json',
      JSON.stringify({ error: { message, type, param: null, code } }),
      headers,
    );
  switch (kind) {
    case 'hang':
      return false;
    case 'rateLimit': {
      const after = plan.retryAfter('rateLimit') ?? 1;
      json(429, 'requests', 'rate_limit_exceeded', `Rate limit reached for requests. Please try again in ${after}s.`, {
        'retry-after': String(after),
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': `${after}s`,
      });
      return true;
    }
    case 'unavailable': {
      const after = plan.retryAfter('unavailable');
      json(
        503,
        'server_error',
        'service_unavailable',
        'The server is overloaded. Please retry your request after a brief wait.',
        after === undefined ? {} : { 'retry-after': String(after) },
      );
      return true;
    }
    case 'serverError':
      json(
        500,
        'server_error',
        'server_error',
        `The server had an error while processing your request. Contact us with request ID ${requestId} if the error persists.`,
      );
      return true;
    case 'htmlError':
      plainWriter(
        res,
        502,
        'text/html; charset=utf-8',
        '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body></html>\n',
      );
      return true;
  }
}

/** A body writer that applies the body faults decided for this request to successful answers. */
export function faultyWriter(faults: RequestFaults): BodyWriter {
  if (!faults.malformedJson && !faults.resetMidBody) {
    return plainWriter;
  }
  return (res, status, contentType, body, headers = {}) => {
    if (status >= 300) {
      plainWriter(res, status, contentType, body, headers);
      return;
    }
    const bytes = Buffer.from(body, 'utf8');
    if (faults.resetMidBody) {
      // Promise the whole body, deliver half, then cut the connection: the client sees a reset mid-body.
      res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), () => res.socket?.destroy());
      return;
    }
    plainWriter(
      res,
      status,
      contentType,
      bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))).toString('utf8'),
      headers,
    );
  };
}

/** Small seeded PRNG (mulberry32): reproducible fault sequences without a dependency. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
