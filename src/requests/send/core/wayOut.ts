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

/** A way out the conversation panel offers beyond a notification's: it knows the payload and its model. */
export type PanelWay = FailureAction | 'pickModel' | 'switchEnvironment';

/** The service's code for a model it does not know (OpenAI's, which the service follows). */
const MODEL_NOT_FOUND = 'model_not_found';

/**
 * The buttons under a failed answer in the conversation panel, where the error is the only one shown (no
 * notification as well), so it carries every way out a person needs there:
 * - a 404 for the payload's model (the service's `model_not_found`, or a model the catalog does not list):
 *   Pick a Model…, which changes the payload's model and sends again;
 * - a stopped or unreachable service: Retry, Switch Environment… (another service may be up), Diagnose
 *   Connection;
 * - anything else: what a notification offers ({@link wayOut}).
 * `modelListed` is whether the catalog lists the payload's model (undefined: not known).
 */
export function panelWayOut(failure: Failure, modelListed?: boolean): PanelWay[] {
  if (failure.status === 404 && (failure.code === MODEL_NOT_FOUND || modelListed === false)) {
    return ['pickModel'];
  }
  const ways: PanelWay[] = wayOut(failure);
  if (failure.kind === 'network' || failure.kind === 'timeout') {
    const at = ways.indexOf('retry');
    ways.splice(at < 0 ? ways.length : at + 1, 0, 'switchEnvironment');
  }
  return ways;
}
