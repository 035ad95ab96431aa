import * as vscode from 'vscode';
import { ChatVendor } from '../ids';
import type { Services } from '../services';
import { ModelAccessChatProvider } from './provider';
import { ChatSettings } from './settings';

/**
 * Registers the Language Model Chat Provider (vendor `model-access`): the organization's models in VS Code's
 * chat and in `vscode.lm.selectChatModels`. An editor without the API gets a log line, not a failed activation.
 */
export function register(deps: Services): vscode.Disposable[] {
  const settings = new ChatSettings();
  const provider = new ModelAccessChatProvider(deps, settings);
  const disposables: vscode.Disposable[] = [settings, provider];
  try {
    disposables.push(vscode.lm.registerLanguageModelChatProvider(ChatVendor, provider));
  } catch (e) {
    deps.log.warn(`Chat models are not available in this editor: ${e instanceof Error ? e.message : String(e)}`);
  }
  return disposables;
}
