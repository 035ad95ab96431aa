import type { PostEndpoint } from '../../api/types';
import { literalText } from '../../domain/payload/variables';
import { clean, type DisplayText } from '../../common/text';
import { suitsEndpoint } from '../../domain/modelKind';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import { visibleTail, type ResponseRecord } from '../answers/core/responseFormat';
import type { ResponseDocuments } from '../answers/responseView';
import { cutText } from './core/cutNote';
import { RENDER_LIMIT } from './core/panelMarkdown';
import type { PanelMessage } from './core/panelProtocol';
import { emptyText, panelView, PIECES_PER_DRAW, RENDERS_PER_DRAW, type PendingTurn } from './core/panelView';
import { wayButtons } from './core/panelWays';
import { answerOfRecord, withoutSecrets } from './core/recordAnswer';
import { readConversation, type Turn } from './core/turns';
import { post, type Panel } from './openPanel';
import { exchangeOf, requestOf } from './panelExchange';
import { payloadDocument } from './payloadEdit';

/** The panel redraws at most this often while its payload is edited or its answer streams. */
export const PANEL_REDRAW_MS = 100;

/**
 * The drawing of a conversation panel: the payload's turns and the answer after them (arriving, cut or
 * failed, with its ways out), redrawn at most every PANEL_REDRAW_MS and in steps for long conversations; only
 * the pieces that changed go to the page. The header shows the payload's parameters and the models to pick.
 */
export class PanelDrawing {
  constructor(
    private readonly deps: Services,
    private readonly responses: ResponseDocuments,
  ) {}

  /** Draws `p` again soon: at most once per PANEL_REDRAW_MS, however often its payload or answer changes. */
  schedule(p: Panel): void {
    if (p.timer) {
      return;
    }
    const wait = Math.max(0, p.lastDrawn + PANEL_REDRAW_MS - Date.now());
    p.timer = setTimeout(() => {
      p.timer = undefined;
      this.draw(p);
    }, wait);
  }

  /** Draws the payload of `p` (when its page is ready): its turns, the answer after them, the header. */
  draw(p: Panel): void {
    p.lastDrawn = Date.now();
    void payloadDocument(p.payload)
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
      this.schedule(p);
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
    p.totals = view.totals;
    p.draws++;
    post(p, {
      type: 'draw',
      count: pieces.length,
      changed,
      status,
      busy: view.busy,
      readable: view.readable,
      problems: view.problems,
      empty: emptyText(),
      totals: view.totals,
    });
  }

  /** Sends the header (model, parameters, the models to pick from) when it changed, or always when `force`. */
  drawHeader(p: Panel, force = false): void {
    void payloadDocument(p.payload).then((doc) => {
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
        post(p, message);
      }
    });
  }

  /** The answer after the turns, if it is not (yet) one of them. */
  pending(p: Panel, record: ResponseRecord | undefined, turns: readonly Turn[]): PendingTurn | undefined {
    if (!record || (record.endpoint !== '/v1/chat' && record.endpoint !== '/v1/responses')) {
      return undefined;
    }
    const exchange = exchangeOf(record, this.deps.log.redactor.removeSecrets);
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
      ((text !== '' && (last.text === text || last.text === literalText(text))) ||
        (answer.toolCalls.length > 0 && last.toolCalls.some((c) => c.id === answer.toolCalls[0].id)));
    if (inPayload) {
      p.exchanges.set(last.text, exchange);
      p.requests.set(last.text, requestOf(record, this.deps.log.redactor.removeSecrets));
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
}
