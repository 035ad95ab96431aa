/**
 * TEMPORARY stand-in for the shared answer reader that lands on main with the layer reshape (same API, fewer
 * shapes). The merge of main replaces this file with the real reader; nothing here is meant to stay.
 */
import { isRecord } from '../../common/records';

export type AnswerShape = 'chat' | 'responses' | 'embeddings' | 'message' | 'text' | 'unknown';
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}
export interface TokenUsage {
  input?: number;
  output?: number;
  total?: number;
}
export interface AnswerError {
  message: string;
  code?: string;
  blocked: boolean;
}
export interface Answer {
  shape: AnswerShape;
  text: string | undefined;
  role: string;
  toolCalls: ToolCall[];
  usage?: TokenUsage;
  id?: string;
  model?: string;
  finishReason?: string;
  error?: AnswerError;
  vectors?: number[][];
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

function usageOf(body: Record<string, unknown>): TokenUsage | undefined {
  const u = body.usage;
  if (!isRecord(u)) {
    return undefined;
  }
  return {
    input: count(u.input_tokens) ?? count(u.prompt_tokens),
    output: count(u.output_tokens) ?? count(u.completion_tokens),
    total: count(u.total_tokens),
  };
}

export function readAnswer(body: unknown): Answer {
  if (typeof body === 'string') {
    return { shape: 'text', text: body, role: 'assistant', toolCalls: [] };
  }
  const none: Answer = { shape: 'unknown', text: undefined, role: 'assistant', toolCalls: [] };
  if (!isRecord(body)) {
    return none;
  }
  const base = {
    role: 'assistant',
    toolCalls: [] as ToolCall[],
    usage: usageOf(body),
    model: typeof body.model === 'string' ? body.model : undefined,
  };
  if (isRecord(body.error)) {
    return { ...none, ...base, error: { message: String(body.error.message ?? ''), blocked: false } };
  }
  if (Array.isArray(body.data) && body.data.every((d) => isRecord(d) && Array.isArray(d.embedding))) {
    return {
      ...base,
      shape: 'embeddings',
      text: undefined,
      vectors: body.data.map((d) => ((d as Record<string, unknown>).embedding as unknown[]).map(Number)),
    };
  }
  if (Array.isArray(body.choices)) {
    const first = body.choices[0];
    const message = isRecord(first) && isRecord(first.message) ? first.message : undefined;
    const toolCalls = Array.isArray(message?.tool_calls)
      ? message.tool_calls.filter(isRecord).map((c) => ({
          id: String(c.id ?? ''),
          name: String(isRecord(c.function) ? c.function.name : ''),
          arguments: String(isRecord(c.function) ? c.function.arguments : ''),
        }))
      : [];
    return {
      ...base,
      shape: 'chat',
      text: typeof message?.content === 'string' ? message.content : undefined,
      toolCalls,
      finishReason: isRecord(first) && typeof first.finish_reason === 'string' ? first.finish_reason : undefined,
    };
  }
  if (typeof body.output_text === 'string' || Array.isArray(body.output)) {
    const parts: string[] = [];
    for (const item of Array.isArray(body.output) ? body.output : []) {
      for (const c of isRecord(item) && Array.isArray(item.content) ? item.content : []) {
        if (isRecord(c) && typeof c.text === 'string') {
          parts.push(c.text);
        }
      }
    }
    return {
      ...base,
      shape: 'responses',
      text: typeof body.output_text === 'string' ? body.output_text : parts.join(''),
      finishReason: typeof body.status === 'string' ? body.status : undefined,
    };
  }
  if (typeof body.message === 'string' || typeof body.text === 'string') {
    return { ...base, shape: 'message', text: String(body.message ?? body.text) };
  }
  return { ...none, ...base };
}

export function describeShapes(): string {
  return 'choices[].message.content, output[] / output_text, message, text, data[].embedding';
}

export type AnswerPiece = { kind: 'text'; text: string } | { kind: 'toolCall'; call: ToolCall };

/** Stand-in: Chat deltas and Responses text deltas (with usage), nothing more. */
export class AnswerStream {
  text = '';
  done = false;
  private usage?: TokenUsage;
  push(event: { event?: string; data: string; json?: unknown }): AnswerPiece[] {
    if (event.data.trim() === '[DONE]') {
      this.done = true;
      return [];
    }
    const j = event.json;
    if (!isRecord(j)) {
      return [];
    }
    this.usage = usageOf(j) ?? (isRecord(j.response) ? usageOf(j.response) : undefined) ?? this.usage;
    let piece: string | undefined;
    if (Array.isArray(j.choices) && isRecord(j.choices[0]) && isRecord(j.choices[0].delta)) {
      const c = j.choices[0].delta.content;
      piece = typeof c === 'string' ? c : undefined;
    } else if (j.type === 'response.output_text.delta' && typeof j.delta === 'string') {
      piece = j.delta;
    } else if (j.type === 'response.completed') {
      this.done = true;
    }
    if (piece) {
      this.text += piece;
      return [{ kind: 'text', text: piece }];
    }
    return [];
  }
  end(): AnswerPiece[] {
    return [];
  }
  answer(): Answer {
    return { shape: 'unknown', text: this.text, role: 'assistant', toolCalls: [], usage: this.usage };
  }
}
