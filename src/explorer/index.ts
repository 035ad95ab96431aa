import type * as vscode from 'vscode';
import type { Services } from '../services';
import { explorerCommands } from './commands';
import { ModelDocuments } from './inspect';
import { ModelsView } from './modelsView';

/** The Models view, Model Cards, Inspect, and the per-model commands. */
export function register(services: Services): vscode.Disposable[] {
  const { catalog, config, connection, log } = services;
  const view = new ModelsView(catalog, config);
  const documents = new ModelDocuments(log);
  Object.assign(services.testApi, { view, documents });
  // First load once activation has returned (no network inside activate): the view asked for it.
  setTimeout(() => {
    if (view.treeView.visible) {
      void catalog.ensureLoaded();
    }
  }, 0);
  return [
    view,
    documents,
    ...explorerCommands(services, { view, documents }),
    // A new service or key (here or in another window) replaces the list.
    connection.onDidChange(
      () => void (catalog.status.kind === 'idle' && !view.treeView.visible ? catalog.refreshSetup() : catalog.reload()),
    ),
  ];
}
