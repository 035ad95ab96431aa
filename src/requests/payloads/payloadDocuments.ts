import * as vscode from 'vscode';
import { ContextKeys, BuiltinCommands } from '../../ids';
import { isPayload } from './payloadEditing';
import type { ScratchFiles } from './scratchFiles';
import { Lifecycle } from '../../platform/lifecycle';

/**
 * Which open documents are payloads (see domain/payload/kind.ts), published as the context key
 * `modelAccess.payloads`: the `resourcePath` of each, so menus and the Send keybinding can say
 * `resourcePath in modelAccess.payloads`. Opening a payload also loads the model list once (deferred),
 * so completion, hover and diagnostics have it without the Models view.
 */
export class PayloadDocuments extends Lifecycle {
  private readonly open = new Map<string, readonly string[]>();
  private published: string | undefined;

  constructor(
    private readonly scratch: ScratchFiles,
    private readonly onPayloadOpened: () => void,
  ) {
    super();
    this.own(
      vscode.workspace.onDidOpenTextDocument((d) => this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.update(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.open.delete(d.uri.toString());
        this.publish();
      }),
    );
    vscode.workspace.textDocuments.forEach((d) => this.update(d));
  }

  isPayload(doc: vscode.TextDocument): boolean {
    return isPayload(doc, this.scratch);
  }

  private update(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const was = this.open.has(key);
    if (this.isPayload(doc)) {
      this.open.set(key, contextPaths(doc.uri));
      if (!was) {
        setTimeout(this.onPayloadOpened, 0);
      }
    } else {
      this.open.delete(key);
    }
    this.publish();
  }

  private publish(): void {
    const paths = [...new Set([...this.open.values()].flat())].sort();
    const serialized = JSON.stringify(paths);
    if (serialized !== this.published) {
      this.published = serialized;
      void vscode.commands.executeCommand(BuiltinCommands.setContext, ContextKeys.payloads, paths);
    }
  }
}

/**
 * What VS Code puts in the `resourcePath` context key for this document: the file system path for `file:`,
 * else the path. Both forms for files: in a remote window the workbench sees `vscode-remote:` URIs (their
 * path) for what the extension host sees as `file:` ones.
 */
function contextPaths(uri: vscode.Uri): readonly string[] {
  return uri.scheme === 'file' && uri.fsPath !== uri.path ? [uri.fsPath, uri.path] : [uri.path];
}
