/**
 * The answer held by a response record, read only through the shared answer reader: a body with
 * `readAnswer`, a stream through the `AnswerStream` its events were read into as they arrived (the stream
 * state's `reader`). Also how the answer ended, so Reply can ask before appending one that was cancelled or
 * cut. Pure; no `vscode` import.
 */
import { readAnswer, type Answer } from '../../../domain/answer';
import type { ResponseRecord } from '../../answers/core/responseFormat';

/** How an answer stopped short of its end, if it did. */
export type AnswerCut = 'cancelled' | 'limit' | 'truncated' | 'length' | 'failed';

export interface RecordAnswer {
  answer: Answer;
  /** Still arriving (a stream not yet ended, or no answer yet). */
  arriving: boolean;
  cut?: AnswerCut;
}

/** Finish reasons (Chat) and statuses (Responses) of an answer that stopped before it was done. */
const STOPPED = new Set(['length', 'incomplete', 'max_output_tokens', 'content_filter']);

/** The answer of a record, or undefined while nothing has arrived. */
export function answerOfRecord(record: ResponseRecord): RecordAnswer | undefined {
  const ended = record.elapsedMs !== undefined;
  let answer: Answer;
  if (record.stream) {
    answer = record.stream.reader.answer();
  } else if (record.bodyJson !== undefined || record.bodyText !== undefined) {
    answer = readAnswer(record.bodyJson !== undefined ? record.bodyJson : record.bodyText);
  } else {
    return undefined;
  }
  return { answer, arriving: !ended, cut: cutOf(record, answer) };
}

function cutOf(record: ResponseRecord, answer: Answer): AnswerCut | undefined {
  if (record.cancelled) {
    return 'cancelled';
  }
  if (record.limitReached) {
    return 'limit';
  }
  if (record.truncatedByClient) {
    return 'truncated';
  }
  if (answer.finishReason !== undefined && STOPPED.has(answer.finishReason)) {
    return 'length';
  }
  if (record.error !== undefined && record.stream !== undefined) {
    return 'failed';
  }
  return undefined;
}

/**
 * The answer with the key (and every other secret the log knows) removed from its text and tool calls: what
 * Reply writes into a file and the transcript shows, as the response document does.
 */
export function withoutSecrets(answer: Answer, redact: (text: string) => string): Answer {
  return {
    ...answer,
    text: answer.text === undefined ? undefined : redact(answer.text),
    toolCalls: answer.toolCalls.map((c) => ({
      id: redact(c.id),
      name: redact(c.name),
      arguments: redact(c.arguments),
    })),
  };
}
