import * as vscode from 'vscode';
import { Commands } from '../../ids';
import { l10n } from '../../platform/l10n';
import type { ResponseRecord } from './core/responseFormat';
import { RESPONSE_SCHEME } from './responseScheme';

/**
 * Reply, written out above a conversation's answer document. The title bar's Reply is an icon, shown only
 * while the answer's group is the active one; this label stays visible beside the payload being edited.
 */
export class AnswerCodeLens implements vscode.CodeLensProvider {
  /** @param recordFor the answer behind a response document (undefined before the requests code loaded). */
  constructor(private readonly recordFor: (uri: vscode.Uri) => ResponseRecord | undefined) {}

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const record = doc.uri.scheme === RESPONSE_SCHEME ? this.recordFor(doc.uri) : undefined;
    if (record?.endpoint !== '/v1/chat' && record?.endpoint !== '/v1/responses') {
      return [];
    }
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: l10n.t('$(reply) Reply'),
        tooltip: l10n.t('Append this answer and a new user turn to the payload (Ctrl+Alt+R, Ctrl+Cmd+R on macOS)'),
        command: Commands.reply,
        arguments: [doc.uri],
      }),
    ];
  }
}
