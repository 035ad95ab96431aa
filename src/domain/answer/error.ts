/** Errors an answer reports, and whether a safety system stopped it. Pure. */
import { l10n } from '../../common/plainL10n';
import { filled, idLike, isRecord } from './fields';
import type { AnswerError } from './types';

/** Codes, types and finish reasons that mean a content filter or safety system stopped the answer. */
const BLOCKED = /content[-_ ]?(filter|policy|management)|safety|blocked|moderation|responsible[-_ ]?ai|guardrail/i;

export function isBlockedReason(reason: string | undefined): boolean {
  return reason !== undefined && BLOCKED.test(reason);
}

/**
 * An `error` member (`{message, code, type}` or a bare string) as an AnswerError; `fallback` names the
 * situation when the error has no message of its own.
 */
export function readError(
  error: unknown,
  fallback = l10n.t('The service reported an error in its answer.'),
): AnswerError {
  if (typeof error === 'string') {
    return { message: filled(error) ?? fallback, blocked: BLOCKED.test(error) };
  }
  const e = isRecord(error) ? error : {};
  const code = idLike(e.code);
  const type = filled(e.type);
  const message = filled(e.message) ?? fallback;
  const blocked = [code, type].some((c) => isBlockedReason(c));
  const named = code ?? type;
  return named === undefined ? { message, blocked } : { message, code: named, blocked };
}

/** The message of an error reported in a stream that gives none of its own. */
export function streamErrorFallback(): string {
  return l10n.t('The service reported an error in the middle of its answer.');
}

/** An error for a finish reason that means the answer was stopped by a filter. */
export function blockedStop(reason: string): AnswerError {
  return {
    message: l10n.t('The service stopped the answer: its content filter blocked it.'),
    code: reason,
    blocked: true,
  };
}
