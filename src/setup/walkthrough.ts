import * as vscode from 'vscode';
import { Commands, Walkthrough, BuiltinCommands } from '../ids';
import type { Services } from '../services';

/** VS Code's own setting: whether a newly installed extension's walkthrough opens by itself. */
const OPEN_ON_INSTALL = 'workbench.welcomePage.walkthroughs.openOnInstall';
/** Global state: the walkthrough was offered once (VS Code's install, or our first start). */
const OFFERED_KEY = 'modelAccess.walkthroughOffered';

/**
 * "Model Access: Get Started" reopens the walkthrough (`contributes.walkthroughs` in package.json), and its
 * steps tick on goals, not on one command: the service URL and key steps when the connection has them (from a
 * command, settings, an environment or the `MODEL_ACCESS_API_KEY` fallback, or already at startup), the browse
 * step when models were listed (in the view, a picker or chat), the card step when a card opened by any way. The goals are kept across reloads (platform/firstSteps.ts).
 *
 * An extension installed before VS Code first starts (`--install-extension`, as `npm run demo` does) is not
 * "installed" in a running window, so VS Code never offers its walkthrough: the first start offers it here,
 * honouring VS Code's setting for opening walkthroughs on install.
 */
export function walkthroughCommands(services: Services): vscode.Disposable[] {
  const { context, catalog, firstSteps } = services;
  const open = () =>
    vscode.commands.executeCommand(BuiltinCommands.openWalkthrough, `${context.extension.id}#${Walkthrough.id}`, false);
  firstSteps.restore();
  const track = (): void => {
    // As the Models view reads it: a load under way or done means the URL and key were there.
    const { status } = catalog;
    const setup =
      status.kind === 'needsUrl' || status.kind === 'needsKey'
        ? status.kind
        : status.kind !== 'idle'
          ? 'ready'
          : catalog.setupKnown
            ? catalog.serviceState.setup
            : undefined;
    if (setup === 'needsKey' || setup === 'ready') {
      firstSteps.reach('connected');
    }
    if (setup === 'ready') {
      firstSteps.reach('keySet');
    }
    if (status.kind === 'ready' && catalog.models.length > 0) {
      firstSteps.reach('browsed');
    }
  };
  track();
  if (
    !context.globalState.get<boolean>(OFFERED_KEY) &&
    vscode.workspace.getConfiguration().get<boolean>(OPEN_ON_INSTALL, true) &&
    context.extensionMode !== vscode.ExtensionMode.Test
  ) {
    void context.globalState.update(OFFERED_KEY, true);
    // After activation has returned, so the workbench is free to open an editor.
    setTimeout(() => void open(), 0);
  }
  return [catalog.onDidChangeStatus(track), vscode.commands.registerCommand(Commands.openWalkthrough, open)];
}
