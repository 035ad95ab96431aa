/**
 * The last rate limits a service announced, as one line for the status bar's tooltip and Diagnose Connection:
 * what the headers said (src/domain/cost/rateLimits.ts) and how long ago. Pure; no `vscode` import.
 */
import { l10n } from '../../common/l10n';
import { clean, type DisplayText } from '../../common/text';
import { formatRateLimits, type RateLimits } from '../../domain/cost/rateLimits';

/** `just now`, `3 min ago`, `2 h ago`. */
export function seenAgo(at: number, now: number): DisplayText {
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) {
    return l10n.t('just now');
  }
  return minutes < 60 ? l10n.t('{0} min ago', minutes) : l10n.t('{0} h ago', Math.floor(minutes / 60));
}

/** `Rate limits (seen just now): requests: 59 of 60 left (resets in 1 s); tokens: 149000 of 150000 left.` */
export function rateLimitsLine(limits: RateLimits, now: number): DisplayText {
  return l10n.t('Rate limits (seen {0}): {1}.', seenAgo(limits.seenAt, now), clean(formatRateLimits(limits, now)));
}
