/**
 * A cache for re-runs: a check's (and a grader's) answer kept under a key of the endpoint's URL, the model,
 * the model's version as the catalog lists it, and the exact body sent. A new model version, or any byte of
 * the body changed, misses. Only successful answers are kept; a streamed answer is kept once read to its
 * end, and replayed event by event. Pure but for the store it is given; no `vscode` import.
 *
 * Bound to who asked: entries are named and sealed with secrets derived from the API key (and the
 * environment's origin, headers and secret header values) by HMAC-SHA-256 under a fixed label
 * ({@link cacheBinding}). The key itself is never stored, and nothing stored lets anyone recover it; a run
 * with another key or environment looks under other names and never reuses an entry, and an entry that was
 * changed or planted by someone without the key fails its seal and is sent again, never trusted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { wrapPost } from './wrapPost';
import type { EventStream, ModelService, PostResult, ServerSentEvent } from '../../api/types';

/** Where entries live: a folder (cacheFolder.ts), or memory in tests. */
export interface CacheStore {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries that could not be written (the run goes on). */
  unwritten: number;
  /** Entries found under the name but whose seal did not match (changed, planted, cut short): sent again. */
  rejected?: number;
}

/** Secrets that name and seal the entries of one key and environment; derived one way from the key. */
export interface CacheBinding {
  readonly names: Buffer;
  readonly seal: Buffer;
}

/** The domain-separation label: these HMACs of the key serve the answer cache and nothing else. */
const BINDING_LABEL = 'model-access/answer-cache/v2';

/**
 * The binding of `apiKey` at `origin` (the environment's base URL) with the environment's headers and secret
 * header values: HMAC-SHA-256 keyed by the API key over the label and the rest, then one HMAC per use.
 */
export function cacheBinding(
  apiKey: string,
  scope: { origin: string; headers?: Readonly<Record<string, string>>; secrets?: readonly string[] },
): CacheBinding {
  const headers = Object.entries(scope.headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const root = createHmac('sha256', apiKey)
    .update(JSON.stringify([BINDING_LABEL, scope.origin, headers, scope.secrets ?? []]))
    .digest();
  return {
    names: createHmac('sha256', root).update('entry names').digest(),
    seal: createHmac('sha256', root).update('entry seals').digest(),
  };
}

/** What is kept of an answer. */
interface Entry {
  v: 1;
  status: number;
  statusText: string;
  contentType: string;
  body?: PostResult['body'];
  events?: ServerSentEvent[];
}

/** The entry's name: an HMAC under the binding, so neither the key nor the body can be read back from it. */
export function cacheKey(
  binding: CacheBinding,
  endpointUrl: string,
  model: string,
  version: string,
  body: string,
): string {
  return createHmac('sha256', binding.names)
    .update(JSON.stringify([endpointUrl, model, version, body]))
    .digest('hex');
}

function sealOf(binding: CacheBinding, name: string, json: string): Buffer {
  return createHmac('sha256', binding.seal).update(name).update('\n').update(json).digest();
}

/** What is stored under `name`: the seal (hex), a line feed, the entry's JSON. */
export function sealEntry(binding: CacheBinding, name: string, json: string): string {
  return `${sealOf(binding, name, json).toString('hex')}\n${json}`;
}

/** The entry's JSON if its seal is the one `binding` gives it under `name`; undefined if not. */
export function openEntry(binding: CacheBinding, name: string, stored: string): string | undefined {
  const cut = stored.indexOf('\n');
  const seal = cut === 64 ? Buffer.from(stored.slice(0, 64), 'hex') : undefined;
  if (!seal || seal.length !== 32) {
    return undefined;
  }
  const json = stored.slice(cut + 1);
  return timingSafeEqual(seal, sealOf(binding, name, json)) ? json : undefined;
}

export interface CachingOptions {
  /** Applied to what is stored (the run's secrets as its redactor knows them), before it is sealed. */
  redact?: (text: string) => string;
  /** Whether an entry may be kept at all (secretFreeCache.ts: not one holding a secret once read whole). */
  keeps?: (json: string) => boolean;
  /** Told when an entry under the right name fails its seal (it is not used; the request is sent). */
  onRejected?: (what: string) => void;
}

/** The body as the client sends it: a string as is, anything else as JSON. */
export function bodyText(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The `model` of a JSON body, if it names one. */
export function bodyModel(text: string): string {
  try {
    const v = JSON.parse(text) as { model?: unknown };
    return typeof v?.model === 'string' ? v.model : '';
  } catch {
    return '';
  }
}

/** Events replayed from the cache, in one batch. */
export function replayEvents(events: readonly ServerSentEvent[]): EventStream {
  return {
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
    async *batches() {
      yield events;
    },
  };
}

/** The stream of `inner`, recording every event; `onEnd` gets them when the stream was read to its end. */
export function recordingEvents(inner: EventStream, onEnd: (events: ServerSentEvent[]) => void): EventStream {
  const seen: ServerSentEvent[] = [];
  return {
    async *[Symbol.asyncIterator]() {
      for await (const batch of this.batches()) {
        yield* batch;
      }
    },
    async *batches() {
      for await (const batch of inner.batches()) {
        seen.push(...batch);
        yield batch;
      }
      onEnd(seen);
    },
  };
}

/**
 * `inner` with its POSTs answered from `store` when the same request was answered before. `versions`
 * gives the catalog's version of a model (asked once per model; '' when it lists none).
 */
export function cachingService(
  inner: ModelService,
  store: CacheStore,
  versions: (model: string) => Promise<string>,
  stats: CacheStats,
  binding: CacheBinding,
  caching: CachingOptions = {},
): ModelService {
  const post: ModelService['post'] = async (endpoint, body, options) => {
    const text = bodyText(body);
    const model = bodyModel(text);
    const key = cacheKey(binding, inner.endpointUrl(endpoint), model, model === '' ? '' : await versions(model), text);
    const stored = store.get(key);
    const json = stored === undefined ? undefined : openEntry(binding, key, stored);
    if (stored !== undefined && json === undefined) {
      stats.rejected = (stats.rejected ?? 0) + 1;
      caching.onRejected?.(`${endpoint}${model ? ` (model ${model})` : ''}`);
    }
    const kept = read(json);
    if (kept) {
      stats.hits++;
      return {
        status: kept.status,
        statusText: kept.statusText,
        headers: { 'content-type': kept.contentType, 'x-model-access-cache': 'hit' },
        elapsedMs: 0,
        contentType: kept.contentType,
        body: kept.body,
        events: kept.events ? replayEvents(kept.events) : undefined,
      };
    }
    stats.misses++;
    const result = await inner.post(endpoint, body, options);
    if (result.status < 200 || result.status >= 300 || result.body?.truncated) {
      return result;
    }
    const base = {
      v: 1 as const,
      status: result.status,
      statusText: result.statusText,
      contentType: result.contentType,
    };
    const write = (entry: Entry) => {
      try {
        const json = JSON.stringify(entry);
        if (caching.keeps && !caching.keeps(json)) {
          return;
        }
        store.put(key, sealEntry(binding, key, caching.redact ? caching.redact(json) : json));
      } catch {
        stats.unwritten++;
      }
    };
    if (result.events) {
      return {
        ...result,
        events: recordingEvents(result.events, (events) => {
          if (!options?.signal?.aborted) {
            write({ ...base, events });
          }
        }),
      };
    }
    write({ ...base, body: result.body });
    return result;
  };
  return wrapPost(inner, post);
}

function read(text: string | undefined): Entry | undefined {
  if (text === undefined) {
    return undefined;
  }
  try {
    const e = JSON.parse(text) as Entry;
    return e?.v === 1 && typeof e.status === 'number' && typeof e.contentType === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}

/** The catalog's versions, read once (one listing) and shared by every lookup. */
export function catalogVersions(client: ModelService): (model: string) => Promise<string> {
  let listed: Promise<Map<string, string>> | undefined;
  return async (model) => {
    listed ??= client.listModels().then(
      (r) => new Map(r.models.map((m) => [m.id, m.version ?? ''] as const)),
      () => new Map<string, string>(),
    );
    return (await listed).get(model) ?? '';
  };
}
