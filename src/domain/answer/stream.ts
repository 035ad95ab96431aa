/**
 * Reading an answer as it streams (server-sent events of Chat Completions chunks, Responses events, Ollama
 * lines, or any event with a `delta`/`text` string), giving text the moment it arrives and tool calls once
 * their arguments are whole. At any point `answer()` describes what was read so far, the same way
 * `readAnswer` describes a whole body. Pure; no `vscode` import.
 */
import { argumentsText, filled, idLike, isRecord, str } from './fields';
import { blockedStop, isBlockedReason, readError, streamErrorFallback } from './error';
import { readAnswer } from './body';
import { laterUsage, readUsage, usageOf } from './usage';
import type { Answer, AnswerError, AnswerPiece, AnswerShape, TokenUsage, ToolCall } from './types';

type Obj = Record<string, unknown>;

/** One event as the SSE reader gives it. */
export interface AnswerEvent {
  event?: string;
  data: string;
  json?: unknown;
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
  /** Responses: the arguments came whole in a `.done` event (later deltas must not add to them). */
  whole?: boolean;
}

export class AnswerStream {
  private textSoFar = '';
  private sawText = false;
  private readonly pending = new Map<string, PendingCall>();
  private readonly calls: ToolCall[] = [];
  private shapeSeen: AnswerShape = 'unknown';
  private roleSeen = 'assistant';
  private idSeen?: string;
  private modelSeen?: string;
  private usageSeen?: TokenUsage;
  private reasonSeen?: string;
  private errorSeen?: AnswerError;
  private finalBody?: Answer;
  private ended = false;
  /** The last event that ends the answer (a completed/failed response, a finishing chunk, a usage chunk, an error). */
  final: unknown;

  get text(): string {
    return this.textSoFar;
  }

  /** `[DONE]`, a finished response or an error event was read. */
  get done(): boolean {
    return this.ended;
  }

  push(event: AnswerEvent): AnswerPiece[] {
    if (event.data.trim() === '[DONE]') {
      this.ended = true;
      return [];
    }
    const json = event.json;
    if (!isRecord(json)) {
      return [];
    }
    const out: AnswerPiece[] = [];
    const type = str(json.type) ?? event.event;
    if (type === 'error') {
      this.fail(
        readError(isRecord(json.error) || typeof json.error === 'string' ? json.error : json, streamErrorFallback()),
        json,
      );
    } else if (type !== undefined && type.startsWith('response.')) {
      this.shapeSeen = 'responses';
      this.readResponsesEvent(type, json, out);
    } else if (Array.isArray(json.choices)) {
      this.shapeSeen = 'chat';
      this.readChunk(json, json.choices, out);
    } else if (isRecord(json.message)) {
      // Ollama-style lines: `{message: {role, content}, done}` (the counts on the last one); Anthropic's
      // `message_start` (the input count in `message.usage`).
      this.shapeSeen = this.shapeSeen === 'unknown' ? 'message' : this.shapeSeen;
      this.readDelta(json.message, out);
      this.usageSeen = laterUsage(this.usageSeen, usageOf(json));
      if (json.done === true) {
        this.final = json;
      }
    } else if (type === 'message_delta' && isRecord(json.usage)) {
      // Anthropic: the output count comes in the last `message_delta`, after the input count of `message_start`.
      this.usageSeen = laterUsage(this.usageSeen, readUsage(json.usage));
    } else if (json.error !== undefined && json.error !== null) {
      this.fail(readError(json.error, streamErrorFallback()), json);
    } else if (typeof json.delta === 'string') {
      this.shapeSeen = this.shapeSeen === 'unknown' ? 'message' : this.shapeSeen;
      this.grow(json.delta, out);
    } else if (typeof json.text === 'string' && !type?.endsWith('.done')) {
      this.shapeSeen = this.shapeSeen === 'unknown' ? 'message' : this.shapeSeen;
      this.grow(json.text, out);
    }
    return out;
  }

  /** The end of the stream: tool calls that never finished come out now. */
  end(): AnswerPiece[] {
    return this.flush();
  }

  /** What was read so far, as `readAnswer` would describe the whole answer. */
  answer(): Answer {
    const fin = this.finalBody;
    const streamed = this.sawText ? this.textSoFar : undefined;
    const answer: Answer = {
      shape: this.shapeSeen,
      // A stream that sent its text only in the final response (no deltas) still has that text.
      text: streamed ?? fin?.text,
      role: this.roleSeen,
      toolCalls: [...this.calls, ...this.pendingCalls()],
    };
    if (answer.toolCalls.length === 0 && fin) {
      answer.toolCalls = fin.toolCalls;
    }
    const usage = this.usageSeen ?? fin?.usage;
    const id = this.idSeen ?? fin?.id;
    const model = this.modelSeen ?? fin?.model;
    const reason = this.reasonSeen ?? fin?.finishReason;
    const error = this.errorSeen ?? fin?.error;
    if (usage) {
      answer.usage = usage;
    }
    if (id !== undefined) {
      answer.id = id;
    }
    if (model !== undefined) {
      answer.model = model;
    }
    if (reason !== undefined) {
      answer.finishReason = reason;
    }
    if (error) {
      answer.error = error;
    }
    return answer;
  }

  private fail(error: AnswerError, json: unknown): void {
    this.errorSeen = error;
    this.final = json;
  }

  private grow(piece: string, out: AnswerPiece[]): void {
    if (piece === '') {
      return;
    }
    this.sawText = true;
    this.textSoFar += piece;
    out.push({ kind: 'text', text: piece });
  }

  private note(json: Obj): void {
    this.idSeen ??= idLike(json.id);
    this.modelSeen ??= filled(json.model);
  }

  private readChunk(json: Obj, choices: unknown[], out: AnswerPiece[]): void {
    this.note(json);
    if (json.error !== undefined && json.error !== null) {
      this.fail(readError(json.error, streamErrorFallback()), json);
    }
    if (json.usage !== undefined && json.usage !== null) {
      this.usageSeen = readUsage(json.usage) ?? this.usageSeen;
      if (choices.length === 0) {
        this.final = json;
      }
    }
    for (const choice of choices) {
      if (!isRecord(choice) || (typeof choice.index === 'number' && choice.index !== 0)) {
        continue;
      }
      // A non-streamed answer sent as one event carries `message` instead of `delta`.
      const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
      if (delta) {
        this.readDelta(delta, out);
      }
      const reason = filled(choice.finish_reason);
      if (reason !== undefined) {
        this.reasonSeen = reason;
        this.final = json;
        if (isBlockedReason(reason)) {
          this.errorSeen = blockedStop(reason);
        }
        out.push(...this.flush());
      }
    }
  }

  private readDelta(delta: Obj, out: AnswerPiece[]): void {
    const role = filled(delta.role);
    if (role !== undefined) {
      this.roleSeen = role;
    }
    if (typeof delta.content === 'string') {
      this.grow(delta.content, out);
    } else if (Array.isArray(delta.content)) {
      // Each text part comes out as its own piece, as the service sent it.
      for (const part of delta.content) {
        if (isRecord(part) && typeof part.text === 'string') {
          this.grow(part.text, out);
        }
      }
    }
    if (typeof delta.refusal === 'string') {
      this.grow(delta.refusal, out);
    }
    if (!Array.isArray(delta.tool_calls)) {
      return;
    }
    delta.tool_calls.forEach((call: unknown, position: number) => {
      if (!isRecord(call)) {
        return;
      }
      const key = String(typeof call.index === 'number' ? call.index : position);
      const pending = this.pending.get(key) ?? { name: '', args: '' };
      const fn = isRecord(call.function) ? call.function : {};
      const id = filled(call.id);
      if (id !== undefined) {
        pending.id = id;
      }
      if (typeof fn.name === 'string') {
        pending.name += fn.name;
      }
      pending.args += argumentsText(fn.arguments);
      this.pending.set(key, pending);
    });
  }

  private readResponsesEvent(type: string, json: Obj, out: AnswerPiece[]): void {
    const response = isRecord(json.response) ? json.response : undefined;
    if (response) {
      this.note(response);
    }
    const item = isRecord(json.item) ? json.item : undefined;
    const key = String(idLike(json.item_id) ?? idLike(item?.id) ?? idLike(json.output_index) ?? '0');
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof json.delta === 'string') {
          this.grow(json.delta, out);
        }
        return;
      case 'response.output_item.added':
        if (item?.type === 'function_call') {
          this.pending.set(key, {
            id: filled(item.call_id) ?? filled(item.id),
            name: str(item.name) ?? '',
            args: argumentsText(item.arguments),
          });
        }
        return;
      case 'response.function_call_arguments.delta': {
        const pending = this.pending.get(key) ?? { name: '', args: '' };
        if (!pending.whole && typeof json.delta === 'string') {
          pending.args += json.delta;
        }
        this.pending.set(key, pending);
        return;
      }
      case 'response.function_call_arguments.done': {
        const pending = this.pending.get(key) ?? { name: '', args: '' };
        if (typeof json.arguments === 'string') {
          pending.args = json.arguments;
          pending.whole = true;
        }
        this.pending.set(key, pending);
        return;
      }
      case 'response.output_item.done':
        if (item?.type === 'function_call') {
          const pending = this.pending.get(key) ?? { name: '', args: '' };
          this.pending.delete(key);
          this.calls.push(
            this.emit(out, {
              id: filled(item.call_id) ?? pending.id ?? filled(item.id) ?? `call_${this.calls.length}`,
              name: str(item.name) ?? pending.name,
              arguments: typeof item.arguments === 'string' ? item.arguments : pending.args,
            }),
          );
        }
        return;
      case 'response.completed':
      case 'response.failed':
      case 'response.incomplete':
        this.final = json;
        this.ended = true;
        if (response) {
          this.finalBody = readAnswer(response);
          this.usageSeen = usageOf(response) ?? this.usageSeen;
          this.reasonSeen = filled(response.status) ?? this.reasonSeen;
          if (this.finalBody.error) {
            this.errorSeen = this.finalBody.error;
          }
        }
        if (type === 'response.failed' && !this.errorSeen) {
          this.errorSeen = readError(undefined, streamErrorFallback());
        }
        out.push(...this.flush());
        return;
      default:
        // created, in_progress, content_part.added, output_text.done…: no text of their own (ids noted above).
        return;
    }
  }

  private emit(out: AnswerPiece[], call: ToolCall): ToolCall {
    out.push({ kind: 'toolCall', call });
    return call;
  }

  private pendingCalls(): ToolCall[] {
    return [...this.pending.entries()]
      .sort((a, b) => Number(a[0]) - Number(b[0]) || a[0].localeCompare(b[0]))
      .map(([key, call]) => ({ id: call.id ?? `call_${key}`, name: call.name, arguments: call.args }));
  }

  private flush(): AnswerPiece[] {
    const out: AnswerPiece[] = [];
    for (const call of this.pendingCalls()) {
      this.calls.push(this.emit(out, call));
    }
    this.pending.clear();
    return out;
  }
}
