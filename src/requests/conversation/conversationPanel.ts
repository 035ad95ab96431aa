import * as vscode from 'vscode';
import type { PostEndpoint } from '../../api/types';
import { newNonce, page } from '../../common/html';
import { clean, type DisplayText } from '../../common/text';
import { describeShapes } from '../../domain/answer';
import { FAILURE_ACTIONS, type FailureAction } from '../../domain/failure';
import { suitsEndpoint } from '../../domain/modelKind';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { parsePayload } from '../../domain/payload/parse';
import { Commands } from '../../ids';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import { appendReply, dropLastAnswer, forkAt, type Formatting } from './core/edits';
import { answerOfRecord, withoutSecrets } from './core/recordAnswer';
import { readConversation, type Turn } from './core/turns';
import { bodyForDisplay, visibleTail, type ResponseRecord } from '../answers/core/responseFormat';
import { modelPickItems } from '../../platform/modelPicks';
import type { ResponseDocuments } from '../answers/responseView';
import { RESPONSE_SCHEME } from '../answers/responseScheme';
import { CONVERSATION_VIEW_TYPE, conversationColumn, payloadColumn } from '../answers/answerPlacement';
import type { SentRequest } from '../code/codeCommands';
import { cutText } from './core/cutNote';
import type { ScratchFiles } from '../payloads/scratchFiles';
import type { RequestSender } from '../send/send';
import { addUserMessage, editUserTurn, setParameter, type PanelEdit } from './core/panelEdits';
import { RENDER_LIMIT, RenderedAnswers } from './core/panelMarkdown';
import { wayButtons } from './core/panelWays';
import { PANEL_STYLE, panelBody, panelScript, panelTexts } from './core/panelPage';
import { readPageMessage, type PageMessage, type PanelMessage } from './core/panelProtocol';
import {
  emptyText,
  panelView,
  PIECES_PER_DRAW,
  RENDERS_PER_DRAW,
  type PendingTurn,
  type TurnExchange,
} from './core/panelView';
import { oneChange } from './core/textDiff';

/** The panel redraws at most this often while its payload is edited or its answer streams. */
export const PANEL_REDRAW_MS = 100;
export { CONVERSATION_VIEW_TYPE };

interface Panel {
  panel: vscode.WebviewPanel;
  payload: vscode.Uri;
  timer?: NodeJS.Timeout;
  lastDrawn: number;
  /** The pieces the page shows now (only changed ones are sent). */
  sent: string[];
  header: string;
  draws: number;
  status: string;
  rendered: RenderedAnswers;
  /** The exchanges behind answers written into the payload, by the answer's text. */
  exchanges: Map<string, TurnExchange>;
  /** The requests behind them as sent (Copy as Code from an exchange), by the answer's text. */
  requests: Map<string, SentRequest>;
  ready: boolean;
}

/** What a test reads of a panel. */
export interface PanelShown {
  pieces: readonly string[];
  draws: number;
  status: string;
}

/**
 * The conversation panel: one per payload, beside it. It renders the payload's turns, the answer arriving
 * and the raw exchange behind each answer, and carries the conversation on from a message box, per-turn
 * actions and a header of parameters. The payload file stays the truth: each action is one WorkspaceEdit of
 * it (one undo step; the file need not be open in an editor, and is saved when it had no unsaved changes),
 * and editing the file by hand redraws the panel.
 */
export class ConversationPanels implements vscode.Disposable {
  private readonly open = new Map<string, Panel>();
  /** The answers written (or being written) into their payload, and what the panel says about each. */
  private readonly written = new WeakMap<ResponseRecord, Promise<DisplayText>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly deps: Services,
    private readonly responses: ResponseDocuments,
    private readonly sender: RequestSender,
    private readonly scratch: ScratchFiles,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri.toString())),
      responses.onDidChange((uri) => this.schedule(uri.query)),
      deps.catalog.onDidChange(() => this.open.forEach((p) => this.drawHeader(p, true))),
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
      this.draw(existing);
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
        void this.handle(p, message);
      }
    });
  }

  /** What the panel of `payload` shows now (tests). */
  shown(payload: vscode.Uri): PanelShown | undefined {
    const p = this.open.get(payload.toString());
    return p && { pieces: [...p.sent], draws: p.draws, status: p.status };
  }

  /** A way-out button under the panel's error, as the page sends it (tests). */
  async chooseWay(payload: vscode.Uri, way: string): Promise<void> {
    const p = this.open.get(payload.toString());
    if (p) {
      await this.wayOut(p, way);
    }
  }

  /** The panel's message box, as the page sends it (tests and the Reply keybinding reach it this way too). */
  async sendMessage(payload: vscode.Uri, text: string): Promise<boolean> {
    await this.show(payload);
    const p = this.open.get(payload.toString());
    return p ? this.send(p, text) : false;
  }

  /** A button of the panel's page pressed (tests reach the page's actions this way, as the page sends them). */
  async press(payload: vscode.Uri, message: PageMessage): Promise<void> {
    const p = this.open.get(payload.toString());
    if (p) {
      await this.handle(p, message);
    }
  }

  private schedule(key: string): void {
    const p = this.open.get(key);
    if (!p || p.timer) {
      return;
    }
    const wait = Math.max(0, p.lastDrawn + PANEL_REDRAW_MS - Date.now());
    p.timer = setTimeout(() => {
      p.timer = undefined;
      this.draw(p);
    }, wait);
  }

  private async document(p: Pick<Panel, 'payload'>): Promise<vscode.TextDocument | undefined> {
    const loaded = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.payload.toString());
    if (loaded) {
      return loaded;
    }
    try {
      return await vscode.workspace.openTextDocument(p.payload);
    } catch {
      return undefined;
    }
  }

  private draw(p: Panel): void {
    p.lastDrawn = Date.now();
    void this.document(p)
      .then((doc) => {
        if (!doc || !p.ready) {
          return;
        }
        this.drawText(p, doc.getText());
        this.drawHeader(p);
      })
      .catch((e: unknown) => {
        // Never an unhandled rejection: the panel stays, and the next change draws it again.
        this.deps.log.error(e instanceof Error ? e : String(e));
      });
  }

  /** Draws `text` (the payload's): only the pieces that changed go to the page. */
  private drawText(p: Panel, text: string): void {
    const record = this.responses.latestFor(p.payload);
    const turnsNow = readConversation(text);
    const pending = this.pending(p, record, turnsNow.ok ? turnsNow.conversation.turns : []);
    const view = panelView(text, p.rendered, pending, (turn) => p.exchanges.get(turn.text), {
      renders: RENDERS_PER_DRAW,
      pieces: PIECES_PER_DRAW,
    });
    if (!view.complete) {
      // The earlier answers are rendered in the next draws, the panel answering in between.
      this.schedule(p.payload.toString());
    }
    const status = !view.readable
      ? l10n.t('The payload cannot be read as a conversation; the turns shown are from before.')
      : view.busy
        ? l10n.t('An answer is arriving…')
        : view.turnCount === 1
          ? l10n.t('1 turn')
          : l10n.t('{0} turns', view.turnCount);
    const pieces = view.readable ? view.pieces.map((piece) => piece.html) : p.sent;
    const changed = pieces.flatMap((html, index) => (p.sent[index] === html ? [] : [{ index, html }]));
    p.sent = pieces;
    p.status = status;
    p.draws++;
    this.post(p, {
      type: 'draw',
      count: pieces.length,
      changed,
      status,
      busy: view.busy,
      readable: view.readable,
      problems: view.problems,
      empty: emptyText(),
    });
  }

  private drawHeader(p: Panel, force = false): void {
    void this.document(p).then((doc) => {
      if (!doc || !p.ready) {
        return;
      }
      const text = doc.getText();
      const read = readConversation(text);
      if (!read.ok) {
        return;
      }
      const kind = read.conversation.kind;
      const endpoint: PostEndpoint = kind === 'chat' ? '/v1/chat' : '/v1/responses';
      const view = panelView(text, p.rendered);
      const v = view.parameters;
      const models = this.deps.catalog.models
        .map((m) => ({ id: m.id, suitable: suitsEndpoint(m, endpoint) }))
        .sort((a, b) => Number(b.suitable) - Number(a.suitable));
      const message: PanelMessage = {
        type: 'header',
        kind,
        model: v?.model ?? '',
        temperature: v?.temperature === undefined ? '' : String(v.temperature),
        maxTokens: v?.maxTokens === undefined ? '' : String(v.maxTokens),
        stream: v?.stream === true,
        system: v?.system ?? '',
        models,
      };
      const json = JSON.stringify(message);
      if (force || json !== p.header) {
        p.header = json;
        this.post(p, message);
      }
    });
  }

  /** The answer after the turns, if it is not (yet) one of them. */
  private pending(p: Panel, record: ResponseRecord | undefined, turns: readonly Turn[]): PendingTurn | undefined {
    if (!record || (record.endpoint !== '/v1/chat' && record.endpoint !== '/v1/responses')) {
      return undefined;
    }
    const exchange = this.exchangeOf(record);
    const read = answerOfRecord(record);
    const ended = record.elapsedMs !== undefined;
    const error =
      record.error && !record.cancelled ? { message: clean(record.error), ways: this.ways(record) } : undefined;
    if (!read) {
      return ended
        ? error && { text: '', toolCalls: [], streaming: false, error, exchange }
        : { text: '', toolCalls: [], streaming: true };
    }
    if (read.arriving && record.stream && record.stream.text.length > RENDER_LIMIT) {
      // A long stream: only its end is read (and redacted) at each redraw, so a redraw costs the same at
      // 300 KB and at 16 MB; the whole answer is read once it has arrived.
      const { shown, hidden } = visibleTail(record.stream, this.deps.log.redactor.removeSecrets);
      const calls = withoutSecrets({ ...read.answer, text: undefined }, this.deps.log.redactor.removeSecrets);
      return { text: shown, hidden, toolCalls: calls.toolCalls, streaming: true };
    }
    const answer = withoutSecrets(read.answer, this.deps.log.redactor.removeSecrets);
    const text = answer.text ?? '';
    if (read.arriving) {
      return { text, toolCalls: answer.toolCalls, streaming: true };
    }
    const last =
      turns[turns.length - 1]?.role === 'assistant'
        ? turns[turns.length - 1]
        : [...turns].reverse().find((t) => t.role === 'assistant');
    const inPayload =
      last !== undefined &&
      ((text !== '' && last.text === text) ||
        (answer.toolCalls.length > 0 && last.toolCalls.some((c) => c.id === answer.toolCalls[0].id)));
    if (inPayload) {
      p.exchanges.set(last.text, exchange);
      p.requests.set(last.text, this.requestOf(record));
      // What arrived is in the file, marked as cut; why it failed (and the way out) stays below it.
      return read.cut && error ? { text: '', toolCalls: [], streaming: false, error } : undefined;
    }
    if (answer.error && !read.cut) {
      return {
        text: '',
        toolCalls: [],
        streaming: false,
        error: { message: clean(answer.error.message), ways: error?.ways ?? [] },
        exchange,
      };
    }
    return {
      text,
      toolCalls: answer.toolCalls,
      streaming: false,
      cut: read.cut && cutText(read.cut, answer.finishReason),
      error: read.cut ? error : undefined,
      exchange,
    };
  }

  /** The buttons under a failed answer: the panel's error is the only one shown, so it carries them all. */
  private ways(record: ResponseRecord): { action: string; title: DisplayText }[] {
    return wayButtons(record.failure, record.requestJson, this.deps.catalog.models);
  }

  /** The request of record: as sent (secret references as written), to the environment it went to. */
  private requestOf(record: ResponseRecord): SentRequest {
    return {
      sent: true,
      endpoint: record.endpoint,
      json: this.deps.log.redactor.removeSecrets(record.requestJson ?? '{}'),
      environment: record.environment,
    };
  }

  private exchangeOf(record: ResponseRecord): TurnExchange {
    const redact = this.deps.log.redactor.removeSecrets;
    const body = record.rawEvents
      ? record.rawEventsWithheld
        ? undefined
        : redact(record.rawEvents.join('\n'))
      : bodyForDisplay(record, redact)?.text;
    const read = answerOfRecord(record);
    return {
      request: redact(record.requestJson ?? ''),
      endpoint: record.endpoint,
      status: record.status,
      statusText: record.statusText,
      headers: record.headers,
      body,
      elapsedMs: record.elapsedMs,
      usage: read?.answer.usage,
    };
  }

  private post(p: Panel, message: PanelMessage): void {
    void p.panel.webview.postMessage(message);
  }

  private announce(p: Panel, text: DisplayText): void {
    this.post(p, { type: 'announce', text });
  }

  private async handle(p: Panel, m: PageMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        p.ready = true;
        p.sent = [];
        p.header = '';
        this.draw(p);
        return;
      case 'send':
        await this.send(p, m.text);
        return;
      case 'stop':
        this.sender.cancel(p.payload);
        return;
      case 'copy': {
        const doc = await this.document(p);
        const read = doc && readConversation(doc.getText());
        const turn = read?.ok ? read.conversation.turns[m.turn] : undefined;
        if (turn) {
          await vscode.env.clipboard.writeText(turn.text);
          this.announce(p, l10n.t('Copied turn {0}.', m.turn + 1));
        }
        return;
      }
      case 'copyCode':
        await vscode.env.clipboard.writeText(m.text);
        this.announce(p, l10n.t('Copied the code.'));
        return;
      case 'edit':
        await this.editAndResend(p, m.turn, m.text);
        return;
      case 'regenerate':
        await this.regenerate(p);
        return;
      case 'fork':
        await this.fork(p, m.turn);
        return;
      case 'copyAsCode':
        await this.copyAsCode(p, m.turn);
        return;
      case 'keep':
        await this.keepAnswer(p);
        return;
      case 'way':
        await this.wayOut(p, m.way);
        return;
      case 'showFile':
        await this.showFile(p);
        return;
      case 'set': {
        const edited = await this.edit(p, (text, f) => setParameter(text, m.name, m.value, f));
        if (edited) {
          this.announce(p, l10n.t('Saved to the payload.'));
        }
        return;
      }
    }
  }

  /**
   * The message box's Send: an answer that arrived and is not yet in the payload is written first, then the
   * message as the next user turn (one edit), then the payload is sent and its answer written after it.
   */
  private async send(p: Panel, message: string): Promise<boolean> {
    if (message.trim() === '') {
      return false;
    }
    const doc = await this.document(p);
    if (!doc) {
      return false;
    }
    const waiting = this.unwrittenAnswer(p, doc.getText());
    const written = await this.edit(p, (text, f) => {
      const before = waiting
        ? appendReply(text, waiting, { ...f, previousResponseId: false, nextTurn: false })
        : undefined;
      if (before && !before.ok) {
        return before;
      }
      return addUserMessage(before ? before.text : text, message, f);
    });
    if (!written) {
      return false;
    }
    this.post(p, { type: 'clearMessage' });
    return this.sendAndAppend(p);
  }

  /** The complete answer the panel shows below the turns, when the payload does not hold it yet. */
  private unwrittenAnswer(p: Panel, text: string) {
    const record = this.responses.latestFor(p.payload);
    const read = record && answerOfRecord(record);
    if (!record || !read || read.arriving || read.cut || read.answer.error) {
      return undefined;
    }
    const turns = readConversation(text);
    const pending = this.pending(p, record, turns.ok ? turns.conversation.turns : []);
    return pending && !pending.error ? withoutSecrets(read.answer, this.deps.log.redactor.removeSecrets) : undefined;
  }

  /** Sends the payload as it is, and writes a complete answer into it. */
  private async sendAndAppend(p: Panel): Promise<boolean> {
    const doc = await this.document(p);
    if (!doc) {
      return false;
    }
    this.announce(p, l10n.t('Sending…'));
    const read = readConversation(doc.getText());
    const endpoint: PostEndpoint | undefined =
      readEndpoint(doc.getText()) === undefined && read.ok
        ? read.conversation.kind === 'chat'
          ? '/v1/chat'
          : '/v1/responses'
        : undefined;
    const start = doc.positionAt(0);
    const outcome = await this.sender.send({ document: doc, selection: new vscode.Selection(start, start) }, endpoint, {
      quiet: true,
    });
    if (outcome.kind !== 'sent') {
      this.announce(p, outcome.message);
      this.draw(p);
      return false;
    }
    // Written already when Send showed it here (answerEnded); else (answers open as text) now.
    await this.answered(p.payload, outcome.record);
    return true;
  }

  /**
   * Writes the answer of a Send of `payload` (shown in its panel, whichever way it was sent) into the payload,
   * once: the file is the truth. A complete answer becomes the next turn; one stopped, cut or failed
   * part-way is kept as what arrived, marked as cut (./core/cutNote.ts); nothing is written when no answer
   * arrived (the panel shows why). A newer answer of the payload replaces this one: it is not written.
   */
  answered(payload: vscode.Uri, record: ResponseRecord): Promise<DisplayText> {
    const known = this.written.get(record);
    if (known) {
      return known;
    }
    const writing = this.write(payload, record).then((said) => {
      const p = this.open.get(payload.toString());
      if (p) {
        this.announce(p, said);
        this.draw(p);
      }
      return said;
    });
    this.written.set(record, writing);
    return writing;
  }

  private async write(payload: vscode.Uri, record: ResponseRecord): Promise<DisplayText> {
    const read = answerOfRecord(record);
    const answer = read && withoutSecrets(read.answer, this.deps.log.redactor.removeSecrets);
    const arrived = answer !== undefined && ((answer.text ?? '') !== '' || answer.toolCalls.length > 0);
    if (!read || !answer || (!read.cut && (record.error !== undefined || answer.error !== undefined))) {
      return record.cancelled
        ? l10n.t('Stopped before anything arrived.')
        : l10n.t('The request failed: {0}', clean(record.error ?? answer?.error?.message));
    }
    if (!arrived) {
      return read.cut === 'cancelled'
        ? l10n.t('Stopped before anything arrived.')
        : read.cut
          ? l10n.t('The request failed: {0}', clean(record.error ?? cutText(read.cut)))
          : l10n.t('The answer has no text the reader can find. Looked for: {0}.', clean(describeShapes()));
    }
    if (this.responses.latestFor(payload) !== record) {
      return l10n.t('A newer answer replaced this one; it was not written into the payload.');
    }
    const p = this.open.get(payload.toString());
    p?.exchanges.set(answer.text ?? '', this.exchangeOf(record));
    p?.requests.set(answer.text ?? '', this.requestOf(record));
    const written = await this.edit(p ?? payload, (text, f) =>
      appendReply(text, answer, { ...f, previousResponseId: false, nextTurn: false, cut: read.cut }),
    );
    if (!written) {
      return l10n.t('The answer could not be written into the payload; it is in Request History.');
    }
    return read.cut === 'cancelled'
      ? l10n.t('Stopped. What arrived is kept in the payload, marked as cut.')
      : read.cut
        ? l10n.t('What arrived is kept in the payload, marked as cut.')
        : l10n.t('Answer received.');
  }

  private async regenerate(p: Panel): Promise<void> {
    const dropped = await this.edit(p, (text) => dropLastAnswer(text));
    if (dropped) {
      await this.sendAndAppend(p);
    }
  }

  private async editAndResend(p: Panel, turn: number, message: string): Promise<void> {
    const edited = await this.edit(p, (text, f) => editUserTurn(text, turn, message, f));
    if (!edited) {
      this.post(p, { type: 'editFailed', turn });
      return;
    }
    await this.sendAndAppend(p);
  }

  private async fork(p: Panel, index: number): Promise<void> {
    const doc = await this.document(p);
    if (!doc) {
      return;
    }
    const text = doc.getText();
    const read = readConversation(text);
    const turn = read.ok ? read.conversation.turns[index] : undefined;
    const forked = forkAt(text, turn ? turn.offset : text.length);
    if (!forked.ok) {
      this.problem(p, forked.problem);
      return;
    }
    const endpoint: PostEndpoint =
      readEndpoint(text) ?? (read.ok && read.conversation.kind === 'responses' ? '/v1/responses' : '/v1/chat');
    // From the payload's own file: a fork of a payload that may not read every `{{$env}}` keeps that limit.
    const created = await this.scratch.create(endpoint, forked.text, doc.uri);
    await this.show(created.document.uri);
    this.announce(
      p,
      forked.turns === 1
        ? l10n.t('Forked with 1 turn into a new payload.')
        : l10n.t('Forked with {0} turns into a new payload.', forked.turns),
    );
  }

  private async keepAnswer(p: Panel): Promise<void> {
    const record = this.responses.latestFor(p.payload);
    const read = record && answerOfRecord(record);
    if (!record || !read || read.arriving) {
      return;
    }
    const answer = withoutSecrets(read.answer, this.deps.log.redactor.removeSecrets);
    p.exchanges.set(answer.text ?? '', this.exchangeOf(record));
    if (
      await this.edit(p, (text, f) => appendReply(text, answer, { ...f, previousResponseId: false, nextTurn: false }))
    ) {
      this.announce(p, l10n.t('What arrived is now the answer in the payload.'));
    }
  }

  private async wayOut(p: Panel, way: string): Promise<void> {
    if (way === 'retry') {
      await this.sendAndAppend(p);
      return;
    }
    if (way === 'pickModel') {
      await this.pickModel(p);
      return;
    }
    if (way === 'switchEnvironment') {
      await vscode.commands.executeCommand(Commands.switchEnvironment);
      return;
    }
    const action = FAILURE_ACTIONS[way as FailureAction] as (typeof FAILURE_ACTIONS)[FailureAction] | undefined;
    if (action && way in FAILURE_ACTIONS) {
      await vscode.commands.executeCommand(action.command);
    }
  }

  /**
   * Pick a Model… under a 404 for an unknown model: the models that suit the payload's endpoint first (the
   * picker New Request uses), the choice written as the payload's `"model"` (the header's path, one undo
   * step), then the payload is sent again: the person asked for an answer, not only for another model.
   */
  private async pickModel(p: Panel): Promise<void> {
    const doc = await this.document(p);
    if (!doc) {
      return;
    }
    const read = readConversation(doc.getText());
    const endpoint: PostEndpoint =
      readEndpoint(doc.getText()) ?? (read.ok && read.conversation.kind === 'responses' ? '/v1/responses' : '/v1/chat');
    await this.deps.catalog.ensureLoaded();
    const picked = await this.deps.ui.pick(modelPickItems(this.deps.catalog.models, undefined, endpoint), {
      title: l10n.t('Pick a model for this payload'),
      placeHolder: l10n.t('The model is written into the payload, which is sent again'),
    });
    const model = picked?.model?.id;
    if (model === undefined) {
      return;
    }
    if (await this.edit(p, (text, f) => setParameter(text, 'model', model, f))) {
      this.announce(p, l10n.t('Model set to {0}; sending again.', clean(model)));
      await this.sendAndAppend(p);
    }
  }

  /** Copy as Code from an answer's raw exchange: the request of record, not the file's current text. */
  private async copyAsCode(p: Panel, index: number): Promise<void> {
    const doc = await this.document(p);
    const read = doc && readConversation(doc.getText());
    const turn = read?.ok ? read.conversation.turns[index] : undefined;
    const latest = this.responses.latestFor(p.payload);
    const request = turn ? p.requests.get(turn.text) : latest && this.requestOf(latest);
    if (!request) {
      this.announce(p, l10n.t('The request behind this answer is no longer known (it was sent before a reload).'));
      return;
    }
    await vscode.commands.executeCommand(Commands.copyAsCode, request);
  }

  private async showFile(p: Panel): Promise<void> {
    const doc = await this.document(p);
    if (!doc) {
      return;
    }
    const parsed = parsePayload(doc.getText());
    const at = parsed.ok ? doc.positionAt(0) : doc.positionAt(parsed.problem.offset);
    const editor = await vscode.window.showTextDocument(doc, {
      preview: false,
      viewColumn: payloadColumn(p.payload) ?? vscode.ViewColumn.Active,
    });
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /**
   * One edit of the payload: `make` gets its text and formatting and says the new text (or the problem,
   * shown in the panel; the file is left as it was). The file is saved after when it had no unsaved changes.
   */
  private async edit(
    target: Panel | vscode.Uri,
    make: (text: string, f: Formatting) => PanelEdit | { ok: true; text: string } | { ok: false; problem: DisplayText },
  ): Promise<boolean> {
    const p: Panel | undefined = target instanceof vscode.Uri ? undefined : target;
    const doc = await this.document(p ?? { payload: target as vscode.Uri });
    if (!doc) {
      this.problem(p, l10n.t('The payload is gone; nothing was changed.'));
      return false;
    }
    const before = doc.getText();
    const made = make(before, this.formatting(doc));
    if (!made.ok) {
      this.problem(p, made.problem);
      return false;
    }
    const change = oneChange(before, made.text);
    if (!change) {
      return true;
    }
    const wasDirty = doc.isDirty;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      doc.uri,
      new vscode.Range(doc.positionAt(change.offset), doc.positionAt(change.offset + change.length)),
      change.text,
    );
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.problem(p, l10n.t('The payload changed while it was being edited; nothing was changed.'));
      return false;
    }
    if (!wasDirty && doc.uri.scheme === 'file') {
      await doc.save();
    }
    return true;
  }

  private problem(p: Panel | undefined, message: DisplayText): void {
    if (p) {
      this.announce(p, message);
    }
    void this.deps.ui.error(message);
  }

  private formatting(doc: vscode.TextDocument): Formatting {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const tabSize = Number(editor?.options.tabSize ?? 2);
    return {
      insertSpaces: editor?.options.insertSpaces !== false,
      tabSize: Number.isInteger(tabSize) && tabSize > 0 ? tabSize : 2,
      eol: doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
    };
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
