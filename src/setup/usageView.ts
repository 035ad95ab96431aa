import * as vscode from 'vscode';
import { Views } from '../ids';
import { dayOf } from '../domain/cost/totals';
import type { UsageMeter } from '../platform/usageMeter';
import { Lifecycle } from '../platform/lifecycle';
import { usageRows, type UsageRow } from './core/usageRows';

/**
 * The Usage view in the Model Access container: requests, tokens and cost since the window opened, today and
 * on each earlier day kept, by model and environment (./core/usageRows.ts). A tree, so the keyboard and screen
 * readers work as in any view; it follows each answer counted.
 */
export class UsageView extends Lifecycle implements vscode.TreeDataProvider<UsageRow> {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly treeView: vscode.TreeView<UsageRow>;

  constructor(
    private readonly usage: UsageMeter,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.treeView = vscode.window.createTreeView(Views.usage, { treeDataProvider: this, showCollapseAll: true });
    this.own(
      this._onDidChangeTreeData,
      this.treeView,
      usage.onDidChange(() => this._onDidChangeTreeData.fire()),
    );
  }

  /** The rows as shown now (the integration tests read them). */
  rows(): UsageRow[] {
    return usageRows(this.usage.session, this.usage.days, dayOf(this.now()));
  }

  getChildren(row?: UsageRow): UsageRow[] {
    return row ? row.children : this.rows();
  }

  getTreeItem(row: UsageRow): vscode.TreeItem {
    const item = new vscode.TreeItem(
      row.label,
      row.children.length === 0
        ? vscode.TreeItemCollapsibleState.None
        : row.id === 'earlier' || row.id.startsWith('day/')
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = row.id;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.accessibilityInformation = { label: row.tooltip };
    return item;
  }
}
