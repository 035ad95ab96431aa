/**
 * What an answer cost: its token usage at the model's price, in the price's currency. Unknown (undefined)
 * whenever a count or a price it needs is unknown: never zero by guess, never converted between currencies.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import type { TokenUsage } from '../answer';
import { plainNumber, type ModelPrice } from './prices';

export interface Cost {
  amount: number;
  /** The price's currency, as written. */
  currency: string;
}

/** A part of the bill: `count` tokens at `perToken`; unknown when a non-zero count has no price. */
function part(count: number, perToken: number | undefined): number | undefined {
  if (count === 0) {
    return 0;
  }
  return perToken === undefined ? undefined : count * perToken;
}

/**
 * The cost of one answer. Input tokens read from the cache are priced at the cached-input price when the
 * model has one. The output count is the reported one, else the total minus the input when both are reported.
 */
export function costOf(usage: TokenUsage | undefined, price: ModelPrice | undefined): Cost | undefined {
  if (!usage || !price || price.given !== undefined) {
    return undefined;
  }
  const input = usage.input;
  let output = usage.output;
  if (output === undefined && usage.total !== undefined && input !== undefined && usage.total >= input) {
    output = usage.total - input;
  }
  if (input === undefined || output === undefined) {
    return undefined;
  }
  const cached = Math.min(usage.cachedInput ?? 0, input);
  const parts = [
    part(input - cached, price.inputPerToken),
    part(cached, price.cachedInputPerToken ?? price.inputPerToken),
    part(output, price.outputPerToken),
  ];
  if (parts.some((p) => p === undefined)) {
    return undefined;
  }
  const amount = (parts as number[]).reduce((a, b) => a + b, 0);
  return Number.isFinite(amount) ? { amount, currency: price.currency } : undefined;
}

/** An amount of money without exponent, 6 significant digits at most: "0.000072". */
export function formatAmount(amount: number): string {
  return plainNumber(amount, 6);
}

/** "0.000072 USD", or "cost unknown". */
export function formatCost(cost: Cost | undefined): string {
  return cost ? `${formatAmount(cost.amount)} ${cost.currency}` : l10n.t('cost unknown');
}
