/**
 * ServiceClient: the Model Access Service over undici. One keep-alive dispatcher per client; the key
 * only ever goes to the configured origin; GETs are retried and follow same-origin redirects, POSTs never.
 * The client orchestrates: the checks before a call are call.ts's, the GET retries and redirects get.ts's,
 * retry.ts's and redirects.ts's, the list paging and its stop rules listPage.ts's.
 */
import { joinUrl, parseBaseUrl, type ServiceBase } from './baseUrl';
import { CallReuse, openCall, type Call } from './call';
import { createDispatcher } from './dispatcher';
import { proxyInUse } from './proxy';
import { httpError, ServiceError, statusText } from './errors';
import { getText } from './get';
import { readModelList } from './listPage';
import { extractSingle, normalizeModel } from './models';
import { getFollowing } from './redirects';
import { retryAfterMs, retryPolicy, type RetryPolicy } from './retry';
import { readEventStream } from './sse';
import { flatHeaders, header, USER_AGENT } from './headers';
import { Transport } from './transport';
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

const DEFAULT_MAX_PAGES = 5000;
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_MODELS = 100_000;
const DEFAULT_MAX_LIST_BYTES = 256 * 1024 * 1024;

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
  private readonly reuse = new CallReuse(this.cut.signal);

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
    const call = await openCall(
      { apiKey: this.options.apiKey, secretHeaders: this.options.secretHeaders, origin: this.base?.origin },
      options?.signal,
      this.reuse,
      options?.secrets,
    );
    return { ...call, transport: this.transport };
  }

  async listModels(options?: ListOptions): Promise<ListModelsResult> {
    const call = await this.begin(options);
    const t = call.transport;
    const limits = { maxPages: this.maxPages, maxModels: this.maxModels, maxListBytes: this.maxListBytes };
    return readModelList(
      joinUrl(t.base, '/v1/models'),
      t.base.origin,
      limits,
      async (url, what) => {
        const { text, ex } = await getText(t, call, this.retry, url, what);
        return { text, url: ex.url, link: ex.headers.link, requestId: ex.requestId };
      },
      options?.onPage,
    );
  }

  /** One `GET /v1/models` (no retries, no paging) for Diagnose Connection: its status or failure, and the time. */
  async probe(options?: CallOptions): Promise<{ status?: number; elapsedMs: number; error?: string }> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      const call = await this.begin(options);
      const ex = await getFollowing(call.transport, call, joinUrl(call.transport.base, '/v1/models'), 1);
      await ex.body.dump().catch(() => undefined);
      call.transport.logDone(ex, 'GET', call.redact, undefined, 1);
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
    const url = joinUrl(t.base, `/v1/models/${encodeURIComponent(id)}`);
    const { text, ex } = await getText(t, call, this.retry, url, what);
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
      firstByteMs: Math.round(ex.headersAt - ex.startedAt),
      contentType,
      requestId: ex.requestId,
    };
    const ok = ex.status >= 200 && ex.status < 300;
    if (ok && /^text\/event-stream/i.test(contentType)) {
      result.elapsedMs = Math.round(performance.now() - ex.startedAt);
      t.logDone(ex, 'POST', call.redact);
      result.events = readEventStream(ex.body, {
        redact: call.redact,
        signal: call.signal,
        idleMs: t.options.bodyIdleMs,
        mapError: (e) => t.failure(e, 'body', call.redact, call.signal),
        onEnd: (outcome) => {
          if (outcome === 'error') {
            t.logDone(ex, 'POST', call.redact, 'the event stream failed');
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
    t.logDone(ex, 'POST', call.redact, result.error?.message);
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
