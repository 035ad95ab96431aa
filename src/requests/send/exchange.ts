import * as vscode from 'vscode';
import { isServiceError } from '../../api/errors';
import type { ModelService, PostResult } from '../../api/types';
import { reportNotReady } from '../../platform/ui';
import type { Services } from '../../services';
import type { Environment } from '../../domain/environments';
import type { ResponseRecord } from '../answers/core/responseFormat';
import { clean, type DisplayText } from '../../common/text';
import { describeFailure, FAILURE_ACTIONS, type Failure } from '../../domain/failure';
import { isServiceFailure, wayOut } from './core/wayOut';

export { isServiceFailure };
import { l10n } from '../../platform/l10n';

/**
 * What sending a payload and uploading a file share: getting a client (or saying why there is none), one
 * cancellable progress notification, copying the answer into the response record, and turning a failure
 * into the record's error.
 */

/** The client for `env`, or the message already shown to the person (no URL, no key, a key not yet allowed). */
export async function clientOrReport(
  services: Services,
  env: Environment | undefined = services.environments.active,
): Promise<ModelService | { notReady: DisplayText }> {
  try {
    return await services.connection.getClient(env);
  } catch (e) {
    return { notReady: reportNotReady(services.ui, e) };
  }
}

export type ExchangeProgress = vscode.Progress<{ message?: string; increment?: number }>;

/**
 * Runs `task` under a notification whose Cancel button aborts `controller`; a failure becomes
 * `record.error` (a cancellation `record.cancelled`), and `record.elapsedMs` is set either way.
 * Returns the error message of an unexpected failure (for the log), else undefined.
 */
export async function runExchange(
  title: DisplayText,
  record: ResponseRecord,
  controller: AbortController,
  task: (progress: ExchangeProgress) => Promise<void>,
): Promise<string | undefined> {
  let failure: string | undefined;
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        await task(progress);
      },
    );
    // A stream whose reading was aborted ends quietly, without an error: it stopped short because of the
    // cancel (or a newer send of the same payload), and the record must say so.
    if (controller.signal.aborted && !record.limitReached) {
      record.cancelled = true;
      record.error = l10n.t('The request was cancelled.');
    }
  } catch (e) {
    if (record.limitReached) {
      // Our own abort at the size limit: the message was set where the limit was met.
    } else if (isServiceError(e) && e.kind === 'aborted') {
      record.cancelled = true;
      record.error = l10n.t('The request was cancelled.');
    } else {
      record.error = isServiceError(e) ? e.message : l10n.t('The request failed unexpectedly.');
      record.failure = describeFailure(e);
      failure = record.error;
    }
  }
  record.elapsedMs = Date.now() - record.startedAt;
  return failure;
}

/** Copies an answer's status line, headers and (unless it streams) body into the record. */
export function recordAnswer(record: ResponseRecord, result: PostResult): void {
  record.status = result.status;
  record.statusText = result.statusText;
  record.firstByteMs = result.firstByteMs;
  record.requestId = result.requestId;
  record.headers = result.headers;
  record.contentType = result.contentType;
  if (result.error) {
    record.error = result.error.message;
    record.failure = describeFailure(result.error);
  }
  if (result.body) {
    record.bodyText = result.body.text;
    record.bodyJson = result.body.json;
    record.bytes = result.body.bytes;
    record.truncatedByClient = result.body.truncated;
  }
}

/** A history id unique enough for one person's history: the start time and a random suffix. */
export function historyId(record: ResponseRecord): string {
  return `${record.startedAt}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The status bar follows what a request found on the active environment: a failure about the service or the
 * key (unreachable, key rejected) shows there as a list refresh's would; an answer ends one.
 */
export function followOutcome(services: Services, env: Environment | undefined, failure: Failure | undefined): void {
  if (env !== undefined && env.name !== services.environments.active?.name) {
    return;
  }
  if (!failure) {
    services.catalog.requestSucceeded();
  } else if (isServiceFailure(failure)) {
    services.catalog.requestFailed(failure);
  }
}

/**
 * Says a request failed, with the way out as buttons: the failure's own action (Set API Key…, Diagnose
 * Connection…), Retry (runs `retry`) when it can help, and `extra` (Show Response…).
 */
export function offerWayOut(
  services: Services,
  message: DisplayText,
  failure: Failure,
  retry: () => unknown,
  extra?: { title: DisplayText; run: () => unknown },
): void {
  const actions = wayOut(failure);
  const titles = actions.map((a) => (a === 'retry' ? l10n.t('Retry') : FAILURE_ACTIONS[a].title));
  void Promise.resolve(services.ui.error(message, ...titles, ...(extra ? [extra.title] : []))).then((chosen) => {
    if (extra && chosen === extra.title) {
      return extra.run();
    }
    const action = actions[chosen === undefined ? -1 : titles.indexOf(chosen as DisplayText)];
    if (action === 'retry') {
      return retry();
    }
    return action ? vscode.commands.executeCommand(FAILURE_ACTIONS[action].command) : undefined;
  });
}

/** `POST /v1/chat: the key was rejected…` — what failed and why, for the notification. */
export function failedMessage(what: string, error: string | undefined): DisplayText {
  return l10n.t('{0}: {1}', clean(what), clean(error));
}
