import type * as vscode from 'vscode';
import type { Services } from '../services';
import { setupCommands } from './commands';
import { ModelsStatusBar } from './statusBar';
import { walkthroughCommands } from './walkthrough';
import { diagnoseCommands } from './diagnose';

/** Service URL, API key and consent commands, the status bar, the walkthrough. */
export function register(services: Services): vscode.Disposable[] {
  const statusBar = new ModelsStatusBar(services.catalog);
  services.testApi.statusBar = statusBar;
  // Not the full list: the status bar needs the setup state (URL/key) without loading models.
  void services.catalog.refreshSetup();
  return [
    statusBar,
    ...setupCommands(services),
    ...diagnoseCommands(services),
    ...walkthroughCommands(services.context),
  ];
}
