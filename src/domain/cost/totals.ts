/**
 * What a window, a day or a run of checks used: requests, tokens and cost, by model and environment, per day.
 * Plain data that survives JSON (the extension keeps it per day in its storage; `UsageTotals.from` reads back
 * whatever was stored, dropping what is not a count). Costs in different currencies are added apart, never
 * converted; a request whose tokens or cost were unknown is counted as such, never as zero.
 * Pure; no `vscode` import.
 */
import { isRecord } from '../../common/records';
import { l10n } from '../../common/plainL10n';
import { totalTokens, type TokenUsage } from '../answer';
import { formatAmount, type Cost } from './cost';

/** The sums of some requests. */
export interface Tally {
  requests: number;
  /** (Not `input`/`output`: see ModelPrice on the one-answer-reader guard.) */
  inputTokens: number;
  outputTokens: number;
  /** Every token, where the answer reported a total or both counts. */
  totalTokens: number;
  /** Requests whose answers reported no token counts. */
  unknownTokens: number;
  /** Amount per currency. */
  cost: Record<string, number>;
  /** Requests whose cost is unknown (no price, or no usage). */
  unknownCost: number;
}

/** One day's tally for one model in one environment. */
export interface TotalsRow extends Tally {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  model: string;
  environment: string;
}

export interface UsageTotalsData {
  version: 1;
  rows: TotalsRow[];
}

export interface UsageEvent {
  model: string;
  environment: string;
  usage?: TokenUsage;
  cost?: Cost;
  /** Epoch milliseconds. */
  at: number;
}

export interface TotalsFilter {
  day?: string;
  model?: string;
  environment?: string;
}

export function emptyTally(): Tally {
  return { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, unknownTokens: 0, cost: {}, unknownCost: 0 };
}

/** The local calendar day of an epoch time, `YYYY-MM-DD`. */
export function dayOf(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

const KEY_SEPARATOR = '\u0000';
/** The most rows kept (days × models × environments); the oldest days go first. */
const MAX_ROWS = 20_000;

function addTally(into: Tally, from: Tally): void {
  into.requests += from.requests;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.totalTokens += from.totalTokens;
  into.unknownTokens += from.unknownTokens;
  into.unknownCost += from.unknownCost;
  for (const [currency, amount] of Object.entries(from.cost)) {
    into.cost[currency] = (into.cost[currency] ?? 0) + amount;
  }
}

export class UsageTotals {
  private readonly rows = new Map<string, TotalsRow>();

  constructor(private readonly day: (at: number) => string = dayOf) {}

  /** Counts one request. */
  add(e: UsageEvent): void {
    const day = this.day(e.at);
    const key = [day, e.environment, e.model].join(KEY_SEPARATOR);
    let row = this.rows.get(key);
    if (!row) {
      row = { day, model: e.model, environment: e.environment, ...emptyTally() };
      this.rows.set(key, row);
      this.trim();
    }
    row.requests++;
    const total = totalTokens(e.usage);
    if (e.usage === undefined || (e.usage.input === undefined && e.usage.output === undefined && total === undefined)) {
      row.unknownTokens++;
    } else {
      row.inputTokens += e.usage.input ?? 0;
      row.outputTokens += e.usage.output ?? 0;
      row.totalTokens += total ?? 0;
    }
    if (e.cost && Number.isFinite(e.cost.amount) && e.cost.amount >= 0) {
      row.cost[e.cost.currency] = (row.cost[e.cost.currency] ?? 0) + e.cost.amount;
    } else {
      row.unknownCost++;
    }
  }

  /** The rows (copies), oldest day first. */
  list(filter: TotalsFilter = {}): TotalsRow[] {
    return [...this.rows.values()]
      .filter(
        (r) =>
          (filter.day === undefined || r.day === filter.day) &&
          (filter.model === undefined || r.model === filter.model) &&
          (filter.environment === undefined || r.environment === filter.environment),
      )
      .sort((a, b) => a.day.localeCompare(b.day))
      .map((r) => ({ ...r, cost: { ...r.cost } }));
  }

  /** The sums of the rows that match. */
  summary(filter: TotalsFilter = {}): Tally {
    const out = emptyTally();
    for (const row of this.list(filter)) {
      addTally(out, row);
    }
    return out;
  }

  /** Sums by model (or environment), in the rows that match `filter`, the most requests first. */
  by(what: 'model' | 'environment', filter: TotalsFilter = {}): Array<{ name: string; tally: Tally }> {
    const groups = new Map<string, Tally>();
    for (const row of this.list(filter)) {
      const name = row[what];
      const tally = groups.get(name) ?? emptyTally();
      addTally(tally, row);
      groups.set(name, tally);
    }
    return [...groups.entries()]
      .map(([name, tally]) => ({ name, tally }))
      .sort((a, b) => b.tally.requests - a.tally.requests || a.name.localeCompare(b.name));
  }

  /** The days that have rows, oldest first. */
  days(): string[] {
    return [...new Set([...this.rows.values()].map((r) => r.day))].sort();
  }

  /** Forgets the days before `firstKept` (`YYYY-MM-DD`). */
  dropBefore(firstKept: string): void {
    for (const [key, row] of this.rows) {
      if (row.day < firstKept) {
        this.rows.delete(key);
      }
    }
  }

  toJSON(): UsageTotalsData {
    return { version: 1, rows: this.list() };
  }

  /** Totals read back from stored data; what is not a row of counts is dropped, never guessed. */
  static from(data: unknown, day: (at: number) => string = dayOf): UsageTotals {
    const totals = new UsageTotals(day);
    const rows = isRecord(data) && Array.isArray(data.rows) ? data.rows : [];
    for (const raw of rows.slice(0, MAX_ROWS)) {
      const row = readRow(raw);
      if (row) {
        const key = [row.day, row.environment, row.model].join(KEY_SEPARATOR);
        const existing = totals.rows.get(key);
        if (existing) {
          addTally(existing, row);
        } else {
          totals.rows.set(key, row);
        }
      }
    }
    return totals;
  }

  private trim(): void {
    if (this.rows.size <= MAX_ROWS) {
      return;
    }
    const oldest = [...this.rows.entries()].sort((a, b) => a[1].day.localeCompare(b[1].day))[0];
    this.rows.delete(oldest[0]);
  }
}

const whole = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;

function readRow(raw: unknown): TotalsRow | undefined {
  if (!isRecord(raw)) {
    return undefined;
  }
  const { day, model, environment } = raw;
  if (
    typeof day !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
    typeof model !== 'string' ||
    typeof environment !== 'string'
  ) {
    return undefined;
  }
  const counts = ['requests', 'inputTokens', 'outputTokens', 'totalTokens', 'unknownTokens', 'unknownCost'].map((k) =>
    whole(raw[k]),
  );
  if (counts.some((n) => n === undefined)) {
    return undefined;
  }
  const [requests, inputTokens, outputTokens, totalTokens, unknownTokens, unknownCost] = counts as number[];
  const cost: Record<string, number> = {};
  if (isRecord(raw.cost)) {
    for (const [currency, amount] of Object.entries(raw.cost)) {
      if (typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 && currency.length <= 24) {
        cost[currency] = amount;
      }
    }
  }
  return {
    day,
    model,
    environment,
    requests,
    inputTokens,
    outputTokens,
    totalTokens,
    unknownTokens,
    cost,
    unknownCost,
  };
}

/** "0.0012 USD" (several currencies joined with " + "), "cost unknown" when nothing was priced. */
export function formatTallyCost(tally: Tally): string {
  const known = Object.entries(tally.cost).map(([currency, amount]) => `${formatAmount(amount)} ${currency}`);
  if (known.length === 0) {
    return tally.requests === 0 ? l10n.t('no cost') : l10n.t('cost unknown');
  }
  const text = known.join(' + ');
  return tally.unknownCost > 0 ? l10n.t('{0} (and {1} requests of unknown cost)', text, tally.unknownCost) : text;
}

/**
 * "3 requests, 1234 tokens (1000 in, 234 out), 0.0012 USD", unknown parts said as such.
 */
export function formatTally(tally: Tally): string {
  const tokens =
    tally.unknownTokens === tally.requests && tally.requests > 0
      ? l10n.t('tokens unknown')
      : tally.unknownTokens > 0
        ? l10n.t(
            '{0} tokens ({1} in, {2} out; {3} without counts)',
            tally.totalTokens,
            tally.inputTokens,
            tally.outputTokens,
            tally.unknownTokens,
          )
        : l10n.t('{0} tokens ({1} in, {2} out)', tally.totalTokens, tally.inputTokens, tally.outputTokens);
  const requests = tally.requests === 1 ? l10n.t('1 request') : l10n.t('{0} requests', tally.requests);
  return l10n.t('{0}, {1}, {2}', requests, tokens, formatTallyCost(tally));
}
