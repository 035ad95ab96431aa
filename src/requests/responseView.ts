import * as vscode from 'vscode';
import { fullBody, renderResponse, type Redact, type ResponseRecord } from './core/responseFormat';
import { RESPONSE_GONE, RESPONSE_SCHEME } from './responseScheme';

/**
 * How often a growing stream redraws its document: every event that arrived within one interval (a couple
 * of display frames) becomes one document change, so a fast stream costs one redraw per interval, not one
 * per event, and the text still visibly grows.
 */
export const STREAM_REDRAW_MS = 32;

/**
 * Read-only response documents, one per payload (and per kind: JSON answers open as `.jsonc`, streams and
 * text as `.txt`), reused when the same payload is sent again unless a new tab is asked for.
 */
export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly records = new Map<string, ResponseRecord>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The newest response document of each payload (by the payload's URI): what Reply reads. */
  private readonly newest = new Map<string, string>();
  private tabCounter = 0;

  /**
   * @param redact removes the key from everything this shows or saves (after decoding, over whole texts).
   * The scheme's provider (registered at activation, requests/index.ts) asks this for the content.
   */
  constructor(private readonly redact: Redact) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const record = this.records.get(uri.toString());
    return record ? renderResponse(record, this.redact) : RESPONSE_GONE;
  }

  /** The document URI for an answer to `source`, reused per payload unless `newTab`. */
  uriFor(source: vscode.Uri, kind: 'json' | 'text', newTab: boolean): vscode.Uri {
    const base =
      source.path
        .split('/')
        .pop()
        ?.replace(/\.[^.]*$/, '') || 'request';
    const suffix = newTab ? ` (${++this.tabCounter})` : '';
    return vscode.Uri.from({
      scheme: RESPONSE_SCHEME,
      path: `/${base} response${suffix}.${kind === 'json' ? 'jsonc' : 'txt'}`,
      query: source.toString(),
    });
  }

  set(uri: vscode.Uri, record: ResponseRecord): void {
    this.records.set(uri.toString(), record);
    this.newest.set(uri.query, uri.toString());
    this.redrawNow(uri);
  }

  /** The newest answer to the payload at `source`, if it has one. */
  latestFor(source: vscode.Uri): ResponseRecord | undefined {
    const uri = this.newest.get(source.toString());
    return uri === undefined ? undefined : this.records.get(uri);
  }

  get(uri: vscode.Uri): ResponseRecord | undefined {
    return this.records.get(uri.toString());
  }

  /** Redraws at most every STREAM_REDRAW_MS while a stream grows. */
  redrawSoon(uri: vscode.Uri): void {
    const key = uri.toString();
    if (!this.timers.has(key)) {
      this.timers.set(
        key,
        setTimeout(() => {
          this.timers.delete(key);
          this._onDidChange.fire(uri);
        }, STREAM_REDRAW_MS),
      );
    }
  }

  redrawNow(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this._onDidChange.fire(uri);
  }

  async show(uri: vscode.Uri, beside: boolean): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, {
      viewColumn: beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
      preserveFocus: true,
      preview: false,
    });
  }

  /** The record behind the active response editor, if one is active. */
  active(): { uri: vscode.Uri; record: ResponseRecord } | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const record = uri?.scheme === RESPONSE_SCHEME ? this.records.get(uri.toString()) : undefined;
    return uri && record ? { uri, record } : this.latest();
  }

  private latest(): { uri: vscode.Uri; record: ResponseRecord } | undefined {
    const visible = vscode.window.visibleTextEditors
      .map((e) => e.document.uri)
      .filter((u) => u.scheme === RESPONSE_SCHEME);
    for (const uri of visible) {
      const record = this.records.get(uri.toString());
      if (record) {
        return { uri, record };
      }
    }
    return undefined;
  }

  fullBody(uri: vscode.Uri): string | undefined {
    const record = this.records.get(uri.toString());
    return record ? fullBody(record, this.redact) : undefined;
  }

  dispose(): void {
    for (const t of this.timers.values()) {
      clearTimeout(t);
    }
    this._onDidChange.dispose();
  }
}
