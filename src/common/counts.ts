/**
 * Counted nouns as localized messages. VS Code's l10n has no plural rules, so each count is a pair of
 * messages — one for 1, one for any other number — that a translator words separately. Pure.
 */
import { l10n } from './l10n';
import type { DisplayText } from './text';

/** `1 model`, `2 models`. */
export const modelCount = (n: number): DisplayText => (n === 1 ? l10n.t('1 model') : l10n.t('{0} models', n));

/** `1 character`, `2 characters`. */
export const characterCount = (n: number): DisplayText =>
  n === 1 ? l10n.t('1 character') : l10n.t('{0} characters', n);

/** `(1 more character not shown)`, `(2 more characters not shown)`. */
export const moreCharactersNotShown = (n: number): DisplayText =>
  n === 1 ? l10n.t('(1 more character not shown)') : l10n.t('({0} more characters not shown)', n);
