import * as vscode from 'vscode';
import { addToHistory, type HistoryEntry } from './core/historyEntries';

const KEY = 'modelAccess.requestHistory';

/** The last requests, in global state (never the key: entries hold the payload and a summary only). */
export class RequestHistory {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly state: vscode.Memento) {}

  get entries(): readonly HistoryEntry[] {
    return this.state.get<HistoryEntry[]>(KEY, []);
  }

  async add(entry: HistoryEntry): Promise<void> {
    await this.state.update(KEY, addToHistory(this.entries, entry));
    this._onDidChange.fire();
  }

  async clear(): Promise<void> {
    await this.state.update(KEY, undefined);
    this._onDidChange.fire();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
