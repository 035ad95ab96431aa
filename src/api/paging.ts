/**
 * Finding the next page of a list, in every paging style of docs/service-shapes.md: a `Link` header, cursor tokens
 * in the body, `next` URLs, and OpenAI/Anthropic `has_more` + `last_id`. Pure; no `vscode` import.
 */

import { isRecord } from '../common/records';

export type NextPage =
  /** Follow this absolute URL (already resolved against the request URL). */
  | { kind: 'url'; url: string; source: string }
  /** Repeat the request with this query parameter set. */
  | { kind: 'param'; name: string; value: string; source: string }
  | { kind: 'end' };

function token(v: unknown): string | undefined {
  if (typeof v === 'string') {
    return v.trim() === '' ? undefined : v;
  }
  if (typeof v === 'number' && Number.isFinite(v)) {
    return String(v);
  }
  return undefined;
}

/** Splits a Link header on the commas between entries (not those inside `<…>` or quotes). */
function splitLinks(header: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        quoted = false;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === '<') {
      depth++;
    } else if (c === '>') {
      depth = Math.max(0, depth - 1);
    } else if (c === ',' && depth === 0) {
      parts.push(header.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(header.slice(start));
  return parts;
}

/**
 * The target of the first `rel="next"` entry of an RFC 8288 `Link` header (rel quoted or not, possibly
 * with several relation types), resolved against `base`. Undefined when there is none or it does not parse.
 */
export function parseLinkNext(header: string | string[] | undefined, base: string): string | undefined {
  if (header === undefined) {
    return undefined;
  }
  const all = Array.isArray(header) ? header.join(', ') : header;
  if (all.length > 65536) {
    return undefined;
  }
  for (const part of splitLinks(all)) {
    const m = /^\s*<([^>]*)>(.*)$/s.exec(part);
    if (!m) {
      continue;
    }
    const params = m[2];
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('next')) {
      try {
        return new URL(m[1].trim(), base).href;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function looksLikeUrl(s: string): boolean {
  return /^(https?:)?\/\//i.test(s) || s.startsWith('/') || s.startsWith('?');
}

function resolve(s: string, base: string): string | undefined {
  try {
    return new URL(s, base).href;
  } catch {
    return undefined;
  }
}

/** A `next`-like value: a URL to follow, or a token sent back as `param`. */
function urlOrToken(v: unknown, base: string, param: string, source: string): NextPage | undefined {
  const link = isRecord(v) ? (token(v.href) ?? token(v.url)) : undefined;
  const t = link ?? token(v);
  if (t === undefined) {
    return undefined;
  }
  if (looksLikeUrl(t)) {
    const url = resolve(t, base);
    return url === undefined ? undefined : { kind: 'url', url, source };
  }
  return { kind: 'param', name: param, value: t, source };
}

const TOKEN_FIELDS: [field: string, param: string][] = [
  ['next_page_token', 'page_token'],
  ['nextPageToken', 'pageToken'],
  ['next_cursor', 'cursor'],
  ['nextCursor', 'cursor'],
];

/**
 * Where the next page is, given the page's parsed body, its `Link` header and the URL it was read from.
 * `has_more: false` ends the list whatever else the body says; an empty page alone does not.
 */
export function findNextPage(
  body: unknown,
  link: string | string[] | undefined,
  requestUrl: string,
  entries?: readonly unknown[],
): NextPage {
  const fromLink = parseLinkNext(link, requestUrl);
  if (fromLink !== undefined) {
    return { kind: 'url', url: fromLink, source: 'Link header' };
  }
  if (!isRecord(body)) {
    return { kind: 'end' };
  }
  const hasMore = body.has_more ?? body.hasMore;
  if (hasMore === false) {
    return { kind: 'end' };
  }
  for (const [field, param] of TOKEN_FIELDS) {
    const t = token(body[field]);
    if (t !== undefined) {
      return { kind: 'param', name: param, value: t, source: field };
    }
  }
  const candidates: [unknown, string, string][] = [
    [body.cursor, 'cursor', 'cursor'],
    [body.next, 'cursor', 'next'],
    [body.nextLink ?? body.next_link, 'cursor', 'nextLink'],
    [body.next_page, 'page', 'next_page'],
    [isRecord(body.links) ? body.links.next : undefined, 'cursor', 'links.next'],
    [isRecord(body._links) ? body._links.next : undefined, 'cursor', '_links.next'],
    [
      isRecord(body.pagination)
        ? (body.pagination.next ?? body.pagination.next_cursor ?? body.pagination.nextCursor)
        : undefined,
      'cursor',
      'pagination.next',
    ],
  ];
  for (const [value, param, source] of candidates) {
    const next = urlOrToken(value, requestUrl, param, source);
    if (next !== undefined) {
      return next;
    }
  }
  if (hasMore === true) {
    let last = token(body.last_id) ?? token(body.lastId);
    if (last === undefined && entries && entries.length > 0) {
      const e = entries[entries.length - 1];
      last = isRecord(e) ? token(e.id) : undefined;
    }
    if (last !== undefined) {
      // Anthropic pages with `after_id`, OpenAI with `after`; Anthropic entries say `type: "model"`.
      const anthropic =
        entries !== undefined && isRecord(entries[0]) && entries[0].type === 'model' && entries[0].object === undefined;
      return { kind: 'param', name: anthropic ? 'after_id' : 'after', value: last, source: 'has_more' };
    }
  }
  return { kind: 'end' };
}

/** `url` with query parameter `name` set to `value` (replacing any previous value). */
export function withParam(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.href;
}
