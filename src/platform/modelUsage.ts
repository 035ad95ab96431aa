import * as vscode from 'vscode';

/**
 * How many places in the workspace's code name each model (the references feature counts them; the Models
 * view shows the count on each row). Kept here so neither feature imports the other.
 */
export class ModelUsage implements vscode.Disposable {
  private counts: ReadonlyMap<string, number> = new Map();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** The counts changed (a scan ended, a file changed). */
  readonly onDidChange = this._onDidChange.event;

  /** How many places name `id` (0: none, or not counted yet). */
  count(id: string): number {
    return this.counts.get(id) ?? 0;
  }

  /** Replaces every count; fires only when something changed. */
  set(counts: ReadonlyMap<string, number>): void {
    const before = this.counts;
    if (before.size === counts.size && [...counts].every(([id, n]) => before.get(id) === n)) {
      return;
    }
    this.counts = counts;
    this._onDidChange.fire();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
