/**
 * VS Code chat messages → the `/v1/chat` payload (`{model, messages: [{role, content}], stream: true}`,
 * Chat Completions style), and the streamed `chat.completion.chunk`s → text and tool-call parts.
 *
 * Pure: message parts are recognised by shape (`value`, `callId`/`name`/`input`, `callId`/`content`,
 * `mimeType`/`data`), the way VS Code's own classes look, so plain objects work in tests and nothing here
 * imports `vscode`. The provider turns the results into `LanguageModelTextPart`/`LanguageModelToolCallPart`.
 */
import { l10n } from '../../common/plainL10n';
import { isRecord } from '../../common/records';

/** `vscode.LanguageModelChatMessageRole` values (System is 3 in the proposed API; Copilot sends it). */
export const MessageRole = { User: 1, Assistant: 2, System: 3 } as const;
/** `vscode.LanguageModelChatToolMode` values. */
export const ToolMode = { Auto: 1, Required: 2 } as const;

/** Structurally a `vscode.LanguageModelChatRequestMessage`. */
export interface RequestMessageLike {
  readonly role: number;
  readonly content: ReadonlyArray<unknown>;
  readonly name?: string | undefined;
}

export interface ToolLike {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object | undefined;
}

/** One part of a request message, by what it is. */
export type InputPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; text: string }
  | { kind: 'data'; mimeType: string; data: Uint8Array }
  | { kind: 'unknown' };

type Obj = Record<string, unknown>;

const utf8 = new TextDecoder('utf-8', { fatal: false });

function isTextual(mimeType: string): boolean {
  return /^text\/|[/+]json\b|^application\/(xml|javascript|x-yaml|yaml)\b/i.test(mimeType);
}

/** Text of a tool result's content: text parts, prompt-tsx values and textual data parts. */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) {
    return typeof content === 'string' ? content : '';
  }
  const out: string[] = [];
  for (const item of content) {
    const part = classifyPart(item);
    if (part.kind === 'text') {
      out.push(part.text);
    } else if (part.kind === 'data') {
      out.push(
        isTextual(part.mimeType)
          ? utf8.decode(part.data)
          : `[${part.mimeType} data, ${part.data.byteLength} byte${part.data.byteLength === 1 ? '' : 's'}]`,
      );
    } else if (isRecord(item) && 'value' in item) {
      // LanguageModelPromptTsxPart: an opaque tree; its JSON is the best plain-text rendering we have.
      out.push(safeJson(item.value));
    }
  }
  return out.join('');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** Tells the parts of `LanguageModelChatRequestMessage.content` apart by their shape. */
export function classifyPart(part: unknown): InputPart {
  if (typeof part === 'string') {
    return { kind: 'text', text: part };
  }
  if (!isRecord(part)) {
    return { kind: 'unknown' };
  }
  if (typeof part.callId === 'string') {
    if (typeof part.name === 'string' && 'input' in part) {
      return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
    }
    if ('content' in part) {
      return { kind: 'toolResult', callId: part.callId, text: resultText(part.content) };
    }
  }
  if (typeof part.value === 'string') {
    return { kind: 'text', text: part.value };
  }
  if (typeof part.mimeType === 'string' && part.data instanceof Uint8Array) {
    return { kind: 'data', mimeType: part.mimeType, data: part.data };
  }
  return { kind: 'unknown' };
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface PayloadToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface PayloadMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: PayloadToolCall[];
  tool_call_id?: string;
}

export interface ChatPayload {
  model: string;
  messages: PayloadMessage[];
  stream: true;
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: object } }>;
  tool_choice?: 'auto' | 'required';
  [option: string]: unknown;
}

export interface PayloadOptions {
  tools?: readonly ToolLike[];
  toolMode?: number;
  /** `LanguageModelChatRequestOptions.modelOptions`: passed through (temperature, max_tokens, …). */
  modelOptions?: { readonly [name: string]: unknown };
  /** The model advertises tool calling: tools are sent and tool parts keep their structure. */
  supportsTools: boolean;
  /** The model advertises image input: image data parts are sent as `image_url` data URLs. */
  supportsImages: boolean;
}

/** Keys of the payload the provider owns; `modelOptions` cannot replace them. */
const RESERVED = new Set(['model', 'messages', 'stream', 'tools', 'tool_choice']);

function roleName(role: number): 'system' | 'user' | 'assistant' {
  if (role === MessageRole.Assistant) {
    return 'assistant';
  }
  if (role === MessageRole.System) {
    return 'system';
  }
  return 'user';
}

function toBase64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** Plain-text rendering of a tool call, for a model that does not take structured tool calls. */
function toolCallText(name: string, input: unknown): string {
  return `[called tool ${name} with ${safeJson(input ?? {})}]`;
}

function argumentsText(input: unknown): string {
  return safeJson(input ?? {}) || '{}';
}

/**
 * Converts VS Code's request messages to `/v1/chat` messages. Text parts join into one `content` string;
 * an assistant's tool calls become `tool_calls`; tool results become `role: "tool"` messages placed right
 * after the assistant turn that asked for them (before the rest of that user message), as Chat Completions
 * requires. Without tool support both are rendered as text, so the conversation keeps its meaning.
 */
export function toPayloadMessages(
  messages: readonly RequestMessageLike[],
  options: Pick<PayloadOptions, 'supportsTools' | 'supportsImages'>,
): PayloadMessage[] {
  const out: PayloadMessage[] = [];
  for (const message of messages) {
    const role = roleName(message.role);
    const texts: string[] = [];
    const images: ContentPart[] = [];
    const toolCalls: PayloadToolCall[] = [];
    const toolResults: PayloadMessage[] = [];
    for (const raw of message.content) {
      const part = classifyPart(raw);
      switch (part.kind) {
        case 'text':
          texts.push(part.text);
          break;
        case 'toolCall':
          if (options.supportsTools && role === 'assistant') {
            toolCalls.push({
              id: part.callId,
              type: 'function',
              function: { name: part.name, arguments: argumentsText(part.input) },
            });
          } else {
            texts.push(toolCallText(part.name, part.input));
          }
          break;
        case 'toolResult':
          if (options.supportsTools) {
            toolResults.push({ role: 'tool', tool_call_id: part.callId, content: part.text });
          } else {
            texts.push(`[tool result ${part.callId}] ${part.text}`);
          }
          break;
        case 'data':
          if (options.supportsImages && role === 'user' && /^image\//i.test(part.mimeType)) {
            images.push({
              type: 'image_url',
              image_url: { url: `data:${part.mimeType};base64,${toBase64(part.data)}` },
            });
          } else if (isTextual(part.mimeType) && !/^cache_control$/i.test(part.mimeType)) {
            texts.push(utf8.decode(part.data));
          }
          // Other data (cache hints, unsupported images, binary) has no place in this payload.
          break;
        default:
          break;
      }
    }
    out.push(...toolResults);
    const text = texts.join('');
    const name = message.name ? { name: message.name } : {};
    if (toolCalls.length > 0) {
      out.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls, ...name });
    } else if (images.length > 0) {
      out.push({ role, content: [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...images], ...name });
    } else if (text !== '' || toolResults.length === 0) {
      out.push({ role, content: text, ...name });
    }
  }
  return out;
}

/** The whole `/v1/chat` request body for one VS Code chat request. */
export function toChatPayload(
  model: string,
  messages: readonly RequestMessageLike[],
  options: PayloadOptions,
): ChatPayload {
  const payload: ChatPayload = { model, messages: toPayloadMessages(messages, options), stream: true };
  for (const [key, value] of Object.entries(options.modelOptions ?? {})) {
    if (!RESERVED.has(key) && value !== undefined) {
      payload[key] = value;
    }
  }
  if (options.supportsTools && options.tools && options.tools.length > 0) {
    payload.tools = options.tools.map((t) => ({
      type: 'function' as const,
      function: {
        name: t.name,
        description: t.description,
        parameters: t.inputSchema ?? { type: 'object', properties: {} },
      },
    }));
    if (options.toolMode === ToolMode.Required) {
      payload.tool_choice = 'required';
    }
  }
  return payload;
}

/** A streamed answer part, before it becomes a `LanguageModelTextPart` / `LanguageModelToolCallPart`. */
export type OutputPart =
  { kind: 'text'; text: string } | { kind: 'toolCall'; callId: string; name: string; input: object };

/** An error reported inside the answer (an error event, a content-filter stop). */
export class ChatStreamError extends Error {
  override readonly name = 'ChatStreamError';
  constructor(
    readonly kind: 'blocked' | 'error',
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const BLOCKED = /content[-_ ]?(filter|policy|management)|safety|blocked|moderation|responsible[-_ ]?ai|guardrail/i;

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** An `error` member of a chunk (`{error: {message, code}}`, `{error: "…"}`) as a ChatStreamError. */
function chunkError(error: unknown): ChatStreamError {
  if (typeof error === 'string') {
    return new ChatStreamError(BLOCKED.test(error) ? 'blocked' : 'error', error);
  }
  const e = isRecord(error) ? error : {};
  const code = text(e.code) ?? (typeof e.code === 'number' ? String(e.code) : undefined);
  const type = text(e.type);
  const message = text(e.message) ?? l10n.t('The service reported an error in the middle of its answer.');
  const blocked = [code, type].some((c) => c !== undefined && BLOCKED.test(c));
  return new ChatStreamError(blocked ? 'blocked' : 'error', message, code ?? type);
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
}

/**
 * Reads `chat.completion.chunk`s one at a time: `delta.content` comes out at once as text; tool calls
 * are assembled from their argument fragments and come out whole when the choice finishes (or at the end).
 * A `finish_reason` of `content_filter` and an `error` chunk throw a ChatStreamError.
 */
export class ChatStreamReader {
  private readonly calls = new Map<number, PendingCall>();
  /** The last `finish_reason` seen. */
  finishReason: string | undefined;
  /** `usage` from the final chunk, when the service sent one. */
  usage: unknown;

  push(chunk: unknown): OutputPart[] {
    if (!isRecord(chunk)) {
      return [];
    }
    if (chunk.error !== undefined && chunk.error !== null) {
      throw chunkError(chunk.error);
    }
    if (chunk.usage !== undefined && chunk.usage !== null) {
      this.usage = chunk.usage;
    }
    const out: OutputPart[] = [];
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isRecord(choice) || (typeof choice.index === 'number' && choice.index !== 0)) {
        continue;
      }
      // A non-streamed answer sent as one event carries `message` instead of `delta`.
      const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
      if (delta) {
        this.readDelta(delta, out);
      }
      if (typeof choice.finish_reason === 'string') {
        this.finishReason = choice.finish_reason;
        if (BLOCKED.test(choice.finish_reason)) {
          throw new ChatStreamError(
            'blocked',
            l10n.t('The service stopped the answer: its content filter blocked it.'),
            choice.finish_reason,
          );
        }
        out.push(...this.flushCalls());
      }
    }
    // Ollama-style lines: `{message: {content}, done}`.
    if (choices.length === 0 && isRecord(chunk.message)) {
      this.readDelta(chunk.message, out);
    }
    return out;
  }

  private readDelta(delta: Obj, out: OutputPart[]): void {
    if (typeof delta.content === 'string' && delta.content !== '') {
      out.push({ kind: 'text', text: delta.content });
    } else if (Array.isArray(delta.content)) {
      for (const c of delta.content) {
        if (isRecord(c) && typeof c.text === 'string' && c.text !== '') {
          out.push({ kind: 'text', text: c.text });
        }
      }
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      out.push({ kind: 'text', text: delta.refusal });
    }
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((call: unknown, position: number) => {
        if (!isRecord(call)) {
          return;
        }
        const index = typeof call.index === 'number' ? call.index : position;
        const pending = this.calls.get(index) ?? { name: '', args: '' };
        const fn = isRecord(call.function) ? call.function : {};
        if (typeof call.id === 'string' && call.id !== '') {
          pending.id = call.id;
        }
        if (typeof fn.name === 'string') {
          pending.name += fn.name;
        }
        if (typeof fn.arguments === 'string') {
          pending.args += fn.arguments;
        } else if (isRecord(fn.arguments)) {
          pending.args += JSON.stringify(fn.arguments);
        }
        this.calls.set(index, pending);
      });
    }
  }

  private flushCalls(): OutputPart[] {
    const out: OutputPart[] = [];
    for (const [index, call] of [...this.calls.entries()].sort((a, b) => a[0] - b[0])) {
      let input: unknown = {};
      if (call.args.trim() !== '') {
        try {
          input = JSON.parse(call.args);
        } catch {
          throw new ChatStreamError(
            'error',
            l10n.t('The model called the tool "{0}" with arguments that are not valid JSON.', call.name),
          );
        }
      }
      out.push({
        kind: 'toolCall',
        callId: call.id ?? `call_${index}`,
        name: call.name,
        input: isRecord(input) && !Array.isArray(input) ? input : { value: input },
      });
    }
    this.calls.clear();
    return out;
  }

  /** The end of the stream: tool calls whose choice never finished come out now. */
  end(): OutputPart[] {
    return this.flushCalls();
  }
}

/** A `chat.completion` JSON answer (a service that ignored `stream: true`) as parts. */
export function readCompletion(json: unknown): OutputPart[] {
  const reader = new ChatStreamReader();
  return [...reader.push(json), ...reader.end()];
}
