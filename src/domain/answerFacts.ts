/**
 * What an answer cost, in words, the same wherever an answer is shown (the conversation panel, the answer
 * document, Compare, checks): its tokens, its time to the first and to the last byte, and its cost. A fact
 * the answer did not give is said to be unknown, never shown as zero. Pure; no `vscode` import.
 */
import { l10n } from '../common/l10n';
import { clean, type DisplayText } from '../common/text';
import { totalTokens, type TokenUsage } from './answer';
import { formatCost, type Cost } from './cost/cost';
import type { ModelPrice } from './cost/prices';

/** The facts of one answer, as the glue gathered them. */
export interface AnswerFacts {
  usage?: TokenUsage;
  /** From sending to the answer's first byte (its status line). */
  firstByteMs?: number;
  /** From sending to its last byte. */
  lastByteMs?: number;
  /** Its model's price and cost, once looked up (absent: not priced, and nothing is said of cost). */
  priced?: Priced;
}

/** A model's price (undefined: none known) and what the answer cost at it (undefined: unknown). */
export interface Priced {
  price: ModelPrice | undefined;
  cost: Cost | undefined;
}

/** `42 tokens (12 in, 30 out)`, `12 tokens in`, or `tokens not reported`. */
export function tokensText(u: TokenUsage | undefined): DisplayText {
  if (!u) {
    return l10n.t('tokens not reported');
  }
  const all = totalTokens(u);
  const input = u.input;
  const output = u.output;
  if (all !== undefined && input !== undefined && output !== undefined) {
    return l10n.t('{0} tokens ({1} in, {2} out)', all, input, output);
  }
  if (all !== undefined) {
    return all === 1 ? l10n.t('1 token') : l10n.t('{0} tokens', all);
  }
  if (input !== undefined) {
    return input === 1 ? l10n.t('1 token in') : l10n.t('{0} tokens in', input);
  }
  if (output !== undefined) {
    return output === 1 ? l10n.t('1 token out') : l10n.t('{0} tokens out', output);
  }
  return l10n.t('tokens not reported');
}

/**
 * What the answer cost: `0.000072 USD`; `no price known` when its model has none (never a cost of zero);
 * `cost unknown` when the answer did not report the counts the price needs, or the price is in a unit that is
 * not converted.
 */
export function costText(p: Priced): DisplayText {
  if (!p.price) {
    return l10n.t('no price known');
  }
  return clean(formatCost(p.cost));
}

/** `412 ms` below a second, `2.35 s` above. */
export function durationText(ms: number): DisplayText {
  return ms < 1000 ? l10n.t('{0} ms', Math.round(ms)) : l10n.t('{0} s', clean((ms / 1000).toFixed(2)));
}

/** `first byte 120 ms, last byte 412 ms` (either part alone when only one is known); undefined when neither. */
export function timeText(firstByteMs: number | undefined, lastByteMs: number | undefined): DisplayText | undefined {
  const first = firstByteMs !== undefined && firstByteMs >= 0 ? firstByteMs : undefined;
  const last = lastByteMs !== undefined && lastByteMs >= 0 ? lastByteMs : undefined;
  if (first !== undefined && last !== undefined) {
    return l10n.t('first byte {0}, last byte {1}', durationText(first), durationText(last));
  }
  if (last !== undefined) {
    return l10n.t('last byte {0}', durationText(last));
  }
  return first === undefined ? undefined : l10n.t('first byte {0}', durationText(first));
}

/** Tokens, cost and time on one line: `42 tokens (12 in, 30 out) · 0.000072 USD · first byte 120 ms, last byte 412 ms`. */
export function factsLine(f: AnswerFacts): DisplayText {
  const time = timeText(f.firstByteMs, f.lastByteMs);
  return [tokensText(f.usage), ...(f.priced ? [costText(f.priced)] : []), ...(time ? [time] : [])].join(
    ' · ',
  ) as DisplayText;
}
