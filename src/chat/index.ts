import * as vscode from 'vscode';
import { ChatVendor } from '../ids';
import { onFirstUse } from '../common/onFirstUse';
import type { Services } from '../services';
import type { ChatModelInfo } from './core/modelInfo';
import type { ModelAccessChatProvider } from './provider';
import { ChatSettings } from './settings';

/**
 * Registers the Language Model Chat Provider (vendor `model-access`): the organization's models in VS Code's
 * chat and in `vscode.lm.selectChatModels`. The provider registers at activation; its code (provider.ts,
 * dist/chat.js) loads when VS Code first asks it for its models. An editor without the API gets a log line,
 * not a failed activation.
 */
export function register(deps: Services): vscode.Disposable[] {
  const settings = new ChatSettings();
  const changed = new vscode.EventEmitter<void>();
  const load = onFirstUse((): ModelAccessChatProvider => {
    const { ModelAccessChatProvider } = require('./provider') as typeof import('./provider');
    const provider = new ModelAccessChatProvider(deps, settings);
    // Until VS Code has asked once, there is nothing to tell it about changes.
    provider.onDidChangeLanguageModelChatInformation(() => changed.fire());
    return provider;
  });
  const provider: vscode.LanguageModelChatProvider<ChatModelInfo> = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: (options, token) => load().provideLanguageModelChatInformation(options, token),
    provideLanguageModelChatResponse: (model, messages, options, progress, token) =>
      load().provideLanguageModelChatResponse(model, messages, options, progress, token),
    provideTokenCount: (model, text, token) => load().provideTokenCount(model, text, token),
  };
  const disposables: vscode.Disposable[] = [settings, changed, { dispose: () => load.loaded?.dispose() }];
  try {
    disposables.push(vscode.lm.registerLanguageModelChatProvider(ChatVendor, provider));
  } catch (e) {
    deps.log.warn(`Chat models are not available in this editor: ${e instanceof Error ? e.message : String(e)}`);
  }
  return disposables;
}
