/**
 * The edits that carry a conversation forward, as one text change each (one undo step in the editor):
 * append the answer and a new empty user turn (Reply), drop the last answer (Regenerate), keep the turns up to
 * one (Fork, and Send from an earlier turn). The payload is read with jsonc-parser's tree, and each edit
 * touches only the text it adds or takes out: new turns are written at the indentation of the turn before
 * them (jsonc-parser's `modify` would re-indent the previous turn's line too), and comments, the `// POST`
 * line, `// @env` and `{{…}}` variables stay exactly as written.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../../common/l10n';
import type { DisplayText } from '../../../common/text';
import { literalText } from '../../../domain/payload/variables';
import { isBlank, readConversation, turnAt, type Conversation, type Place, type TurnToolCall } from './turns';
import { withCutComment } from './cutNote';
import type { AnswerCut } from './recordAnswer';

/** How the editor indents (VS Code's `editor.options` and the document's line ending). */
export interface Formatting {
  insertSpaces: boolean;
  tabSize: number;
  eol: string;
}

/** What Reply needs of an answer (the shared answer reader's `Answer` has these fields). */
export interface ReplyAnswer {
  text: string | undefined;
  toolCalls: readonly TurnToolCall[];
  /** The Responses response id, for `previous_response_id`. */
  id?: string;
}

/** One replacement of `length` characters at `offset` by `text`. */
export interface TextChange {
  offset: number;
  length: number;
  text: string;
}

export type EditResult =
  | { ok: true; change: TextChange; text: string; cursor: number; already?: boolean }
  | { ok: false; problem: DisplayText };

export interface ReplyOptions extends Formatting {
  /** The payload's endpoint, when the caller knows it (else the `// POST` line or the payload's keys say). */
  endpoint?: string;
  /** Responses: send `previous_response_id` and only the new turn, instead of the whole conversation. */
  previousResponseId?: boolean;
  /**
   * Whether a new empty user turn follows the answer (default true: Reply, where the person types the next
   * message into the file). The conversation panel writes the answer alone: its message box is where the
   * next message is typed, and a file ending in an empty turn would send an empty message from the editor.
   * Empty tool-result turns are written either way: the person must fill them.
   */
  nextTurn?: boolean;
  /**
   * The answer stopped short this way (what arrived is kept): the turn written alone carries the mark that
   * says so (./cutNote.ts), in the file.
   */
  cut?: AnswerCut;
}

/**
 * Appends the answer as an assistant turn and a new empty user turn (or, when the answer calls tools, one
 * empty tool-result turn per call), with the cursor inside the first new content.
 */
export function appendReply(text: string, given: ReplyAnswer, options: ReplyOptions): EditResult {
  const answer = literalAnswer(given);
  const read = readConversation(text, options.endpoint);
  if (!read.ok) {
    return read;
  }
  const conversation = read.conversation;
  const answerText = answer.text ?? '';
  if (answerText === '' && answer.toolCalls.length === 0) {
    return { ok: false, problem: l10n.t('The answer has no text and no tool calls, so there is nothing to append.') };
  }
  const already = alreadyAppended(text, conversation, answerText, answer.toolCalls);
  const nextTurn = options.nextTurn !== false || answer.toolCalls.length > 0;
  if (already === 'last' && !nextTurn) {
    const end = conversation.turns[conversation.turns.length - 1];
    const at = end.offset + end.length;
    return { ok: true, change: { offset: at, length: 0, text: '' }, text, cursor: at, already: true };
  }
  if (typeof already === 'number') {
    return { ok: true, change: { offset: already, length: 0, text: '' }, text, cursor: already, already: true };
  }
  const marker = cursorMarker(text);
  const calls = answer.toolCalls;
  // Responses chained by previous_response_id: the answer the panel wrote goes with the rest (the service keeps it).
  const chained = conversation.kind === 'responses' && options.previousResponseId === true && answer.id !== undefined;
  if (already === 'last' && !chained) {
    // The answer is the conversation's last turn (the panel wrote it): Reply adds only the empty turn after it.
    const next =
      calls.length === 0
        ? [{ role: 'user', content: marker }]
        : conversation.kind === 'chat'
          ? calls.map((c, i) => ({ role: 'tool', tool_call_id: c.id, content: i === 0 ? marker : '' }))
          : calls.map((c, i) => ({ type: 'function_call_output', call_id: c.id, output: i === 0 ? marker : '' }));
    return withCursor(text, [appendToList(text, conversation, next, options)], marker);
  }
  if (!nextTurn) {
    return answerAlone(text, conversation, answer, options);
  }
  if (conversation.kind === 'chat') {
    const assistant: Record<string, unknown> = { role: 'assistant', content: answer.text ?? null };
    if (calls.length > 0) {
      assistant.tool_calls = calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    const next =
      calls.length > 0
        ? calls.map((c, i) => ({ role: 'tool', tool_call_id: c.id, content: i === 0 ? marker : '' }))
        : [{ role: 'user', content: marker }];
    return withCursor(text, [appendToList(text, conversation, [assistant, ...next], options)], marker);
  }
  const said = answerText !== '' ? [{ role: 'assistant', content: answerText }] : [];
  const asked = calls.map((c) => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments }));
  const next =
    calls.length > 0
      ? calls.map((c, i) => ({ type: 'function_call_output', call_id: c.id, output: i === 0 ? marker : '' }))
      : [{ role: 'user', content: marker }];
  if (options.previousResponseId && answer.id) {
    // The service keeps the earlier turns: only the new one is sent, after the answer it follows.
    const input = calls.length > 0 ? next : marker;
    return withCursor(
      text,
      [
        replaceValue(text, conversation, input, options),
        setProperty(text, conversation, 'previous_response_id', answer.id, options),
      ],
      marker,
    );
  }
  if (conversation.single) {
    // `input` as one string: it becomes the list, its text the first user turn.
    const list = [{ role: 'user', content: conversation.turns[0].text }, ...said, ...asked, ...next];
    return withCursor(text, [replaceValue(text, conversation, list, options)], marker);
  }
  return withCursor(text, [appendToList(text, conversation, [...said, ...asked, ...next], options)], marker);
}

/** The answer (already literal) appended alone, the cursor after it: the conversation panel's write. */
function answerAlone(text: string, conversation: Conversation, answer: ReplyAnswer, options: ReplyOptions): EditResult {
  const said =
    conversation.kind === 'chat'
      ? [{ role: 'assistant', content: answer.text ?? null }]
      : answer.text
        ? [{ role: 'assistant', content: answer.text }]
        : [];
  const written =
    conversation.kind !== 'chat' && conversation.single
      ? replaceValue(text, conversation, [{ role: 'user', content: conversation.turns[0].text }, ...said], options)
      : appendToList(text, conversation, said, options);
  const change = options.cut ? { ...written, text: withCutComment(written.text, options.cut, options.eol) } : written;
  return { ok: true, change, text: apply(text, change), cursor: change.offset + change.text.length };
}

/**
 * The answer as literal text: its text, tool calls and response id are data, written so that the next Send
 * sends them as they are; a `{{$env NAME}}` in them never becomes a reference that Send resolves.
 */
export function literalAnswer(answer: ReplyAnswer): ReplyAnswer {
  return {
    text: answer.text === undefined ? undefined : literalText(answer.text),
    toolCalls: answer.toolCalls.map((c) => ({
      id: literalText(c.id),
      name: literalText(c.name),
      arguments: literalText(c.arguments),
    })),
    ...(answer.id === undefined ? {} : { id: literalText(answer.id) }),
  };
}

/** One indentation step as the editor writes it. */
function unit(f: Formatting): string {
  return f.insertSpaces ? ' '.repeat(f.tabSize) : '\t';
}

/** The whitespace that starts the line holding `offset`, or undefined when something else comes before it there. */
function lineIndent(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** `value` as JSON, indented as the editor would, its later lines starting at `indent`. */
export function pretty(value: unknown, indent: string, f: Formatting): string {
  return JSON.stringify(value, null, unit(f))
    .split('\n')
    .join(f.eol + indent);
}

/** `items` appended to the conversation's list. */
function appendToList(text: string, c: Conversation, items: readonly unknown[], f: Formatting): TextChange {
  return appendItems(text, c, c.turns[c.turns.length - 1], items, f);
}

/**
 * `items` appended to a list, each on its own line at the indentation of the last item (on the same line
 * when the list is written on one line). Nothing already there is touched.
 */
export function appendItems(
  text: string,
  list: Place,
  last: Place | undefined,
  items: readonly unknown[],
  f: Formatting,
): TextChange {
  if (!last) {
    const outer = lineIndent(text, list.offset) ?? leadingSpace(text, list.offset);
    const inner = outer + unit(f);
    const body = items.map((item) => inner + pretty(item, inner, f)).join(`,${f.eol}`);
    return { offset: list.offset, length: list.length, text: `[${f.eol}${body}${f.eol}${outer}]` };
  }
  const indent = lineIndent(text, last.offset);
  const added =
    indent === undefined
      ? items.map((item) => `, ${JSON.stringify(item)}`).join('')
      : items.map((item) => `,${f.eol}${indent}${pretty(item, indent, f)}`).join('');
  return { offset: last.offset + last.length, length: 0, text: added };
}

/** The whitespace at the start of the line holding `offset`. */
function leadingSpace(text: string, offset: number): string {
  const line = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/** A value replaced by `value`, written at the indentation of its line. */
export function replaceValue(text: string, place: Place, value: unknown, f: Formatting): TextChange {
  return { offset: place.offset, length: place.length, text: pretty(value, leadingSpace(text, place.offset), f) };
}

/** A top-level property set: its value replaced, or the property added after the last one. */
function setProperty(text: string, c: Conversation, name: string, value: unknown, f: Formatting): TextChange {
  if (c.previousResponseId) {
    return replaceValue(text, c.previousResponseId, value, f);
  }
  const last = c.lastProperty;
  const indent = lineIndent(text, last.offset);
  const entry = `${JSON.stringify(name)}: ${JSON.stringify(value)}`;
  return {
    offset: last.offset + last.length,
    length: 0,
    text: indent === undefined ? `, ${entry}` : `,${f.eol}${indent}${entry}`,
  };
}

/**
 * Applies the changes (which do not overlap) as one, takes the marker out of the new text and puts the
 * cursor in its place.
 */
function withCursor(text: string, changes: TextChange[], marker: string): EditResult {
  const sorted = [...changes].sort((a, b) => a.offset - b.offset);
  const from = sorted[0].offset;
  const to = sorted[sorted.length - 1].offset + sorted[sorted.length - 1].length;
  let middle = '';
  let at = from;
  for (const ch of sorted) {
    middle += text.slice(at, ch.offset) + ch.text;
    at = ch.offset + ch.length;
  }
  middle += text.slice(at, to);
  const found = middle.indexOf(marker);
  const inserted = middle.slice(0, found) + middle.slice(found + marker.length);
  const change = { offset: from, length: to - from, text: inserted };
  return { ok: true, change, text: apply(text, change), cursor: from + found };
}

/**
 * A string for the cursor's place that the text does not hold; the new turn's content is written with it,
 * then it is taken out again and its place is the cursor.
 */
function cursorMarker(text: string): string {
  let n = 0;
  while (text.includes(`__model_access_cursor_${n}__`)) {
    n++;
  }
  return `__model_access_cursor_${n}__`;
}

/**
 * Whether this answer is already the last assistant turn: followed only by empty turns (Reply run twice),
 * where the cursor goes inside the first of them; or the very last turn ('last': the panel wrote it alone).
 * Undefined when it is not there.
 */
function alreadyAppended(
  text: string,
  conversation: Conversation,
  answerText: string,
  calls: readonly TurnToolCall[],
): number | 'last' | undefined {
  const turns = conversation.turns;
  let i = turns.length - 1;
  while (i >= 0 && isBlank(turns[i]) && turns[i].role !== 'assistant') {
    i--;
  }
  if (i < 0 || turns[i].role !== 'assistant') {
    return undefined;
  }
  // Responses writes text and calls as separate items: the calls follow the text.
  const block = turns.slice(0, i + 1);
  let first = i;
  while (first > 0 && block[first - 1].role === 'assistant') {
    first--;
  }
  const said = block
    .slice(first)
    .map((t) => t.text)
    .join('');
  const ids = block.slice(first).flatMap((t) => t.toolCalls.map((c) => c.id));
  if (said !== answerText || ids.join('\n') !== calls.map((c) => c.id).join('\n')) {
    return undefined;
  }
  if (i === turns.length - 1) {
    return 'last';
  }
  const blank = turns[i + 1];
  const quotes = text.slice(blank.offset, blank.offset + blank.length).lastIndexOf('""');
  return quotes >= 0 ? blank.offset + quotes + 1 : blank.offset;
}

export type DropResult =
  | {
      ok: true;
      change: TextChange;
      text: string;
      /** How many turns go. */
      dropped: number;
    }
  | { ok: false; problem: DisplayText };

/**
 * The last answer (its assistant turns and the empty turns after them) taken out: Regenerate sends what is
 * left. When a turn after the answer holds text, the answer is not the last word: nothing is dropped.
 */
export function dropLastAnswer(text: string, endpoint?: string): DropResult {
  const read = readConversation(text, endpoint);
  if (!read.ok) {
    return read;
  }
  const turns = read.conversation.turns;
  let last = turns.length - 1;
  while (last >= 0 && turns[last].role !== 'assistant' && isBlank(turns[last])) {
    last--;
  }
  if (last < 0 || turns[last].role !== 'assistant') {
    return { ok: false, problem: l10n.t('The conversation does not end with an answer; send it to get one.') };
  }
  let first = last;
  while (first > 0 && turns[first - 1].role === 'assistant') {
    first--;
  }
  if (first === 0) {
    return { ok: false, problem: l10n.t('The conversation starts with the assistant turn; there is nothing to send.') };
  }
  const change = dropFrom(read.conversation, first);
  return {
    ok: true,
    change,
    text: apply(text, change),
    dropped: turns.length - first,
  };
}

/** Every turn from `index` (≥ 1: the first turn always stays) on taken out of the list, the comma before them too. */
function dropFrom(conversation: Conversation, index: number): TextChange {
  const turns = conversation.turns;
  const lastTurn = turns[turns.length - 1];
  const start = turns[index - 1].offset + turns[index - 1].length;
  const end = lastTurn.offset + lastTurn.length;
  return { offset: start, length: end - start, text: '' };
}

/** `text` with the change made. */
export function apply(text: string, change: TextChange): string {
  return text.slice(0, change.offset) + change.text + text.slice(change.offset + change.length);
}

export type ForkResult = { ok: true; text: string; turns: number } | { ok: false; problem: DisplayText };

/**
 * The payload holding the conversation up to the turn under the cursor (all of it when the cursor is in no
 * turn), everything else as written: what Fork Conversation opens as a new payload.
 */
export function forkAt(text: string, cursor: number, endpoint?: string): ForkResult {
  const read = readConversation(text, endpoint);
  if (!read.ok) {
    return read;
  }
  const conversation = read.conversation;
  const turns = conversation.turns;
  const at = turnAt(conversation, cursor);
  // In no turn: all of it (in the last turn, dropping the turns after it drops nothing).
  if (!at || conversation.single) {
    return { ok: true, text, turns: turns.length };
  }
  return { ok: true, text: apply(text, dropFrom(conversation, at.index + 1)), turns: at.index + 1 };
}

export interface LaterTurns {
  /** The user turn the cursor is in (0-based). */
  index: number;
  /** How many turns follow it. */
  later: number;
  /** The edit that drops them. */
  change: TextChange;
}

/**
 * When the cursor is inside a user turn that is not the last one (an earlier turn edited to send again):
 * the turns after it and the edit that drops them. Undefined otherwise.
 */
export function turnsAfterCursor(text: string, cursor: number, endpoint?: string): LaterTurns | undefined {
  const read = readConversation(text, endpoint);
  if (!read.ok) {
    return undefined;
  }
  const conversation = read.conversation;
  const at = turnAt(conversation, cursor);
  const count = conversation.turns.length;
  if (!at || at.role !== 'user' || at.index === count - 1) {
    return undefined;
  }
  return { index: at.index, later: count - at.index - 1, change: dropFrom(conversation, at.index + 1) };
}
