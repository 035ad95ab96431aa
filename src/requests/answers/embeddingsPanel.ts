import * as vscode from 'vscode';
import { newNonce } from '../../common/html';
import { clean } from '../../common/text';
import { l10n } from '../../platform/l10n';
import { EMBEDDINGS_VIEW_TYPE } from './answerPlacement';
import { embeddingsPageHtml, type EmbeddingsPicture } from './core/embeddingsPage';
import { answerOf, type Redact, type ResponseRecord } from './core/responseFormat';
import type { ResponseDocuments } from './responseView';

/**
 * Open Answer Preview on an embeddings answer: its picture (count, norms, heat map, similarity table) in a
 * webview of our own, in the answer's column. One page, reused for the next embeddings answer previewed, and
 * redrawn when the answer it shows is sent again. No script runs in it.
 */
export class EmbeddingsPictures implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The answer document the page shows. */
  private shown: vscode.Uri | undefined;
  /** The page as last drawn (tests read it). */
  html: string | undefined;
  private readonly subscription: vscode.Disposable;

  /** @param redact removes the key from the inputs shown, as the answer document does. */
  constructor(
    responses: ResponseDocuments,
    private readonly redact: Redact,
  ) {
    this.subscription = responses.onDidChange((uri) => {
      const record = uri.toString() === this.shown?.toString() ? responses.get(uri) : undefined;
      if (record && this.panel) {
        this.draw(this.panel, uri, record);
      }
    });
  }

  /** Whether the answer has vectors to draw (else Open Answer Preview shows the Markdown preview). */
  static canShow(record: ResponseRecord): boolean {
    return !record.stream && (answerOf(record)?.vectors?.length ?? 0) > 0;
  }

  /** Opens the picture of the answer at `uri` in the active column (where the caller just showed the answer). */
  show(uri: vscode.Uri, record: ResponseRecord): vscode.WebviewPanel {
    let panel = this.panel;
    if (panel) {
      panel.reveal(vscode.ViewColumn.Active, false);
    } else {
      panel = vscode.window.createWebviewPanel(
        EMBEDDINGS_VIEW_TYPE,
        l10n.t('Embeddings'),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { enableScripts: false, enableCommandUris: false, localResourceRoots: [] },
      );
      const created = panel;
      created.onDidDispose(() => {
        if (this.panel === created) {
          this.panel = undefined;
          this.shown = undefined;
        }
      });
      this.panel = panel;
    }
    this.shown = uri;
    this.draw(panel, uri, record);
    return panel;
  }

  private draw(panel: vscode.WebviewPanel, uri: vscode.Uri, record: ResponseRecord): void {
    const answer = answerOf(record);
    if (!answer?.vectors || answer.vectors.length === 0) {
      return; // Sent again and not answered yet (or answered otherwise): the page keeps what it showed.
    }
    const name = (uri.path.split('/').pop() ?? uri.path).replace(/\.md$/, '');
    const picture: EmbeddingsPicture = {
      vectors: answer.vectors,
      inputs: record.inputs?.map((input) => this.redact(input)),
      model: answer.model && this.redact(answer.model),
      source: name,
    };
    panel.title = l10n.t('Embeddings · {0}', clean(name));
    this.html = embeddingsPageHtml(picture, newNonce(), panel.webview.cspSource);
    panel.webview.html = this.html;
  }

  dispose(): void {
    this.subscription.dispose();
    this.panel?.dispose();
  }
}
