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
