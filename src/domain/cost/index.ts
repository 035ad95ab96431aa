/**
 * What answers cost: prices (the one reader of price fields), the cost of an answer, rate limits from headers,
 * and usage totals. Pure; no `vscode` import.
 */
export {
  amountOf,
  formatPrice,
  plainNumber,
  priceFor,
  readPrice,
  settingEntry,
  tokensPerUnit,
  type ModelPrice,
} from './prices';
export { costOf, formatAmount, formatCost, type Cost } from './cost';
export {
  formatRateLimits,
  formatWait,
  nextRateLimits,
  parseDurationText,
  readRateLimits,
  requestsLeft,
  resetTime,
  type RateLimits,
} from './rateLimits';
export {
  dayOf,
  emptyTally,
  formatTally,
  formatTallyCost,
  UsageTotals,
  type Tally,
  type TotalsFilter,
  type TotalsRow,
  type UsageEvent,
  type UsageTotalsData,
} from './totals';
