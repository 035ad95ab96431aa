/**
 * The answer held by a response record, read only through the shared answer reader: a body with
 * `readAnswer`, a stream through the `AnswerStream` its events were read into as they arrived. Also how the
 * answer ended, so Reply can ask before appending one that was cancelled or cut. Pure; no `vscode` import.
 */
import type { ServerSentEvent } from '../../../api/types';
import { AnswerStream, readAnswer, type Answer } from '../../../domain/answer';
import type { ResponseRecord } from '../../core/responseFormat';

const streams = new WeakMap<ResponseRecord, AnswerStream>();

type Events = AsyncIterable<ServerSentEvent> & { batches?(): AsyncIterable<readonly ServerSentEvent[]> };

/** `events` as they were, each also read into the record's answer stream as it passes. */
export function readingAnswer(record: ResponseRecord, events: Events): Events {
  const stream = new AnswerStream();
  streams.set(record, stream);
  const push = (e: ServerSentEvent) => void stream.push({ event: e.event, data: e.data, json: e.json });
  const teed: Events = {
    async *[Symbol.asyncIterator]() {
      for await (const e of events) {
        push(e);
        yield e;
      }
      stream.end();
    },
  };
  if (events.batches) {
    const batches = events.batches.bind(events);
    teed.batches = async function* () {
      for await (const batch of batches()) {
        batch.forEach(push);
        yield batch;
      }
      stream.end();
    };
  }
  return teed;
}

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
  const stream = streams.get(record);
  const ended = record.elapsedMs !== undefined;
  let answer: Answer;
  if (record.stream) {
    if (!stream) {
      return undefined;
    }
    answer = stream.answer();
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
