import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../ids';
import type { Services } from '../../services';
import type { RequestHistory } from './history';
import { formatBytes, type ResponseRecord } from '../answers/core/responseFormat';
import type { ResponseDocuments } from '../answers/responseView';
import { clientOrReport, historyId, recordAnswer, followOutcome, offerWayOut, runExchange } from './exchange';
import { clean, displayText, type DisplayText } from '../../common/text';
import { l10n } from '../../platform/l10n';

/** OpenAI's file purposes; the service publishes none, so any other value can be typed. */
const PURPOSES = ['user_data', 'assistants', 'batch', 'fine-tune', 'vision', 'evals'];

export type UploadOutcome =
  | { kind: 'uploaded'; responseUri: vscode.Uri; record: ResponseRecord; fileId?: string }
  | { kind: 'notSent'; message: DisplayText };

/** Upload to /v1/files: the given file, the active editor's file, or one picked in a dialog. */
export async function uploadFile(
  deps: Services,
  responses: ResponseDocuments,
  history: RequestHistory,
  arg?: unknown,
  purposeArg?: string,
): Promise<UploadOutcome> {
  const uri = (arg instanceof vscode.Uri ? arg : undefined) ?? activeFile() ?? (await pickFile());
  if (!uri) {
    return { kind: 'notSent', message: l10n.t('No file was chosen.') };
  }
  if (uri.scheme !== 'file') {
    const message = l10n.t('Only files on disk can be uploaded; save the document first.');
    void deps.ui.error(message);
    return { kind: 'notSent', message };
  }
  const purpose = purposeArg ?? (await askPurpose(deps));
  if (!purpose) {
    return { kind: 'notSent', message: l10n.t('No purpose was chosen.') };
  }
  const client = await clientOrReport(deps);
  if ('notReady' in client) {
    return { kind: 'notSent', message: client.notReady };
  }
  const filename = path.basename(uri.fsPath);
  const responseUri = responses.uriFor(uri, 'json', deps.config.responseInNewTab);
  const record: ResponseRecord = { method: 'POST', endpoint: '/v1/files', startedAt: Date.now() };
  responses.set(responseUri, record);
  const controller = new AbortController();
  await runExchange(l10n.t('Model Access: uploading {0}', clean(filename)), record, controller, async (progress) => {
    let lastPercent = 0;
    const result = await client.uploadFile(uri.fsPath, {
      purpose,
      filename,
      signal: controller.signal,
      onProgress: (sent, total) => {
        const percent = total > 0 ? Math.floor((sent / total) * 100) : 0;
        if (percent > lastPercent) {
          progress.report({
            increment: percent - lastPercent,
            message: l10n.t('{0} of {1} ({2}%)', clean(formatBytes(sent)), clean(formatBytes(total)), percent),
          });
          lastPercent = percent;
        }
      },
    });
    recordAnswer(record, result);
  });
  responses.redrawNow(responseUri);
  const fileId =
    typeof (record.bodyJson as { id?: unknown } | undefined)?.id === 'string'
      ? (record.bodyJson as { id: string }).id
      : undefined;
  await history.add({
    id: historyId(record),
    endpoint: '/v1/files',
    environment: deps.environments.active?.name,
    status: record.status,
    at: new Date(record.startedAt).toISOString(),
    elapsedMs: record.elapsedMs,
    payload: uri.fsPath,
    source: uri.toString(),
    summary: record.error ?? (fileId ? l10n.t('file id {0}', clean(fileId)) : ''),
  });
  // Answered in a notification: the editor keeps its width; the whole answer is one button away.
  const showResponse = { title: l10n.t('Show Response'), run: () => responses.show(responseUri) };
  if (fileId) {
    followOutcome(deps, undefined, undefined);
    const copy = l10n.t('Copy File ID');
    const use = l10n.t('Use in a New Request');
    void deps.ui
      .info(l10n.t('Uploaded {0}: {1}', clean(filename), clean(fileId)), copy, use, showResponse.title)
      .then((a) => {
        if (a === copy) {
          void deps.ui.copy(fileId);
        } else if (a === use) {
          void vscode.commands.executeCommand(Commands.useFileInNewRequest, fileId);
        } else if (a === showResponse.title) {
          void showResponse.run();
        }
      });
  } else if (record.failure && !record.cancelled) {
    followOutcome(deps, undefined, record.failure);
    offerWayOut(
      deps,
      l10n.t('Upload of {0} failed: {1}', clean(filename), clean(record.error)),
      record.failure,
      () => uploadFile(deps, responses, history, uri, purpose),
      showResponse,
    );
  } else if (!record.cancelled) {
    void deps.ui.info(l10n.t('Uploaded {0}.', clean(filename)), showResponse.title).then((a) => {
      if (a) {
        void showResponse.run();
      }
    });
  }
  return { kind: 'uploaded', responseUri, record, fileId };
}

function activeFile(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' ? uri : undefined;
}

async function pickFile(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: l10n.t('Upload to /v1/files') });
  return picked?.[0];
}

async function askPurpose(deps: Services): Promise<string | undefined> {
  const preferred = deps.config.defaultFilePurpose;
  const ordered = [preferred, ...PURPOSES.filter((p) => p !== preferred)];
  const pick = await deps.ui.pick(
    ordered.map((p) => ({
      label: displayText(p),
      purpose: p,
      description: p === preferred ? l10n.t('default (modelAccess.defaultFilePurpose)') : undefined,
    })),
    { title: l10n.t('Purpose of the file'), placeHolder: l10n.t('The `purpose` field sent with the upload') },
  );
  return pick?.purpose;
}
