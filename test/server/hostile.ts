/**
 * Hostile mode of the local service (`startServer({ hostile: true })`, `npm run serve -- --hostile`): a
 * registry, error bodies and answers full of text that must stay text (command links, `$(icon)`, forged log
 * lines, bidi overrides, HTML, the caller's key escaped in ways JSON.stringify never writes), plus answers and
 * model lists that never end. What is served is described in hostileData.ts; this file is the behaviour.
 *
 * Everything is reached through two organizations: `hostile` (the hostile registry, errors and answers) and
 * `endless` (a model list that never ends). Other organizations are served exactly as without hostile mode.
 */
import { randomBytes } from 'node:crypto';
import type { Caller } from './auth';
import { chatAnswer, responsesAnswer, wantsStream } from './conversation';
import { renderEntry, type Dialect } from './dialects';
import { badRequest } from './http';
import {
  ENDLESS_ORG,
  HOSTILE,
  HOSTILE_IDS,
  HOSTILE_ORG,
  jsonEscapeAll,
  jsonEscapeLikeOthers,
  type HostileModelPieces,
} from './hostileData';
import type { OrgCatalog, RegistryModel } from './registry';
import {
  decodeId,
  readJsonBody,
  requestedModel,
  sendJson,
  type Exchange,
  type HostileHooks,
  type ServerContext,
} from './routes';
import { drainOrClose, formatEvent, writeEventStream, type StreamOutcome } from './streaming';

/**
 * Which pieces of hostile mode are on. `hostile: true` turns every piece on; an object turns on only the
 * pieces set to `true` (`{ ...ALL_HOSTILE_PIECES, deepEntry: false }` for "all but"). The `hostile`
 * organization and its normal models exist whatever the pieces.
 */
export interface HostileOptions {
  /** The hostile organization's hostile entries: text tricks in id/family/version/description, colliding ids, bad card links. */
  models?: boolean;
  /** An entry (`deep-10000`) whose raw field `nested` is 10,000 arrays deep (≈ 20 KB). */
  deepEntry?: boolean;
  /** Error bodies with command links, `$(…)`, newlines, bidi and the key `\/`-escaped: `inspect-404`, `inspect-500`, unknown ids. */
  errors?: boolean;
  /** POST /v1/chat and /v1/responses answers made of hostile text, echoing the key (`\uXXXX`-escaped, or split across two deltas). */
  answers?: boolean;
  /**
   * With `answers`: the hostile answers also echo the key in derived forms — base64 (standard and URL-safe,
   * padded or not, at each alignment), hex, HTML character references, split by zero-width characters and
   * by NUL (`derivedKeyEchoes`) — and header `x-hostile-echo-derived` carries its base64 and hex.
   */
  derivedKeys?: boolean;
  /** Model `endless`: POST /v1/chat and /v1/responses never end (streamed or not), as fast as the client reads. */
  endlessStream?: boolean;
  /** Organization `endless`: GET /v1/models always has a next page, never repeating, with large pages. */
  endlessList?: boolean;
  /**
   * Every Model Card (`/cards/<id>.md`) is hostile Markdown: a command link, raw HTML and a bidi override after
   * the model's facts; model `card-bypass` gets the card made of the former sanitizer's bypasses. Without it
   * cards are the demo's.
   */
  cards?: boolean;
  /** Entries per page of the endless list, whatever the client asks. Default 1000. */
  endlessPageSize?: number;
}

export type HostilePieces = Required<Omit<HostileOptions, 'endlessPageSize'>>;

export const ALL_HOSTILE_PIECES: Readonly<HostilePieces> = Object.freeze({
  models: true,
  deepEntry: true,
  errors: true,
  answers: true,
  derivedKeys: true,
  endlessStream: true,
  endlessList: true,
  cards: true,
});

/** One endless answer (stream or JSON body); the counters move while it runs. */
export interface EndlessWrite {
  path: string;
  stream: boolean;
  /** Bytes handed to the socket so far. */
  bytes: number;
  /** Events (stream) or deltas (body) written so far. */
  events: number;
  /** Most bytes ever waiting in the response's own buffer: stays near 32 KB however slowly the client reads. */
  maxBuffered: number;
  startedAt: number;
  /** When the server stopped writing (the client went away or the server closed). */
  endedAt?: number;
}

/** `server.hostile`: where to find the hostile pieces, and live counters of the endless ones. */
export interface HostileInfo {
  pieces: Readonly<HostilePieces>;
  /** `hostile`: the organization with the hostile registry, errors and answers. */
  organization: string;
  /** Its key (`server.keys.hostile`): by default `sk-hostile/<24 hex>+x`, with a `/` and a `+` to escape. */
  key: string;
  /** `endless` when `endlessList` is on. */
  endlessOrganization?: string;
  endlessKey?: string;
  endlessPageSize: number;
  /** Pages of the endless list served so far. */
  endlessPages: number;
  /** Every endless answer, in start order. */
  endlessWrites: EndlessWrite[];
}

export interface ResolvedHostile {
  pieces: HostilePieces;
  endlessPageSize: number;
}

export function resolveHostile(option: boolean | HostileOptions | undefined): ResolvedHostile | undefined {
  if (option === undefined || option === false) {
    return undefined;
  }
  if (option === true) {
    return { pieces: { ...ALL_HOSTILE_PIECES }, endlessPageSize: 1000 };
  }
  const pieces = Object.fromEntries(
    Object.keys(ALL_HOSTILE_PIECES).map((k) => [k, option[k as keyof HostilePieces] === true]),
  ) as unknown as HostilePieces;
  const size = option.endlessPageSize ?? 1000;
  if (!Number.isInteger(size) || size < 1) {
    throw new Error(`hostile.endlessPageSize must be a positive integer; got ${size}`);
  }
  return { pieces, endlessPageSize: size };
}

export function modelPieces(h: ResolvedHostile): HostileModelPieces {
  const { models, deepEntry, errors, endlessStream, endlessList } = h.pieces;
  return { models, deepEntry, errors, endlessStream, endlessList };
}

/** Fresh keys for the hostile organizations: a `/` (written `\/` by some encoders) and a `+` (written `\u002b`). */
export function hostileKeys(h: ResolvedHostile): Record<string, string> {
  const keys: Record<string, string> = { [HOSTILE_ORG]: `sk-hostile/${randomBytes(12).toString('hex')}+x` };
  if (h.pieces.endlessList) {
    keys[ENDLESS_ORG] = `sk-endless/${randomBytes(12).toString('hex')}+x`;
  }
  return keys;
}

/** The key in two halves, as the streamed answers send it (two consecutive deltas). */
export function splitKey(key: string): [string, string] {
  const half = Math.ceil(key.length / 2);
  return [key.slice(0, half), key.slice(half)];
}

const ANSWER_PIECES: readonly string[] = [
  'Here is what the service says: ',
  HOSTILE.commandLink,
  ' ',
  HOSTILE.zenLink,
  ' ',
  HOSTILE.newFileLink,
  ' ',
  HOSTILE.icon,
  ' ',
  HOSTILE.forgedLogLine,
  ' ',
  HOSTILE.carriageReturn,
  ' ',
  HOSTILE.bidi,
  ' ',
  HOSTILE.zeroWidth,
  ' ',
  HOSTILE.quotes,
  ' ',
  HOSTILE.html,
  ' ',
  HOSTILE.ansi,
  ' ',
];

/**
 * The deltas of a hostile answer (piece `answers`) for a caller presenting `key`; the answer text is their
 * concatenation. The key is split across two consecutive deltas. Non-streamed answers carry the same text, with
 * the key written in the JSON body with every character `\uXXXX`-escaped. With `derivedOf` (piece
 * `derivedKeys`) the text goes on with that key's derived forms (`derivedKeyEchoes`).
 */
export function hostileAnswerPieces(key: string, derivedOf?: string): string[] {
  const derived = derivedOf === undefined ? [] : [' Also: ', ...derivedKeyEchoes(derivedOf)];
  return [...ANSWER_PIECES, 'API key: ', ...splitKey(key), '.', ...derived];
}

/** The message of a hostile error body (piece `errors`) once parsed; in the raw body the key is written `\/` / `\u002b`-escaped. */
export function hostileErrorMessage(status: 404 | 500, id: string, key: string): string {
  const what =
    status === 404
      ? `The model \`${id}\` does not exist or you do not have access to it.`
      : `The model \`${id}\` failed.`;
  return `${what} ${HOSTILE.commandLink} ${HOSTILE.icon}\n2026-01-01 [error] forged by the service ${HOSTILE.bidi} ${HOSTILE.zeroWidth} (API key: ${key})`;
}

/**
 * The key in the derived forms a hostile service may echo it in (piece `derivedKeys`), each labelled, so a
 * client that searches only for the key and its escapes shows it: base64 of the key after 0, 1 and 2 other
 * bytes (standard, URL-safe, padded and not), hex in both cases, HTML references (decimal and hex), the
 * key split by each zero-width character and by NUL.
 */
export function derivedKeyEchoes(key: string): string[] {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const urlSafe = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const hex = Buffer.from(key, 'utf8').toString('hex');
  return [
    `basic ${b64(`user:${key}`)}`,
    `base64 ${b64(key)}`,
    `base64-1 ${b64(`x${key}`)}`,
    `base64-2 ${b64(`xy${key}z`).replace(/=+$/, '')}`,
    `base64url ${urlSafe(b64(`${key}?`))}`,
    `base64url-1 ${urlSafe(b64(`{${key}}`))}`,
    `hex ${hex} HEX ${hex.toUpperCase()}`,
    `html ${[...key].map((c) => `&#${c.charCodeAt(0)};`).join('')}`,
    `html-hex ${[...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')}`,
    ...['\u200B', '\u200C', '\u200D', '\uFEFF', '\u2060', '\u0000'].map(
      (c) => `split-${c.charCodeAt(0).toString(16)} ${[...key].join(c)}`,
    ),
  ].map((form) => `${form} `);
}

/**
 * What a reader can recover from `text`: the text with splitters taken out (also as the CLI shows them: NUL as
 * ␀, the others as `<U+200B>`, XML-escaped in the report) and HTML references decoded, then every base64 and
 * hex run decoded — all of it, to search for the key in what a client wrote (the inverse of
 * `derivedKeyEchoes`).
 */
export function recoverable(text: string): string {
  const plain = text
    .replace(/(?:<|&lt;)U\+(?:200B|200C|200D|FEFF|2060)(?:>|&gt;)/g, '')
    .replace(/[\u0000\u200B\u200C\u200D\uFEFF\u2060\u2400]/g, '')
    .replace(/&#[xX]([0-9a-fA-F]+);?/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#([0-9]+);?/g, (_m, d: string) => String.fromCharCode(parseInt(d, 10)));
  const base64 = (plain.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []).map((run) =>
    Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'),
  );
  // Hex at both nibble alignments.
  const hex = (plain.match(/[0-9a-fA-F]{12,}/g) ?? []).flatMap((run) => [
    Buffer.from(run.slice(0, run.length - (run.length % 2)), 'hex').toString('latin1'),
    Buffer.from(run.slice(1, run.length - ((run.length - 1) % 2)), 'hex').toString('latin1'),
  ]);
  return [plain, ...base64, ...hex].join('\n');
}

/** Header of the hostile answers with piece `derivedKeys`: the key's base64 and hex. */
export const HOSTILE_DERIVED_ECHO_HEADER = 'x-hostile-echo-derived';

/** Response header of every hostile answer (piece `answers`), carrying the caller's key in plain text. */
export const HOSTILE_ECHO_HEADER = 'x-hostile-echo';

/** Stands for the key while a body is encoded, then replaced by an escaped form of it. */
const KEY_MARK = '@@hostile-key@@';

function hostileErrorBody(status: 404 | 500, id: string, key: string): string {
  const body = {
    error: {
      message: hostileErrorMessage(status, id, KEY_MARK),
      type: status === 404 ? 'invalid_request_error' : 'server_error',
      param: 'model',
      code: status === 404 ? 'model_not_found' : 'server_error',
    },
  };
  const escaped = jsonEscapeLikeOthers(key);
  return JSON.stringify(body).replaceAll(KEY_MARK, () => escaped);
}

/** What the endless answers say, over and over. */
const ENDLESS_DELTAS: readonly string[] = [
  'endless ',
  'words ',
  'keep ',
  'coming ',
  HOSTILE.commandLink,
  ' ',
  HOSTILE.forgedLogLine,
  ' ',
  HOSTILE.bidi,
  ' ',
];
const ENDLESS_DELTAS_JSON = ENDLESS_DELTAS.map((d) => JSON.stringify(d));
/** Bytes gathered before each write of an endless answer. */
const ENDLESS_CHUNK = 16 * 1024;

const ENDLESS_FAMILIES = ['ash', 'birch', 'cedar', 'elm', 'fir'];
const ENDLESS_ID = /^endless\/(\d+)\/(\d+)$/;

export class HostileRuntime implements HostileHooks {
  readonly info: HostileInfo;

  constructor(
    readonly resolved: ResolvedHostile,
    keys: Record<string, string>,
  ) {
    const { pieces } = resolved;
    this.info = {
      pieces,
      organization: HOSTILE_ORG,
      key: keys[HOSTILE_ORG],
      ...(pieces.endlessList ? { endlessOrganization: ENDLESS_ORG, endlessKey: keys[ENDLESS_ORG] } : {}),
      endlessPageSize: resolved.endlessPageSize,
      endlessPages: 0,
      endlessWrites: [],
    };
  }

  async handle(ctx: ServerContext, ex: Exchange, caller: Caller, catalog: OrgCatalog): Promise<boolean> {
    const { pieces } = this.resolved;
    const method = ex.req.method ?? 'GET';
    const read = method === 'GET' || method === 'HEAD';
    const entryPath = ex.path.startsWith('/v1/models/');

    if (caller.organization === ENDLESS_ORG && pieces.endlessList && read) {
      if (ex.path === '/v1/models') {
        ex.req.resume();
        this.endlessList(ctx, ex);
        return true;
      }
      const match = entryPath ? ENDLESS_ID.exec(decodeId(ex.path.slice('/v1/models/'.length))) : null;
      if (match) {
        ex.req.resume();
        sendJson(ex, 200, renderEntry(ctx.dialect, endlessModel(Number(match[1]), Number(match[2]))));
        return true;
      }
      return false;
    }
    if (caller.organization !== HOSTILE_ORG) {
      return false;
    }

    if (pieces.errors && read && entryPath) {
      const id = decodeId(ex.path.slice('/v1/models/'.length));
      const status = this.errorStatus(catalog, id);
      if (status === undefined) {
        return false;
      }
      ex.req.resume();
      ex.write(ex.res, status, 'application/json', hostileErrorBody(status, id, caller.key), ex.headers);
      return true;
    }

    const conversation = ex.path === '/v1/chat' || ex.path === '/v1/responses';
    if (method !== 'POST' || !conversation || !(pieces.errors || pieces.answers || pieces.endlessStream)) {
      return false;
    }
    // From here on the body is read, so this answers whatever it finds, like the normal endpoint would.
    const body = await readJsonBody(ex);
    if (pieces.errors && typeof body.model === 'string' && body.model !== '') {
      const status = this.errorStatus(catalog, body.model);
      if (status !== undefined) {
        ex.write(ex.res, status, 'application/json', hostileErrorBody(status, body.model, caller.key), ex.headers);
        return true;
      }
    }
    const model = requestedModel(catalog, body);
    const stream = wantsStream(body);
    const chat = ex.path === '/v1/chat';
    if (pieces.endlessStream && model.id === HOSTILE_IDS.endless) {
      // Validates the rest of the body (messages / input) before anything is sent.
      const opening = chat ? chatAnswer(model.id, body, []) : responsesAnswer(model.id, body, []);
      ex.onStream(
        await this.endless(
          ex,
          chat,
          stream,
          opening.events.map((e) => e.data),
        ),
      );
      return true;
    }
    if (pieces.answers) {
      // A header is one more place a client shows to a person (a response's headers view): it must redact there too.
      ex.headers[HOSTILE_ECHO_HEADER] = `API key: ${caller.key}`;
    }
    if (pieces.answers && pieces.derivedKeys) {
      const hex = Buffer.from(caller.key, 'utf8').toString('hex');
      ex.headers[HOSTILE_DERIVED_ECHO_HEADER] =
        `${Buffer.from(`user:${caller.key}`).toString('base64')} ${hex} ${hex.toUpperCase()}`;
    }
    const answerPieces = pieces.answers
      ? hostileAnswerPieces(stream ? caller.key : KEY_MARK, pieces.derivedKeys ? caller.key : undefined)
      : undefined;
    const answer = chat ? chatAnswer(model.id, body, answerPieces) : responsesAnswer(model.id, body, answerPieces);
    if (!stream) {
      const escaped = jsonEscapeAll(caller.key);
      ex.write(
        ex.res,
        200,
        'application/json',
        JSON.stringify(answer.json).replaceAll(KEY_MARK, () => escaped),
        ex.headers,
      );
      return true;
    }
    ex.onStream(
      await writeEventStream(ex.res, answer.events, {
        delayMs: ctx.streamDelayMs,
        faults: ex.faults,
        headers: ex.headers,
      }),
    );
    return true;
  }

  /** 404 or 500 when this id gets a hostile error, else undefined. */
  private errorStatus(catalog: OrgCatalog, id: string): 404 | 500 | undefined {
    if (id === HOSTILE_IDS.inspect404 || !catalog.indexById.has(id)) {
      return 404;
    }
    return id === HOSTILE_IDS.inspect500 ? 500 : undefined;
  }

  /** One page of the endless list, in the server's dialect; the next page is always a new one. */
  private endlessList(ctx: ServerContext, ex: Exchange): void {
    const size = this.resolved.endlessPageSize;
    const page = endlessPageOf(ctx.dialect, ex.query);
    const entries = Array.from({ length: size }, (_, i) => renderEntry(ctx.dialect, endlessModel(page, i)));
    const listPath = `${ctx.pathPrefix}/v1/models`;
    this.info.endlessPages++;
    switch (ctx.dialect) {
      case 'openai':
        sendJson(ex, 200, {
          object: 'list',
          data: entries,
          has_more: true,
          first_id: endlessId(page, 0),
          last_id: endlessId(page, size - 1),
        });
        return;
      case 'array': {
        const next = new URL(listPath, ctx.linkOrigin);
        next.searchParams.set('limit', String(size));
        next.searchParams.set('cursor', endlessCursor(page + 1));
        sendJson(ex, 200, entries, { link: `<${next.href}>; rel="next"` });
        return;
      }
      case 'models':
        sendJson(ex, 200, { models: entries, next_page_token: endlessCursor(page + 1) });
        return;
      case 'link': {
        const rel = (n: number, name: string): string => `<${listPath}?page=${n}&per_page=${size}>; rel="${name}"`;
        const links = [rel(1, 'first'), ...(page > 1 ? [rel(page - 1, 'prev')] : []), rel(page + 1, 'next')];
        sendJson(ex, 200, { data: entries }, { link: links.join(', ') });
        return;
      }
    }
  }

  /**
   * Writes an answer that never ends, ~16 KB per write, waiting for 'drain' whenever the socket is behind and
   * yielding to the event loop between writes; stops as soon as the client goes away (or the server closes).
   */
  private async endless(ex: Exchange, chat: boolean, stream: boolean, opening: string[]): Promise<StreamOutcome> {
    const { res } = ex;
    const stats: EndlessWrite = { path: ex.path, stream, bytes: 0, events: 0, maxBuffered: 0, startedAt: Date.now() };
    this.info.endlessWrites.push(stats);
    const first = JSON.parse(opening[0]) as {
      id?: string;
      created?: number;
      created_at?: number;
      response?: { id: string; created_at: number };
    };
    let head: string;
    let piece: (i: number) => string;
    if (stream) {
      res.writeHead(200, {
        ...ex.headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      if (chat) {
        head = formatEvent({ data: opening[0] });
        const prefix = `data: {"id":"${first.id}","object":"chat.completion.chunk","created":${first.created},"model":"${HOSTILE_IDS.endless}","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":`;
        const suffix = '},"logprobs":null,"finish_reason":null}]}\n\n';
        piece = (i) => `${prefix}${ENDLESS_DELTAS_JSON[i % ENDLESS_DELTAS_JSON.length]}${suffix}`;
      } else {
        // created, in_progress, output_item.added, content_part.added; then deltas numbered on from there.
        const types = [
          'response.created',
          'response.in_progress',
          'response.output_item.added',
          'response.content_part.added',
        ];
        head = opening
          .slice(0, 4)
          .map((data, i) => formatEvent({ event: types[i], data }))
          .join('');
        const itemId = (JSON.parse(opening[3]) as { item_id: string }).item_id;
        const prefix = `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"${itemId}","output_index":0,"content_index":0,"delta":`;
        piece = (i) =>
          `${prefix}${ENDLESS_DELTAS_JSON[i % ENDLESS_DELTAS_JSON.length]},"logprobs":[],"sequence_number":${i + 4}}\n\n`;
      }
    } else {
      res.writeHead(200, { ...ex.headers, 'content-type': 'application/json' });
      head = chat
        ? `{"id":"${first.id}","object":"chat.completion","created":${first.created},"model":"${HOSTILE_IDS.endless}","choices":[{"index":0,"message":{"role":"assistant","content":"`
        : `{"id":"${first.response?.id}","object":"response","created_at":${first.response?.created_at},"status":"completed","model":"${HOSTILE_IDS.endless}","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"`;
      piece = (i) => ENDLESS_DELTAS_JSON[i % ENDLESS_DELTAS_JSON.length].slice(1, -1);
    }
    res.flushHeaders();
    const gone = (): boolean => res.destroyed || res.socket === null || res.socket.destroyed;
    let text = head;
    let i = 0;
    while (!gone()) {
      const start = i;
      while (text.length < ENDLESS_CHUNK) {
        text += piece(i++);
      }
      const flushed = res.write(text);
      stats.bytes += Buffer.byteLength(text);
      stats.events += i - start;
      stats.maxBuffered = Math.max(stats.maxBuffered, res.writableLength);
      text = '';
      if (flushed) {
        // The socket took it at once: still let the event loop run (closes, other requests) before the next write.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else {
        await drainOrClose(res);
      }
    }
    stats.endedAt = Date.now();
    return 'aborted';
  }
}

function endlessId(page: number, i: number): string {
  return `endless/${page}/${i}`;
}

function endlessModel(page: number, i: number): RegistryModel {
  return {
    id: endlessId(page, i),
    family: ENDLESS_FAMILIES[i % ENDLESS_FAMILIES.length],
    version: String(page),
    organization: ENDLESS_ORG,
    model_card_url: `https://cards.example/endless/${page}/${i}`,
    created: 1767225600 + page,
  };
}

function endlessCursor(page: number): string {
  return Buffer.from(`endless:${page}`, 'utf8').toString('base64url');
}

/** The page a request of the endless list asks for (1 when it names none). */
function endlessPageOf(dialect: Dialect, query: URLSearchParams): number {
  const fromCursor = (param: string, raw: string | null): number => {
    if (raw === null || raw === '') {
      return 1;
    }
    const m = /^endless:(\d+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
    if (!m) {
      throw badRequest(`Invalid "${param}": ${JSON.stringify(raw)}.`, 'invalid_cursor', param);
    }
    return Number(m[1]);
  };
  switch (dialect) {
    case 'openai': {
      const after = query.get('after');
      if (after === null || after === '') {
        return 1;
      }
      const m = ENDLESS_ID.exec(after);
      if (!m) {
        throw badRequest(`No model with id \`${after}\` to page after.`, 'invalid_cursor', 'after');
      }
      return Number(m[1]) + 1;
    }
    case 'array':
      return fromCursor('cursor', query.get('cursor'));
    case 'models':
      return fromCursor('page_token', query.get('page_token') ?? query.get('pageToken'));
    case 'link': {
      const raw = query.get('page') ?? '1';
      const page = Number(raw);
      if (!Number.isInteger(page) || page < 1) {
        throw badRequest(`"page" must be a positive integer, got "${raw}".`, 'invalid_page', 'page');
      }
      return page;
    }
  }
}
