import * as vscode from 'vscode';
import { BuiltinCommands } from '../../ids';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import { answerColumn } from './answerPlacement';
import { EmbeddingsPictures } from './embeddingsPanel';
import { RESPONSE_SCHEME } from './responseScheme';
import type { ResponseDocuments } from './responseView';

/** Toggle Response Headers on the active answer. */
export function toggleResponseHeaders(responses: ResponseDocuments): void {
  const active = responses.active();
  if (active) {
    active.record.showHeaders = !active.record.showHeaders;
    responses.redrawNow(active.uri);
  }
}

/** Show Raw Events: the active streamed answer's events, keys removed. */
export async function showRawEvents(deps: Services, responses: ResponseDocuments): Promise<void> {
  const active = responses.active();
  if (active?.record.rawEventsWithheld) {
    void deps.ui.info(
      l10n.t(
        'The raw events of this answer are not shown: the answer held your API key, split across events. The output text (with the key removed) is in the response document.',
      ),
    );
    return;
  }
  const raw = active?.record.rawEvents;
  if (!raw) {
    void deps.ui.info(l10n.t('The active response is not a stream of events.'));
    return;
  }
  const doc = await vscode.workspace.openTextDocument({
    language: 'plaintext',
    content: deps.log.redactor.removeSecrets(raw.join('\n\n')),
  });
  // With the answers (where the response is, when it is the active editor): never a third column.
  const fromAnswer = vscode.window.activeTextEditor?.document.uri.scheme === RESPONSE_SCHEME;
  await vscode.window.showTextDocument(doc, {
    viewColumn: fromAnswer ? vscode.ViewColumn.Active : answerColumn(),
    preview: true,
  });
}

/** Open Answer Preview: the embeddings picture, or VS Code's Markdown preview of the answer. */
export async function previewResponse(
  deps: Services,
  responses: ResponseDocuments,
  embeddings: EmbeddingsPictures,
): Promise<void> {
  const active = responses.active();
  if (!active) {
    void deps.ui.info(l10n.t('Open a response first.'));
    return;
  }
  // The preview opens in the answer's own column (focused there first): never a third column. Embeddings
  // get a page of our own (heat map, norms, similarity table); other answers VS Code's Markdown preview.
  await responses.show(active.uri, { focus: true });
  if (EmbeddingsPictures.canShow(active.record)) {
    embeddings.show(active.uri, active.record);
    return;
  }
  await vscode.commands.executeCommand(BuiltinCommands.showMarkdownPreview, active.uri);
}

/** Save Response Body: the full body of the active answer, where the person chooses. */
export async function saveResponseBody(deps: Services, responses: ResponseDocuments): Promise<void> {
  const active = responses.active();
  const body = active && responses.fullBody(active.uri);
  if (!active || body === undefined) {
    void deps.ui.info(l10n.t('Open a response first.'));
    return;
  }
  const target = await deps.ui.saveDialog({
    saveLabel: l10n.t('Save response body'),
    filters: { [l10n.t('JSON')]: ['json'], [l10n.t('Text')]: ['txt'] },
  });
  if (target) {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(body));
  }
}
