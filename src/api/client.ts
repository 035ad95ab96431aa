/**
 * ServiceClient: the Model Access Service over undici. One keep-alive dispatcher per client; the key
 * only ever goes to the configured origin; GETs are retried and follow same-origin redirects, POSTs never.
 */
import { isLoopbackHost, joinUrl, parseBaseUrl, type ServiceBase } from './baseUrl';
import { createDispatcher } from './dispatcher';
import { displayProxy, type ProxyOptions } from './proxy';
import { httpError, ServiceError, statusText } from './errors';
import { readListPage } from './listPage';
import { extractSingle, normalizeModel } from './models';
import { withParam } from './paging';
import { redactor } from './redact';
import { isRetryable, retryAfterMs, retryDelay, retryPolicy, sleep, type RetryPolicy } from './retry';
import { readEventStream } from './sse';
import { header, USER_AGENT } from './headers';
import { Transport, type Exchange } from './transport';
import type {
  CallOptions,
  ListOptions,
  ListModelsResult,
  ModelEntry,
  ModelService,
  PostResult,
  ServiceClientOptions,
  UploadOptions,
} from './types';
import { multipartFromFile } from './upload';
import type { Dispatcher } from 'undici';

import { isRecord } from '../common/records';
import { l10n } from '../common/plainL10n';

const MAX_REDIRECTS = 5;
const DEFAULT_MAX_PAGES = 5000;
/** One page of a list, or one model, larger than this is refused (a runaway or hostile server). */
const MAX_JSON_PAGE_BYTES = 128 * 1024 * 1024;
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_MODELS = 100_000;
const DEFAULT_MAX_LIST_BYTES = 256 * 1024 * 1024;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

interface Call {
  key: string;
  /** The secret headers' values (ServiceClientOptions.secretHeaders), read with the key. */
  secretHeaders?: Record<string, string>;
  redact: (text: string) => string;
  signal?: AbortSignal;
}

/**
 * The client of the Model Access Service HTTP API. Construction never throws: a bad base URL or CA file
 * makes every call reject with a `config` (or `insecure`) ServiceError before any request is made.
 */
export class ServiceClient implements ModelService {
  private readonly base?: ServiceBase;
  private readonly setupError?: ServiceError;
  private readonly dispatcher?: Dispatcher;
  private readonly transport?: Transport;
  private readonly retry: RetryPolicy;
  private readonly maxPages: number;
  private readonly maxBodyBytes: number;
  private readonly maxModels: number;
  private readonly maxListBytes: number;
  private disposed = false;
  /** Fired when dispose() gives up waiting: undici's destroy() after close() leaves requests in flight running. */
  private readonly cut = new AbortController();

  constructor(private readonly options: ServiceClientOptions) {
    this.retry = retryPolicy(options.retries);
    this.maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES));
    this.maxBodyBytes = Math.max(1, Math.floor(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
    this.maxModels = Math.max(1, Math.floor(options.maxModels ?? DEFAULT_MAX_MODELS));
    this.maxListBytes = Math.max(1, Math.floor(options.maxListBytes ?? DEFAULT_MAX_LIST_BYTES));
    try {
      this.base = parseBaseUrl(options.baseUrl, options.allowInsecureHttp ?? false);
      const t = options.timeouts ?? {};
      const connectMs = t.connectMs ?? 10_000;
      this.dispatcher = createDispatcher({
        connectMs,
        https: !this.base.insecure,
        targetHost: new URL(this.base.origin).hostname,
        proxy: options.proxy,
        tls: options.tls,
      });
      const proxy = proxyInUse(this.base, options.proxy);
      this.transport = new Transport(this.base, this.dispatcher, {
        userAgent: options.userAgent ?? USER_AGENT,
        headers: options.headers,
        connectMs,
        headersMs: t.headersMs ?? 30_000,
        bodyIdleMs: t.bodyIdleMs ?? 30_000,
        proxy,
        onRequest: options.onRequest,
      });
    } catch (e) {
      this.setupError =
        e instanceof ServiceError
          ? e
          : new ServiceError({ kind: 'config', message: l10n.t('The client could not be set up: {0}', String(e)) });
    }
  }

  endpointUrl(path: string): string {
    if (this.base) {
      return joinUrl(this.base, path);
    }
    return `${this.options.baseUrl.trim().replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** Checks the set-up and reads the key; throws `config` errors before any request. */
  private async begin(options?: CallOptions): Promise<Call & { transport: Transport }> {
    if (this.disposed) {
      throw new ServiceError({
        kind: 'config',
        message: l10n.t('This service client was closed (the settings changed); try again.'),
      });
    }
    if (this.setupError || !this.transport) {
      throw this.setupError ?? new ServiceError({ kind: 'config', message: l10n.t('The client is not set up.') });
    }
    let key: string | undefined;
    try {
      key = (await this.options.apiKey())?.trim();
    } catch {
      throw new ServiceError({
        kind: 'config',
        message: l10n.t('The API key could not be read from storage.'),
        host: this.base?.origin,
      });
    }
    if (!key) {
      throw new ServiceError({
        kind: 'config',
        message: l10n.t('No API key is set for {0}.', String(this.base?.origin)),
        host: this.base?.origin,
      });
    }
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw new ServiceError({
        kind: 'config',
        message: l10n.t(
          'The API key contains spaces, line breaks or non-ASCII characters, which cannot be sent in an HTTP header. Set the key again.',
        ),
        host: this.base?.origin,
      });
    }
    let secretHeaders: Record<string, string> | undefined;
    try {
      secretHeaders = await this.options.secretHeaders?.();
    } catch (e) {
      throw e instanceof ServiceError
        ? e
        : new ServiceError({
            kind: 'config',
            message: l10n.t('A secret header could not be read from storage.'),
            host: this.base?.origin,
          });
    }
    if (options?.signal?.aborted) {
      throw new ServiceError({
        kind: 'aborted',
        message: l10n.t('The request was cancelled.'),
        host: this.base?.origin,
      });
    }
    return {
      key,
      secretHeaders,
      redact: redactor([key, ...Object.values(secretHeaders ?? {})]),
      signal: options?.signal ? AbortSignal.any([options.signal, this.cut.signal]) : this.cut.signal,
      transport: this.transport,
    };
  }

  /**
   * GET with retries (429/502/503/504/resets, backoff + jitter, Retry-After) and same-origin redirects.
   * Resolves with the text of a 2xx answer (a reset while reading the body is retried too); throws
   * ServiceError otherwise.
   */
  private async getText(t: Transport, call: Call, url: string, what: string): Promise<{ text: string; ex: Exchange }> {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      let failure: ServiceError;
      let headers: Record<string, string | string[] | undefined> = {};
      let answered: Exchange | undefined;
      try {
        const ex = await this.getFollowing(t, call, url, attempt);
        answered = ex;
        if (ex.status >= 200 && ex.status < 300) {
          const body = await t.readBody(ex, MAX_JSON_PAGE_BYTES, call.redact, call.signal);
          if (body.truncated) {
            throw new ServiceError({
              kind: 'invalidResponse',
              message: l10n.t(
                '{0} from {1} is larger than {2} MB; it was not read.',
                what,
                t.base.origin,
                MAX_JSON_PAGE_BYTES / 1024 / 1024,
              ),
              host: t.base.origin,
              requestId: ex.requestId,
            });
          }
          this.logDone(t, call, 'GET', ex, undefined, attempt);
          return { text: body.text, ex };
        }
        headers = ex.headers;
        const body = await t.readBody(ex, 64 * 1024, call.redact, call.signal);
        failure = httpError({
          status: ex.status,
          headers,
          body: body.text,
          host: t.base.origin,
          requestId: ex.requestId,
          retryAfterMs: retryAfterMs(headers),
          redact: call.redact,
        });
        this.logDone(t, call, 'GET', ex, failure.message, attempt);
      } catch (e) {
        failure = t.failure(e, 'headers', call.redact, call.signal);
        // Failures before the headers are logged by the transport; those while reading the body here.
        if (answered) {
          this.logDone(t, call, 'GET', answered, failure.message, attempt);
        }
      }
      if (failure.kind === 'aborted' || failure.kind === 'config' || !isRetryable(failure, headers)) {
        throw failure;
      }
      const delay = retryDelay(this.retry, attempt, failure.retryAfterMs, waited);
      if (delay === undefined) {
        throw failure;
      }
      waited += delay;
      try {
        await sleep(delay, call.signal);
      } catch (e) {
        throw t.failure(e, 'headers', call.redact, call.signal);
      }
    }
  }

  private async getFollowing(t: Transport, call: Call, start: string, attempt: number): Promise<Exchange> {
    let url = start;
    for (let hops = 0; ; hops++) {
      const ex = await t.send({
        method: 'GET',
        url,
        key: call.key,
        secretHeaders: call.secretHeaders,
        redact: call.redact,
        signal: call.signal,
        attempt,
        headers: { accept: 'application/json' },
      });
      const location = header(ex.headers, 'location');
      if (!REDIRECT.has(ex.status) || location === undefined) {
        return ex;
      }
      this.logDone(t, call, 'GET', ex, undefined, attempt);
      await ex.body.dump().catch(() => undefined);
      let target: URL;
      try {
        target = new URL(location, url);
      } catch {
        throw new ServiceError({
          kind: 'invalidResponse',
          status: ex.status,
          message: l10n.t('The server answered {0} with a redirect that is not a valid URL.', ex.status),
          host: t.base.origin,
        });
      }
      if (target.origin !== t.base.origin) {
        throw new ServiceError({
          kind: 'config',
          status: ex.status,
          requestId: ex.requestId,
          host: t.base.origin,
          redact: call.redact,
          message: l10n.t(
            'The server redirected the request to {0}; it was not followed, so your API key is not sent there. If the service has moved, set the service URL to {0}.',
            target.origin,
          ),
        });
      }
      if (hops >= MAX_REDIRECTS) {
        throw new ServiceError({
          kind: 'http',
          status: ex.status,
          host: t.base.origin,
          message: l10n.t('The server redirected more than {0} times; stopped following.', MAX_REDIRECTS),
        });
      }
      url = target.href;
    }
  }

  private logDone(
    t: Transport,
    call: Call,
    method: string,
    ex: Exchange,
    error: string | undefined,
    attempt?: number,
  ): void {
    if (!t.options.onRequest) {
      return;
    }
    const u = new URL(ex.url);
    t.log(
      {
        method,
        path: u.pathname + u.search,
        status: ex.status,
        elapsedMs: Math.round(performance.now() - ex.startedAt),
        requestId: ex.requestId,
        error,
        attempt,
      },
      call.redact,
    );
  }

  async listModels(options?: ListOptions): Promise<ListModelsResult> {
    const call = await this.begin(options);
    const t = call.transport;
    const models: ModelEntry[] = [];
    const warnings: string[] = [];
    let stoppedAtMaxModels = false;
    let skipped = 0;
    let pages = 0;
    let bytes = 0;
    let url = joinUrl(t.base, '/v1/models');
    const seen = new Set<string>([url]);
    for (;;) {
      const what = pages === 0 ? l10n.t('The model list') : l10n.t('Page {0} of the model list', pages + 1);
      const { text, ex } = await this.getText(t, call, url, what);
      pages++;
      bytes += text.length;
      const page = readListPage(
        text,
        { url: ex.url, link: ex.headers.link, what, host: t.base.origin, requestId: ex.requestId },
        models,
      );
      skipped += page.skipped;
      const next = page.next;
      if (next.kind !== 'end' && options?.onPage && models.length <= this.maxModels) {
        options.onPage(models);
      }
      if (next.kind === 'end') {
        break;
      }
      const nextUrl = next.kind === 'url' ? next.url : withParam(ex.url, next.name, next.value);
      const origin = new URL(nextUrl).origin;
      if (origin !== t.base.origin) {
        warnings.push(
          l10n.t(
            'Stopped after page {0}: the next page is on another origin ({1}), so it was not requested and your API key was not sent there. The list may be incomplete.',
            pages,
            origin,
          ),
        );
        break;
      }
      if (seen.has(nextUrl)) {
        warnings.push(
          l10n.t(
            'Stopped after page {0}: the server sent a next page ({1}) that was already read, which would loop forever. The list may be incomplete.',
            pages,
            next.source,
          ),
        );
        break;
      }
      if (pages >= this.maxPages) {
        warnings.push(
          pages === 1
            ? l10n.t('Stopped after 1 page (the page limit); the list may be incomplete.')
            : l10n.t('Stopped after {0} pages (the page limit); the list may be incomplete.', pages),
        );
        break;
      }
      if (models.length >= this.maxModels) {
        warnings.push(
          models.length === 1
            ? l10n.t(
                'Stopped after 1 model (the limit set by modelAccess.limits.maxModels); the list may be incomplete.',
              )
            : l10n.t(
                'Stopped after {0} models (the limit set by modelAccess.limits.maxModels); the list may be incomplete.',
                models.length,
              ),
        );
        stoppedAtMaxModels = true;
        break;
      }
      if (bytes >= this.maxListBytes) {
        const mb = Math.round(this.maxListBytes / 1024 / 1024);
        warnings.push(
          pages === 1
            ? l10n.t(
                'Stopped after 1 page: the list passed {0} MB (the limit set by modelAccess.limits.maxListMegabytes); it may be incomplete.',
                mb,
              )
            : l10n.t(
                'Stopped after {0} pages: the list passed {1} MB (the limit set by modelAccess.limits.maxListMegabytes); it may be incomplete.',
                pages,
                mb,
              ),
        );
        break;
      }
      seen.add(nextUrl);
      url = nextUrl;
    }
    if (models.length > this.maxModels) {
      if (!stoppedAtMaxModels) {
        // More than the limit means at least 2, so no message for one model.
        warnings.push(
          l10n.t(
            'Showing the first {0} of {1} models (the limit set by modelAccess.limits.maxModels).',
            this.maxModels,
            models.length,
          ),
        );
      }
      models.length = this.maxModels;
    }
    return { models, skipped, warnings, pages };
  }

  /** One `GET /v1/models` (no retries, no paging) for Diagnose Connection: its status or failure, and the time. */
  async probe(options?: CallOptions): Promise<{ status?: number; elapsedMs: number; error?: string }> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      const call = await this.begin(options);
      const ex = await this.getFollowing(call.transport, call, joinUrl(call.transport.base, '/v1/models'), 1);
      await ex.body.dump().catch(() => undefined);
      this.logDone(call.transport, call, 'GET', ex, undefined, 1);
      return { status: ex.status, elapsedMs: elapsed() };
    } catch (e) {
      return { elapsedMs: elapsed(), error: e instanceof Error ? e.message : String(e) };
    }
  }

  async getModel(id: string, options?: CallOptions): Promise<ModelEntry> {
    if (typeof id !== 'string' || id.trim() === '') {
      throw new ServiceError({ kind: 'config', message: l10n.t('A model id is required.') });
    }
    const call = await this.begin(options);
    const t = call.transport;
    const what = l10n.t('The entry of model "{0}"', id);
    const { text, ex } = await this.getText(t, call, joinUrl(t.base, `/v1/models/${encodeURIComponent(id)}`), what);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new ServiceError({
        kind: 'invalidResponse',
        message: l10n.t(
          '{0} from {1} is not valid JSON ({2}).',
          what,
          t.base.origin,
          e instanceof Error ? e.message.slice(0, 120) : '',
        ),
        host: t.base.origin,
        requestId: ex.requestId,
      });
    }
    const entry = extractSingle(json);
    const model = normalizeModel(entry) ?? (isRecord(entry) ? normalizeModel({ ...entry, id }) : undefined);
    if (model === undefined) {
      throw new ServiceError({
        kind: 'invalidResponse',
        message: l10n.t('The answer for model "{0}" from {1} is not a model entry.', id, t.base.origin),
        host: t.base.origin,
        requestId: ex.requestId,
      });
    }
    model.raw = entry;
    return model;
  }

  async post(endpoint: string, body: unknown, options?: CallOptions & { stream?: boolean }): Promise<PostResult> {
    const call = await this.begin(options);
    let text: string;
    if (typeof body === 'string') {
      text = body;
    } else {
      let payload = body;
      if (options?.stream !== undefined && isRecord(body) && !('stream' in body)) {
        payload = { ...body, stream: options.stream };
      }
      try {
        text = JSON.stringify(payload ?? null);
      } catch (e) {
        throw new ServiceError({
          kind: 'config',
          message: l10n.t(
            'The request body cannot be encoded as JSON: {0}',
            e instanceof Error ? e.message : String(e),
          ),
        });
      }
    }
    const accept = options?.stream
      ? 'text/event-stream, application/json;q=0.9, */*;q=0.5'
      : 'application/json, text/event-stream;q=0.9, */*;q=0.5';
    return this.sendPost(call, endpoint, text, { 'content-type': 'application/json', accept });
  }

  async uploadFile(path: string, options: UploadOptions): Promise<PostResult> {
    const call = await this.begin(options);
    const fields: Record<string, string> = { purpose: options.purpose, ...options.fields };
    const mp = await multipartFromFile({
      path,
      filename: options.filename,
      mimeType: options.mimeType,
      fields,
      onProgress: options.onProgress,
      signal: options.signal,
    });
    return this.sendPost(call, '/v1/files', mp.body, {
      'content-type': mp.contentType,
      'content-length': String(mp.contentLength),
      accept: 'application/json',
    });
  }

  /** One POST, never retried, redirects not followed; resolves for every HTTP answer (see PostResult.error). */
  private async sendPost(
    call: Call & { transport: Transport },
    endpoint: string,
    body: string | AsyncIterable<Uint8Array>,
    headers: Record<string, string>,
  ): Promise<PostResult> {
    const t = call.transport;
    const ex = await t.send({
      method: 'POST',
      url: joinUrl(t.base, endpoint),
      key: call.key,
      secretHeaders: call.secretHeaders,
      redact: call.redact,
      signal: call.signal,
      headers,
      body,
    });
    const contentType = header(ex.headers, 'content-type') ?? '';
    const result: PostResult = {
      status: ex.status,
      statusText: statusText(ex.status),
      headers: flatHeaders(ex.headers, call.redact),
      elapsedMs: 0,
      contentType,
      requestId: ex.requestId,
    };
    const ok = ex.status >= 200 && ex.status < 300;
    if (ok && /^text\/event-stream/i.test(contentType)) {
      result.elapsedMs = Math.round(performance.now() - ex.startedAt);
      this.logDone(t, call, 'POST', ex, undefined);
      result.events = readEventStream(ex.body, {
        redact: call.redact,
        signal: call.signal,
        idleMs: t.options.bodyIdleMs,
        mapError: (e) => t.failure(e, 'body', call.redact, call.signal),
        onEnd: (outcome) => {
          if (outcome === 'error') {
            this.logDone(t, call, 'POST', ex, 'the event stream failed');
          }
        },
      });
      return result;
    }
    const read = await t.readBody(ex, this.maxBodyBytes, call.redact, call.signal);
    result.elapsedMs = Math.round(performance.now() - ex.startedAt);
    result.body = { text: read.text, bytes: read.bytes, truncated: read.truncated };
    if (/[/+]json\b/i.test(contentType) && !read.truncated) {
      try {
        result.body.json = JSON.parse(read.text);
      } catch {
        result.error = new ServiceError({
          kind: 'invalidResponse',
          status: ex.status,
          message: l10n.t("The server's answer says it is JSON but is not valid JSON."),
          host: t.base.origin,
          requestId: ex.requestId,
        });
      }
    }
    if (!ok) {
      result.error = httpError({
        status: ex.status,
        headers: ex.headers,
        body: read.text,
        host: t.base.origin,
        requestId: ex.requestId,
        retryAfterMs: retryAfterMs(ex.headers),
        redact: call.redact,
      });
    }
    this.logDone(t, call, 'POST', ex, result.error?.message);
    return result;
  }

  /** Closes the connections: in-flight requests get a short grace period, then are cut. */
  async dispose(): Promise<void> {
    const d = this.dispatcher;
    if (!d || this.disposed) {
      return;
    }
    this.disposed = true;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), 1000);
      timer.unref();
    });
    const outcome = await Promise.race([
      d.close().then(
        () => 'closed' as const,
        () => 'closed' as const,
      ),
      grace,
    ]);
    clearTimeout(timer);
    if (outcome === 'late') {
      this.cut.abort();
      await d.destroy().catch(() => undefined);
    }
  }
}

/** The proxy the client's requests go through (without credentials), or undefined when none. */
function proxyInUse(base: ServiceBase, proxy: ProxyOptions | undefined): string | undefined {
  if (!proxy?.url || proxy.bypass || isLoopbackHost(new URL(base.origin).hostname)) {
    return undefined;
  }
  return displayProxy(proxy.url);
}

function flatHeaders(
  headers: Record<string, string | string[] | undefined>,
  redact: (t: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) {
      out[k] = redact(Array.isArray(v) ? v.join(', ') : v);
    }
  }
  return out;
}
