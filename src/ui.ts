import * as vscode from 'vscode';

/**
 * The few interactions commands have with the person: prompts, messages, the browser, the clipboard.
 * Commands take them from here so integration tests can answer prompts and observe what was opened.
 * The object is mutable on purpose: tests replace single members and put them back.
 */
export interface Ui {
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  info(message: string, ...actions: string[]): Thenable<string | undefined>;
  warn(message: string, ...actions: string[]): Thenable<string | undefined>;
  error(message: string, ...actions: string[]): Thenable<string | undefined>;
  /** Opens an already-checked http(s) URL in the browser. */
  openExternal(url: string): Thenable<boolean>;
  copy(text: string): Thenable<void>;
}

export function createUi(): Ui {
  return {
    input: (options) => vscode.window.showInputBox(options),
    pick: (items, options) => vscode.window.showQuickPick([...items], options),
    info: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
    warn: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
    error: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
    openExternal: (url) => vscode.env.openExternal(vscode.Uri.parse(url, true)),
    copy: (text) => vscode.env.clipboard.writeText(text),
  };
}
