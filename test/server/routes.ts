/**
 * Request dispatch: auth first on every path, then the endpoint. Handlers throw ApiError for anything a
 * caller got wrong; the dispatcher turns that into an OpenAI-style error body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, type Caller } from './auth';
import { cardHtml, cardMarkdown } from './cards';
import { hostileCard } from './hostileData';
import { chatAnswer, responsesAnswer, wantsStream, type Answer } from './conversation';
import { renderEntry, renderList, type Dialect } from './dialects';
import { embed, embeddingToBase64, parseEmbeddingRequest, tokens } from './generation';
import { ApiError, badRequest, modelNotFound, readJsonObject, type BodyWriter } from './http';
import type { RequestFaults } from './faults';
import type { GradingRuntime } from './grading';
import type { OrgCatalog, RegistryModel } from './registry';
import type { RateLimitWindows } from './rateLimits';
import { writeEventStream, type StreamOutcome } from './streaming';
import { receiveUpload, type UploadedFile } from './upload';

/** Everything a handler may need, fixed at server start. */
export interface ServerContext {
  dialect: Dialect;
  catalogs: ReadonlyMap<string, OrgCatalog>;
  orgByKey: ReadonlyMap<string, string>;
  pathPrefix: string;
  linkOrigin: string;
  defaultPageSize: number;
  maxPageSize: number;
  pagingLoop: boolean;
  streamDelayMs: number;
  maxUploadBytes: number;
  uploadDir: string;
  onUpload(file: UploadedFile): void;
  /** How list and entry bodies are written: JSON.stringify, or hostile mode's encoder (raw JSON nested deeper than it can write). */
  encodeJson(value: unknown): string;
  /** Hostile mode (hostile.ts); absent otherwise. */
  hostile?: HostileHooks;
  /** Hostile mode's `cards` piece: every Model Card is hostile Markdown (hostileData.ts) instead of a demo card. */
  hostileCards: boolean;
  /** The graders' answers and the answer scripts (grading.ts). */
  grading: GradingRuntime;
  /** The `x-ratelimit-*` headers of POST answers (rateLimits.ts); absent: none sent. */
  rateLimits?: RateLimitWindows;
}

/** What hostile mode plugs into the dispatcher. */
export interface HostileHooks {
  /** Answers the request when hostile mode has its own answer for it; false lets the normal endpoint answer. */
  handle(ctx: ServerContext, ex: Exchange, caller: Caller, catalog: OrgCatalog): Promise<boolean>;
}

/** Per-request state the dispatcher shares with the handlers. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** Path after the prefix, e.g. `/v1/models/acme%2Fsable`. Still percent-encoded. */
  path: string;
  query: URLSearchParams;
  faults: RequestFaults;
  write: BodyWriter;
  headers: Record<string, string>;
  onBodyBytes(n: number): void;
  /** The parsed JSON body of a POST, for the request record. */
  onJson(body: Record<string, unknown>): void;
  /** The text fields of a multipart upload, for the request record. */
  onFields(fields: Record<string, string>): void;
  onCaller(caller: Caller): void;
  onStream(outcome: StreamOutcome): void;
}

const MODELS = '/v1/models';
/** Public Model Cards: `/cards/<id>.md` (Markdown) or `/cards/<id>.html` (a web page) for any model of any organization, no key needed. */
const CARDS = '/cards/';

function serveCard(ctx: ServerContext, ex: Exchange, file: string): void {
  const id = file.replace(/\.(md|html)$/, '');
  const models = [...ctx.catalogs.values()].flatMap((c) => c.models);
  const model = models.find((m) => m.id === id);
  if (!model || !/\.(md|html)$/.test(file)) {
    ex.res.writeHead(404, { 'content-type': 'text/plain' }).end('no such card');
    return;
  }
  // Later versions of a family score a little better on its card.
  const rank = models.filter((m) => m.family === model.family && m.created < model.created).length;
  if (file.endsWith('.html')) {
    const page = ctx.hostileCards ? `<h1>${model.id.replace(/[<&]/g, '')}</h1>` : cardHtml(model, rank);
    ex.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    return;
  }
  const body = ctx.hostileCards ? hostileCard(model) : cardMarkdown(model, rank);
  ex.res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(body);
}
const POST_ENDPOINTS = ['/v1/responses', '/v1/chat', '/v1/embeddings', '/v1/files'];

/** Response header of a chat or responses answer whose request named a `user`: that value, echoed. */
export const END_USER_HEADER = 'x-end-user';

export async function dispatch(ctx: ServerContext, ex: Exchange): Promise<void> {
  const method = ex.req.method ?? 'GET';
  const { path } = ex;
  // Cards are public pages: served with or without a key (tests check the client sends none).
  if (path.startsWith(CARDS) && method === 'GET') {
    ex.req.resume();
    serveCard(ctx, ex, decodeId(path.slice(CARDS.length)));
    return;
  }
  const caller = authenticate(ex.req.headers, ctx.orgByKey);
  ex.onCaller(caller);
  const catalog = ctx.catalogs.get(caller.organization) ?? { models: [], indexById: new Map() };
  if (ctx.hostile !== undefined && (await ctx.hostile.handle(ctx, ex, caller, catalog))) {
    return;
  }

  if (path === MODELS || path.startsWith(`${MODELS}/`)) {
    if (method !== 'GET' && method !== 'HEAD') {
      throw methodNotAllowed(method, path, 'GET');
    }
    ex.req.resume();
    if (path === MODELS) {
      const { body, headers } = renderList(ctx.dialect, {
        catalog,
        query: ex.query,
        listPath: `${ctx.pathPrefix}${MODELS}`,
        linkOrigin: ctx.linkOrigin,
        defaultPageSize: ctx.defaultPageSize,
        maxPageSize: ctx.maxPageSize,
        loop: ctx.pagingLoop,
      });
      sendJson(ex, 200, body, headers, ctx.encodeJson);
      return;
    }
    const id = decodeId(path.slice(MODELS.length + 1));
    sendJson(ex, 200, renderEntry(ctx.dialect, visibleModel(catalog, id)), {}, ctx.encodeJson);
    return;
  }

  if (POST_ENDPOINTS.includes(path)) {
    if (method !== 'POST') {
      throw methodNotAllowed(method, path, 'POST');
    }
    if (path === '/v1/files') {
      const file = await receiveUpload(ex.req, {
        dir: ctx.uploadDir,
        maxBytes: ctx.maxUploadBytes,
        onBytes: ex.onBodyBytes,
        onFields: ex.onFields,
      });
      ctx.onUpload(file);
      sendJson(ex, 200, {
        id: file.id,
        object: 'file',
        bytes: file.bytes,
        created_at: file.created_at,
        filename: file.filename,
        purpose: file.purpose,
        status: 'processed',
        expires_at: null,
      });
      return;
    }
    const body = await readJsonBody(ex);
    const model = requestedModel(catalog, body);
    Object.assign(ex.headers, ctx.rateLimits?.take(caller.organization, tokens(JSON.stringify(body))));
    if (path === '/v1/embeddings') {
      const request = parseEmbeddingRequest(body);
      sendJson(ex, 200, {
        object: 'list',
        data: request.inputs.map((input, index) => {
          const vector =
            ctx.grading.vector(input, request.dimensions, body.dimensions !== undefined) ??
            embed(model.id, input, request.dimensions);
          return { object: 'embedding', index, embedding: request.base64 ? embeddingToBase64(vector) : vector };
        }),
        model: model.id,
        usage: { prompt_tokens: tokens(request.inputs.join('')), total_tokens: tokens(request.inputs.join('')) },
      });
      return;
    }
    const stream = wantsStream(body);
    if (typeof body.user === 'string') {
      // The end user a request names (`user`, as OpenAI's API takes it), echoed the way gateways do: a
      // client that shows response headers must not show a secret a payload put there.
      ex.headers[END_USER_HEADER] = body.user.replace(/[^\x20-\x7e]/g, '?');
    }
    const scripted = path === '/v1/chat' ? ctx.grading.chatText(body) : undefined;
    const pieces = scripted === undefined ? undefined : [scripted];
    const answer: Answer = path === '/v1/chat' ? chatAnswer(model.id, body, pieces) : responsesAnswer(model.id, body);
    if (!stream) {
      sendJson(ex, 200, answer.json);
      return;
    }
    const outcome = await writeEventStream(ex.res, answer.events, {
      delayMs: ctx.streamDelayMs,
      faults: ex.faults,
      headers: ex.headers,
    });
    ex.onStream(outcome);
    return;
  }

  throw new ApiError(404, 'invalid_request_error', 'unknown_url', `Invalid URL (${method} ${ctx.pathPrefix}${path}).`);
}

/** Reads the JSON object body of a POST and hands it to the request record. */
export async function readJsonBody(ex: Exchange): Promise<Record<string, unknown>> {
  const body = await readJsonObject(ex.req, ex.onBodyBytes);
  ex.onJson(body);
  return body;
}

export function sendJson(
  ex: Exchange,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  encode: (value: unknown) => string = JSON.stringify,
): void {
  ex.write(ex.res, status, 'application/json', encode(body), { ...ex.headers, ...headers });
}

export function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`The model id in the path is not valid percent-encoding: "${raw}".`, 'invalid_model_id', 'id');
  }
}

function visibleModel(catalog: OrgCatalog, id: string): RegistryModel {
  const index = catalog.indexById.get(id);
  if (index === undefined) {
    throw modelNotFound(id);
  }
  return catalog.models[index];
}

export function requestedModel(catalog: OrgCatalog, body: Record<string, unknown>): RegistryModel {
  const { model } = body;
  if (model === undefined || model === null || model === '') {
    throw badRequest('Missing required parameter: "model".', 'missing_required_parameter', 'model');
  }
  if (typeof model !== 'string') {
    throw badRequest('"model" must be a string (a model id from GET /v1/models).', 'invalid_type', 'model');
  }
  return visibleModel(catalog, model);
}

function methodNotAllowed(method: string, path: string, allow: string): ApiError {
  return new ApiError(
    405,
    'invalid_request_error',
    'method_not_allowed',
    `${method} is not supported on ${path}; use ${allow}.`,
    null,
    { allow },
  );
}
