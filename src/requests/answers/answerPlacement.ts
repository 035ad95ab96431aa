import * as vscode from 'vscode';
import { RESPONSE_SCHEME } from './responseScheme';

/** The webview type of Compare Models (here, so placement knows its tab without importing compare.ts). */
export const COMPARE_VIEW_TYPE = 'modelAccess.compareModels';
/** The webview type of an embeddings answer's picture (Open Answer Preview), which opens with the answers. */
export const EMBEDDINGS_VIEW_TYPE = 'modelAccess.embeddingsPicture';

/** Whether a tab shows an answer: a response document, the comparison or an embeddings picture. */
export function isAnswerTab(tab: vscode.Tab): boolean {
  const input = tab.input;
  if (input instanceof vscode.TabInputText) {
    return input.uri.scheme === RESPONSE_SCHEME;
  }
  // VS Code prefixes the view type of an extension's webview (`mainThreadWebview-<viewType>`).
  return (
    input instanceof vscode.TabInputWebview &&
    (input.viewType.endsWith(COMPARE_VIEW_TYPE) || input.viewType.endsWith(EMBEDDINGS_VIEW_TYPE))
  );
}

/** Whether a tab shows the embeddings picture. */
export function isEmbeddingsTab(tab: vscode.Tab): boolean {
  return tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(EMBEDDINGS_VIEW_TYPE);
}

/**
 * Where an answer opens, so the window stays tidy: the group already showing this answer (`own`), else a
 * group holding another answer, else the group beside the payload's — never a third column. Only a window
 * with one group gets a second one (beside). A group is never chosen when it is the active one, where the
 * answer would cover the payload being edited.
 */
export function answerColumn(own?: (tab: vscode.Tab) => boolean): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all;
  const active = vscode.window.tabGroups.activeTabGroup;
  const others = groups.filter((g) => g !== active);
  const chosen =
    (own && others.find((g) => g.tabs.some(own))) ?? others.find((g) => g.tabs.some(isAnswerTab)) ?? others[0];
  return chosen ? chosen.viewColumn : vscode.ViewColumn.Beside;
}

/** The webview type of the conversation panel (here, so placement and the serializer know it without the panel). */
export const CONVERSATION_VIEW_TYPE = 'modelAccess.conversation';

/** Whether a tab shows a conversation panel. */
export function isConversationTab(tab: vscode.Tab): boolean {
  return tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(CONVERSATION_VIEW_TYPE);
}

/** The group showing `uri` in its editor, if one does. */
function groupShowing(uri: vscode.Uri): vscode.TabGroup | undefined {
  return vscode.window.tabGroups.all.find((g) =>
    g.tabs.some(
      (t) => t.isActive && t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString(),
    ),
  );
}

/**
 * Where the conversation panel of `payload` opens: the group already holding a conversation panel (the panels
 * share one column), else beside the payload's editor (a group holding an answer, another group, or a new one
 * when the window has one); when the payload is not shown, the active group (the panel instead of the file).
 * Never a third column at any width.
 */
export function conversationColumn(payload: vscode.Uri): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all;
  const payloadGroup = groupShowing(payload);
  const panels = groups.find((g) => g !== payloadGroup && g.tabs.some(isConversationTab));
  if (panels) {
    return panels.viewColumn;
  }
  if (!payloadGroup) {
    return vscode.ViewColumn.Active;
  }
  const others = groups.filter((g) => g !== payloadGroup);
  const chosen = others.find((g) => g.tabs.some(isAnswerTab)) ?? others[0];
  return chosen ? chosen.viewColumn : vscode.ViewColumn.Beside;
}

/**
 * Where a payload opens while the active group shows a conversation panel (Fork, New Request, Show in File
 * from the panel): the group of the payload `near` (when shown), else another group, else a new one beside —
 * never over the conversation and never a third column. Undefined when no panel is in front: the payload
 * opens in the active group as usual.
 */
export function payloadColumn(near?: vscode.Uri): vscode.ViewColumn | undefined {
  const active = vscode.window.tabGroups.activeTabGroup;
  if (!active.activeTab || !isConversationTab(active.activeTab)) {
    return undefined;
  }
  const shown = near && groupShowing(near);
  const chosen = (shown !== active ? shown : undefined) ?? vscode.window.tabGroups.all.find((g) => g !== active);
  return chosen ? chosen.viewColumn : vscode.ViewColumn.Beside;
}
