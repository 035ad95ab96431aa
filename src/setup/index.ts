import type * as vscode from 'vscode';
import type { Services } from '../services';
import { setupCommands } from './commands';
import { ModelsStatusBar } from './statusBar';
import { EnvironmentStatusBar, environmentCommands } from './environments';
import { walkthroughCommands } from './walkthrough';
import { diagnoseCommands } from './diagnose';
import { headerSecretCommands } from './headerSecrets';
import { environmentEditorCommands } from './environmentEditor';
import { UsageView } from './usageView';

/** Service URL, API key, consent and environment commands, the status bar items, the Usage view, the walkthrough. */
export function register(services: Services): vscode.Disposable[] {
  const statusBar = new ModelsStatusBar(services.catalog, services.changes, services.environments, services.meter);
  const usageView = new UsageView(services.meter);
  services.testApi.usageView = usageView;
  const environmentBar = new EnvironmentStatusBar(services.environments);
  services.testApi.statusBar = statusBar;
  services.testApi.environmentBar = environmentBar;
  // Not the full list: the status bar needs the setup state (URL/key) without loading models.
  void services.catalog.refreshSetup();
  return [
    statusBar,
    usageView,
    environmentBar,
    ...setupCommands(services),
    ...environmentCommands(services),
    ...environmentEditorCommands(services),
    ...headerSecretCommands(services),
    ...diagnoseCommands(services),
    ...walkthroughCommands(services),
  ];
}
