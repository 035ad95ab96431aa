/**
 * The edits the conversation panel makes to its payload, each one text change (one undo step): a new user
 * message, an earlier user turn edited (the turns after it dropped), the model and the common parameters of
 * the header. Like the Reply edits (../../core/conversation/edits.ts, whose helpers write every new value
 * here), each touches only the text it changes: comments, `// POST`, `// @env` and `{{…}}` stay as written.
 * Pure; no `vscode` import.
 */
import { getNodeValue, parseTree, type Node } from 'jsonc-parser';
import { l10n } from '../../../common/l10n';
import { isRecord } from '../../../common/records';
import type { DisplayText } from '../../../common/text';
import { apply, appendItems, pretty, replaceValue, type Formatting, type TextChange } from './edits';
import { readConversation, type Conversation, type Turn } from './turns';
import { INPUT_PLACEHOLDER } from '../../payloads/core/templates';
import { literalOf, literalText } from '../../../domain/payload/variables';

export type PanelEdit = { ok: true; change: TextChange; text: string } | { ok: false; problem: DisplayText };

/** The header's parameters, by the names the panel's page uses. */
export type ParameterName = 'model' | 'temperature' | 'maxTokens' | 'stream' | 'system';

/** The property each parameter is written as, per endpoint kind (`system` is a turn in Chat). */
const PROPERTY: Record<Exclude<ParameterName, 'system'>, { chat: string; responses: string }> = {
  model: { chat: 'model', responses: 'model' },
  temperature: { chat: 'temperature', responses: 'temperature' },
  maxTokens: { chat: 'max_tokens', responses: 'max_output_tokens' },
  stream: { chat: 'stream', responses: 'stream' },
};

/** The header's values as the payload holds them (undefined: not set). */
export interface PanelParameters {
  model?: string;
  temperature?: number;
  maxTokens?: number;
  stream: boolean;
  system?: string;
}

/** What the header shows for a payload (its object's properties, read from the conversation's tree). */
export function readParameters(conversation: Conversation): PanelParameters {
  const kind = conversation.kind;
  const value = (name: string): unknown => {
    const prop = conversation.root?.children?.find((p) => p.children?.[0]?.value === name);
    const node = prop?.children?.[1];
    return node && (node.type === 'string' || node.type === 'number' || node.type === 'boolean')
      ? node.value
      : undefined;
  };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const first = conversation.turns[0];
  const instructions = value('instructions');
  const system =
    kind === 'chat'
      ? first && (first.role === 'system' || first.role === 'developer')
        ? first.text
        : undefined
      : typeof instructions === 'string'
        ? instructions
        : undefined;
  const model = value('model');
  return {
    // An id written literally (`\{{` escapes) reads as the id it sends, so the picker finds it in the list.
    model: typeof model === 'string' ? (literalOf(model) ?? model) : undefined,
    temperature: num(value(PROPERTY.temperature[kind])),
    maxTokens: num(value(PROPERTY.maxTokens[kind])),
    stream: value('stream') === true,
    system,
  };
}

/** Whether a user turn still holds nothing of the person's own (empty, or New Request's placeholder). */
export function unwritten(turn: Turn): boolean {
  const text = turn.text.trim();
  return (
    turn.role === 'user' &&
    (text === '' || text === INPUT_PLACEHOLDER) &&
    turn.images.length === 0 &&
    turn.files.length === 0
  );
}

/**
 * The person's message as the next user turn: written into the last turn when that is a user turn nobody
 * wrote yet (Reply's empty turn, New Request's placeholder), else appended. The text is the person's words,
 * written literally (`\{{` escapes) so Send sends it as typed: "And in {{French}}?" is not a variable reference.
 */
export function addUserMessage(text: string, typed: string, f: Formatting): PanelEdit {
  const message = literalText(typed);
  const read = readConversation(text);
  if (!read.ok) {
    return read;
  }
  const c = read.conversation;
  const last = c.turns[c.turns.length - 1];
  if (last && unwritten(last) && last.content) {
    if (c.single) {
      return done(text, replaceValue(text, last.content, message, f));
    }
    return done(text, replaceValue(text, last.content, contentWithText(text, last, message), f));
  }
  if (c.single) {
    const list = [
      { role: 'user', content: c.turns[0].text },
      { role: 'user', content: message },
    ];
    return done(text, replaceValue(text, c, list, f));
  }
  return done(text, appendItems(text, c, last, [{ role: 'user', content: message }], f));
}

/**
 * A user turn's text replaced and every turn after it taken out (Edit and resend): one change, so one Undo
 * brings the turn and the later ones back. The new text is written literally, as the message box's is.
 */
export function editUserTurn(text: string, index: number, typed: string, f: Formatting): PanelEdit {
  const message = literalText(typed);
  const read = readConversation(text);
  if (!read.ok) {
    return read;
  }
  const c = read.conversation;
  const turn = c.turns[index];
  if (!turn || turn.role !== 'user' || !turn.content) {
    return { ok: false, problem: l10n.t('Turn {0} is not a user turn the panel can edit.', index + 1) };
  }
  const replaced = c.single
    ? replaceValue(text, turn.content, message, f)
    : replaceValue(text, turn.content, contentWithText(text, turn, message), f);
  const lastTurn = c.turns[c.turns.length - 1];
  const dropStart = turn.offset + turn.length;
  const dropEnd = lastTurn.offset + lastTurn.length;
  // The content lies inside the turn, before the dropped stretch: the two changes join into one.
  const change: TextChange = {
    offset: replaced.offset,
    length: dropEnd - replaced.offset,
    text: replaced.text + text.slice(replaced.offset + replaced.length, dropStart),
  };
  return done(text, change);
}

/**
 * A turn's new content: a string as a string; a list of parts keeps its parts other than text (images,
 * files) after the new text part, of the type the list used.
 */
function contentWithText(text: string, turn: Turn, message: string): unknown {
  if (!turn.content || turn.content.type !== 'array') {
    return message;
  }
  const root = parseTree(text.slice(turn.content.offset, turn.content.offset + turn.content.length));
  const parts: unknown[] = root ? (getNodeValue(root) as unknown[]) : [];
  const textType = parts.find((p) => isRecord(p) && typeof p.text === 'string');
  const others = parts.filter((p) => !(isRecord(p) && typeof p.text === 'string') && typeof p !== 'string');
  const type = isRecord(textType) && typeof textType.type === 'string' ? textType.type : 'text';
  return others.length === 0 ? message : [{ type, text: message }, ...others];
}

/**
 * A header parameter set (a value) or taken out (undefined). The system prompt is the first turn of a Chat
 * payload (added, rewritten or removed) and `instructions` of a Responses one.
 */
export function setParameter(
  text: string,
  name: ParameterName,
  value: string | number | boolean | undefined,
  f: Formatting,
): PanelEdit {
  const read = readConversation(text);
  if (!read.ok) {
    return read;
  }
  const c = read.conversation;
  if (name === 'system') {
    const prompt = typeof value === 'string' && value !== '' ? value : undefined;
    if (c.kind === 'chat') {
      return setSystemTurn(text, c, prompt, f);
    }
    return setTopLevel(text, 'instructions', prompt, f);
  }
  if (name === 'model' && typeof value === 'string') {
    // The model the payload names, picked again, stays as written (a `{{variable}}` of the person's own
    // included); another is a listed id, registry text, written literally: sent as listed, never resolved.
    if (value === readParameters(c).model) {
      return { ok: true, change: { offset: 0, length: 0, text: '' }, text };
    }
    return setTopLevel(text, PROPERTY.model[c.kind], literalText(value), f);
  }
  return setTopLevel(text, PROPERTY[name][c.kind], value, f);
}

function setSystemTurn(text: string, c: Conversation, prompt: string | undefined, f: Formatting): PanelEdit {
  const first = c.turns[0];
  const isSystem = first !== undefined && (first.role === 'system' || first.role === 'developer');
  if (isSystem && first.content) {
    if (prompt === undefined) {
      // The turn and the comma after it (or, as the only turn, the turn alone).
      const next = c.turns[1];
      const end = next ? next.offset : first.offset + first.length;
      return done(text, { offset: first.offset, length: end - first.offset, text: '' });
    }
    return done(text, replaceValue(text, first.content, prompt, f));
  }
  if (prompt === undefined) {
    return { ok: true, change: { offset: 0, length: 0, text: '' }, text };
  }
  if (!first) {
    return done(text, appendItems(text, c, undefined, [{ role: 'system', content: prompt }], f));
  }
  // Before the first turn, at its indentation (on its line when the list is written on one line).
  const lineStart = text.lastIndexOf('\n', first.offset - 1) + 1;
  const before = text.slice(lineStart, first.offset);
  const own = /^[ \t]*$/.test(before);
  const value = pretty({ role: 'system', content: prompt }, own ? before : '', f);
  return done(text, {
    offset: first.offset,
    length: 0,
    text: own ? `${value},${f.eol}${before}` : `${value}, `,
  });
}

/** A top-level property of the payload set, added after the last one, or removed with its comma. */
function setTopLevel(text: string, name: string, value: unknown, f: Formatting): PanelEdit {
  const root = parseTree(text);
  if (!root || root.type !== 'object') {
    return { ok: false, problem: l10n.t('The payload is not a JSON object.') };
  }
  const props = root.children ?? [];
  const index = props.findIndex((p) => p.children?.[0]?.value === name);
  const prop: Node | undefined = props[index];
  if (value === undefined) {
    if (!prop) {
      return { ok: true, change: { offset: 0, length: 0, text: '' }, text };
    }
    // With the comma before it (after the previous property), or after it when it is the first.
    const prev = props[index - 1];
    const next = props[index + 1];
    const start = prev ? prev.offset + prev.length : prop.offset;
    const end = prev ? prop.offset + prop.length : next ? next.offset : prop.offset + prop.length;
    return done(text, { offset: start, length: end - start, text: '' });
  }
  const valueNode = prop?.children?.[1];
  if (valueNode) {
    return done(text, replaceValue(text, valueNode, value, f));
  }
  const last = props[props.length - 1];
  const entry = `${JSON.stringify(name)}: ${JSON.stringify(value)}`;
  if (!last) {
    const inner = f.insertSpaces ? ' '.repeat(f.tabSize) : '\t';
    return done(text, { offset: root.offset, length: root.length, text: `{${f.eol}${inner}${entry}${f.eol}}` });
  }
  const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
  const indent = text.slice(lineStart, last.offset);
  return done(text, {
    offset: last.offset + last.length,
    length: 0,
    text: /^[ \t]*$/.test(indent) ? `,${f.eol}${indent}${entry}` : `, ${entry}`,
  });
}

function done(text: string, change: TextChange): PanelEdit {
  return { ok: true, change, text: apply(text, change) };
}
