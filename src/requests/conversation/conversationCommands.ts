import * as vscode from 'vscode';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import type { PayloadDocuments } from '../payloads/payloadDocuments';
import { panelTarget, type ConversationPanels } from './conversationPanel';

/** Show Conversation: the payload's conversation panel, focused (its message box a Tab away). */
export async function showConversation(
  deps: Services,
  payloads: PayloadDocuments,
  panels: ConversationPanels,
  arg?: unknown,
): Promise<unknown> {
  const payload = panelTarget(arg);
  const doc = payload && (await vscode.workspace.openTextDocument(payload));
  if (!payload || !doc || !payloads.isPayload(doc)) {
    void deps.ui.info(l10n.t('Open a conversation payload (Chat or Responses), then Show Conversation.'));
    return undefined;
  }
  return panels.show(payload, { focus: true });
}
