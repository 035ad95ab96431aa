import * as vscode from 'vscode';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import type { PayloadDocuments } from '../payloads/payloadDocuments';
import { transcriptTarget, type TranscriptPanels } from './transcriptView';

/** Show Conversation: the payload's turns as a rendered transcript. */
export async function showConversation(
  deps: Services,
  payloads: PayloadDocuments,
  transcripts: TranscriptPanels,
  arg?: unknown,
): Promise<unknown> {
  const payload = transcriptTarget(arg);
  const doc = payload && (await vscode.workspace.openTextDocument(payload));
  if (!payload || !doc || !payloads.isPayload(doc)) {
    void deps.ui.info(l10n.t('Open a conversation payload (Chat or Responses), then Show Conversation.'));
    return undefined;
  }
  return transcripts.show(payload);
}
