import * as vscode from 'vscode';
import { Commands, ContextKeys, BuiltinCommands } from '../ids';
import { changesPage } from '../domain/registry/changeText';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import { flash } from '../platform/ui';

export const CHANGES_SCHEME = 'model-access-changes';

/**
 * Show Changes (a read-only page of what changed since the list was last seen, grouped by family) and Mark
 * as Seen, and the context key their menus follow. The rows' marks, the view's message and badge are the
 * Models view's (modelsView.ts, treeProvider.ts).
 */
export class RegistryChangesPage implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly uri = vscode.Uri.from({ scheme: CHANGES_SCHEME, path: '/Registry changes.txt' });
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly services: Pick<Services, 'changes' | 'ui'>) {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, this),
      this._onDidChange,
      services.changes.onDidChange(() => {
        this._onDidChange.fire(RegistryChangesPage.uri);
        this.setContext();
      }),
    ];
    this.setContext();
  }

  private setContext(): void {
    void vscode.commands.executeCommand(
      BuiltinCommands.setContext,
      ContextKeys.registryChanged,
      this.services.changes.count > 0,
    );
  }

  provideTextDocumentContent(): string {
    const shown = this.services.changes.current;
    if (!shown) {
      return `${l10n.t('No registry changes since the list was last marked as seen.')}\n`;
    }
    return changesPage(shown.changes, shown.seenAt, Date.now(), l10n.t('Model registry changes'));
  }

  /** Opens the page (or brings it up to date); returns the document, or undefined when there is nothing to show. */
  async show(): Promise<vscode.TextDocument | undefined> {
    if (!this.services.changes.current) {
      void this.services.ui.info(l10n.t('No registry changes since the list was last marked as seen.'));
      return undefined;
    }
    this._onDidChange.fire(RegistryChangesPage.uri);
    const document = await vscode.workspace.openTextDocument(RegistryChangesPage.uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

export function registryChangeCommands(services: Services, page: RegistryChangesPage): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.showRegistryChanges, () => page.show()),
    vscode.commands.registerCommand(Commands.markModelsSeen, async () => {
      const count = services.changes.count;
      await services.changes.markSeen();
      if (count > 0) {
        flash('check', l10n.t('Marked as seen'));
      }
      return count;
    }),
  ];
}
