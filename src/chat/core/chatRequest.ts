/**
 * VS Code chat messages → the `/v1/chat` payload (`{model, messages: [{role, content}], stream: true}`,
 * Chat Completions style). The answer's side is chatAnswer.ts.
 *
 * Pure: message parts are recognised by shape (`value`, `callId`/`name`/`input`, `callId`/`content`,
 * `mimeType`/`data`), the way VS Code's own classes look, so plain objects work in tests and nothing here
 * imports `vscode`. The provider turns the results into `LanguageModelTextPart`/`LanguageModelToolCallPart`.
 */
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
