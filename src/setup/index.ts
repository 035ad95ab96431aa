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
  // Not the full list: the status bar needs the setup state (URL/key) without loading models.
  void services.catalog.refreshSetup();
  return [
    drawnAfterActivation(() => {
      const statusBar = new ModelsStatusBar(services.catalog, services.changes, services.environments, services.meter);
      const usageView = new UsageView(services.meter);
      const environmentBar = new EnvironmentStatusBar(services.environments);
      services.testApi.statusBar = statusBar;
      services.testApi.usageView = usageView;
      services.testApi.environmentBar = environmentBar;
      return [statusBar, usageView, environmentBar];
    }),
    ...setupCommands(services),
    ...environmentCommands(services),
    ...environmentEditorCommands(services),
    ...headerSecretCommands(services),
    ...diagnoseCommands(services),
    ...walkthroughCommands(services),
  ];
}

/**
 * Makes the status bar items and the Usage view a macrotask after activate() returns, not in it: the first view
 * (the Models view) needs neither, and their first draw (reading the environments, the key's source, the
 * tooltips' texts, all run for the first time) was a third of activate()'s own time (docs/benchmarks.md, round
 * three). What they show is the same a moment later. Disposing cancels a draw still to come.
 */
function drawnAfterActivation(make: () => vscode.Disposable[]): vscode.Disposable {
  let made: vscode.Disposable[] = [];
  const timer = setTimeout(() => (made = make()), 0);
  return {
    dispose: () => {
      clearTimeout(timer);
      made.forEach((d) => d.dispose());
      made = [];
    },
  };
}
