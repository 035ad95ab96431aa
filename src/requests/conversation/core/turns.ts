/**
 * Reading the turns of a conversation payload: the `messages` of a Chat payload, the `input` of a Responses
 * payload (a string is one user turn; a list holds role/content items, function calls and their outputs).
 * Each turn keeps where it is in the text, so edits can cut or add turns and leave the rest as written.
 * Pure; no `vscode` import.
 */
import { getNodeValue, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { l10n } from '../../../common/l10n';
import { clean, type DisplayText } from '../../../common/text';
import { isRecord } from '../../../common/records';
import { toolResultText } from '../../../domain/answer';
import { normalizeEndpoint, readEndpoint } from '../../../domain/payload/endpointHeader';

export type ConversationKind = 'chat' | 'responses';

export interface TurnToolCall {
  id: string;
  name: string;
  /** The arguments as the JSON text the answer gave. */
  arguments: string;
}

export interface Turn {
  /** Position in the list. */
  index: number;
  /** `user`, `assistant`, `system`, `tool`…; a Responses function call is `assistant`, its output `tool`. */
  role: string;
  /** The turn's text (its text parts joined by blank lines). */
  text: string;
  /** Image parts: their URLs (data URLs included). */
  images: string[];
  /** File parts: their file ids (or names when a part has no id). */
  files: string[];
  toolCalls: TurnToolCall[];
  /** A tool result's call id. */
  toolCallId?: string;
  /** Where the turn's JSON value is in the text. */
  offset: number;
  length: number;
  /** Where its `content` value is (absent when it has none). */
  content?: Place & { type: string; last?: Place };
}

/** A stretch of the text. */
export interface Place {
  offset: number;
  length: number;
}

export interface Conversation {
  kind: ConversationKind;
  /** The payload object's last property and the `previous_response_id` value, for edits. */
  lastProperty: Place;
  previousResponseId?: Place;
  key: 'messages' | 'input';
  /** A Responses `input` written as one string (one user turn), not a list. */
  single: boolean;
  turns: Turn[];
  /** The list (or the string) in the text. */
  offset: number;
  length: number;
  /** The payload's object as jsonc-parser read it (the panel's header reads its other properties). */
  root?: Node;
}

export type ConversationRead = { ok: true; conversation: Conversation } | { ok: false; problem: DisplayText };

/**
 * The conversation in `text`. The endpoint is the `// POST` header's when there is one (`endpoint` when the
 * caller knows better), else what the payload holds: `messages` is a Chat payload, `input` a Responses one.
 */
export function readConversation(text: string, endpoint?: string): ConversationRead {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  if (errors.length > 0 || !root) {
    return fail(l10n.t('The payload is not valid JSON; fix it (the Problems view shows where), then try again.'));
  }
  if (root.type !== 'object') {
    return fail(l10n.t('The payload is not a JSON object, so it holds no conversation.'));
  }
  const path = endpoint !== undefined ? normalizeEndpoint(endpoint) : readEndpoint(text);
  const messages = property(root, 'messages');
  const input = property(root, 'input');
  if (path !== undefined && path !== '/v1/chat' && path !== '/v1/responses') {
    return fail(l10n.t('A conversation is sent to /v1/chat or /v1/responses; this payload goes to {0}.', clean(path)));
  }
  if (path === undefined && !messages && !input) {
    return fail(l10n.t('The payload has no "messages" (Chat) or "input" (Responses), so it holds no conversation.'));
  }
  const chat = path === '/v1/chat' || (path === undefined && messages !== undefined);
  const read = chat ? readChat(messages) : readResponses(input);
  if (read.ok) {
    const props = root.children ?? [];
    const last = props[props.length - 1];
    read.conversation.lastProperty = { offset: last.offset, length: last.length };
    const previous = property(root, 'previous_response_id');
    read.conversation.previousResponseId = previous && { offset: previous.offset, length: previous.length };
    read.conversation.root = root;
  }
  return read;
}

/** Where a turn's `content` value is, and the last part of a list. */
function contentPlace(item: Node, key: string): Turn['content'] {
  const node = property(item, key);
  if (!node) {
    return undefined;
  }
  const parts = node.type === 'array' ? (node.children ?? []) : [];
  const last = parts[parts.length - 1];
  return {
    offset: node.offset,
    length: node.length,
    type: node.type,
    last: last && { offset: last.offset, length: last.length },
  };
}

/** Filled in by readConversation once the list was read. */
const NOWHERE: Place = { offset: 0, length: 0 };

function fail(problem: DisplayText): ConversationRead {
  return { ok: false, problem };
}

function property(object: Node, name: string): Node | undefined {
  const prop = object.children?.find((p) => p.children?.[0]?.value === name);
  return prop?.children?.[1];
}

function notAList(key: string, node: Node | undefined): ConversationRead {
  return fail(
    node
      ? l10n.t('"{0}" is not a list of turns; write it as [ {…}, {…} ] and try again.', clean(key))
      : l10n.t('The payload has no "{0}" list; add one and try again.', clean(key)),
  );
}

function notAnObject(key: string, index: number): ConversationRead {
  return fail(
    l10n.t('Turn {0} of "{1}" is not an object; write it as {"role": …, "content": …}.', index + 1, clean(key)),
  );
}

function readChat(list: Node | undefined): ConversationRead {
  if (!list || list.type !== 'array') {
    return notAList('messages', list);
  }
  const turns: Turn[] = [];
  const items = list.children ?? [];
  for (let i = 0; i < items.length; i++) {
    const node = items[i];
    const value: unknown = getNodeValue(node);
    if (!isRecord(value)) {
      return notAnObject('messages', i);
    }
    turns.push({
      ...chatTurn(value),
      index: i,
      offset: node.offset,
      length: node.length,
      content: contentPlace(node, 'content'),
    });
  }
  return {
    ok: true,
    conversation: {
      kind: 'chat',
      key: 'messages',
      single: false,
      turns,
      offset: list.offset,
      length: list.length,
      lastProperty: NOWHERE,
    },
  };
}

type TurnBody = Omit<Turn, 'index' | 'offset' | 'length'>;

function chatTurn(m: Record<string, unknown>): TurnBody {
  const body = content(m.content);
  const toolCalls = Array.isArray(m.tool_calls)
    ? m.tool_calls.filter(isRecord).map((c) => {
        const fn = isRecord(c.function) ? c.function : {};
        return { id: str(c.id), name: str(fn.name), arguments: str(fn.arguments) };
      })
    : [];
  return {
    role: typeof m.role === 'string' ? m.role : 'unknown',
    ...body,
    toolCalls,
    toolCallId: typeof m.tool_call_id === 'string' ? m.tool_call_id : undefined,
  };
}

function readResponses(input: Node | undefined): ConversationRead {
  if (input?.type === 'string') {
    const turn: Turn = {
      index: 0,
      role: 'user',
      text: String(input.value),
      images: [],
      files: [],
      toolCalls: [],
      offset: input.offset,
      length: input.length,
      content: { offset: input.offset, length: input.length, type: 'string' },
    };
    return {
      ok: true,
      conversation: {
        kind: 'responses',
        key: 'input',
        single: true,
        turns: [turn],
        offset: input.offset,
        length: input.length,
        lastProperty: NOWHERE,
      },
    };
  }
  if (!input || input.type !== 'array') {
    return notAList('input', input);
  }
  const turns: Turn[] = [];
  const items = input.children ?? [];
  for (let i = 0; i < items.length; i++) {
    const node = items[i];
    const value: unknown = getNodeValue(node);
    if (!isRecord(value)) {
      return notAnObject('input', i);
    }
    turns.push({
      ...responsesTurn(value),
      index: i,
      offset: node.offset,
      length: node.length,
      content: contentPlace(node, value.type === 'function_call_output' ? 'output' : 'content'),
    });
  }
  return {
    ok: true,
    conversation: {
      kind: 'responses',
      key: 'input',
      single: false,
      turns,
      offset: input.offset,
      length: input.length,
      lastProperty: NOWHERE,
    },
  };
}

function responsesTurn(item: Record<string, unknown>): TurnBody {
  if (item.type === 'function_call') {
    return {
      role: 'assistant',
      text: '',
      images: [],
      files: [],
      toolCalls: [{ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) }],
    };
  }
  if (item.type === 'function_call_output') {
    return {
      role: 'tool',
      text: toolResultText(item),
      images: [],
      files: [],
      toolCalls: [],
      toolCallId: str(item.call_id),
    };
  }
  const role = typeof item.role === 'string' ? item.role : typeof item.type === 'string' ? item.type : 'unknown';
  return { role, ...content(item.content), toolCalls: [] };
}

/** Text, images and files of a `content` written as a string or as a list of parts (either API's part types). */
function content(value: unknown): { text: string; images: string[]; files: string[] } {
  if (typeof value === 'string') {
    return { text: value, images: [], files: [] };
  }
  const texts: string[] = [];
  const images: string[] = [];
  const files: string[] = [];
  for (const part of Array.isArray(value) ? value : []) {
    if (typeof part === 'string') {
      texts.push(part);
    } else if (isRecord(part)) {
      if (typeof part.text === 'string') {
        texts.push(part.text);
      } else if (typeof part.refusal === 'string') {
        texts.push(part.refusal);
      }
      const image = isRecord(part.image_url) ? part.image_url.url : part.image_url;
      if (typeof image === 'string') {
        images.push(image);
      }
      const file =
        part.file_id ?? part.filename ?? (isRecord(part.file) ? (part.file.file_id ?? part.file.filename) : undefined);
      if (typeof file === 'string') {
        files.push(file);
      }
    }
  }
  return { text: texts.join('\n\n'), images, files };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/** The turn whose value holds `offset` (its brackets included), if any. */
export function turnAt(conversation: Conversation, offset: number): Turn | undefined {
  return conversation.turns.find((t) => offset >= t.offset && offset <= t.offset + t.length);
}

/** Whether a turn carries nothing yet (an empty user or tool turn, as Reply leaves it). */
export function isBlank(turn: Turn): boolean {
  return turn.text.trim() === '' && turn.images.length === 0 && turn.files.length === 0 && turn.toolCalls.length === 0;
}
