import * as vscode from 'vscode';
import type { PostEndpoint } from '../../api/types';
import { newNonce, page } from '../../common/html';
import { clean, type DisplayText } from '../../common/text';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import type { ResponseRecord } from '../answers/core/responseFormat';
import type { ResponseDocuments } from '../answers/responseView';
import { RESPONSE_SCHEME } from '../answers/responseScheme';
import { CONVERSATION_VIEW_TYPE, conversationColumn } from '../answers/answerPlacement';
import type { ScratchFiles } from '../payloads/scratchFiles';
import type { RequestSender } from '../send/send';
import { RenderedAnswers } from './core/panelMarkdown';
import { PANEL_STYLE, panelBody, panelScript, panelTexts } from './core/panelPage';
import { readPageMessage, type PageMessage } from './core/panelProtocol';
import type { Panel } from './openPanel';
import { PanelActions } from './panelActions';
import { PanelDrawing } from './panelDrawing';

export { PANEL_REDRAW_MS } from './panelDrawing';
export { CONVERSATION_VIEW_TYPE };

/** What a test reads of a panel. */
export interface PanelShown {
  pieces: readonly string[];
  draws: number;
  status: string;
  totals?: string;
}

/**
 * The conversation panel: one per payload, beside it. It renders the payload's turns, the answer arriving
 * and the raw exchange behind each answer, and carries the conversation on from a message box, per-turn
 * actions and a header of parameters. The payload file stays the truth: each action is one WorkspaceEdit of
 * it (one undo step; the file need not be open in an editor, and is saved when it had no unsaved changes),
 * and editing the file by hand redraws the panel. This class keeps the open panels (one per payload, placed
 * beside it, brought back after a reload); ./panelDrawing.ts draws them and ./panelActions.ts acts for them.
 */
export class ConversationPanels implements vscode.Disposable {
  private readonly open = new Map<string, Panel>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly drawing: PanelDrawing;
  private readonly actions: PanelActions;

  constructor(
    private readonly deps: Services,
    responses: ResponseDocuments,
    sender: RequestSender,
    scratch: ScratchFiles,
  ) {
    this.drawing = new PanelDrawing(deps, responses);
    this.actions = new PanelActions(deps, responses, sender, scratch, this.drawing, {
      find: (payload) => this.open.get(payload.toString()),
      show: (payload) => this.show(payload),
    });
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri.toString())),
      responses.onDidChange((uri) => this.schedule(uri.query)),
      deps.catalog.onDidChange(() => this.open.forEach((p) => this.drawing.drawHeader(p, true))),
    ];
  }

  /** Whether Send should show the answer of `endpoint` in the panel (the setting, and the endpoint). */
  wantsPanel(endpoint: PostEndpoint): boolean {
    return (endpoint === '/v1/chat' || endpoint === '/v1/responses') && this.deps.config.answersOpenAs === 'panel';
  }

  /** Opens (or reveals) the panel of `payload` beside it; focus stays where it was unless `focus`. */
  async show(payload: vscode.Uri, { focus = false }: { focus?: boolean } = {}): Promise<vscode.WebviewPanel> {
    const key = payload.toString();
    const existing = this.open.get(key);
    if (existing) {
      if (!existing.panel.visible || focus) {
        existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, !focus);
      }
      this.drawing.draw(existing);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      CONVERSATION_VIEW_TYPE,
      panelTitle(payload),
      { viewColumn: conversationColumn(payload), preserveFocus: !focus },
      { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true },
    );
    this.adopt(panel, payload);
    return panel;
  }

  /**
   * A panel VS Code brings back after a reload (its serializer), in the group it had: it shows its payload
   * again, or closes when the payload is gone or another panel already shows it.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = typeof state === 'object' && state !== null ? (state as { payload?: unknown }).payload : undefined;
    let payload: vscode.Uri | undefined;
    try {
      payload = typeof saved === 'string' ? vscode.Uri.parse(saved, true) : undefined;
      if (payload) {
        await vscode.workspace.fs.stat(payload);
      }
    } catch {
      payload = undefined;
    }
    if (!payload || this.open.has(payload.toString())) {
      panel.dispose();
      return;
    }
    panel.webview.options = { enableScripts: true, localResourceRoots: [] };
    panel.title = panelTitle(payload);
    this.adopt(panel, payload);
  }

  /** Fills `panel` with the page of `payload` and keeps it as that payload's panel. */
  private adopt(panel: vscode.WebviewPanel, payload: vscode.Uri): void {
    const key = payload.toString();
    const title = panelTitle(payload);
    panel.webview.html = page({
      title,
      nonce: newNonce(),
      cspSource: panel.webview.cspSource,
      style: PANEL_STYLE,
      script: panelScript(panelTexts(), { payload: key }),
      body: panelBody(title),
    });
    const p: Panel = {
      panel,
      payload,
      lastDrawn: 0,
      sent: [],
      header: '',
      draws: 0,
      status: '',
      rendered: new RenderedAnswers(),
      exchanges: new Map(),
      requests: new Map(),
      ready: false,
    };
    this.open.set(key, p);
    panel.onDidDispose(() => {
      clearTimeout(p.timer);
      this.open.delete(key);
    });
    panel.webview.onDidReceiveMessage((data: unknown) => {
      const message = readPageMessage(data);
      if (message) {
        void this.actions.handle(p, message);
      }
    });
  }

  /** What the panel of `payload` shows now (tests). */
  shown(payload: vscode.Uri): PanelShown | undefined {
    const p = this.open.get(payload.toString());
    return p && { pieces: [...p.sent], draws: p.draws, status: p.status, totals: p.totals };
  }

  /** A way-out button under the panel's error, as the page sends it (tests). */
  async chooseWay(payload: vscode.Uri, way: string): Promise<void> {
    const p = this.open.get(payload.toString());
    if (p) {
      await this.actions.wayOut(p, way);
    }
  }

  /** The panel's message box, as the page sends it (tests and the Reply keybinding reach it this way too). */
  async sendMessage(payload: vscode.Uri, text: string): Promise<boolean> {
    await this.show(payload);
    const p = this.open.get(payload.toString());
    return p ? this.actions.send(p, text) : false;
  }

  /** A button of the panel's page pressed (tests reach the page's actions this way, as the page sends them). */
  async press(payload: vscode.Uri, message: PageMessage): Promise<void> {
    const p = this.open.get(payload.toString());
    if (p) {
      await this.actions.handle(p, message);
    }
  }

  private schedule(key: string): void {
    const p = this.open.get(key);
    if (p) {
      this.drawing.schedule(p);
    }
  }

  /**
   * Writes the answer of a Send of `payload` (shown in its panel, whichever way it was sent) into the payload,
   * once: the file is the truth. A complete answer becomes the next turn; one stopped, cut or failed
   * part-way is kept as what arrived, marked as cut (./core/cutNote.ts); nothing is written when no answer
   * arrived (the panel shows why). A newer answer of the payload replaces this one: it is not written.
   */
  answered(payload: vscode.Uri, record: ResponseRecord): Promise<DisplayText> {
    return this.actions.answered(payload, record);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    for (const p of this.open.values()) {
      clearTimeout(p.timer);
      p.panel.dispose();
    }
  }
}

/** The payload a Show Conversation argument (or the active editor) names: a payload, or the payload of an answer. */
export function panelTarget(arg: unknown): vscode.Uri | undefined {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme === RESPONSE_SCHEME) {
    return vscode.Uri.parse(uri.query);
  }
  return uri;
}

/** The panel's title: the payload's file name. */
function panelTitle(payload: vscode.Uri): DisplayText {
  return l10n.t('Conversation · {0}', clean(payload.path.split('/').pop() ?? payload.path));
}
