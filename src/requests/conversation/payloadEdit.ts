import * as vscode from 'vscode';
import { l10n } from '../../platform/l10n';
import type { DisplayText } from '../../common/text';
import type { Formatting, TextChange } from './core/edits';
import type { PanelEdit } from './core/panelEdits';
import { oneChange } from './core/textDiff';

/** `change` made to `doc` as one WorkspaceEdit: one undo step. False when VS Code refused it. */
export function applyTextChange(doc: vscode.TextDocument, change: TextChange): Thenable<boolean> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    doc.uri,
    new vscode.Range(doc.positionAt(change.offset), doc.positionAt(change.offset + change.length)),
    change.text,
  );
  return vscode.workspace.applyEdit(edit);
}

/** The payload's document: the one open in VS Code, else read from its file; undefined when it is gone. */
export async function payloadDocument(payload: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const loaded = vscode.workspace.textDocuments.find((d) => d.uri.toString() === payload.toString());
  if (loaded) {
    return loaded;
  }
  try {
    return await vscode.workspace.openTextDocument(payload);
  } catch {
    return undefined;
  }
}

/** What a panel action makes of the payload's text: the new text, or the problem why not. */
export type PayloadMake = (
  text: string,
  f: Formatting,
) => PanelEdit | { ok: true; text: string } | { ok: false; problem: DisplayText };

/**
 * One edit of the payload: `make` gets its text and formatting and says the new text (or the problem; the
 * file is left as it was). It is one WorkspaceEdit (one undo step; the file need not be open in an editor),
 * and the file is saved after when it had no unsaved changes.
 */
export async function editPayload(
  payload: vscode.Uri,
  make: PayloadMake,
): Promise<{ ok: true } | { ok: false; problem: DisplayText }> {
  const doc = await payloadDocument(payload);
  if (!doc) {
    return { ok: false, problem: l10n.t('The payload is gone; nothing was changed.') };
  }
  const before = doc.getText();
  const made = make(before, formatting(doc));
  if (!made.ok) {
    return made;
  }
  const change = oneChange(before, made.text);
  if (!change) {
    return { ok: true };
  }
  const wasDirty = doc.isDirty;
  if (!(await applyTextChange(doc, change))) {
    return { ok: false, problem: l10n.t('The payload changed while it was being edited; nothing was changed.') };
  }
  if (!wasDirty && doc.uri.scheme === 'file') {
    await doc.save();
  }
  return { ok: true };
}

/** The payload's formatting, from the editor showing it (else two spaces) and its line ends. */
function formatting(doc: vscode.TextDocument): Formatting {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  const tabSize = Number(editor?.options.tabSize ?? 2);
  return {
    insertSpaces: editor?.options.insertSpaces !== false,
    tabSize: Number.isInteger(tabSize) && tabSize > 0 ? tabSize : 2,
    eol: doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
  };
}
