/**
 * The listing "dialects". The published interface hides the list wrapper, field names and paging, so the
 * server can speak several shapes real registries use, and the client is tested against each:
 *
 * - `openai`: `{"object":"list","data":[…],"has_more","first_id","last_id"}`, query `limit` + `after` (an id).
 * - `array`:  a bare JSON array (Hugging Face style); the next page only in an absolute
 *             `Link: <…?limit=10&cursor=…>; rel="next"` header.
 * - `models`: `{"models":[…camelCase…],"next_page_token"}` (Gemini/MLflow style), query `pageSize` + `page_token`;
 *             the last page has no `next_page_token`.
 * - `link`:   `{"data":[…]}` with no cursor in the body; paging by `page`/`per_page` and a *relative*
 *             `Link` header holding several relations (`first`, `prev`, `next`, `last`), GitHub style.
 */
import { badRequest } from './http';
import type { OrgCatalog, RegistryModel } from './registry';

export const DIALECTS = ['openai', 'array', 'models', 'link'] as const;
export type Dialect = (typeof DIALECTS)[number];

export function isDialect(value: string): value is Dialect {
  return (DIALECTS as readonly string[]).includes(value);
}

export interface ListRequest {
  catalog: OrgCatalog;
  query: URLSearchParams;
  /** Path of the list endpoint as the client sees it, prefix included (e.g. `/api/v1/models`). */
  listPath: string;
  /** Origin used in absolute `Link` URLs (normally the server's own). */
  linkOrigin: string;
  defaultPageSize: number;
  maxPageSize: number;
  /** Adversarial paging: from page 2 on, the next cursor always points at page 2 again, so paging never ends. */
  loop?: boolean;
}

export interface Rendered {
  body: unknown;
  headers: Record<string, string>;
}

/** One entry as the dialect writes it. An empty `model_card_url` (hostile mode only) is left out; `extra` fields come last. */
export function renderEntry(dialect: Dialect, model: RegistryModel): unknown {
  if (dialect === 'models') {
    return {
      name: `models/${model.id}`,
      modelId: model.id,
      modelFamily: model.family,
      modelVersion: model.version,
      ...(model.model_card_url === '' ? {} : { modelCardUrl: model.model_card_url }),
      organization: model.organization,
      createTime: new Date(model.created * 1000).toISOString(),
      ...model.extra,
    };
  }
  return {
    id: model.id,
    object: 'model',
    family: model.family,
    version: model.version,
    ...(model.model_card_url === '' ? {} : { model_card_url: model.model_card_url }),
    owned_by: model.organization,
    created: model.created,
    ...model.extra,
  };
}

export function renderList(dialect: Dialect, req: ListRequest): Rendered {
  switch (dialect) {
    case 'openai':
      return openaiList(req);
    case 'array':
      return arrayList(req);
    case 'models':
      return modelsList(req);
    case 'link':
      return linkList(req);
  }
}

function openaiList(req: ListRequest): Rendered {
  const { models, indexById } = req.catalog;
  const limit = pageSize(req, 'limit');
  const after = req.query.get('after');
  let start = 0;
  if (after !== null && after !== '') {
    const index = indexById.get(after);
    if (index === undefined) {
      throw badRequest(`No model with id \`${after}\` to page after.`, 'invalid_cursor', 'after');
    }
    start = req.loop ? Math.min(limit, models.length) : index + 1;
  }
  const page = models.slice(start, start + limit);
  return {
    headers: {},
    body: {
      object: 'list',
      data: page.map((m) => renderEntry('openai', m)),
      has_more: nextOffset(req, start, limit) !== undefined,
      first_id: page[0]?.id ?? null,
      last_id: page[page.length - 1]?.id ?? null,
    },
  };
}

function arrayList(req: ListRequest): Rendered {
  const limit = pageSize(req, 'limit');
  const start = offsetFromCursor(req.query.get('cursor'), 'cursor');
  const { models } = req.catalog;
  const headers: Record<string, string> = {};
  const nextStart = nextOffset(req, start, limit);
  if (nextStart !== undefined) {
    const next = new URL(req.listPath, req.linkOrigin);
    next.searchParams.set('limit', String(limit));
    next.searchParams.set('cursor', cursorFor(nextStart));
    headers.link = `<${next.href}>; rel="next"`;
  }
  return { headers, body: models.slice(start, start + limit).map((m) => renderEntry('array', m)) };
}

function modelsList(req: ListRequest): Rendered {
  const size = pageSize(req, 'pageSize');
  const token = req.query.get('page_token') ?? req.query.get('pageToken');
  const start = offsetFromCursor(token, 'page_token');
  const { models } = req.catalog;
  const body: { models: unknown[]; next_page_token?: string } = {
    models: models.slice(start, start + size).map((m) => renderEntry('models', m)),
  };
  const nextStart = nextOffset(req, start, size);
  if (nextStart !== undefined) {
    body.next_page_token = cursorFor(nextStart);
  }
  return { headers: {}, body };
}

function linkList(req: ListRequest): Rendered {
  const perPage = pageSize(req, 'per_page');
  const rawPage = req.query.get('page') ?? '1';
  const page = Number(rawPage);
  if (!Number.isInteger(page) || page < 1) {
    throw badRequest(`"page" must be a positive integer, got "${rawPage}".`, 'invalid_page', 'page');
  }
  const { models } = req.catalog;
  const lastPage = Math.max(1, Math.ceil(models.length / perPage));
  const rel = (n: number, name: string): string => `<${req.listPath}?page=${n}&per_page=${perPage}>; rel="${name}"`;
  const links = [rel(1, 'first')];
  if (page > 1) {
    links.push(rel(Math.min(page - 1, lastPage), 'prev'));
  }
  const start = (page - 1) * perPage;
  const nextStart = nextOffset(req, start, perPage);
  if (nextStart !== undefined) {
    links.push(rel(nextStart / perPage + 1, 'next'));
  }
  links.push(rel(lastPage, 'last'));
  return {
    headers: { link: links.join(', ') },
    body: { data: models.slice(start, start + perPage).map((m) => renderEntry('link', m)) },
  };
}

/** Offset of the next page, or undefined on the last one. */
function nextOffset(req: ListRequest, start: number, size: number): number | undefined {
  const { length } = req.catalog.models;
  if (req.loop) {
    return length > size ? size : undefined;
  }
  return start + size < length ? start + size : undefined;
}

function pageSize(req: ListRequest, param: string): number {
  const raw = req.query.get(param);
  if (raw === null || raw === '') {
    return req.defaultPageSize;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw badRequest(`"${param}" must be a positive integer, got "${raw}".`, 'invalid_page_size', param);
  }
  return Math.min(n, req.maxPageSize);
}

/** Opaque cursors (base64url of the offset) so clients cannot rely on their content. */
function cursorFor(offset: number): string {
  return Buffer.from(`offset:${offset}`, 'utf8').toString('base64url');
}

function offsetFromCursor(cursor: string | null, param: string): number {
  if (cursor === null || cursor === '') {
    return 0;
  }
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) {
    throw badRequest(`Invalid "${param}": ${JSON.stringify(cursor)}.`, 'invalid_cursor', param);
  }
  return Number(match[1]);
}
