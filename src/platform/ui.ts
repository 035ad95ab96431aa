import * as vscode from 'vscode';
import { describeFailure, FAILURE_ACTIONS } from '../domain/failure';
import { displayText, type DisplayText } from '../common/text';

/** A quick-pick item whose visible text went through the display function (labels render `$(icon)`). */
export interface SafePickItem extends vscode.QuickPickItem {
  label: DisplayText;
  description?: DisplayText;
  detail?: DisplayText;
}

/** Input box options whose visible texts are display text (localized messages, cleaned values). */
export interface SafeInputBoxOptions extends vscode.InputBoxOptions {
  title?: DisplayText;
  prompt?: DisplayText;
  placeHolder?: DisplayText;
}

/** Quick pick options whose visible texts are display text. */
export interface SafeQuickPickOptions extends vscode.QuickPickOptions {
  title?: DisplayText;
  placeHolder?: DisplayText;
}

/**
 * The few interactions commands have with the person: prompts, messages, the browser, the clipboard.
 * Messages, buttons, titles, prompts and pick items take only {@link DisplayText}: localized messages
 * (src/platform/l10n.ts) whose values were cleaned, or text from the service or the registry cleaned by
 * `displayText` (notifications run `[x](command:…)` links), so neither a bare English literal nor an
 * uncleaned value type-checks. This is the
 * one module allowed to call `vscode.window.show*Message` (lint-enforced).
 * The object is mutable on purpose: tests replace single members and put them back.
 */
export interface Ui {
  input(options: SafeInputBoxOptions): Thenable<string | undefined>;
  pick<T extends SafePickItem>(items: readonly T[], options: SafeQuickPickOptions): Thenable<T | undefined>;
  /** A quick pick with check boxes; items with `picked` start checked. Undefined when dismissed. */
  pickMany<T extends SafePickItem>(items: readonly T[], options: SafeQuickPickOptions): Thenable<T[] | undefined>;
  info(message: DisplayText, ...actions: DisplayText[]): Thenable<string | undefined>;
  warn(message: DisplayText, ...actions: DisplayText[]): Thenable<string | undefined>;
  error(message: DisplayText, ...actions: DisplayText[]): Thenable<string | undefined>;
  /** A modal question; resolves with the chosen action or undefined (Cancel/Escape). */
  ask(message: DisplayText, detail: DisplayText, ...actions: DisplayText[]): Thenable<string | undefined>;
  /** Opens an already-checked http(s) URL in the browser. */
  openExternal(url: string): Thenable<boolean>;
  copy(text: string): Thenable<void>;
  /** Where to save a file (the Save As dialog); undefined when cancelled. */
  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
}

export function createUi(): Ui {
  return {
    input: (options) => vscode.window.showInputBox(options),
    pick: (items, options) => vscode.window.showQuickPick([...items], options),
    pickMany: (items, options) => vscode.window.showQuickPick([...items], { ...options, canPickMany: true }),
    info: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
    warn: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
    error: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
    ask: (message, detail, ...actions) =>
      vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions),
    openExternal: (url) => vscode.env.openExternal(vscode.Uri.parse(url, true)),
    copy: (text) => vscode.env.clipboard.writeText(text),
    saveDialog: (options) => vscode.window.showSaveDialog(options),
  };
}

/** A transient status-bar message (`$(icon)` in `icon` is ours; the text is shown as text). */
export function flash(icon: string, text: DisplayText, ms = 3000): vscode.Disposable {
  return vscode.window.setStatusBarMessage(`$(${icon}) ${text}`, ms);
}

/** Shown when activation itself fails (before a Ui exists). */
export function activationFailed(message: DisplayText): void {
  void vscode.window.showErrorMessage(message);
}

/**
 * Says why a request could not start (no URL, no key, a key not yet allowed for this workspace's URL)
 * with the one button that helps; returns the message.
 */
export function reportNotReady(ui: Ui, error: unknown): DisplayText {
  const failure = describeFailure(error);
  const action = FAILURE_ACTIONS[failure.action];
  const message = displayText(failure.message, 500);
  void Promise.resolve(ui.error(message, action.title)).then((a) =>
    a ? vscode.commands.executeCommand(action.command) : undefined,
  );
  return message;
}
