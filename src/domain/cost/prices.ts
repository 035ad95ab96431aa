/**
 * A model's price per token, read tolerantly from its registry entry and from the `modelAccess.prices`
 * setting (which overrides or fills it). The one reader of price fields. Pure; no `vscode` import.
 *
 * Registry shapes read (docs/service-shapes.md, "Prices"):
 * - OpenRouter: `pricing: { prompt, completion, input_cache_read }`, per token, as strings;
 * - LiteLLM: `input_cost_per_token`, `output_cost_per_token`, `cache_read_input_token_cost` (on the entry or
 *   its `model_info`);
 * - keys that carry their unit: `input_price_per_1m`, `output_cost_per_1k_tokens`, `price_per_million_input_tokens`…;
 * - a `pricing`/`price`/`prices`/`cost` object with `input`/`output`/`cached_input` and a `unit` ("1M tokens",
 *   "per 1K", "token") and a `currency`;
 * - Azure-like meters: a list of `{ meterName | type, retailPrice | unitPrice | price, unitOfMeasure | unit,
 *   currencyCode | currency }`.
 *
 * Amounts may be numbers or strings ("0.000001", "$0.15"). A unit the reader does not know ("per 1K
 * characters", "per image") is never converted by guess: the price is kept as written (`given`) and
 * gives no cost. A price with no unit at all is unknown too, except OpenRouter's `pricing.prompt`/`completion`
 * (documented per token) and the setting (per 1M tokens unless it says otherwise).
 */
import { isRecord } from '../../common/records';
import { l10n } from '../../common/plainL10n';
import { oneLine } from '../../common/text';

/**
 * Prices per token. (Named with their unit, and not `input`/`output`: the one-answer-reader guard,
 * test/unit/project/answerShapes.test.ts, takes any `.output` outside src/domain/answer for an answer's shape.)
 */
export interface ModelPrice {
  /** Per input token, in `currency`. */
  inputPerToken?: number;
  /** Per output token, in `currency`. */
  outputPerToken?: number;
  /** Per cached input token, in `currency`; absent: cached tokens cost what other input tokens cost. */
  cachedInputPerToken?: number;
  /** As written (`USD`, `EUR`, `credits`): never converted. */
  currency: string;
  source: 'registry' | 'setting';
  /** A price in a unit this reader does not convert, as written: shown, never used for a cost. */
  given?: string;
}

type Role = 'inputPerToken' | 'outputPerToken' | 'cachedInputPerToken';
type Amounts = Partial<Record<Role, number>>;

const DEFAULT_CURRENCY = 'USD';
const PER_TOKEN = 1;
/** The longest text of a price kept as given. */
const GIVEN_MAX = 160;

/** An amount: a finite, non-negative number or a numeric string (a leading `$` allowed). */
export function amountOf(v: unknown): number | undefined {
  if (typeof v === 'number') {
    return Number.isFinite(v) && v >= 0 ? v : undefined;
  }
  if (typeof v === 'string') {
    const m = /^\s*\$?\s*(\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*$/i.exec(v);
    const n = m ? Number(m[1]) : NaN;
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  return undefined;
}

/**
 * How many tokens a unit's price is for: "token" 1, "1K tokens" 1,000, "per 1M" 1,000,000, "1000000 tokens"…
 * Undefined for anything else (characters, images, seconds, an unknown word).
 */
export function tokensPerUnit(unit: unknown): number | undefined {
  if (typeof unit === 'number') {
    return Number.isSafeInteger(unit) && unit > 0 ? unit : undefined;
  }
  if (typeof unit !== 'string') {
    return undefined;
  }
  const u = unit
    .trim()
    .toLowerCase()
    .replace(/^(per|\/)\s*/, '')
    .replace(/\s*(input|output|prompt|completion)?\s*tokens?$/, '')
    .trim();
  if (u === '' || u === 'token' || u === '1') {
    return unit.trim() === '' ? undefined : PER_TOKEN;
  }
  const m = /^(\d+(?:\.\d+)?)?\s*(k|thousand|m|mn|million)?$/.exec(u);
  if (!m || (m[1] === undefined && m[2] === undefined)) {
    return undefined;
  }
  const n =
    (m[1] === undefined ? 1 : Number(m[1])) * (m[2] === undefined ? 1 : /^(k|thousand)$/.test(m[2]) ? 1e3 : 1e6);
  return Number.isFinite(n) && n >= 1 ? n : undefined;
}

/** A currency as written: a short word (ISO code upper-cased), else the default. */
function currencyOf(...places: Array<Record<string, unknown> | undefined>): string | undefined {
  for (const place of places) {
    const v = place?.currency ?? place?.currencyCode ?? place?.currency_code;
    if (typeof v === 'string') {
      const t = v.trim();
      if (/^[A-Za-z]{3}$/.test(t)) {
        return t.toUpperCase();
      }
      if (t !== '') {
        return [...t.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')].slice(0, 24).join('');
      }
    }
  }
  return undefined;
}

/** Which price a key names, or undefined. */
function roleOf(key: string): Role | undefined {
  const k = key.toLowerCase();
  if (/cache/.test(k)) {
    // A cache write is priced apart by some services and is not a read: not taken for the cached input price.
    return /creat|write/.test(k) ? undefined : 'cachedInputPerToken';
  }
  if (/input|prompt/.test(k)) {
    return 'inputPerToken';
  }
  if (/output|completion/.test(k)) {
    return 'outputPerToken';
  }
  return undefined;
}

/** The unit a key carries in its name (`…_per_token`, `…_per_1m`, `…per_million…`), or undefined. */
function unitInKey(key: string): number | undefined {
  const k = key.toLowerCase().replace(/[-\s]/g, '_');
  if (/(^|_|per)(1m|1_m|million|mtok|1mtok|1000000)(_|$|tok)/.test(k)) {
    return 1e6;
  }
  if (/(^|_|per)(1k|1_k|thousand|ktok|1000)(_|$|tok)/.test(k)) {
    return 1e3;
  }
  if (/per_?token|token_cost|cost_per_token|_token$/.test(k)) {
    return PER_TOKEN;
  }
  return undefined;
}

/** A key that states a price in something else than tokens (characters, images, audio, seconds, requests). */
function otherUnitKey(key: string): boolean {
  return /character|char_|image|pixel|audio|second|minute|hour|request|query|page|call/i.test(key);
}

interface Read {
  amounts: Amounts;
  currency?: string;
  given?: string;
}

/** What a price stated in another unit says, one line, as data (shown through displayText by the views). */
function givenText(parts: string[]): string | undefined {
  return parts.length === 0 ? undefined : oneLine([...new Set(parts)].join(', '), GIVEN_MAX);
}

/** A tier or mode priced apart (`…_above_128k_tokens`, batch, flex, priority): not the model's plain price. */
function tierKey(key: string): boolean {
  return /above|below|batch|tier|flex|priority|realtime|long_context/i.test(key);
}

function shown(v: unknown): string {
  return typeof v === 'string' ? v.trim() : JSON.stringify(v);
}

/** A unit as written, without its own leading "per". */
function unitText(v: unknown): string {
  return shown(v).replace(/^per\s+/i, '');
}

/** Keys named for their role and unit (`input_cost_per_token`, `output_price_per_1m`) in one object. */
function readUnitKeys(place: Record<string, unknown>, out: Read, givenParts: string[]): void {
  for (const [key, value] of Object.entries(place)) {
    const role = roleOf(key);
    if (role === undefined || out.amounts[role] !== undefined || tierKey(key)) {
      continue;
    }
    if (otherUnitKey(key)) {
      if (amountOf(value) !== undefined) {
        givenParts.push(`${key} ${shown(value)}`);
      }
      continue;
    }
    const per = unitInKey(key);
    const amount = amountOf(value);
    if (per !== undefined && amount !== undefined) {
      out.amounts[role] = amount / per;
    }
  }
}

/** `{ input, output, cached_input, unit, currency }`, OpenRouter's `{ prompt, completion }`, or meters. */
function readPriceObject(place: Record<string, unknown>, out: Read, givenParts: string[], defaultPer?: number): void {
  const unit = place.unit ?? place.unitOfMeasure ?? place.per;
  const statedPer = unit === undefined ? undefined : tokensPerUnit(unit);
  // OpenRouter documents `prompt`/`completion` as USD per token.
  const openRouter = place.prompt !== undefined || place.completion !== undefined;
  const per = statedPer ?? (unit === undefined ? (openRouter ? PER_TOKEN : defaultPer) : undefined);
  out.currency ??= currencyOf(place);
  for (const [key, value] of Object.entries(place)) {
    const role = roleOf(key);
    if (role === undefined || out.amounts[role] !== undefined || tierKey(key)) {
      continue;
    }
    if (isRecord(value)) {
      // `input: { price, unit, currency }`
      const amount = amountOf(value.price ?? value.amount ?? value.value ?? value.cost);
      const innerUnit = value.unit ?? value.unitOfMeasure ?? value.per;
      const innerPer = innerUnit === undefined ? per : tokensPerUnit(innerUnit);
      out.currency ??= currencyOf(value);
      if (amount !== undefined && innerPer !== undefined) {
        out.amounts[role] = amount / innerPer;
      } else if (amount !== undefined) {
        givenParts.push(`${key} ${shown(amount)} per ${unitText(innerUnit ?? '?')}`);
      }
      continue;
    }
    const amount = amountOf(value);
    if (amount === undefined) {
      continue;
    }
    const keyPer = unitInKey(key) ?? per;
    if (otherUnitKey(key)) {
      givenParts.push(`${key} ${shown(value)}`);
    } else if (keyPer !== undefined) {
      out.amounts[role] = amount / keyPer;
    } else {
      givenParts.push(unit === undefined ? `${key} ${shown(value)}` : `${key} ${shown(value)} per ${unitText(unit)}`);
    }
  }
}

/** Azure-like meters: `[{ meterName: "Input Tokens", retailPrice: 0.15, unitOfMeasure: "1M", currencyCode }]`. */
function readMeters(meters: unknown[], out: Read, givenParts: string[]): void {
  for (const meter of meters.slice(0, 50)) {
    if (!isRecord(meter)) {
      continue;
    }
    const name = [meter.meterName, meter.type, meter.name, meter.kind, meter.skuName].find(
      (v) => typeof v === 'string',
    );
    const role = typeof name === 'string' ? roleOf(name) : undefined;
    const amount = amountOf(meter.retailPrice ?? meter.unitPrice ?? meter.price ?? meter.amount);
    if (role === undefined || amount === undefined || out.amounts[role] !== undefined) {
      continue;
    }
    const unit = meter.unitOfMeasure ?? meter.unit ?? meter.per;
    const per = tokensPerUnit(unit) ?? (typeof name === 'string' && !otherUnitKey(name) ? unitInKey(name) : undefined);
    out.currency ??= currencyOf(meter);
    if (per !== undefined && !(typeof name === 'string' && otherUnitKey(name))) {
      out.amounts[role] = amount / per;
    } else {
      givenParts.push(`${shown(name)} ${shown(amount)}${unit === undefined ? '' : ` per ${unitText(unit)}`}`);
    }
  }
}

const PRICE_PLACES = ['pricing', 'price', 'prices', 'cost', 'costs', 'token_pricing', 'tokenPricing'] as const;

function readFrom(entry: unknown, defaultPer?: number): Read {
  const out: Read = { amounts: {} };
  const givenParts: string[] = [];
  if (Array.isArray(entry)) {
    readMeters(entry, out, givenParts);
  } else if (isRecord(entry)) {
    const modelInfo = isRecord(entry.model_info) ? entry.model_info : undefined;
    for (const place of [entry, modelInfo]) {
      if (!place) {
        continue;
      }
      for (const name of PRICE_PLACES) {
        const v = place[name];
        if (Array.isArray(v)) {
          readMeters(v, out, givenParts);
        } else if (isRecord(v)) {
          readPriceObject(v, out, givenParts, defaultPer);
        }
      }
      readUnitKeys(place, out, givenParts);
    }
    out.currency ??= currencyOf(entry, modelInfo);
    if (defaultPer !== undefined) {
      // The setting's own object: `{ input, output, unit?, currency? }`.
      readPriceObject(entry, out, givenParts, defaultPer);
    }
  }
  out.given = givenText(givenParts);
  return out;
}

const ROLES: readonly Role[] = ['inputPerToken', 'outputPerToken', 'cachedInputPerToken'];

function priceOf(read: Read, source: ModelPrice['source']): ModelPrice | undefined {
  const price: ModelPrice = { currency: read.currency ?? DEFAULT_CURRENCY, source };
  for (const role of ROLES) {
    const amount = read.amounts[role];
    if (amount !== undefined) {
      price[role] = amount;
    }
  }
  if (ROLES.every((role) => price[role] === undefined)) {
    return read.given === undefined ? undefined : { ...price, given: read.given };
  }
  return price;
}

/** The price a registry entry states (see the shapes above), or undefined when it states none. */
export function readPrice(entry: unknown): ModelPrice | undefined {
  return priceOf(readFrom(entry), 'registry');
}

/**
 * The `modelAccess.prices` value for a model: an object keyed by model id (exactly, else the longest
 * `prefix*` pattern that matches), each `{ input, output, cachedInput?, unit? = "1M tokens", currency? = "USD" }`
 * or any registry shape above.
 */
export function settingEntry(modelId: string, settingPrices: unknown): unknown {
  if (!isRecord(settingPrices)) {
    return undefined;
  }
  if (Object.hasOwn(settingPrices, modelId)) {
    return settingPrices[modelId];
  }
  let best: string | undefined;
  for (const key of Object.keys(settingPrices)) {
    if (key.endsWith('*') && modelId.startsWith(key.slice(0, -1)) && (best === undefined || key.length > best.length)) {
      best = key;
    }
  }
  return best === undefined ? undefined : settingPrices[best];
}

/**
 * The model's price: the setting's over the registry's. The setting overrides the prices it names and the
 * registry fills the others — only when both are in the same currency (prices in two currencies are never
 * mixed: the setting's then stands alone).
 */
export function priceFor(modelId: string, entry: unknown, settingPrices: unknown): ModelPrice | undefined {
  const registry = readPrice(entry);
  const own = settingEntry(modelId, settingPrices);
  const setting = own === undefined ? undefined : priceOf(readFrom(own, 1e6), 'setting');
  if (!setting) {
    return registry;
  }
  if (!registry || registry.given !== undefined || registry.currency !== setting.currency) {
    return setting;
  }
  const merged: ModelPrice = { ...setting };
  delete merged.given;
  for (const role of ROLES) {
    merged[role] ??= registry[role];
  }
  return merged;
}

/**
 * A decimal without exponent, `significant` digits at most, trailing zeros dropped (keeping `minDecimals`):
 * 0.000072 → "0.000072", 0.6 → "0.60" with minDecimals 2.
 */
export function plainNumber(n: number, significant = 6, minDecimals = 0): string {
  if (!Number.isFinite(n)) {
    return String(n);
  }
  if (n === 0) {
    return minDecimals > 0 ? (0).toFixed(minDecimals) : '0';
  }
  const magnitude = Math.floor(Math.log10(Math.abs(n)));
  const decimals = Math.min(100, Math.max(0, significant - 1 - magnitude));
  let s = n.toFixed(decimals);
  if (s.includes('.')) {
    s = s.replace(/0+$/, '');
    const have = s.length - s.indexOf('.') - 1;
    s = have < minDecimals ? s + '0'.repeat(minDecimals - have) : s;
    s = s.replace(/\.$/, '');
  } else if (minDecimals > 0) {
    s = `${s}.${'0'.repeat(minDecimals)}`;
  }
  return s;
}

const perMillion = (perToken: number) => plainNumber(perToken * 1e6, 6, 2);

/**
 * A price as people read it: "0.15 / 0.60 USD per 1M tokens (input / output)", with the cached input price
 * when there is one; a price in a unit not converted as written; "no price known" without one.
 */
export function formatPrice(price: ModelPrice | undefined): string {
  if (!price) {
    return l10n.t('no price known');
  }
  const { inputPerToken: input, outputPerToken: output, cachedInputPerToken: cachedInput, currency } = price;
  let text: string;
  if (input !== undefined && output !== undefined) {
    text = l10n.t('{0} / {1} {2} per 1M tokens (input / output)', perMillion(input), perMillion(output), currency);
  } else if (input !== undefined) {
    text = l10n.t('{0} {1} per 1M input tokens (output price unknown)', perMillion(input), currency);
  } else if (output !== undefined) {
    text = l10n.t('{0} {1} per 1M output tokens (input price unknown)', perMillion(output), currency);
  } else if (cachedInput === undefined) {
    return l10n.t(
      'price as given: {0} ({1}; not known to be per token, so no cost is computed)',
      price.given ?? '',
      currency,
    );
  } else {
    text = l10n.t('input and output prices unknown');
  }
  if (cachedInput !== undefined) {
    text = l10n.t('{0}, cached input {1}', text, perMillion(cachedInput));
  }
  return price.source === 'setting' ? l10n.t('{0} (from modelAccess.prices)', text) : text;
}
