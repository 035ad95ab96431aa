import * as vscode from 'vscode';
import { Views } from './ids';

class PlaceholderModelsProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }
  getChildren(): never[] {
    return [];
  }
}

export function activate(context: vscode.ExtensionContext): void {
  const view = vscode.window.createTreeView(Views.models, { treeDataProvider: new PlaceholderModelsProvider() });
  view.message = 'Model Access is starting up: the models list arrives in the next release.';
  context.subscriptions.push(view);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
