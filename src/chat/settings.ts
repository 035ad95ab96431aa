import * as vscode from 'vscode';
import { Settings } from '../ids';
import { positive } from '../common/settingValues';
import { DEFAULT_LIMITS, type ChatModelDefaults } from './core/modelInfo';

/** Typed reading of the `modelAccess.chat.*` settings, with their own change event for the chat provider. */
export class ChatSettings implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when any `modelAccess.chat.*` setting changes. */
  readonly onDidChange = this._onDidChange.event;
  private readonly listener: vscode.Disposable;

  constructor() {
    this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${Settings.section}.chat`)) {
        this._onDidChange.fire();
      }
    });
  }

  private get section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(Settings.section);
  }

  get enabled(): boolean {
    return this.section.get<boolean>(Settings.chatEnabled, true) !== false;
  }

  /** Family names and id patterns; empty means every model that can chat. */
  get models(): string[] {
    const v = this.section.get<unknown>(Settings.chatModels, []);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  get defaults(): ChatModelDefaults {
    return {
      maxInputTokens: positive(
        this.section.get<number>(Settings.chatDefaultMaxInputTokens),
        DEFAULT_LIMITS.maxInputTokens,
      ),
      maxOutputTokens: positive(
        this.section.get<number>(Settings.chatDefaultMaxOutputTokens),
        DEFAULT_LIMITS.maxOutputTokens,
      ),
    };
  }

  dispose(): void {
    this.listener.dispose();
    this._onDidChange.dispose();
  }
}
