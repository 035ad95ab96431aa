/**
 * What a `model-access check` run costs: `--prices FILE` (prices over the registry's), `--max-cost N` (the run
 * stops before a request that would pass it, counted as the answers come), the run's totals at the end, each
 * request's usage and cost as JUnit properties, and the rate limits said when the run waits. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isRecord } from '../common/records';
import { totalTokens, type TokenUsage } from '../domain/answer';
import { formatAmount, formatCost, type Cost } from '../domain/cost/cost';
import { formatRateLimits, formatWait, readRateLimits } from '../domain/cost/rateLimits';
import { formatTally, UsageTotals } from '../domain/cost/totals';
import type { PostResult } from '../api/types';
import type { RowResult } from '../checks/core/fileRun';

export interface CostOptions {
  /** `--prices FILE`: the `modelAccess.prices` shape, or a settings.json holding it. */
  pricesFile?: string;
  /** `--max-cost N` (`N EUR`, `NEUR`): USD unless a currency is written. */
  maxCost?: Cost;
}

export const COST_USAGE = [
  '  --prices FILE              model prices over the registry\'s: {"model-id": {"input": 0.15, "output": 0.6}}',
  '                             per 1M tokens, USD (or "unit", "currency"), or a settings.json with "modelAccess.prices"',
  '  --max-cost N               stop the run before it spends more than N (USD; "N EUR" for another currency)',
];

/** Reads one option at `args[i]`; how many arguments it took (0: not one of these), or the problem. */
export function readCostOption(args: readonly string[], i: number, o: CostOptions): number | string {
  const a = args[i];
  const next = args[i + 1];
  if (a !== '--prices' && a !== '--max-cost') {
    return 0;
  }
  if (next === undefined) {
    return `${a} needs a value`;
  }
  if (a === '--prices') {
    o.pricesFile = next;
    return 2;
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]{3})?\s*$/.exec(next);
  if (!m) {
    return `--max-cost needs an amount, as in --max-cost 0.50 or --max-cost "0.50 EUR", not "${next}"`;
  }
  o.maxCost = { amount: Number(m[1]), currency: (m[2] ?? 'USD').toUpperCase() };
  return 2;
}

/** The prices of `--prices FILE`, or why they cannot be read. */
export function loadPrices(file: string, cwd: string): { prices: unknown } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      problem:
        code === undefined
          ? `the prices file ${file} is not JSON`
          : `the prices file ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : code})`,
    };
  }
  const prices = isRecord(json) && isRecord(json['modelAccess.prices']) ? json['modelAccess.prices'] : json;
  if (!isRecord(prices)) {
    return { problem: `the prices file ${file} must hold an object of prices by model id` };
  }
  return { prices };
}

/** A request's usage and cost as JUnit properties. */
export function costProperties(row: RowResult): { name: string; value: string }[] {
  if (row.kind !== 'run') {
    return [];
  }
  const { observed, cost } = row.result;
  // Typed as the answer reader's own result (its `output` is a count, not an answer's shape).
  const usage: TokenUsage | undefined = observed.answer?.usage;
  const props: { name: string; value: string }[] = [];
  const total = totalTokens(usage);
  if (usage) {
    if (usage.input !== undefined) {
      props.push({ name: 'tokens-input', value: String(usage.input) });
    }
    if (usage.output !== undefined) {
      props.push({ name: 'tokens-output', value: String(usage.output) });
    }
  }
  if (total !== undefined) {
    props.push({ name: 'tokens', value: String(total) });
  }
  if (cost !== undefined) {
    props.push({ name: 'cost', value: typeof cost === 'string' ? `unknown: ${cost}` : formatCost(cost) });
  }
  if (observed.firstByteMs !== undefined) {
    props.push({ name: 'time-to-first-byte-ms', value: String(Math.round(observed.firstByteMs)) });
  }
  if (observed.status !== undefined) {
    props.push({ name: 'time-ms', value: String(Math.round(observed.elapsedMs)) });
  }
  return props;
}

/** "waiting 2 s after HTTP 429 (requests: 0 of 60 left (resets in 2 s))". */
export function waitLine(ms: number, refused: Pick<PostResult, 'status' | 'headers'>, now = Date.now()): string {
  const limits = readRateLimits(refused.headers, now);
  const said = limits ? ` (${formatRateLimits(limits, now)})` : '';
  return `waiting ${formatWait(ms)} after HTTP ${refused.status}${said}`;
}

/**
 * The run's spending: every answer counted as it comes, by model and environment; with `--max-cost`, whether
 * another request may start. A request may start while the money spent plus the most one request has cost
 * so far stays within the limit. An answer whose cost cannot be counted (no price, no usage, another
 * currency) stops the run too: the limit could no longer be kept.
 */
export class RunCosts {
  readonly totals = new UsageTotals();
  private spent = 0;
  private dearest = 0;
  /** Why the run stopped, once it did. */
  stopped?: string;

  constructor(private readonly maxCost?: Cost) {}

  record(row: RowResult, environment: string | undefined): void {
    if (row.kind !== 'run' || row.result.observed.status === undefined) {
      return;
    }
    const { result } = row;
    const cost = typeof result.cost === 'object' ? result.cost : undefined;
    this.totals.add({
      model: result.model ?? '',
      environment: environment ?? '',
      usage: result.observed.answer?.usage,
      cost,
      at: Date.now(),
    });
    const status = result.observed.status ?? 0;
    // A refused request (4xx, 5xx) is not billed by the services this reads: it does not stop the run.
    if (!this.maxCost || status < 200 || status >= 300) {
      return;
    }
    if (!cost || cost.currency !== this.maxCost.currency) {
      const why =
        typeof result.cost === 'string'
          ? result.cost
          : cost
            ? `its price is in ${cost.currency}, the limit in ${this.maxCost.currency}`
            : 'its cost is unknown';
      this.stopped ??= `the cost of an answer of ${result.model ?? 'the payload'} cannot be counted (${why}), so --max-cost cannot be kept`;
      return;
    }
    this.spent += cost.amount;
    this.dearest = Math.max(this.dearest, cost.amount);
  }

  /** Whether another request may start under `--max-cost`. */
  mayStart(): boolean {
    if (!this.maxCost || this.stopped) {
      return this.stopped === undefined;
    }
    const { amount, currency } = this.maxCost;
    if (this.spent + this.dearest > amount) {
      this.stopped = `the run has spent ${formatAmount(this.spent)} ${currency}, and another request (up to ${formatAmount(this.dearest)} ${currency} so far) would pass --max-cost ${formatAmount(amount)} ${currency}`;
      return false;
    }
    return true;
  }

  /** The lines printed at the end: the run's totals, by model when there were several. */
  summary(): string[] {
    const all = this.totals.summary();
    if (all.requests === 0) {
      return [];
    }
    const lines = [`Usage: ${formatTally(all)}`];
    const models = this.totals.by('model');
    if (models.length > 1) {
      models.forEach((m) => lines.push(`  ${m.name || 'the payload'}: ${formatTally(m.tally)}`));
    }
    return lines;
  }
}
