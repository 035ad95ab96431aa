import * as vscode from 'vscode';
import { escapeHtml, newNonce, page } from '../../common/html';
import { clean } from '../../common/text';
import { l10n } from '../../platform/l10n';
import { answerOfRecord, withoutSecrets } from './core/recordAnswer';
import { RenderedTurns, TRANSCRIPT_STYLE, transcriptHtml, type PendingAnswer } from './core/transcript';
import { readConversation, type Turn } from './core/turns';
import type { ResponseRecord } from '../answers/core/responseFormat';
import { RESPONSE_SCHEME } from '../answers/responseScheme';
import type { ResponseDocuments } from '../answers/responseView';

/** The transcript redraws at most this often while its payload is edited or its answer streams. */
export const TRANSCRIPT_REDRAW_MS = 100;

interface Transcript {
  panel: vscode.WebviewPanel;
  payload: vscode.Uri;
  timer?: NodeJS.Timeout;
  lastDrawn: number;
  /** The turns' HTML last sent to the page (tests read it). */
  html: string;
  draws: number;
  /** The answers this transcript already rendered. */
  rendered: RenderedTurns;
}

/** The page's script: our code only. It swaps in the turns' HTML it is sent and moves focus between turns. */
const SCRIPT = `
const main = document.getElementById('turns');
const status = document.getElementById('status');
window.addEventListener('message', (event) => {
  const m = event.data;
  if (!m || m.type !== 'turns') { return; }
  const atEnd = window.innerHeight + window.scrollY >= document.body.scrollHeight - 16;
  main.innerHTML = m.html;
  status.textContent = m.status;
  if (atEnd) { window.scrollTo(0, document.body.scrollHeight); }
});
document.addEventListener('keydown', (event) => {
  const turns = [...document.querySelectorAll('article.turn')];
  const at = turns.indexOf(document.activeElement);
  const go = (i) => { const t = turns[Math.max(0, Math.min(turns.length - 1, i))]; if (t) { event.preventDefault(); t.focus(); } };
  if (event.key === 'ArrowDown' || event.key === 'j') { go(at + 1); }
  else if (event.key === 'ArrowUp' || event.key === 'k') { go(at < 0 ? turns.length - 1 : at - 1); }
  else if (event.key === 'Home' && at >= 0) { go(0); }
  else if (event.key === 'End' && at >= 0) { go(turns.length - 1); }
});
`;

/**
 * Show Conversation: a rendered transcript of a payload's conversation beside it, one per payload, redrawn
 * (at most every TRANSCRIPT_REDRAW_MS) as the payload is edited and while its answer streams.
 */
export class TranscriptPanels implements vscode.Disposable {
  private readonly open = new Map<string, Transcript>();
  private readonly subscriptions: vscode.Disposable[];

  /** @param redact removes the key from what the page shows, as the response document does. */
  constructor(
    private readonly responses: ResponseDocuments,
    private readonly redact: (text: string) => string,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri.toString())),
      responses.onDidChange((uri) => this.schedule(uri.query)),
    ];
  }

  /** Opens (or reveals) the transcript of the payload `arg` names, else of the active payload or answer. */
  show(payload: vscode.Uri): vscode.WebviewPanel {
    const key = payload.toString();
    const existing = this.open.get(key);
    if (existing) {
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      this.draw(existing);
      return existing.panel;
    }
    const name = payload.path.split('/').pop() ?? payload.path;
    const panel = vscode.window.createWebviewPanel(
      'modelAccess.conversation',
      l10n.t('Conversation · {0}', clean(name)),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [] },
    );
    const nonce = newNonce();
    const title = l10n.t('Conversation · {0}', clean(name));
    panel.webview.html = page({
      title,
      nonce,
      cspSource: panel.webview.cspSource,
      imageSources: 'data:',
      style: TRANSCRIPT_STYLE,
      script: SCRIPT,
      body: `<header><h1>${escapeHtml(title)}</h1><p id="status" class="muted" role="status"></p></header>
<main id="turns" aria-label="${escapeHtml(l10n.t('Turns'))}"></main>`,
    });
    const transcript: Transcript = { panel, payload, lastDrawn: 0, html: '', draws: 0, rendered: new RenderedTurns() };
    this.open.set(key, transcript);
    panel.onDidDispose(() => {
      clearTimeout(transcript.timer);
      this.open.delete(key);
    });
    this.draw(transcript);
    return panel;
  }

  /** What the transcript of `payload` shows now (tests). */
  shown(payload: vscode.Uri): { html: string; draws: number } | undefined {
    const t = this.open.get(payload.toString());
    return t && { html: t.html, draws: t.draws };
  }

  private schedule(key: string): void {
    const t = this.open.get(key);
    if (!t || t.timer) {
      return;
    }
    const wait = Math.max(0, t.lastDrawn + TRANSCRIPT_REDRAW_MS - Date.now());
    t.timer = setTimeout(() => {
      t.timer = undefined;
      this.draw(t);
    }, wait);
  }

  private draw(t: Transcript): void {
    t.lastDrawn = Date.now();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === t.payload.toString());
    if (!doc) {
      return; // Closed: the page keeps what it showed.
    }
    const read = readConversation(doc.getText());
    let html: string;
    let status: string;
    if (!read.ok) {
      html = `<p class="error">${escapeHtml(read.problem)}</p>`;
      status = l10n.t('The payload cannot be read as a conversation.');
    } else {
      const turns = read.conversation.turns;
      const pending = pendingAnswer(this.responses.latestFor(t.payload), turns, this.redact);
      html = transcriptHtml(turns, pending, t.rendered);
      status = pending?.streaming
        ? l10n.t('{0} turns · an answer is arriving…', turns.length)
        : turns.length === 1
          ? l10n.t('1 turn')
          : l10n.t('{0} turns', turns.length);
    }
    t.html = html;
    t.draws++;
    void t.panel.webview.postMessage({ type: 'turns', html, status });
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    for (const t of this.open.values()) {
      clearTimeout(t.timer);
      t.panel.dispose();
    }
  }
}

/** The answer to show after the turns: one arriving, or one that arrived and is not in the payload yet. */
function pendingAnswer(
  record: ResponseRecord | undefined,
  turns: readonly Turn[],
  redact: (text: string) => string,
): PendingAnswer | undefined {
  if (!record || (record.endpoint !== '/v1/chat' && record.endpoint !== '/v1/responses')) {
    return undefined;
  }
  const read = answerOfRecord(record);
  if (!read) {
    return undefined;
  }
  const answer = withoutSecrets(read.answer, redact);
  const text = answer.text ?? '';
  const toolCalls = answer.toolCalls;
  if (read.arriving) {
    return { text, toolCalls, streaming: true };
  }
  const inPayload = turns.some(
    (t) =>
      t.role === 'assistant' &&
      ((text !== '' && t.text === text) || (toolCalls.length > 0 && t.toolCalls.some((c) => c.id === toolCalls[0].id))),
  );
  return inPayload || answer.error ? undefined : { text, toolCalls, streaming: false };
}

/** The payload a Show Conversation argument (or the active editor) names: a payload, or the payload of an answer. */
export function transcriptTarget(arg: unknown): vscode.Uri | undefined {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme === RESPONSE_SCHEME) {
    return vscode.Uri.parse(uri.query);
  }
  return uri;
}
