/**
 * What the conversation panel shows, from the payload's text and the answers the extension holds: one HTML
 * piece per turn (keyed, so a redraw sends only the pieces that changed), the answer arriving or cut, an
 * error at the turn it belongs to with its ways out, the problems of a payload the panel cannot fully show,
 * and the header's values. Every value from the payload or an answer is escaped or goes through the answer
 * renderer (./panelMarkdown.ts). Pure; no `vscode` import.
 */
import { getNodeValue, parseTree } from 'jsonc-parser';
import { escapeHtml } from '../../../common/html';
import { l10n } from '../../../common/l10n';
import { isRecord } from '../../../common/records';
import { clean, type DisplayText } from '../../../common/text';
import type { TokenUsage } from '../../../domain/answer';
import { costText, durationText, factsLine, timeText, tokensText, type Priced } from '../../../domain/answerFacts';
import { formatTally, UsageTotals } from '../../../domain/cost/totals';
import { literalOf } from '../../../domain/payload/variables';
import { isBlank, type ConversationKind, type Turn, type TurnToolCall } from './turns';
import { readParameters, unwritten, type PanelParameters } from './panelEdits';
import type { RenderedAnswers } from './panelMarkdown';
import { cutText, readCut } from './cutNote';
import type { AnswerCut } from './recordAnswer';

/** The raw exchange behind an answer: what was sent and what came back (already free of the key). */
export interface TurnExchange {
  /** The request body as sent (JSON text). */
  request: string;
  endpoint: string;
  status?: number;
  statusText?: string;
  headers?: Record<string, string>;
  /** The response body, or the stream's events. */
  body?: string;
  elapsedMs?: number;
  firstByteMs?: number;
  usage?: TokenUsage;
  /** The model's price and the answer's cost, once counted. */
  priced?: Priced;
  /** The model it went to, as shown (for the conversation's totals). */
  model?: string;
}

/** A way out of an error, as a button: `action` is what the page sends back. */
export interface WayOutButton {
  action: string;
  title: DisplayText;
}

/** The answer after the payload's turns: arriving, cut, failed, or arrived and not yet written. */
export interface PendingTurn {
  text: string;
  /** Characters before `text` left out while a long answer streams (only its end is read at each redraw). */
  hidden?: number;
  toolCalls: readonly TurnToolCall[];
  streaming: boolean;
  /** Why it stopped short (shown with what arrived). */
  cut?: DisplayText;
  error?: { message: DisplayText; ways: readonly WayOutButton[] };
  exchange?: TurnExchange;
}

export interface PanelPiece {
  key: string;
  html: string;
}

export interface PanelView {
  /** False when the payload cannot be read as a conversation: the page keeps the turns it showed. */
  readable: boolean;
  pieces: PanelPiece[];
  /** What the payload's problems are (invalid JSON, unknown roles or parts), as text. */
  problems: DisplayText[];
  kind?: ConversationKind;
  parameters?: PanelParameters;
  /** Turns shown, the pending answer included. */
  turnCount: number;
  busy: boolean;
  /** False when some answers were left as text to keep this draw short: draw again to render them. */
  complete: boolean;
  /** What the answers this panel received cost in all (tokens, cost, time); empty when it received none. */
  totals: DisplayText;
}

/** Answers rendered anew in one draw (the latest first): a long conversation's first draw stays short. */
export const RENDERS_PER_DRAW = 8;

/** Turn pieces built anew in one draw, the latest first; earlier ones show their role until a later draw. */
export const PIECES_PER_DRAW = 40;

/** How much one draw may do. */
export interface DrawBudget {
  /** Answers whose Markdown is rendered anew in one draw, the latest first (the rest follow in later draws). */
  renders: number;
  /** Turn pieces built anew (the rest wait for a later draw). */
  pieces?: number;
}

/** Built turn pieces a panel keeps (a hand-edited turn leaves its old pieces behind). */
const PIECES_KEPT = 2000;

const KNOWN_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const KNOWN_PARTS = new Set([
  'text',
  'input_text',
  'output_text',
  'refusal',
  'image_url',
  'input_image',
  'input_file',
  'file',
]);

function roleLabel(role: string): string {
  switch (role) {
    case 'system':
      return l10n.t('System');
    case 'developer':
      return l10n.t('Developer');
    case 'user':
      return l10n.t('User');
    case 'assistant':
      return l10n.t('Assistant');
    case 'tool':
      return l10n.t('Tool result');
    default:
      return role;
  }
}

function button(action: string, label: string, turn: number, name?: string): string {
  const aria = name ? ` aria-label="${escapeHtml(name)}"` : '';
  return `<button type="button" data-action="${action}" data-turn="${turn}"${aria}>${escapeHtml(label)}</button>`;
}

function toolCallHtml(call: TurnToolCall): string {
  return `<section class="tool-call" aria-label="${escapeHtml(l10n.t('Tool call {0}', clean(call.name)))}">
<h3>${escapeHtml(l10n.t('Tool call: {0}', clean(call.name)))} <span class="muted">${escapeHtml(call.id)}</span></h3>
<pre><code>${escapeHtml(call.arguments)}</code></pre></section>`;
}

/** The answer's tokens, cost and time, one line under it (what it cost is seen without opening anything). */
function factsHtml(x: TurnExchange | undefined): string {
  if (!x) {
    return '';
  }
  const facts = factsLine({ usage: x.usage, firstByteMs: x.firstByteMs, lastByteMs: x.elapsedMs, priced: x.priced });
  return `<p class="answer-facts muted">${escapeHtml(facts)}</p>`;
}

function exchangeHtml(x: TurnExchange, turn: number): string {
  const rows: string[] = [];
  const row = (name: string, value: string) =>
    rows.push(`<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`);
  row(l10n.t('Request'), `POST ${x.endpoint}`);
  if (x.status !== undefined) {
    row(l10n.t('Status'), `${x.status} ${x.statusText ?? ''}`.trim());
  }
  const time = timeText(x.firstByteMs, x.elapsedMs);
  if (time !== undefined) {
    row(l10n.t('Time'), time);
  }
  row(l10n.t('Usage'), tokensText(x.usage));
  if (x.priced) {
    row(l10n.t('Cost'), costText(x.priced));
  }
  const headers = Object.entries(x.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return `<details class="exchange"><summary>${escapeHtml(l10n.t('Raw exchange'))}</summary>
<table>${rows.join('')}</table>
<h3>${escapeHtml(l10n.t('Request body'))}</h3><pre class="raw">${escapeHtml(x.request)}</pre>
${headers ? `<h3>${escapeHtml(l10n.t('Response headers'))}</h3><pre class="raw">${escapeHtml(headers)}</pre>` : ''}
${x.body !== undefined ? `<h3>${escapeHtml(l10n.t('Response body'))}</h3><pre class="raw">${escapeHtml(x.body)}</pre>` : ''}
<div class="actions">${button('copyAsCode', l10n.t('Copy as Code…'), turn)}</div>
</details>`;
}

/** Content parts of types the panel does not know, in a turn's own JSON. */
function unknownParts(text: string, turn: Turn): string[] {
  if (turn.content?.type !== 'array') {
    return [];
  }
  const node = parseTree(text.slice(turn.content.offset, turn.content.offset + turn.content.length));
  const parts: unknown = node ? getNodeValue(node) : [];
  return (Array.isArray(parts) ? parts : [])
    .filter((p) => isRecord(p) && typeof p.type === 'string' && !KNOWN_PARTS.has(p.type))
    .map((p) => String((p as Record<string, unknown>).type));
}

interface TurnOptions {
  n: number;
  regenerate: boolean;
  exchange?: TurnExchange;
  unknown: string[];
  /** The answer's Markdown is not rendered in this draw (its text is shown as written until a later one). */
  later: boolean;
  /** How the answer in this turn stopped short (its mark in the file), if it did. */
  cut?: AnswerCut;
}

function turnHtml(turn: Turn, o: TurnOptions, rendered: RenderedAnswers): string {
  const parts: string[] = [];
  if (!KNOWN_ROLES.has(turn.role)) {
    parts.push(
      `<p class="note">${escapeHtml(l10n.t('Unknown role "{0}": shown as written; the service may refuse it.', clean(turn.role)))}</p>`,
    );
  }
  if (o.unknown.length > 0) {
    parts.push(
      `<p class="note">${escapeHtml(l10n.t('Parts of types the panel cannot show: {0}. They stay in the file as written.', clean(o.unknown.join(', '))))}</p>`,
    );
  }
  if (turn.toolCallId !== undefined) {
    parts.push(`<p class="muted">${escapeHtml(l10n.t('For call {0}', clean(turn.toolCallId)))}</p>`);
  }
  if (turn.text !== '') {
    parts.push(
      turn.role === 'assistant' && !o.later
        ? `<div class="markdown">${rendered.render(turn.text)}</div>`
        : // The words Send sends (a message typed in the panel is written with `\{{` escapes): what Edit starts from.
          `<div class="plain">${escapeHtml(literalOf(turn.text) ?? turn.text)}</div>`,
    );
  } else if (isBlank(turn)) {
    parts.push(`<p class="muted">${escapeHtml(l10n.t('(empty)'))}</p>`);
  }
  turn.images.forEach((url, i) =>
    parts.push(`<p class="file">${escapeHtml(l10n.t('Image {0}: {1}', i + 1, clean(url.slice(0, 80))))}</p>`),
  );
  for (const file of turn.files) {
    parts.push(`<p class="file">${escapeHtml(l10n.t('File: {0}', clean(file)))}</p>`);
  }
  parts.push(...turn.toolCalls.map(toolCallHtml));
  if (o.cut) {
    parts.push(`<p class="note cut">${escapeHtml(cutText(o.cut))}</p>`);
  }
  const i = turn.index;
  const label = roleLabel(turn.role);
  const actions = [button('copy', l10n.t('Copy'), i, l10n.t('Copy turn {0}', o.n))];
  if (turn.role === 'user') {
    actions.push(button('edit', l10n.t('Edit'), i, l10n.t('Edit turn {0} and resend', o.n)));
  }
  if (o.regenerate) {
    actions.push(button('regenerate', l10n.t('Regenerate'), i, l10n.t('Regenerate the answer')));
  }
  actions.push(button('fork', l10n.t('Fork'), i, l10n.t('Fork from turn {0}', o.n)));
  return article(turn.role, label, o.n, i, parts.join('\n'), {
    actions: actions.join(''),
    exchange: o.exchange ? factsHtml(o.exchange) + exchangeHtml(o.exchange, i) : '',
    note: o.cut ? l10n.t('(cut)') : undefined,
  });
}

function article(
  role: string,
  label: string,
  n: number,
  index: number,
  inner: string,
  more: { actions?: string; exchange?: string; busy?: boolean; note?: string; kind?: string } = {},
): string {
  const roleClass = /^[a-z]+$/.test(role) ? role : 'other';
  const name = l10n.t('Turn {0}: {1}', n, clean(label));
  const note = more.note ? ` <span class="muted">${escapeHtml(more.note)}</span>` : '';
  return `<article class="turn role-${roleClass}${more.kind ? ` ${more.kind}` : ''}" data-index="${index}" tabindex="-1" aria-label="${escapeHtml(name)}"${more.busy ? ' aria-busy="true"' : ''}>
<h2>${escapeHtml(label)}${note}</h2>
${inner}
${more.exchange ?? ''}
${more.actions ? `<div class="turn-actions" role="toolbar" aria-label="${escapeHtml(l10n.t('Turn {0} actions', n))}">${more.actions}</div>` : ''}
</article>`;
}

function pendingHtml(p: PendingTurn, n: number, index: number, rendered: RenderedAnswers): string {
  const inner: string[] = [];
  if (p.text !== '') {
    // While it streams the text changes every redraw: rendered without keeping it (the cache is for turns).
    // The renderer bounds what one redraw renders (its end, at most RENDER_LIMIT characters).
    inner.push(
      `<div class="markdown">${p.streaming ? rendered.renderArriving(p.text, p.hidden) : rendered.render(p.text)}</div>`,
    );
  }
  inner.push(...p.toolCalls.map(toolCallHtml));
  if (p.cut) {
    inner.push(`<p class="note cut">${escapeHtml(p.cut)}</p>`);
  }
  const actions: string[] = [];
  if (p.error) {
    inner.push(`<div class="error" role="alert">${escapeHtml(p.error.message)}</div>`);
    actions.push(
      ...p.error.ways.map(
        (w) =>
          `<button type="button" data-action="way" data-way="${escapeHtml(w.action)}">${escapeHtml(w.title)}</button>`,
      ),
    );
  }
  if (!p.streaming && p.cut && (p.text !== '' || p.toolCalls.length > 0)) {
    actions.push(button('keep', l10n.t('Keep What Arrived'), index, l10n.t('Keep what arrived as the answer')));
  }
  if (inner.length === 0 && p.streaming) {
    inner.push(`<p class="muted">${escapeHtml(l10n.t('Waiting for the answer…'))}</p>`);
  }
  const label = p.error && p.text === '' ? l10n.t('Error') : l10n.t('Assistant');
  const note = p.streaming ? l10n.t('(arriving…)') : p.cut ? l10n.t('(cut)') : undefined;
  return article(p.error && p.text === '' ? 'error' : 'assistant', label, n, index, inner.join('\n'), {
    actions: actions.join(''),
    exchange: p.exchange && !p.streaming ? factsHtml(p.exchange) + exchangeHtml(p.exchange, index) : '',
    busy: p.streaming,
    note,
    kind: 'pending',
  });
}

/**
 * The panel's view of a payload. `exchangeFor` finds the exchange behind an assistant turn (by its text);
 * `pending` is the answer after the turns, if any.
 */
export function panelView(
  text: string,
  rendered: RenderedAnswers,
  pending?: PendingTurn,
  exchangeFor: (turn: Turn) => TurnExchange | undefined = () => undefined,
  budget: DrawBudget = { renders: Infinity },
): PanelView {
  const read = rendered.read(text);
  if (!read.ok) {
    return {
      readable: false,
      pieces: [],
      problems: [read.problem],
      turnCount: 0,
      busy: pending?.streaming === true,
      complete: true,
      totals: '' as DisplayText,
    };
  }
  const c = read.conversation;
  let turns = c.turns;
  // The user turn nobody wrote yet (Reply's empty one, New Request's placeholder) is the message box's.
  const last = turns[turns.length - 1];
  if (last && turns.length > 1 && unwritten(last)) {
    turns = turns.slice(0, -1);
  } else if (last && turns.length === 1 && unwritten(last) && last.text.trim() === '') {
    turns = [];
  }
  const lastAssistant = lastAnswerIndex(turns);
  const problems: DisplayText[] = [];
  // The latest answers are rendered first: they are what the panel shows, scrolled to the end.
  let renders = budget.renders;
  const later = new Set<number>();
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    if (t.role === 'assistant' && t.text !== '' && !rendered.has(t.text)) {
      if (renders > 0) {
        renders--;
      } else {
        later.add(i);
      }
    }
  }
  // Pieces not built yet, beyond this draw's budget (counted from the end), wait for a later one.
  let build = budget.pieces ?? Infinity;
  let waiting = 0;
  const pieces: PanelPiece[] = new Array<PanelPiece>(turns.length);
  const problemsOf: DisplayText[][] = turns.map(() => []);
  for (let i = turns.length - 1; i >= 0; i--) {
    pieces[i] = piece(i);
  }
  problems.push(...problemsOf.flat());
  function piece(i: number): PanelPiece {
    const turn = turns[i];
    const unknown = unknownParts(text, turn);
    if (!KNOWN_ROLES.has(turn.role)) {
      problemsOf[i].push(l10n.t('Turn {0} has the unknown role "{1}".', i + 1, clean(turn.role)));
    }
    if (unknown.length > 0) {
      problemsOf[i].push(l10n.t('Turn {0} has parts of unknown types: {1}.', i + 1, clean(unknown.join(', '))));
    }
    const options: TurnOptions = {
      n: i + 1,
      regenerate: i === lastAssistant && !pending?.streaming,
      exchange: turn.role === 'assistant' ? exchangeFor(turn) : undefined,
      unknown,
      later: later.has(i),
      cut: turn.role === 'assistant' ? readCut(text.slice(turn.offset, turn.offset + turn.length)) : undefined,
    };
    // A turn that shows the same as in the last draw is not built again (a redraw while an answer streams).
    const key = options.exchange
      ? undefined
      : `${i}\u0000${turn.role}\u0000${options.regenerate}${options.later}${unknown.join()}\u0000${options.cut ?? ''}\u0000${turn.toolCallId ?? ''}\u0000${turn.images.join()}\u0000${turn.files.join()}\u0000${JSON.stringify(turn.toolCalls)}\u0000${turn.text}`;
    const known = key === undefined ? undefined : rendered.pieces.get(key);
    if (known === undefined && build <= 0) {
      waiting++;
      return { key: `t${i}`, html: placeholder(turn, i + 1) };
    }
    if (known === undefined) {
      build--;
    }
    const html = known ?? turnHtml(turn, options, rendered);
    if (key !== undefined && known === undefined) {
      if (rendered.pieces.size >= PIECES_KEPT) {
        rendered.pieces.clear();
      }
      rendered.pieces.set(key, html);
    }
    return { key: `t${i}`, html };
  }
  if (pending) {
    pieces.push({ key: 'pending', html: pendingHtml(pending, turns.length + 1, turns.length, rendered) });
  }
  const exchanges = turns.flatMap((t) => (t.role === 'assistant' ? [exchangeFor(t)] : []));
  if (pending?.exchange && !pending.streaming) {
    exchanges.push(pending.exchange);
  }
  return {
    readable: true,
    pieces,
    problems,
    kind: c.kind,
    parameters: readParameters(c),
    turnCount: pieces.length,
    busy: pending?.streaming === true,
    complete: later.size === 0 && waiting === 0,
    totals: conversationTotals(exchanges.filter((x): x is TurnExchange => x !== undefined)),
  };
}

/** `This conversation: 3 requests, 126 tokens (…), 0.0002 USD; 4.20 s waiting for answers.` (the answers received here). */
export function conversationTotals(exchanges: readonly TurnExchange[]): DisplayText {
  if (exchanges.length === 0) {
    return '' as DisplayText;
  }
  const totals = new UsageTotals(() => '');
  for (const x of exchanges) {
    totals.add({ model: x.model ?? '', environment: '', usage: x.usage, cost: x.priced?.cost, at: 0 });
  }
  const time = exchanges.reduce((sum, x) => sum + (x.elapsedMs ?? 0), 0);
  return l10n.t(
    'This conversation: {0}; {1} waiting for answers.',
    clean(formatTally(totals.summary())),
    durationText(time),
  );
}

/** A turn not built yet: its name only (the next draw, 100 ms later, brings the rest). */
function placeholder(turn: Turn, n: number): string {
  const label = roleLabel(turn.role);
  return article(turn.role, label, n, turn.index, `<p class="muted">${escapeHtml(l10n.t('Loading…'))}</p>`);
}

/** The last assistant turn when nothing written follows it (what Regenerate replaces), else -1. */
function lastAnswerIndex(turns: readonly Turn[]): number {
  let i = turns.length - 1;
  while (i >= 0 && turns[i].role !== 'assistant' && isBlank(turns[i])) {
    i--;
  }
  if (i <= 0 || turns[i].role !== 'assistant') {
    return -1;
  }
  return i;
}

/** The empty panel's text (no turns yet). */
export function emptyText(): DisplayText {
  return l10n.t('No turns yet: write a message below and send it.');
}
