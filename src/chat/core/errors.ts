/**
 * Which `LanguageModelError` a failed chat request becomes. Pure (no `vscode`): the provider builds the
 * error from the verdict. Messages are the client's (already free of the key) plus what to do next.
 */
import { ChatStreamError } from './chatAnswer';
import { l10n } from '../../common/l10n';
import { displayText, type DisplayText } from '../../common/text';
import { nonBlank } from '../../common/records';

export type ChatErrorKind = 'noPermissions' | 'notFound' | 'blocked' | 'cancelled' | 'other';

export interface ChatErrorVerdict {
  kind: ChatErrorKind;
  message: string;
}

/** The fields of a ServiceError this needs (kept structural so tests can pass plain objects). */
interface ServiceErrorLike {
  kind?: unknown;
  status?: unknown;
  code?: unknown;
  type?: unknown;
  message?: unknown;
}

const BLOCKED_CODE =
  /content[-_ ]?(filter|policy|management)|safety|blocked|moderation|responsible[-_ ]?ai|guardrail|insufficient[-_]quota|quota/i;

function withHint(message: string, hint: DisplayText): string {
  const trimmed = message.replace(/\s+$/, '');
  return `${trimmed}${/[.!?)]$/.test(trimmed) ? '' : '.'} ${hint}`;
}

/**
 * 401/403 → no permission (with the command that fixes a key), 404 → not found, content filter / quota /
 * rate limit / 451 → blocked, cancellation → cancelled, anything else → a plain error with the message.
 */
export function classifyChatError(error: unknown, model?: string): ChatErrorVerdict {
  if (error instanceof ChatStreamError) {
    return { kind: error.kind === 'blocked' ? 'blocked' : 'other', message: displayText(error.message, 500) };
  }
  const e = (typeof error === 'object' && error !== null ? error : {}) as ServiceErrorLike;
  // The chat view renders error text: it goes through the display function like every other surface.
  const message = displayText(
    nonBlank(e.message) ?? (typeof error === 'string' ? error : l10n.t('The chat request failed.')),
    500,
  );
  const status = typeof e.status === 'number' ? e.status : undefined;
  const kind = nonBlank(e.kind);
  const codes = [nonBlank(e.code), nonBlank(e.type)].filter((c): c is string => c !== undefined);

  if (kind === 'aborted' || (error instanceof Error && error.name === 'AbortError')) {
    return { kind: 'cancelled', message: l10n.t('The chat request was cancelled.') };
  }
  if (status === 401 || (kind === 'unauthorized' && status !== 403)) {
    return {
      kind: 'noPermissions',
      message: withHint(message, l10n.t('Check the API key with "Model Access: Set API Key".')),
    };
  }
  if (status === 403) {
    return {
      kind: 'noPermissions',
      message: withHint(
        message,
        model
          ? l10n.t('Your organization\'s key may not use "{0}".', displayText(model, 120))
          : l10n.t("Your organization's key may not use this model."),
      ),
    };
  }
  if (status === 404 || kind === 'notFound') {
    return {
      kind: 'notFound',
      message: withHint(message, l10n.t('Refresh the models ("Model Access: Refresh Models").')),
    };
  }
  if (status === 451 || status === 429 || kind === 'rateLimited' || codes.some((c) => BLOCKED_CODE.test(c))) {
    return { kind: 'blocked', message };
  }
  return { kind: 'other', message };
}
