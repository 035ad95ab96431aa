import * as vscode from 'vscode';
import { fullBody, renderResponseParts, type Redact, type ResponseRecord } from './core/responseFormat';
import { ANSWER_LANGUAGE, RESPONSE_GONE, RESPONSE_SCHEME } from './responseScheme';
import { answerColumn } from './answerPlacement';

/**
 * How often a growing stream redraws its document: every event that arrived within one interval (a couple
 * of display frames) becomes one document change, so a fast stream costs one redraw per interval, not one
 * per event, and the text still visibly grows.
 */
export const STREAM_REDRAW_MS = 32;

/**
 * Read-only response documents, one per payload, reused when the same payload is sent again unless a new tab
 * is asked for (`modelAccess.responseInNewTab`). Each is Markdown, in the answer language (word wrap on), the
 * answer first; a growing stream keeps the end of its text in view.
 */
export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly records = new Map<string, ResponseRecord>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The newest response document of each payload (by the payload's URI): what Reply reads. */
  private readonly newest = new Map<string, string>();
  private tabCounter = 0;
  private lastReceived: ResponseRecord | undefined;
  /** How many lines each document's answer takes, as last drawn (the line a growing stream keeps in view). */
  private readonly answerLines = new Map<string, number>();
  private readonly followStreams: vscode.Disposable;

  /**
   * @param redact removes the key from everything this shows or saves (after decoding, over whole texts).
   * The scheme's provider (registered at activation, requests/index.ts) asks this for the content.
   */
  constructor(private readonly redact: Redact) {
    this.followStreams = vscode.workspace.onDidChangeTextDocument((e) => this.keepInView(e.document));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const record = this.records.get(uri.toString());
    if (!record) {
      return RESPONSE_GONE;
    }
    const { text, answerLines } = renderResponseParts(record, this.redact);
    this.answerLines.set(uri.toString(), answerLines);
    return text;
  }

  /** While a stream grows, each editor showing it scrolls (only when needed) to the last line of its text. */
  private keepInView(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const record = doc.uri.scheme === RESPONSE_SCHEME ? this.records.get(key) : undefined;
    if (!record?.stream || record.elapsedMs !== undefined) {
      return;
    }
    const line = Math.min(Math.max((this.answerLines.get(key) ?? 1) - 1, 0), doc.lineCount - 1);
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document === doc) {
        editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.Default);
      }
    }
  }

  /**
   * The document URI for an answer to `source`, reused per payload unless `newTab`. (`_kind` is kept for the
   * callers: every answer is one Markdown document now, whatever it holds.)
   */
  uriFor(source: vscode.Uri, _kind: 'json' | 'text', newTab: boolean): vscode.Uri {
    const base =
      source.path
        .split('/')
        .pop()
        ?.replace(/\.[^.]*$/, '') || 'request';
    const suffix = newTab ? ` (${++this.tabCounter})` : '';
    return vscode.Uri.from({
      scheme: RESPONSE_SCHEME,
      path: `/${base} response${suffix}.md`,
      query: source.toString(),
    });
  }

  set(uri: vscode.Uri, record: ResponseRecord): void {
    this.records.set(uri.toString(), record);
    this.lastReceived = record;
    this.newest.set(uri.query, uri.toString());
    this.redrawNow(uri);
  }

  /** The newest answer to the payload at `source`, if it has one. */
  latestFor(source: vscode.Uri): ResponseRecord | undefined {
    const uri = this.newest.get(source.toString());
    return uri === undefined ? undefined : this.records.get(uri);
  }

  /**
   * The answer received last, shown or not (an upload is answered in a notification: Use Uploaded File in a
   * New Request reads its file id here).
   */
  latestRecord(): ResponseRecord | undefined {
    return this.lastReceived;
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

  /**
   * Shows the answer where answers go (answerPlacement.ts): its own tab when it is open beside the payload,
   * else the group of the other answers, else beside — never a third column. Focus stays where it was.
   */
  async show(uri: vscode.Uri, { focus = false }: { focus?: boolean } = {}): Promise<vscode.TextEditor> {
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== ANSWER_LANGUAGE) {
      doc = await vscode.languages.setTextDocumentLanguage(doc, ANSWER_LANGUAGE);
    }
    const own = (tab: vscode.Tab) =>
      tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString();
    // The answer in the active editor stays where it is.
    const here = vscode.window.activeTextEditor?.document.uri.toString() === uri.toString();
    return vscode.window.showTextDocument(doc, {
      viewColumn: here ? vscode.ViewColumn.Active : answerColumn(own),
      preserveFocus: !focus,
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
    this.followStreams.dispose();
    for (const t of this.timers.values()) {
      clearTimeout(t);
    }
    this._onDidChange.dispose();
  }
}
