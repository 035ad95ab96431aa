/**
 * The local Model Access Service: a real `node:http` server on 127.0.0.1 used by the unit and integration
 * tests, the benchmarks and the demo. Start it with `startServer(options)`; the CLI (`cli.ts`) is a thin
 * wrapper around the same function.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { presentedKey } from './auth';
import type { Dialect } from './dialects';
import { FaultPlan, faultyWriter, sendEarlyFault, type FaultOptions } from './faults';
import {
  HostileRuntime,
  hostileKeys,
  modelPieces,
  resolveHostile,
  type HostileInfo,
  type HostileOptions,
} from './hostile';
import { GradingRuntime, type GradingOptions } from './grading';
import { RateLimitWindows } from './rateLimits';
import { encodeJson, withHostileModels } from './hostileData';
import { ApiError, errorBody, plainWriter } from './http';
import {
  indexByOrganization,
  keysFor,
  loadRegistry,
  withGeneratedModels,
  type Registry,
  type RegistryModel,
} from './registry';
import { applyRegistryChanges, type RegistryChangeSet } from './registryChanges';
import { dispatch, type ServerContext } from './routes';
export { CARD_MARKER } from './cards';
export { END_USER_HEADER } from './routes';
import { sleepUnlessClosed } from './streaming';
import type { UploadedFile } from './upload';

export {
  DEMO_KEYS,
  DEFAULT_REGISTRY_PATH,
  loadRegistry,
  withGeneratedModels,
  type Registry,
  type RegistryModel,
} from './registry';
export { DIALECTS, isDialect, type Dialect } from './dialects';
export type { FaultOptions, FaultSpec, RetryingFaultSpec } from './faults';
export type { UploadedFile } from './upload';
export type { GradingOptions } from './grading';
export {
  ALL_HOSTILE_PIECES,
  HOSTILE_ECHO_HEADER,
  HOSTILE_DERIVED_ECHO_HEADER,
  derivedKeyEchoes,
  recoverable,
  hostileAnswerPieces,
  hostileErrorMessage,
  splitKey,
  type EndlessWrite,
  type HostileInfo,
  type HostileOptions,
  type HostilePieces,
} from './hostile';
export {
  CARD_BYPASS_ID,
  CARD_BYPASS_MARKDOWN,
  ENDLESS_ORG,
  HOSTILE,
  HOSTILE_COMMANDS,
  HOSTILE_DEEP_DEPTH,
  HOSTILE_IDS,
  HOSTILE_ORG,
  HOSTILE_STRINGS,
  RawJson,
  jsonEscapeAll,
  jsonEscapeLikeOthers,
} from './hostileData';

export interface ServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port; read it from `url`). */
  port?: number;
  /** Listing dialect, fixed for the server's life. Default `openai`. */
  dialect?: Dialect;
  /** A registry object or the path of a registry JSON file. Default `registry.json` beside this file. */
  registry?: Registry | string;
  /** Replace the first organization's models with this many generated ones (scale work). */
  models?: number;
  /** API key per organization, overriding the demo keys (e.g. a unique canary key per test run). */
  keys?: Record<string, string>;
  /** Page size when the client does not ask for one. Default 10, so paging is always exercised. */
  pageSize?: number;
  /** Largest page a client may ask for; larger requests are clamped. Default 1000. */
  maxPageSize?: number;
  /** Adversarial paging: from page 2 on, every next cursor/link points at page 2 again (a client must notice the repeat). */
  pagingLoop?: boolean;
  /**
   * Path prefix before `/v1`, e.g. `/api`, to test base URLs that carry a path. Default none. Several
   * prefixes (two teams on one gateway: `['/team-a', '/team-b']`) serve the same registry and keys under
   * each; `url` carries the first.
   */
  pathPrefix?: string | readonly string[];
  /** Origin put in absolute `Link` URLs (array dialect). Default the server's own; set another to test cross-origin refusal. */
  linkOrigin?: string;
  /** Delay between streamed events. Default 0. */
  streamDelayMs?: number;
  /** Upload size cap in bytes; larger uploads get 413. Default 2 GiB. */
  maxUploadBytes?: number;
  /** Where uploads are stored. Default a fresh temp directory, removed on close. */
  uploadDir?: string;
  faults?: FaultOptions;
  /**
   * Hostile mode: adds organization `hostile` (hostile registry, error bodies and answers) and,
   * with `endlessList`, organization `endless`. `true` turns every piece on; an object only the pieces set to
   * `true`. Other organizations are served as without it. See hostile.ts and test/README.md.
   */
  hostile?: boolean | HostileOptions;
  /** One line per finished request (method, path, status, time). Never includes keys or bodies. */
  log?: (line: string) => void;
  /**
   * Point every `https://cards.example/…` card of the registry at this service's own `/cards/<id>.md`, so
   * Preview Model Card works offline (the demo). Default false: tests route cards.example themselves.
   */
  localCards?: boolean;
  /** Word embeddings and scripted answers for the checks' graders and repeats (grading.ts). */
  grading?: GradingOptions;
}

export interface RecordedRequest {
  /** The `x-request-id` sent back. */
  requestId: string;
  method: string;
  /** Path and query as received, prefix included. */
  url: string;
  /** Path after the path prefix, without the query, still percent-encoded (`/v1/chat`, `/v1/models/a%2Fb`). */
  path: string;
  /** Whether an Authorization header was present (its value is never recorded). */
  authorization: boolean;
  /** Every request header as received, names in lower case, except `authorization` (see above). */
  headers: Record<string, string>;
  /** The parsed JSON body of a POST to /v1/chat, /v1/responses or /v1/embeddings, once read. */
  json?: Record<string, unknown>;
  /** The text fields of an upload (every multipart part but the file: `purpose` and any other), once read. */
  fields?: Record<string, string>;
  /** The organization the key resolved to, when it was valid. */
  organization?: string;
  status?: number;
  /** The early fault answered instead of the endpoint, if any. */
  fault?: string;
  /** The client went away before the answer was complete. */
  aborted: boolean;
  /** Request body bytes read. */
  bodyBytes: number;
  /** How a streamed answer ended. */
  stream?: 'completed' | 'aborted' | 'reset';
  startedAt: number;
  finishedAt?: number;
}

export interface RunningServer {
  /** The base URL clients configure, e.g. `http://127.0.0.1:43123` (plus the path prefix); no trailing slash. */
  url: string;
  port: number;
  dialect: Dialect;
  /** API key per organization. */
  keys: Record<string, string>;
  registry: Registry;
  /** Every request, in arrival order; entries are updated as requests finish or abort. */
  requests: RecordedRequest[];
  /** Every accepted upload, with the SHA-256 of what was stored. */
  uploads: UploadedFile[];
  uploadDir: string;
  /** Hostile mode's organization, key and live counters; absent without hostile mode. */
  hostile?: HostileInfo;
  /** Number of requests the client aborted before the answer was complete. */
  abortedCount(): number;
  /**
   * What the service received, oldest first: every recorded request to `path` (after the prefix, without the
   * query; all paths when absent), with `method` when given. Tests read `json`, `fields` and `headers` of these
   * to check what went over the wire.
   */
  received(path?: string, method?: string): RecordedRequest[];
  /** The last request received on `path` (with `method` when given); throws when there is none. */
  lastReceived(path: string, method?: string): RecordedRequest;
  /** Resolves with the first recorded request matching `predicate` once it is finished or aborted. */
  waitForRequest(predicate: (r: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Resolves when the server has seen `count` aborted requests in total. */
  waitForAborts(count?: number, timeoutMs?: number): Promise<void>;
  /** Forget recorded requests and uploads (fault counters keep running). */
  clearRecords(): void;
  /**
   * Replaces the faults from the next request on (counters of `first: N` start again): a test makes a service
   * that answered quickly slow, or failing, for what follows.
   */
  setFaults(faults: FaultOptions | undefined): void;
  /**
   * Changes what `organization` sees from the next request on (registryChanges.ts): a registry that moves
   * between two loads of the list. The `registry` above stays as it started.
   */
  changeRegistry(organization: string, set: RegistryChangeSet): void;
  /** Stops listening, drops open connections (hung and streaming ones too), removes the temp upload directory. */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const dialect = options.dialect ?? 'openai';
  let registry = typeof options.registry === 'object' ? options.registry : loadRegistry(options.registry);
  if (options.models !== undefined) {
    registry = withGeneratedModels(registry, options.models);
  }
  const hostile = resolveHostile(options.hostile);
  if (hostile !== undefined) {
    registry = withHostileModels(registry, modelPieces(hostile));
  }
  const keys = keysFor(registry, hostile === undefined ? options.keys : { ...hostileKeys(hostile), ...options.keys });
  const hostileRuntime = hostile === undefined ? undefined : new HostileRuntime(hostile, keys);
  const orgByKey = new Map(Object.entries(keys).map(([org, key]) => [key, org] as const));
  const prefixes = (
    typeof options.pathPrefix === 'string' || options.pathPrefix === undefined
      ? [options.pathPrefix]
      : options.pathPrefix
  ).map(normalizePrefix);
  const pathPrefix = prefixes[0] ?? '';
  // Longest first, so `/a/b` wins over `/a` for `/a/b/v1/…`.
  const byLength = [...prefixes].sort((a, b) => b.length - a.length);
  const ownUploadDir = options.uploadDir === undefined;
  const uploadDir = options.uploadDir ?? mkdtempSync(path.join(tmpdir(), 'model-access-uploads-'));
  let plan = new FaultPlan(options.faults);
  const requests: RecordedRequest[] = [];
  const uploads: UploadedFile[] = [];
  const waiters = new Set<() => void>();
  const notify = (): void => waiters.forEach((w) => w());

  const ctx: ServerContext = {
    dialect,
    catalogs: indexByOrganization(registry),
    orgByKey,
    pathPrefix,
    linkOrigin: '', // set once the port is known
    defaultPageSize: options.pageSize ?? 10,
    maxPageSize: options.maxPageSize ?? 1000,
    pagingLoop: options.pagingLoop ?? false,
    streamDelayMs: options.streamDelayMs ?? 0,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 ** 3,
    uploadDir,
    onUpload: (file) => uploads.push(file),
    encodeJson: hostileRuntime === undefined ? (value) => JSON.stringify(value) : encodeJson,
    hostile: hostileRuntime,
    hostileCards: hostile?.pieces.cards === true,
    grading: new GradingRuntime(options.grading ?? {}),
    rateLimits: new RateLimitWindows(),
  };

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  // Large uploads over slow links and deliberately hung requests must not be cut by Node's defaults.
  server.requestTimeout = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    const record: RecordedRequest = {
      requestId,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: '',
      authorization: req.headers.authorization !== undefined,
      headers: receivedHeaders(req),
      aborted: false,
      bodyBytes: 0,
      startedAt: Date.now(),
    };
    requests.push(record);
    /** A reset the fault layer caused is not a client abort. */
    let resetIsOurs = false;
    res.setHeader('x-request-id', requestId);
    res.on('close', () => {
      record.finishedAt = Date.now();
      record.status ??= res.headersSent ? res.statusCode : undefined;
      if (!res.writableFinished && !(resetIsOurs && res.headersSent)) {
        record.aborted = true;
      }
      options.log?.(
        `${record.method} ${record.url} ${record.aborted ? 'aborted' : record.status} ${record.finishedAt - record.startedAt}ms${record.fault ? ` [${record.fault}]` : ''}`,
      );
      notify();
    });
    res.on('finish', () => {
      record.status = res.statusCode;
    });

    // `pathname` keeps percent-encoding, so a model id may contain an encoded `/`.
    const target = new URL(record.url, 'http://localhost');
    record.path = target.pathname;
    const prefix = byLength.find((p) => p === '' || target.pathname === p || target.pathname.startsWith(`${p}/`));
    if (prefix === undefined) {
      plainWriter(
        res,
        404,
        'application/json',
        errorBody(
          new ApiError(
            404,
            'invalid_request_error',
            'unknown_url',
            `Invalid URL (${record.method} ${target.pathname}).`,
          ),
        ),
      );
      req.resume();
      return;
    }
    const apiPath = target.pathname.slice(prefix.length) || '/';
    record.path = apiPath;

    const faults = plan.decide(safeDecode(apiPath));
    resetIsOurs = faults.resetMidBody;
    if (faults.latencyMs > 0) {
      await sleepUnlessClosed(res, faults.latencyMs);
      if (res.destroyed) {
        return;
      }
    }
    if (faults.early !== undefined) {
      record.fault = faults.early;
      req.resume();
      sendEarlyFault(res, faults.early, plan, requestId);
      return;
    }
    try {
      await dispatch(prefix === ctx.pathPrefix ? ctx : { ...ctx, pathPrefix: prefix }, {
        req,
        res,
        path: apiPath,
        query: target.searchParams,
        faults,
        write: faultyWriter(faults),
        headers: {},
        onBodyBytes: (n) => {
          record.bodyBytes += n;
        },
        onJson: (body) => {
          record.json = body;
        },
        onFields: (fields) => {
          record.fields = fields;
        },
        onCaller: (caller) => {
          record.organization = caller.organization;
        },
        onStream: (outcome) => {
          record.stream = outcome;
        },
      });
    } catch (e) {
      if (res.headersSent || res.destroyed) {
        // Nothing more can be said; a client that went away mid-body is recorded as aborted on close.
        res.destroy();
        return;
      }
      const err = e instanceof ApiError ? e : internalError(e, options.log);
      const presented = presentedKey(req.headers);
      const echo = faults.echoKey && presented !== undefined ? ` (API key: ${presented})` : '';
      plainWriter(res, err.status, 'application/json', errorBody(err, echo), err.headers);
      // Drain anything unread (e.g. a body refused early) so the connection can answer the next request.
      req.resume();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ctx.linkOrigin = options.linkOrigin ?? origin;
  if (options.localCards) {
    // The listed models and the registry tests read get the same card addresses.
    const base = `${origin}${pathPrefix}`;
    const local = new Map(registry.models.map((m) => [m, withLocalCard(m, base)] as const));
    registry = { ...registry, models: registry.models.map((m) => local.get(m) ?? m) };
    for (const catalog of ctx.catalogs.values()) {
      catalog.models = catalog.models.map((m) => local.get(m) ?? m);
    }
  }

  const waitFor = (check: () => boolean, timeoutMs: number, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (check()) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const waiter = (): void => {
        if (check()) {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve();
        }
      };
      waiters.add(waiter);
    });

  const received = (p?: string, method?: string): RecordedRequest[] =>
    requests.filter((r) => (p === undefined || r.path === p) && (method === undefined || r.method === method));

  let closed: Promise<void> | undefined;
  return {
    url: `${origin}${pathPrefix}`,
    port,
    dialect,
    keys,
    registry,
    requests,
    uploads,
    uploadDir,
    ...(hostileRuntime === undefined ? {} : { hostile: hostileRuntime.info }),
    abortedCount: () => requests.filter((r) => r.aborted).length,
    received,
    lastReceived(p, method) {
      const found = received(p, method).at(-1);
      if (found === undefined) {
        throw new Error(`The service received no ${method === undefined ? '' : `${method} `}request on ${p}`);
      }
      return found;
    },
    async waitForRequest(predicate, timeoutMs = 5000) {
      const done = (): RecordedRequest | undefined => requests.find((r) => r.finishedAt !== undefined && predicate(r));
      await waitFor(() => done() !== undefined, timeoutMs, 'a matching request');
      return done() as RecordedRequest;
    },
    waitForAborts(count = 1, timeoutMs = 5000) {
      return waitFor(() => requests.filter((r) => r.aborted).length >= count, timeoutMs, `${count} aborted request(s)`);
    },
    clearRecords() {
      requests.length = 0;
      uploads.length = 0;
    },
    setFaults(faults) {
      plan = new FaultPlan(faults);
    },
    changeRegistry(organization, set) {
      const catalog = ctx.catalogs.get(organization);
      if (catalog === undefined) {
        throw new Error(`No organization ${JSON.stringify(organization)}`);
      }
      applyRegistryChanges(catalog, set);
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(async () => {
        if (ownUploadDir) {
          await rm(uploadDir, { recursive: true, force: true });
        }
      });
      return closed;
    },
  };
}

/** The request's headers without Authorization: a record a test prints must never hold a key it was sent. */
function receivedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== 'authorization' && value !== undefined) {
      out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return out;
}

function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') {
    return '';
  }
  return `/${prefix.replace(/^\/+|\/+$/g, '')}`;
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

function internalError(e: unknown, log: ((line: string) => void) | undefined): ApiError {
  log?.(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return new ApiError(500, 'server_error', 'server_error', 'The server had an error while processing your request.');
}

/** The model with its `https://cards.example/…` card moved to `<base>/cards/<id>.md` (other cards are kept). */
export function withLocalCard(model: RegistryModel, base: string): RegistryModel {
  return /^https:\/\/cards\.example\//.test(model.model_card_url)
    ? { ...model, model_card_url: `${base}/cards/${encodeURIComponent(model.id)}.md` }
    : model;
}
