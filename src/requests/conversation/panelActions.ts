import * as vscode from 'vscode';
import type { PostEndpoint } from '../../api/types';
import { clean, type DisplayText } from '../../common/text';
import { describeShapes } from '../../domain/answer';
import { FAILURE_ACTIONS, type FailureAction } from '../../domain/failure';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { parsePayload } from '../../domain/payload/parse';
import { literalText } from '../../domain/payload/variables';
import { Commands } from '../../ids';
import { l10n } from '../../platform/l10n';
import { modelPickItems } from '../../platform/modelPicks';
import type { Services } from '../../services';
import type { ResponseRecord } from '../answers/core/responseFormat';
import { payloadColumn } from '../answers/answerPlacement';
import type { ResponseDocuments } from '../answers/responseView';
import type { ScratchFiles } from '../payloads/scratchFiles';
import type { RequestSender } from '../send/send';
import { cutText } from './core/cutNote';
import { appendReply, dropLastAnswer, forkAt } from './core/edits';
import { addUserMessage, editUserTurn, setParameter } from './core/panelEdits';
import type { PageMessage } from './core/panelProtocol';
import { answerOfRecord, withoutSecrets } from './core/recordAnswer';
import { readConversation } from './core/turns';
import { announce, post, type Panel } from './openPanel';
import type { PanelDrawing } from './panelDrawing';
import { exchangeOf, requestOf } from './panelExchange';
import { editPayload, payloadDocument, type PayloadMake } from './payloadEdit';

/**
 * An answer's text as its turn holds it in the file (appendReply writes it with the literal escape): the key
 * under which the panel keeps its exchange and request, looked up by the turn's text.
 */
function asWritten(text: string | undefined): string {
  return literalText(text ?? '');
}

/** What the actions need of the open panels: the panel of a payload, and opening one (a fork's). */
export interface OpenPanels {
  find(payload: vscode.Uri): Panel | undefined;
  show(payload: vscode.Uri): Promise<unknown>;
}

/**
 * What a conversation panel does: its page's messages (the message box's Send, Stop, Copy, Edit and resend,
 * Regenerate, Fork, Copy as Code, Keep What Arrived, the header's parameters) and the ways out under an
 * error (Retry, Pick a Model…, the failure's own). Each change of the payload is one edit of it; an answer
 * of a Send shown in the panel is written into the payload once.
 */
export class PanelActions {
  /** The answers written (or being written) into their payload, and what the panel says about each. */
  private readonly written = new WeakMap<ResponseRecord, Promise<DisplayText>>();

  constructor(
    private readonly deps: Services,
    private readonly responses: ResponseDocuments,
    private readonly sender: RequestSender,
    private readonly scratch: ScratchFiles,
    private readonly drawing: PanelDrawing,
    private readonly panels: OpenPanels,
  ) {}

  /** A message of the page (or a test pressing its buttons as the page would). */
  async handle(p: Panel, m: PageMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        p.ready = true;
        p.sent = [];
        p.header = '';
        this.drawing.draw(p);
        return;
      case 'send':
        await this.send(p, m.text);
        return;
      case 'stop':
        this.sender.cancel(p.payload);
        return;
      case 'copy': {
        const doc = await payloadDocument(p.payload);
        const read = doc && readConversation(doc.getText());
        const turn = read?.ok ? read.conversation.turns[m.turn] : undefined;
        if (turn) {
          await vscode.env.clipboard.writeText(turn.text);
          announce(p, l10n.t('Copied turn {0}.', m.turn + 1));
        }
        return;
      }
      case 'copyCode':
        await vscode.env.clipboard.writeText(m.text);
        announce(p, l10n.t('Copied the code.'));
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
          announce(p, l10n.t('Saved to the payload.'));
        }
        return;
      }
    }
  }

  /**
   * The message box's Send: an answer that arrived and is not yet in the payload is written first, then the
   * message as the next user turn (one edit), then the payload is sent and its answer written after it.
   */
  async send(p: Panel, message: string): Promise<boolean> {
    if (message.trim() === '') {
      return false;
    }
    const doc = await payloadDocument(p.payload);
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
    post(p, { type: 'clearMessage' });
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
    const pending = this.drawing.pending(p, record, turns.ok ? turns.conversation.turns : []);
    return pending && !pending.error ? withoutSecrets(read.answer, this.deps.log.redactor.removeSecrets) : undefined;
  }

  /** Sends the payload as it is, and writes a complete answer into it. */
  private async sendAndAppend(p: Panel): Promise<boolean> {
    const doc = await payloadDocument(p.payload);
    if (!doc) {
      return false;
    }
    announce(p, l10n.t('Sending…'));
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
      announce(p, outcome.message);
      this.drawing.draw(p);
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
      const p = this.panels.find(payload);
      if (p) {
        announce(p, said);
        // Scheduled, not drawn at once: a stream's redraws are already due, and the panel redraws at most
        // every PANEL_REDRAW_MS.
        this.drawing.schedule(p);
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
    const p = this.panels.find(payload);
    p?.exchanges.set(asWritten(answer.text), exchangeOf(record, this.deps.log.redactor.removeSecrets));
    p?.requests.set(asWritten(answer.text), requestOf(record, this.deps.log.redactor.removeSecrets));
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
      post(p, { type: 'editFailed', turn });
      return;
    }
    await this.sendAndAppend(p);
  }

  private async fork(p: Panel, index: number): Promise<void> {
    const doc = await payloadDocument(p.payload);
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
    await this.panels.show(created.document.uri);
    announce(
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
    p.exchanges.set(asWritten(answer.text), exchangeOf(record, this.deps.log.redactor.removeSecrets));
    if (
      await this.edit(p, (text, f) => appendReply(text, answer, { ...f, previousResponseId: false, nextTurn: false }))
    ) {
      announce(p, l10n.t('What arrived is now the answer in the payload.'));
    }
  }

  async wayOut(p: Panel, way: string): Promise<void> {
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
    const doc = await payloadDocument(p.payload);
    if (!doc) {
      return;
    }
    const read = readConversation(doc.getText());
    const endpoint: PostEndpoint =
      readEndpoint(doc.getText()) ?? (read.ok && read.conversation.kind === 'responses' ? '/v1/responses' : '/v1/chat');
    await this.deps.catalog.ensureLoaded();
    const picked = await this.deps.ui.pick(
      modelPickItems(this.deps.catalog.models, undefined, endpoint, Date.now(), this.deps.config.prices),
      {
        title: l10n.t('Pick a model for this payload'),
        placeHolder: l10n.t('The model is written into the payload, which is sent again'),
      },
    );
    const model = picked?.model?.id;
    if (model === undefined) {
      return;
    }
    if (await this.edit(p, (text, f) => setParameter(text, 'model', model, f))) {
      announce(p, l10n.t('Model set to {0}; sending again.', clean(model)));
      await this.sendAndAppend(p);
    }
  }

  /** Copy as Code from an answer's raw exchange: the request of record, not the file's current text. */
  private async copyAsCode(p: Panel, index: number): Promise<void> {
    const doc = await payloadDocument(p.payload);
    const read = doc && readConversation(doc.getText());
    const turn = read?.ok ? read.conversation.turns[index] : undefined;
    const latest = this.responses.latestFor(p.payload);
    const request = turn
      ? p.requests.get(turn.text)
      : latest && requestOf(latest, this.deps.log.redactor.removeSecrets);
    if (!request) {
      announce(p, l10n.t('The request behind this answer is no longer known (it was sent before a reload).'));
      return;
    }
    await vscode.commands.executeCommand(Commands.copyAsCode, request);
  }

  private async showFile(p: Panel): Promise<void> {
    const doc = await payloadDocument(p.payload);
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

  /** One edit of the payload (./payloadEdit.ts); its problem is shown in the panel and as an error. */
  private async edit(target: Panel | vscode.Uri, make: PayloadMake): Promise<boolean> {
    const p: Panel | undefined = target instanceof vscode.Uri ? undefined : target;
    const edited = await editPayload(p ? p.payload : (target as vscode.Uri), make);
    if (!edited.ok) {
      this.problem(p, edited.problem);
    }
    return edited.ok;
  }

  private problem(p: Panel | undefined, message: DisplayText): void {
    if (p) {
      announce(p, message);
    }
    void this.deps.ui.error(message);
  }
}
