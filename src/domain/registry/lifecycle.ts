/**
 * A model's lifecycle as its registry entry says it: deprecated, retiring on a date, retired, and the model
 * that replaces it. The service's document publishes no such fields, so this reads the shapes real registries
 * use (docs/service-shapes.md, "Lifecycle"): Azure OpenAI's `lifecycle_status` and `deprecation.inference` /
 * `deprecation.fine_tune`; `deprecated` (a boolean or a date); `deprecation_date`; `retirement_date`,
 * `retires_at`, `sunset`, `sunset_at`, `end_of_life`; a successor under `replacement`, `replacement_model`,
 * `successor` or `superseded_by`; the same inside a `lifecycle` object. Dates in any ISO form or epoch
 * seconds (or milliseconds). Pure; no `vscode`.
 */
import { l10n } from '../../common/l10n';
import { isRecord } from '../../common/records';
import { clean, displayText, type DisplayText } from '../../common/text';

/** Where a model is in its life, as far as the entry says (`undefined` from the reader: it says nothing). */
export type LifecycleStage = 'preview' | 'active' | 'deprecated' | 'retiring' | 'retired';

export interface ModelLifecycle {
  /**
   * The status word of the entry, lower-cased and trimmed (`generally-available`, `deprecated`, …), when it
   * has one; an unknown word is kept so it can be shown as text.
   */
  status?: string;
  /** The entry says it is deprecated (a `true` flag, a deprecated status, or a deprecation date). */
  deprecated: boolean;
  /** When it was (or will be) deprecated, epoch milliseconds. */
  deprecatedAt?: number;
  /** When it stops answering (retirement, sunset, end of life, Azure's `deprecation.inference`), epoch ms. */
  retiresAt?: number;
  /** The id of the model that replaces it. */
  successor?: string;
}

const DEPRECATION_KEYS = ['deprecation_date', 'deprecated_at', 'deprecationDate', 'deprecatedAt', 'deprecated_on'];
const RETIREMENT_KEYS = [
  'retirement_date',
  'retires_at',
  'retire_at',
  'retired_at',
  'retirementDate',
  'retiresAt',
  'sunset',
  'sunset_at',
  'sunset_date',
  'sunsetAt',
  'end_of_life',
  'end_of_life_date',
  'eol',
  'eol_date',
  'shutdown_date',
];
const SUCCESSOR_KEYS = [
  'replacement',
  'replacement_model',
  'replacementModel',
  'replaced_by',
  'successor',
  'successor_model',
  'superseded_by',
  'supersededBy',
  'recommended_replacement',
];
const STATUS_KEYS = ['lifecycle_status', 'lifecycleStatus', 'lifecycle_stage', 'lifecycle'];

/** A set of status words; it takes `undefined` too, so an absent status is simply in none. */
type Words = ReadonlySet<string | undefined>;
const DEPRECATED_WORDS: Words = new Set([
  'deprecated',
  'deprecating',
  'legacy',
  'sunsetting',
  'retiring',
  'end-of-life',
]);
const RETIRED_WORDS: Words = new Set(['retired', 'sunset', 'sunsetted', 'removed', 'discontinued', 'shutdown', 'eol']);
const PREVIEW_WORDS: Words = new Set(['preview', 'beta', 'alpha', 'experimental', 'public-preview', 'private-preview']);
const ACTIVE_WORDS: Words = new Set(['generally-available', 'ga', 'active', 'stable', 'available', 'current', 'live']);

/** Seconds below this are epoch seconds; above, milliseconds (10^11 s is the year 5138). */
const MS_THRESHOLD = 1e11;

/**
 * A date as epoch milliseconds: an ISO date or date-time in any of its forms (`2027-01-31`,
 * `2027-01-31T00:00:00Z`, `2027-01-31 00:00:00+00:00`, `20270131`), or epoch seconds/milliseconds as a
 * number or a string of digits. A date without a time is that day at 00:00 UTC.
 */
export function readDate(v: unknown): number | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v <= 0) {
      return undefined;
    }
    return v < MS_THRESHOLD ? v * 1000 : v;
  }
  if (typeof v !== 'string') {
    return isRecord(v) ? (readDate(v.date) ?? readDate(v.at) ?? readDate(v.value)) : undefined;
  }
  const s = v.trim();
  if (/^\d{9,13}(\.\d+)?$/.test(s)) {
    return readDate(Number(s));
  }
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  const iso = compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : s.replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2');
  if (!/^\d{4}-\d{2}(-\d{2})?([T ]|$)/.test(iso)) {
    return undefined;
  }
  const t = Date.parse(/^\d{4}-\d{2}$/.test(iso) ? `${iso}-01` : iso);
  return Number.isFinite(t) ? t : undefined;
}

/** A model id named as a string, or inside `{id}` / `{name}` / `{model}`. */
function readModelName(v: unknown): string | undefined {
  if (typeof v === 'string') {
    const t = v.trim();
    return t === '' ? undefined : t;
  }
  if (isRecord(v)) {
    return readModelName(v.id) ?? readModelName(v.model) ?? readModelName(v.name);
  }
  return undefined;
}

function firstOf<T>(
  o: Record<string, unknown>,
  keys: readonly string[],
  read: (v: unknown) => T | undefined,
): T | undefined {
  // Every reader gives undefined for an absent or null field.
  for (const k of keys) {
    const r = read(o[k]);
    if (r !== undefined) {
      return r;
    }
  }
  return undefined;
}

function statusWord(v: unknown): string | undefined {
  if (typeof v !== 'string') {
    return isRecord(v) ? (statusWord(v.status) ?? statusWord(v.stage) ?? statusWord(v.state)) : undefined;
  }
  const t = v
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return t === '' ? undefined : t;
}

/** Reads one level: the entry itself, or its `lifecycle` object. */
function readLevel(o: Record<string, unknown>, into: ModelLifecycle): void {
  into.status ??= firstOf(o, STATUS_KEYS, statusWord);
  const deprecated = o.deprecated;
  if (deprecated === true || (typeof deprecated === 'string' && /^(true|yes)$/i.test(deprecated.trim()))) {
    into.deprecated = true;
  } else {
    // A date (false, null and other words read as none).
    into.deprecatedAt ??= readDate(deprecated);
  }
  into.deprecatedAt ??= firstOf(o, DEPRECATION_KEYS, readDate);
  into.retiresAt ??= firstOf(o, RETIREMENT_KEYS, readDate);
  // Azure OpenAI: `deprecation: {fine_tune, inference}`, epoch seconds: inference ends (retirement), and
  // fine-tuning ends (the model is deprecated from then on). An object `deprecation: {date, replacement}` too.
  const deprecation = o.deprecation;
  if (isRecord(deprecation)) {
    into.retiresAt ??= readDate(deprecation.inference) ?? firstOf(deprecation, RETIREMENT_KEYS, readDate);
    into.deprecatedAt ??=
      readDate(deprecation.fine_tune) ?? readDate(deprecation.date) ?? firstOf(deprecation, DEPRECATION_KEYS, readDate);
    into.successor ??= firstOf(deprecation, SUCCESSOR_KEYS, readModelName);
  } else {
    into.deprecatedAt ??= readDate(deprecation);
  }
  into.successor ??= firstOf(o, SUCCESSOR_KEYS, readModelName);
}

/** Every top-level field a lifecycle is read from: an entry with none of them declares none. */
const LIFECYCLE_FIELDS = new Set([
  ...DEPRECATION_KEYS,
  ...RETIREMENT_KEYS,
  ...SUCCESSOR_KEYS,
  ...STATUS_KEYS,
  'deprecated',
  'deprecation',
  'model_info',
]);

/**
 * Whether a top-level field of an entry is one a lifecycle is read from (`retirement_date`, `replacement`,
 * `deprecation`…; not LiteLLM's `model_info`, which holds everything): Model Details shows these together.
 */
export function isLifecycleField(name: string): boolean {
  return name !== 'model_info' && LIFECYCLE_FIELDS.has(name);
}

/**
 * Whether the entry has any field a lifecycle is read from: one look at its own keys, so comparing 100,000
 * entries that say nothing about their lifecycle costs little.
 */
export function mayHaveLifecycle(raw: unknown): raw is Record<string, unknown> {
  if (!isRecord(raw)) {
    return false;
  }
  for (const k in raw) {
    if (LIFECYCLE_FIELDS.has(k)) {
      return true;
    }
  }
  return false;
}

/** Two JSON values alike (`depth` bounds the walk; past it they count as different, which only costs a read). */
function sameJson(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 8) {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => sameJson(v, (b as unknown[])[i], depth + 1))
    );
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let keys = 0;
  for (const k in ra) {
    if (!Object.prototype.hasOwnProperty.call(rb, k) || !sameJson(ra[k], rb[k], depth + 1)) {
      return false;
    }
    keys++;
  }
  for (const _ in rb) {
    keys--;
  }
  return keys === 0;
}

/**
 * Whether two entries carry the very same lifecycle fields (the same names, equal values): then they read as
 * the same lifecycle, and comparing 100,000 entries of a registry that writes a lifecycle on each needs no
 * reading at all. Different fields may still read the same (a date respelled): {@link lifecycleKey} decides.
 */
export function sameLifecycleFields(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (!isRecord(a) || !isRecord(b)) {
    return !mayHaveLifecycle(a) && !mayHaveLifecycle(b);
  }
  let fields = 0;
  for (const k in a) {
    if (LIFECYCLE_FIELDS.has(k)) {
      if (!sameJson(a[k], b[k], 0)) {
        return false;
      }
      fields++;
    }
  }
  for (const k in b) {
    if (LIFECYCLE_FIELDS.has(k)) {
      fields--;
    }
  }
  return fields === 0;
}

/** The lifecycle an entry declares, or undefined when it declares none. */
export function readLifecycle(raw: unknown): ModelLifecycle | undefined {
  if (!mayHaveLifecycle(raw)) {
    return undefined;
  }
  const out: ModelLifecycle = { deprecated: false };
  readLevel(raw, out);
  if (isRecord(raw.lifecycle)) {
    readLevel(raw.lifecycle, out);
  }
  if (isRecord(raw.model_info)) {
    // LiteLLM's `/model/info` keeps the entry's own fields under `model_info`.
    readLevel(raw.model_info, out);
  }
  if (DEPRECATED_WORDS.has(out.status) || RETIRED_WORDS.has(out.status)) {
    out.deprecated = true;
  }
  if (out.deprecatedAt !== undefined) {
    out.deprecated = true;
  }
  if (!out.deprecated && out.status === undefined && out.retiresAt === undefined && out.successor === undefined) {
    return undefined;
  }
  return out;
}

/** The stage at `now`: a retirement date in the past says retired, one in the future retiring. */
export function lifecycleStage(l: ModelLifecycle | undefined, now: number): LifecycleStage | undefined {
  if (!l) {
    return undefined;
  }
  if ((l.retiresAt ?? Infinity) <= now || RETIRED_WORDS.has(l.status)) {
    return 'retired';
  }
  if (l.retiresAt !== undefined) {
    return 'retiring';
  }
  if (l.deprecated) {
    return 'deprecated';
  }
  if (PREVIEW_WORDS.has(l.status)) {
    return 'preview';
  }
  if (ACTIVE_WORDS.has(l.status)) {
    return 'active';
  }
  return undefined;
}

/** True when a payload naming the model deserves a warning: deprecated, retiring or retired. */
export function isGoingAway(l: ModelLifecycle | undefined, now: number): boolean {
  const stage = lifecycleStage(l, now);
  return stage === 'deprecated' || stage === 'retiring' || stage === 'retired';
}

/** `2027-01-31` (UTC): the day, as registries write it. */
export function isoDay(ms: number): DisplayText {
  return clean(new Date(ms).toISOString().slice(0, 10));
}

/**
 * The lifecycle in a few words for a row or a picker: "retires 2027-01-31", "retired 2026-01-31",
 * "deprecated", "deprecated since 2026-03-01", "preview"; an unknown status word as it is (display text).
 * Empty for a model the entry calls active (nothing to say).
 */
export function lifecycleLabel(l: ModelLifecycle | undefined, now: number): DisplayText {
  const stage = lifecycleStage(l, now);
  if (!l || stage === undefined) {
    return displayText(l?.status, 40);
  }
  switch (stage) {
    case 'retired':
      return l.retiresAt !== undefined ? l10n.t('retired {0}', isoDay(l.retiresAt)) : l10n.t('retired');
    case 'retiring':
      return l10n.t('retires {0}', isoDay(l.retiresAt as number));
    case 'deprecated':
      return l.deprecatedAt !== undefined && l.deprecatedAt <= now
        ? l10n.t('deprecated since {0}', isoDay(l.deprecatedAt))
        : l.deprecatedAt !== undefined
          ? l10n.t('deprecated from {0}', isoDay(l.deprecatedAt))
          : l10n.t('deprecated');
    case 'preview':
      return l10n.t('preview');
    default:
      return '' as DisplayText;
  }
}

/**
 * The lifecycle as one line for a hover or a details page: the label, the status word the registry used when
 * it adds something, and the successor ("deprecated since 2026-03-01 · use atlas-4").
 */
export function lifecycleSentence(l: ModelLifecycle | undefined, now: number): DisplayText {
  if (!l) {
    return '' as DisplayText;
  }
  const parts: DisplayText[] = [];
  const label = lifecycleLabel(l, now);
  if (label) {
    parts.push(label);
  }
  if (l.status !== undefined && !ACTIVE_WORDS.has(l.status) && !label.startsWith(l.status)) {
    parts.push(l10n.t('status “{0}”', displayText(l.status, 60)));
  }
  if (l.successor !== undefined) {
    parts.push(l10n.t('replaced by {0}', displayText(l.successor, 120)));
  }
  return parts.join(' · ') as DisplayText;
}

/**
 * What two readings of the same entry are compared by: the same lifecycle written in another field or date
 * form gives the same key, so a registry that changes a field's spelling has not changed the model.
 */
export function lifecycleKey(l: ModelLifecycle | undefined): string {
  if (!l) {
    return '';
  }
  return `${l.status ?? ''}\u0000${l.deprecated ? 1 : 0}\u0000${l.deprecatedAt ?? ''}\u0000${l.retiresAt ?? ''}\u0000${l.successor ?? ''}`;
}
