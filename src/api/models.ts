/**
 * Tolerant reading of model entries and list wrappers, whatever names the server used (docs/service-shapes.md).
 * Hot path: called once per model (100,000+ per list), so it only reads a few properties and never
 * allocates a URL object.
 */
import type { ModelEntry } from './types';
import { isRecord } from '../common/records';
import { INVISIBLE_CHARS } from '../common/text';

type Obj = Record<string, unknown>;

/** A usable text value: a non-blank string (trimmed), or a finite number. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') {
    // Fast path: most values need no trimming.
    if (v.length > 0 && v.charCodeAt(0) > 32 && v.charCodeAt(v.length - 1) > 32) {
      return v;
    }
    const t = v.trim();
    return t === '' ? undefined : t;
  }
  if (typeof v === 'number') {
    return Number.isFinite(v) ? String(v) : undefined;
  }
  if (typeof v === 'bigint') {
    return String(v);
  }
  return undefined;
}

/** A text value, or the text inside a small object such as `{name}` / `{id}` / `{value}`. */
function textOrNamed(v: unknown): string | undefined {
  const t = text(v);
  if (t !== undefined || !isRecord(v)) {
    return t;
  }
  return text(v.name) ?? text(v.id) ?? text(v.value) ?? text(v.version);
}

function first(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : undefined;
}

function get(o: unknown, key: string): unknown {
  return isRecord(o) ? o[key] : undefined;
}

const ID_KEYS = ['id', 'identifier', 'model_id', 'modelId', 'name', 'model', 'full_name', 'slug', 'key', '_id'];

/*
 * Each reader looks up its first name as a named property before the loop over the rest: `m.id` is a load the
 * optimizing compiler keeps a cache for, `m[k]` with `k` from an array a generic lookup (about a hundred
 * instructions), and these run once per model of a list of 100,000. The order of the names is unchanged.
 */

function readId(m: Obj): string | undefined {
  const id = m.id;
  if (id !== undefined) {
    const t = text(id);
    if (t !== undefined) {
      return t;
    }
  }
  for (let i = 1; i < ID_KEYS.length; i++) {
    const v = m[ID_KEYS[i]];
    if (v !== undefined) {
      const t = text(v);
      if (t !== undefined) {
        return t;
      }
    }
  }
  return undefined;
}

/*
 * Family. `owned_by` / `publisher` are deliberately NOT read: in OpenAI-style lists `owned_by` is the
 * owner ("system", "openai", an organization id), not the model's family, so grouping by it would put
 * every model of an organization in one misleading folder. A model without a family goes under "Other".
 */
const FAMILY_KEYS = [
  'family',
  'model_family',
  'modelFamily',
  'line',
  'series',
  'architecture',
  'base_model',
  'baseModelId',
  'model_type',
];

function readFamily(m: Obj): string | undefined {
  const direct = m.family;
  if (typeof direct === 'string' && direct.length > 0 && direct.charCodeAt(0) > 32) {
    return text(direct);
  }
  const details = m.details;
  const nested =
    textOrNamed(get(details, 'family')) ??
    textOrNamed(first(get(details, 'families'))) ??
    textOrNamed(first(m.families));
  if (nested !== undefined) {
    return nested;
  }
  for (const k of FAMILY_KEYS) {
    const v = m[k];
    if (v !== undefined) {
      const t = textOrNamed(Array.isArray(v) ? v[0] : v);
      if (t !== undefined) {
        return t;
      }
    }
  }
  return undefined;
}

const VERSION_KEYS = ['version', 'model_version', 'modelVersion', 'version_id', 'versionId', 'version_num', 'revision'];

function readVersion(m: Obj): string | undefined {
  const version = m.version;
  if (version !== undefined) {
    const t = textOrNamed(version);
    if (t !== undefined) {
      return t;
    }
  }
  for (let i = 1; i < VERSION_KEYS.length; i++) {
    const v = m[VERSION_KEYS[i]];
    if (v !== undefined) {
      const t = textOrNamed(v);
      if (t !== undefined) {
        return t;
      }
    }
  }
  const latest = textOrNamed(get(first(m.latest_versions), 'version'));
  if (latest !== undefined) {
    return latest;
  }
  // Ollama-style tags: `gemma3:latest` → `latest`.
  const tag = text(m.tag);
  if (tag !== undefined) {
    const colon = tag.lastIndexOf(':');
    return colon >= 0 ? text(tag.slice(colon + 1)) : tag;
  }
  return undefined;
}

const MAX_URL = 2048;
// Absolute http(s), a host, and nothing that could break out of a link or disguise it (white space, controls,
// quotes, angle brackets, bidi and zero-width marks).
const URL_BANNED = `\\s\\\\<>"\`\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE_CHARS}`;
const HTTP_URL = new RegExp(`^https?://[^/?#@'${URL_BANNED}]+(?:[/?#][^${URL_BANNED}]*)?$`, 'i');

/**
 * The common case in one compiled pass (once per model in a list of 100,000): lower-case scheme, a host, and only
 * printable ASCII that is not banned. It accepts a subset of what HTTP_URL accepts; anything it refuses is decided
 * by `fastHttpUrl` and HTTP_URL as before.
 */
const PLAIN_HTTP_URL = /^https?:\/\/[^/?#@'\x00-\x20"<>\\`\x7f-\uffff]+(?:[/?#][^\x00-\x20"<>\\`\x7f-\uffff]*)?$/;

/**
 * The common case without a regular expression: lower-case scheme, all ASCII. True/false when decided,
 * undefined when the regular expression must decide (upper-case scheme, non-ASCII characters).
 */
function fastHttpUrl(s: string): boolean | undefined {
  let i: number;
  if (s.startsWith('https://')) {
    i = 8;
  } else if (s.startsWith('http://')) {
    i = 7;
  } else {
    return undefined;
  }
  const hostStart = i;
  let inHost = true;
  for (const n = s.length; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 127) {
      return undefined;
    }
    // White space and controls, " < > \ `
    if (c <= 32 || c === 34 || c === 60 || c === 62 || c === 92 || c === 96) {
      return false;
    }
    if (inHost) {
      if (c === 47 || c === 63 || c === 35) {
        if (i === hostStart) {
          return false;
        }
        inHost = false;
      } else if (c === 64 || c === 39) {
        // No user info (@) and no quote in the host.
        return false;
      }
    }
  }
  return i > hostStart && !(inHost && i === hostStart);
}

/** `v` when it is an absolute http(s) URL a browser may open, else undefined. */
export function httpUrl(v: unknown): string | undefined {
  let s =
    typeof v === 'string'
      ? v
      : isRecord(v)
        ? typeof v.url === 'string'
          ? v.url
          : typeof v.href === 'string'
            ? v.href
            : undefined
        : undefined;
  if (s === undefined || s.length > MAX_URL || s.length < 8) {
    return undefined;
  }
  if (s.charCodeAt(0) <= 32 || s.charCodeAt(s.length - 1) <= 32) {
    s = s.trim();
  }
  if (PLAIN_HTTP_URL.test(s)) {
    return s;
  }
  const fast = fastHttpUrl(s);
  if (fast !== undefined) {
    return fast ? s : undefined;
  }
  return HTTP_URL.test(s) ? s : undefined;
}

const CARD_KEYS = [
  'model_card_url',
  'modelCardUrl',
  'model_card',
  'modelCard',
  'card_url',
  'cardUrl',
  'documentation_url',
  'docs_url',
];
const LATE_CARD_KEYS = ['url', 'html_url', 'href'];

function readCard(m: Obj): string | undefined {
  const card = m.model_card_url;
  if (card !== undefined) {
    const u = httpUrl(card);
    if (u !== undefined) {
      return u;
    }
  }
  for (let i = 1; i < CARD_KEYS.length; i++) {
    const v = m[CARD_KEYS[i]];
    if (v !== undefined) {
      const u = httpUrl(v);
      if (u !== undefined) {
        return u;
      }
    }
  }
  const links = m.links;
  const nested =
    httpUrl(get(links, 'model_card')) ?? httpUrl(get(links, 'card')) ?? httpUrl(get(get(m._links, 'card'), 'href'));
  if (nested !== undefined) {
    return nested;
  }
  for (const k of LATE_CARD_KEYS) {
    const v = m[k];
    if (v !== undefined) {
      const u = httpUrl(v);
      if (u !== undefined) {
        return u;
      }
    }
  }
  return undefined;
}

/**
 * One model entry as the extension understands it, or undefined when the entry has no usable identifier
 * (not an object, or no id-like field holding a non-blank string or a number).
 */
export function normalizeModel(raw: unknown): ModelEntry | undefined {
  if (!isRecord(raw)) {
    return undefined;
  }
  const id = readId(raw);
  if (id === undefined) {
    return undefined;
  }
  const entry: ModelEntry = { id, family: readFamily(raw), version: readVersion(raw), cardUrl: readCard(raw), raw };
  return entry;
}

export const LIST_WRAPPERS = ['data', 'models', 'items', 'results', 'value', 'registered_models', 'entries'];

/** The array of entries in a list body (a bare array, or the first wrapper field that is an array). */
export function extractList(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) {
    return body;
  }
  if (!isRecord(body)) {
    return undefined;
  }
  for (const k of LIST_WRAPPERS) {
    const v = body[k];
    if (Array.isArray(v)) {
      return v;
    }
  }
  return undefined;
}

/** The entry in a single-model body: the body itself, or `{model:{…}}` / `{data:{…}}` / `{item:{…}}` around it. */
export function extractSingle(body: unknown): unknown {
  if (!isRecord(body)) {
    return Array.isArray(body) && body.length === 1 ? body[0] : body;
  }
  if (readId(body) !== undefined) {
    return body;
  }
  for (const k of ['model', 'data', 'item', 'result']) {
    const v = body[k];
    if (isRecord(v)) {
      return v;
    }
  }
  return body;
}

/** Normalizes a page of entries into `out`; returns how many were skipped for lack of an id. */
export function normalizeInto(entries: readonly unknown[], out: ModelEntry[]): number {
  let skipped = 0;
  for (let i = 0; i < entries.length; i++) {
    const m = normalizeModel(entries[i]);
    if (m === undefined) {
      skipped++;
    } else {
      out.push(m);
    }
  }
  return skipped;
}
