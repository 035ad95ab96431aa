/**
 * Small HTTP helpers shared by the route handlers: OpenAI-style error bodies, JSON answers and
 * bounded JSON request bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An error a handler throws to answer with `{"error":{"message","type","code","param"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string | null,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code: string | null = null, param: string | null = null): ApiError =>
  new ApiError(400, 'invalid_request_error', code, message, param);

export const modelNotFound = (id: string): ApiError =>
  new ApiError(
    404,
    'invalid_request_error',
    'model_not_found',
    `The model \`${id}\` does not exist or you do not have access to it.`,
    'model',
  );

/** Per-response hooks the fault layer installs (malformed bodies, resets mid-body). */
export interface BodyWriter {
  (res: ServerResponse, status: number, contentType: string, body: string, headers?: Record<string, string>): void;
}

export const plainWriter: BodyWriter = (res, status, contentType, body, headers = {}) => {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': String(bytes.length) });
  res.end(bytes);
};

export function errorBody(err: ApiError, suffix = ''): string {
  return JSON.stringify({ error: { message: err.message + suffix, type: err.type, param: err.param, code: err.code } });
}

/** Largest JSON body the POST endpoints accept; bigger ones get 413 rather than being buffered. */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** Reads and parses a JSON object body, or throws an ApiError a person can act on. */
export async function readJsonObject(
  req: IncomingMessage,
  onBytes: (n: number) => void,
): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type !== '' && !type.startsWith('application/json') && !type.includes('+json')) {
    throw new ApiError(
      415,
      'invalid_request_error',
      'unsupported_media_type',
      `Expected Content-Type application/json, got "${type}".`,
    );
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    onBytes(chunk.length);
    if (total > MAX_JSON_BYTES) {
      throw new ApiError(
        413,
        'invalid_request_error',
        'request_too_large',
        `JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`,
      );
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    throw badRequest('The request body is empty; expected a JSON object.', 'invalid_json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw badRequest(`We could not parse the JSON body of your request: ${(e as Error).message}`, 'invalid_json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('The request body must be a JSON object.', 'invalid_json');
  }
  return parsed as Record<string, unknown>;
}
