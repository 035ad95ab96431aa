/**
 * What the Model Details page shows, built from a registry entry whatever its shape. Pure, no `vscode`
 * import: the page's HTML is made from this by detailsHtml.ts.
 *
 * A model going away (deprecated, retiring, retired) says so first ({@link DetailsLifecycle}: the page's banner),
 * and the fields it is read from are grouped under Lifecycle. Known fields are grouped (owner, dates, limits,
 * capabilities); every other field of the entry is shown
 * too, generically, nested objects flattened to dotted names a few levels deep. Nothing is dropped
 * silently: past the caps a row says how much more there is.
 */
import { moreCharactersNotShown } from '../../common/counts';
import type { ModelEntry } from '../../api/types';
import { isRecord } from '../../common/records';
import { prettyJson } from '../../common/prettyJson';
import { checkCardLink, rawCardLink } from '../../api/linkSafety';
import { isLifecycleField, isoDay, lifecycleStage, readLifecycle } from '../../domain/registry/lifecycle';

export type SectionTitle = 'Lifecycle' | 'Owner' | 'Dates' | 'Limits' | 'Capabilities' | 'Other fields';

/**
 * What the banner at the top of the page says of a model that is going away: the stage, its dates (ISO days,
 * UTC) and the model that replaces it (registry text: the page escapes it, the buttons carry no id).
 */
export interface DetailsLifecycle {
  stage: 'deprecated' | 'retiring' | 'retired';
  /** When it was or will be deprecated. */
  deprecatedOn?: string;
  /** When it stops (or stopped) answering. */
  retiresOn?: string;
  successor?: string;
}

export interface DetailsField {
  /** The field's name as the registry wrote it (`limits.context_window` for nested ones). */
  name: string;
  /** The value as text (a date also as ISO time). */
  value: string;
  /** Folded on the page: long or multi-line. */
  long: boolean;
  /** Index into {@link ModelDetails.links} when the value is an http(s) link the card checks accept. */
  link?: number;
}

export interface DetailsSection {
  title: SectionTitle;
  fields: DetailsField[];
}

export interface ModelDetails {
  id: string;
  family?: string;
  version?: string;
  /** The card link when it passes the card checks, else why not (or undefined when there is none). */
  card: { url: string } | { refused: string; link: string } | undefined;
  sections: DetailsSection[];
  /** Links the page may ask to open, by index: the extension opens only these, after the card checks. */
  links: string[];
  /** Fields not shown because the entry has more than {@link MAX_FIELDS}. */
  hiddenFields: number;
  /** Set for a deprecated, retiring or retired model: the page opens with a banner saying so. */
  lifecycle?: DetailsLifecycle;
}

export const MAX_FIELDS = 400;
/** Values longer than this (or spanning lines) are folded. */
export const FOLD_CHARS = 160;
/** The most of one value a page holds. */
export const MAX_VALUE_CHARS = 20_000;
const MAX_FLATTEN_DEPTH = 3;

const IDENTITY = /^(id|family|version|model_card_url|modelCardUrl|card_url|cardUrl)$/;
const OWNER = /^(owned_by|ownedBy|owner|organization|organisation|org|publisher|provider|vendor|author)$/i;
const DATE = /(date|time|_at$|At$|^created$|^updated$|^modified$|^released?$|deprecat|retire|expire|sunset)/i;
const LIMITS =
  /(limit|context|max_|^max[A-Z]|tokens?$|window|num_ctx|max_model_len|sequence_length|rate|quota|^top_provider)/i;
const CAPABILITIES = /(capabilit|supports?|modalit|features|^tools?$|^vision$|^streaming$|task|pipeline_tag|^type$)/i;

function sectionOf(name: string): SectionTitle {
  const top = name.split('.')[0];
  if (isLifecycleField(top)) {
    return 'Lifecycle';
  }
  if (OWNER.test(top)) {
    return 'Owner';
  }
  if (CAPABILITIES.test(top)) {
    return 'Capabilities';
  }
  if (LIMITS.test(top)) {
    return 'Limits';
  }
  if (DATE.test(top)) {
    return 'Dates';
  }
  return 'Other fields';
}

/** A Unix time in seconds or milliseconds (years 2001–2286) as ISO text, else undefined. */
export function asDate(name: string, value: unknown): string | undefined {
  if (!DATE.test(name.split('.').pop() ?? '')) {
    return undefined;
  }
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{9,14}$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n)) {
    return undefined;
  }
  const ms = n >= 1e9 && n < 1e10 ? n * 1000 : n >= 1e12 && n < 1e13 ? n : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace('.000Z', 'Z') : undefined;
}

function clip(text: string): string {
  return text.length > MAX_VALUE_CHARS
    ? `${text.slice(0, MAX_VALUE_CHARS)}… ${moreCharactersNotShown(text.length - MAX_VALUE_CHARS)}`
    : text;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value);
  }
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
    return value.map((v) => String(v)).join(', ');
  }
  const json = prettyJson(value);
  return json.text;
}

/** `[name, value]` leaves of a record, nested records flattened to dotted names up to a few levels. */
function leaves(record: Record<string, unknown>, prefix = '', depth = 0): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isRecord(value) && depth < MAX_FLATTEN_DEPTH && Object.keys(value).length > 0) {
      out.push(...leaves(value, name, depth + 1));
    } else {
      out.push([name, value]);
    }
  }
  return out;
}

function stringField(raw: Record<string, unknown> | undefined, key: string, fallback?: string): string | undefined {
  const v = raw?.[key];
  return typeof v === 'string' ? v : fallback;
}

/** The banner's facts of a model going away (deprecated, retiring, retired) at `now`; else undefined. */
export function detailsLifecycle(raw: unknown, now: number): DetailsLifecycle | undefined {
  const lifecycle = readLifecycle(raw);
  const stage = lifecycleStage(lifecycle, now);
  if (!lifecycle || (stage !== 'deprecated' && stage !== 'retiring' && stage !== 'retired')) {
    return undefined;
  }
  return {
    stage,
    ...(lifecycle.deprecatedAt === undefined ? {} : { deprecatedOn: isoDay(lifecycle.deprecatedAt) }),
    ...(lifecycle.retiresAt === undefined ? {} : { retiresOn: isoDay(lifecycle.retiresAt) }),
    ...(lifecycle.successor === undefined ? {} : { successor: lifecycle.successor }),
  };
}

/** The Model Details of an entry (as the catalog or `GET /v1/models/{id}` gave it), its lifecycle at `now`. */
export function modelDetails(entry: ModelEntry, now = Date.now()): ModelDetails {
  const raw = isRecord(entry.raw) ? entry.raw : undefined;
  const links: string[] = [];
  const link = entry.cardUrl ?? rawCardLink(entry.raw);
  let card: ModelDetails['card'];
  if (link !== undefined && link.trim() !== '') {
    const check = checkCardLink(link);
    card = check.ok ? { url: check.url } : { refused: check.reason, link };
  }
  const bySection = new Map<SectionTitle, DetailsField[]>();
  const all = raw ? leaves(raw) : [];
  let shown = 0;
  let hidden = 0;
  for (const [name, value] of all) {
    if (IDENTITY.test(name) || (card && typeof value === 'string' && value === link)) {
      continue;
    }
    if (shown >= MAX_FIELDS) {
      hidden++;
      continue;
    }
    shown++;
    const date = asDate(name, value);
    const text = clip(date ? `${date} (${textOf(value)})` : textOf(value));
    const field: DetailsField = { name, value: text, long: text.length > FOLD_CHARS || text.includes('\n') };
    if (typeof value === 'string') {
      const check = checkCardLink(value);
      if (check.ok && /^https?:\/\//i.test(value.trim())) {
        field.link = links.push(check.url) - 1;
      }
    }
    const section = sectionOf(name);
    bySection.set(section, [...(bySection.get(section) ?? []), field]);
  }
  const order: SectionTitle[] = ['Lifecycle', 'Owner', 'Dates', 'Limits', 'Capabilities', 'Other fields'];
  const lifecycle = detailsLifecycle(entry.raw, now);
  return {
    ...(lifecycle ? { lifecycle } : {}),
    id: entry.id,
    family: entry.family ?? stringField(raw, 'family'),
    version: entry.version ?? stringField(raw, 'version'),
    card,
    sections: order.filter((t) => bySection.has(t)).map((title) => ({ title, fields: bySection.get(title) ?? [] })),
    links,
    hiddenFields: hidden,
  };
}
