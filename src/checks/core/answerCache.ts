/**
 * A cache for re-runs: a check's (and a grader's) answer kept under a key of the endpoint's URL, the model,
 * the model's version as the catalog lists it, and the exact body sent. A new model version, or any byte of
 * the body changed, misses. Only successful answers are kept; a streamed answer is kept once read to its
 * end, and replayed event by event. Pure but for the store it is given; no `vscode` import.
 */
import { createHash } from 'node:crypto';
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

export function cacheKey(endpointUrl: string, model: string, version: string, body: string): string {
  return createHash('sha256')
    .update(JSON.stringify([endpointUrl, model, version, body]))
    .digest('hex');
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
): ModelService {
  const post: ModelService['post'] = async (endpoint, body, options) => {
    const text = bodyText(body);
    const model = bodyModel(text);
    const key = cacheKey(inner.endpointUrl(endpoint), model, model === '' ? '' : await versions(model), text);
    const kept = read(store.get(key));
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
        store.put(key, JSON.stringify(entry));
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
