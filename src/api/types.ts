/**
 * The contract between the core (src/api/, no VS Code) and everything that uses it.
 * Implementations live in the sibling modules; the VS Code glue codes against these shapes.
 */

import type { TlsOptions } from './dispatcher';
import type { ServiceError } from './errors';
import type { ProxyOptions } from './proxy';

/** One model as the extension understands it, whatever names the server used. */
export interface ModelEntry {
  id: string;
  family?: string;
  version?: string;
  /** Only absolute http(s) URLs are kept. */
  cardUrl?: string;
  /** The entry exactly as the server sent it. */
  raw: unknown;
}

export interface ListModelsResult {
  models: ModelEntry[];
  /** Entries dropped because they had no usable identifier. */
  skipped: number;
  /** Non-fatal problems (page cap reached, repeated cursor, cross-origin next link refused...). */
  warnings: string[];
  pages: number;
}

export type PostEndpoint = '/v1/responses' | '/v1/chat' | '/v1/embeddings';

export interface ServerSentEvent {
  event?: string;
  data: string;
  id?: string;
  /** `data` parsed as JSON when it is JSON, else undefined. */
  json?: unknown;
}

/**
 * The events of a `text/event-stream` answer, read once: one at a time (`for await`), or as one array per
 * chunk from the network (`batches()`), which spares an await per event on fast streams.
 */
export interface EventStream extends AsyncIterable<ServerSentEvent> {
  batches(): AsyncIterable<readonly ServerSentEvent[]>;
}

export interface PostResult {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** Milliseconds from sending to the end of the body (or to headers, for streams). */
  elapsedMs: number;
  /**
   * Milliseconds from sending to the answer's status line and headers (its first bytes). The time to the
   * last byte is `elapsedMs` for a whole body; a stream's reader measures its end.
   */
  firstByteMs?: number;
  contentType: string;
  /** Present when the answer is not an event stream. */
  body?: {
    json?: unknown;
    text: string;
    bytes: number;
    truncated: boolean;
  };
  /**
   * Present when the answer is `text/event-stream`: the events as they arrive. It ends on `data: [DONE]`,
   * at the end of the stream, or (without an error) when the call's signal aborts; breaking out of the
   * loop closes the connection. A reset or idle timeout throws a ServiceError. Iterate it (or call
   * `return()`): an unread stream holds its connection.
   */
  events?: EventStream;
  requestId?: string;
  /**
   * `post`/`uploadFile` resolve for every HTTP answer. For a non-2xx status (or a JSON content type whose
   * body does not parse) this is the ServiceError the same answer would have thrown elsewhere.
   */
  error?: ServiceError;
}

/** One line of the request log: never carries headers, bodies or the key. */
export interface RequestLogEntry {
  method: string;
  /** Path and query relative to the origin, e.g. `/api/v1/models?after=x`. */
  path: string;
  status?: number;
  elapsedMs: number;
  requestId?: string;
  /** Short description of a failure (already redacted). */
  error?: string;
  attempt?: number;
  /**
   * The answer's rate-limit headers (`x-ratelimit-*`, `ratelimit-*`, `retry-after`), as sent: counts and
   * times, never a secret. Absent when the answer had none.
   */
  rateLimitHeaders?: Record<string, string>;
}

export interface ServiceClientOptions {
  /** The service's `{base_url}`; may carry a path prefix and a pasted `/v1` suffix. */
  baseUrl: string;
  /** Called before each request; undefined means "no key configured". */
  apiKey: () => Promise<string | undefined>;
  /** Defaults to `model-access-vscode/<version>`. */
  userAgent?: string;
  /**
   * Extra headers sent with every request of this client (a gateway's organization or project header).
   * They never replace Authorization or User-Agent, and go only where the key goes: the configured origin.
   */
  headers?: Record<string, string>;
  /**
   * Headers whose values are secrets, read before each request like the key (after it: never sent without
   * it). Their values are scrubbed from errors, headers and bodies of answers like the key. A rejection
   * with a ServiceError (a value not set yet) fails the call before anything is sent.
   */
  secretHeaders?: () => Promise<Record<string, string>>;
  timeouts?: { connectMs?: number; headersMs?: number; bodyIdleMs?: number };
  /** The proxy chosen for the service (`proxy.ts`, from VS Code's http.* settings or the environment). */
  proxy?: ProxyOptions;
  /** Trusted roots (OS store, extra PEM files) and a client certificate (`dispatcher.ts`, `trust.ts`). */
  tls?: TlsOptions;
  /** Allow plain http:// to a non-loopback host (off by default). */
  allowInsecureHttp?: boolean;
  /** Stop following pages after this many (a warning says so). */
  maxPages?: number;
  /** GET retries (POSTs are never retried). Defaults: max 3, baseDelayMs 500, maxDelayMs 20000, maxTotalMs 60000. */
  retries?: { max?: number; maxDelayMs?: number; baseDelayMs?: number; maxTotalMs?: number };
  /** Bodies larger than this are cut (with `truncated: true`). */
  maxBodyBytes?: number;
  /** Stop following pages once the list holds this many models (a warning says so). Default 100,000. */
  maxModels?: number;
  /** Stop following pages once the pages read add up to this many bytes (a warning says so). Default 256 MiB. */
  maxListBytes?: number;
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Secrets the request carries besides the key (the values of a payload's `{{$env NAME}}`): removed, like the
   * key, from everything the call hands back — headers, body, stream events, errors and log lines — so a
   * service that echoes them (a header repeating the request's `user`) shows them nowhere. Values shorter than
   * MIN_CALL_SECRET are left (removing them would shred ordinary text, as the Redactor does).
   */
  secrets?: readonly string[];
}

export interface ListOptions extends CallOptions {
  /**
   * Called after each page with every model read so far (the same array, growing: copy what you keep), so
   * a view can show the first page while the rest is still being read.
   */
  onPage?: (modelsSoFar: readonly ModelEntry[]) => void;
}

export interface UploadOptions extends CallOptions {
  purpose: string;
  filename?: string;
  mimeType?: string;
  fields?: Record<string, string>;
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

/**
 * What the VS Code glue uses. `ServiceClient` in client.ts implements it; errors are thrown as
 * `ServiceError` (errors.ts) with `kind`, `status`, `code`, `type`, `message`, `requestId`, `retryAfterMs`.
 */
export interface ModelService {
  /** Absolute URL of `/v1/...` under the base URL, for display and cURL export. */
  endpointUrl(path: string): string;
  listModels(options?: ListOptions): Promise<ListModelsResult>;
  /** Throws ServiceError with kind `notFound` when the model is unknown or not visible. */
  getModel(id: string, options?: CallOptions): Promise<ModelEntry>;
  /** `body` is sent as is when it is a string (already JSON text), else JSON-encoded. */
  post(
    endpoint: PostEndpoint | string,
    body: unknown,
    options?: CallOptions & { stream?: boolean },
  ): Promise<PostResult>;
  uploadFile(path: string, options: UploadOptions): Promise<PostResult>;
  /** One `GET /v1/models` without retries or paging, for Diagnose Connection. */
  probe?(options?: CallOptions): Promise<{ status?: number; elapsedMs: number; error?: string }>;
  dispose(): Promise<void>;
}
