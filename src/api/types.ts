/**
 * The contract between the core (src/api/, no VS Code) and everything that uses it.
 * Implementations live in the sibling modules; the VS Code glue codes against these shapes.
 */

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

export interface PostResult {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** Milliseconds from sending to the end of the body (or to headers, for streams). */
  elapsedMs: number;
  contentType: string;
  /** Present when the answer is not an event stream. */
  body?: {
    json?: unknown;
    text: string;
    bytes: number;
    truncated: boolean;
  };
  /** Present when the answer is `text/event-stream`: the events as they arrive. */
  events?: AsyncIterable<ServerSentEvent>;
  requestId?: string;
}

export type ServiceErrorKind =
  | 'http' // the server answered with a non-2xx status
  | 'unauthorized' // 401 / 403
  | 'notFound' // 404
  | 'rateLimited' // 429 after retries
  | 'network' // refused, DNS, reset, TLS
  | 'timeout'
  | 'aborted'
  | 'invalidResponse' // malformed JSON, unexpected shape
  | 'config' // invalid base URL, insecure http origin, no key
  | 'insecure';
