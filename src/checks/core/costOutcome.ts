/**
 * `cost` and `total cost` expectations: the answer's cost (its usage at the model's price) against a limit,
 * failures said as sentences ("cost 0.000072 USD, more than 0.00001"). A cost that cannot be known — no price
 * for the model, a price not per token, no token usage in the answer, another currency — fails as "cannot be
 * judged", never passes. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import { costOf, formatAmount, formatCost, type Cost } from '../../domain/cost/cost';
import { formatPrice, type ModelPrice } from '../../domain/cost/prices';
import type { TokenUsage } from '../../domain/answer';
import { compare, type CompareOp, type Expectation } from './expectations';

/** What evaluate.ts calls an Outcome (declared here too: evaluate.ts imports this module). */
export interface CostVerdict {
  passed: boolean;
  message?: string;
  expected?: string;
  actual?: string;
}
type Outcome = CostVerdict;

export type CostExpectation = Extract<Expectation, { kind: 'cost' | 'totalCost' }>;

/** What a request's price lookup found: the model it went to, and its price when one is known. */
export interface Pricing {
  model?: string;
  price?: ModelPrice;
}

/** "more than 0.01", "not less than 0.01"…: how an amount misses a limit, by the comparison it failed. */
function missed(op: CompareOp, limit: string): string {
  switch (op) {
    case '<=':
      return l10n.t('more than {0}', limit);
    case '<':
      return l10n.t('not less than {0}', limit);
    case '>=':
      return l10n.t('less than {0}', limit);
    case '>':
      return l10n.t('not more than {0}', limit);
    case '==':
      return l10n.t('not {0}', limit);
    case '!=':
      return l10n.t('exactly {0}', limit);
  }
}

function cannot(reason: string): Outcome {
  return { passed: false, message: l10n.t('cannot be judged: {0}', reason) };
}

/** Why a request's cost is unknown, in words, or its cost. */
export function requestCost(usage: TokenUsage | undefined, pricing: Pricing | undefined): Cost | string {
  const model = pricing?.model;
  if (model === undefined) {
    return l10n.t('the payload names no model, so no price applies');
  }
  const price = pricing?.price;
  if (!price) {
    return l10n.t('no price for model {0}', model);
  }
  if (price.given !== undefined) {
    return l10n.t('the price of model {0} is not per token ({1})', model, formatPrice(price));
  }
  const cost = costOf(usage, price);
  if (cost) {
    return cost;
  }
  return usage
    ? l10n.t('the answer does not report the token counts its price needs ({0})', formatPrice(price))
    : l10n.t(
        'the answer reports no token usage (a streamed chat answer reports it with "stream_options": {"include_usage": true})',
      );
}

/** Whether `cost` (in its currency) meets the expectation; the sentence when it does not. */
export function judgeCost(e: CostExpectation, cost: Cost): Outcome {
  if (e.currency !== undefined && e.currency !== cost.currency) {
    return cannot(
      l10n.t('the price is in {0} and the limit in {1}; amounts are never converted', cost.currency, e.currency),
    );
  }
  if (compare(cost.amount, e.op, e.value)) {
    return { passed: true };
  }
  const what = e.kind === 'cost' ? l10n.t('cost') : l10n.t('total cost');
  const limit = formatAmount(e.value);
  return {
    passed: false,
    message: l10n.t('{0} {1}, {2}', what, formatCost(cost), missed(e.op, limit)),
    expected: `${e.op} ${limit} ${e.currency ?? cost.currency}`,
    actual: formatCost(cost),
  };
}

/** The per-request `cost` expectation. */
export function costOutcome(e: CostExpectation, usage: TokenUsage | undefined, pricing: Pricing | undefined): Outcome {
  const cost = requestCost(usage, pricing);
  return typeof cost === 'string' ? cannot(cost) : judgeCost(e, cost);
}

/**
 * `total cost` over the requests of one model in a run: every request's cost must be known (one unknown cost
 * makes the total unknown) and in one currency.
 */
export function totalCostOutcome(e: CostExpectation, costs: ReadonlyArray<Cost | string>): Outcome {
  if (costs.length === 0) {
    return cannot(l10n.t('no request was answered'));
  }
  const unknown = costs.find((c): c is string => typeof c === 'string');
  if (unknown !== undefined) {
    const count = costs.filter((c) => typeof c === 'string').length;
    return cannot(l10n.t('the cost of {0} of {1} requests is unknown: {2}', count, costs.length, unknown));
  }
  const known = costs as Cost[];
  const currencies = [...new Set(known.map((c) => c.currency))];
  if (currencies.length > 1) {
    return cannot(
      l10n.t('the prices are in several currencies ({0}); amounts are never converted', currencies.join(', ')),
    );
  }
  return judgeCost(e, { amount: known.reduce((sum, c) => sum + c.amount, 0), currency: currencies[0] });
}
