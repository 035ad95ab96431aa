/**
 * The chat provider's side of an answer: the shared answer reader's pieces as the parts VS Code's chat takes
 * (text, tool calls with parsed input), and its errors as ChatStreamError, thrown the moment they are read so
 * that VS Code's chat shows them. What the answer says is read by src/domain/answer only. Pure.
 */
import { l10n } from '../../common/plainL10n';
import { isRecord } from '../../common/records';
import { displayText } from '../../common/text';
import { AnswerStream, type AnswerError, type AnswerPiece, type TokenUsage, type ToolCall } from '../../domain/answer';

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

function toolCallPart(call: ToolCall): OutputPart {
  let input: unknown = {};
  if (call.arguments.trim() !== '') {
    try {
      input = JSON.parse(call.arguments);
    } catch {
      throw new ChatStreamError(
        'error',
        l10n.t('The model called the tool "{0}" with arguments that are not valid JSON.', call.name),
      );
    }
  }
  return {
    kind: 'toolCall',
    callId: call.id,
    name: call.name,
    input: isRecord(input) ? input : { value: input },
  };
}

/**
 * Only the tool calls for tools VS Code offered with the request go on: a call to any other name (a model led
 * astray, a hostile service) would ask VS Code to run a tool the person never put in this chat. It becomes a
 * line of text saying what was asked and left out. `offered` holds the names sent (empty: none were sent).
 */
export function offeredCallsOnly(part: OutputPart, offered: ReadonlySet<string>): OutputPart {
  if (part.kind !== 'toolCall' || offered.has(part.name)) {
    return part;
  }
  return {
    kind: 'text',
    text: `\n\n${l10n.t('(The model asked for a tool that was not offered, "{0}"; the call was left out.)', displayText(part.name, 80))}\n\n`,
  };
}

function toParts(pieces: AnswerPiece[]): OutputPart[] {
  return pieces.map((p) => (p.kind === 'text' ? { kind: 'text', text: p.text } : toolCallPart(p.call)));
}

/**
 * Reads the answer's JSON events one at a time: text comes out at once; tool calls come out whole when their
 * choice finishes (or at the end). A content-filter stop and an error event throw a ChatStreamError.
 */
export class ChatStreamReader {
  private readonly stream = new AnswerStream();
  private errorSeen: AnswerError | undefined;

  /** The last `finish_reason` (or response status) seen. */
  get finishReason(): string | undefined {
    return this.stream.answer().finishReason;
  }

  /** The token usage the answer reported, when it did. */
  get usage(): TokenUsage | undefined {
    return this.stream.answer().usage;
  }

  push(json: unknown): OutputPart[] {
    const pieces = this.stream.push({ data: '', json });
    const error = this.stream.answer().error;
    if (error && error !== this.errorSeen) {
      this.errorSeen = error;
      throw new ChatStreamError(error.blocked ? 'blocked' : 'error', error.message, error.code);
    }
    return toParts(pieces);
  }

  /** The end of the stream: tool calls whose choice never finished come out now. */
  end(): OutputPart[] {
    return toParts(this.stream.end());
  }
}

/** A whole JSON answer (a service that ignored `stream: true`) as parts. */
export function readCompletion(json: unknown): OutputPart[] {
  const reader = new ChatStreamReader();
  return [...reader.push(json), ...reader.end()];
}
