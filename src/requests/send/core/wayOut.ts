/**
 * What a failed Send, Upload or Compare offers, as the Models view does for a failed list: the action that
 * helps and Retry where trying again can. Pure; no `vscode` import.
 */
import type { Failure, FailureAction } from '../../../domain/failure';

/** Whether a failure is about the service or the key (the status bar follows it), not about one payload. */
export function isServiceFailure(failure: Failure): boolean {
  return (
    failure.action === 'setApiKey' ||
    failure.action === 'diagnose' ||
    failure.action === 'allowKey' ||
    failure.kind === 'network' ||
    failure.kind === 'timeout'
  );
}

/**
 * The buttons a failed request offers, as the Models view does: the one action that helps (Set API Key…,
 * Diagnose Connection…) and Retry when trying again can help — a rejected key, an unreachable or failing
 * service, a rate limit — but not for a payload the service refused (another 4xx).
 */
export function wayOut(failure: Failure): FailureAction[] {
  const status = failure.status;
  const retryHelps =
    failure.kind === 'network' ||
    failure.kind === 'timeout' ||
    failure.action === 'setApiKey' ||
    failure.action === 'diagnose' ||
    (status !== undefined && (status >= 500 || status === 429 || status === 408));
  const first = failure.action === 'retry' ? [] : [failure.action];
  const diagnose = failure.kind === 'network' || failure.kind === 'timeout' ? (['diagnose'] as FailureAction[]) : [];
  return [...first, ...(retryHelps ? (['retry'] as FailureAction[]) : []), ...diagnose].filter(
    (a, i, all) => all.indexOf(a) === i,
  );
}
