import { bodyForDisplay, type ResponseRecord } from '../answers/core/responseFormat';
import type { SentRequest } from '../code/codeCommands';
import type { TurnExchange } from './core/panelView';
import { answerOfRecord } from './core/recordAnswer';

/** Takes the key and the secrets out of a text (the log's redactor). */
type Redact = (text: string) => string;

/** The request of record: as sent (secret references as written), to the environment it went to. */
export function requestOf(record: ResponseRecord, redact: Redact): SentRequest {
  return {
    sent: true,
    endpoint: record.endpoint,
    json: redact(record.requestJson ?? '{}'),
    environment: record.environment,
  };
}

/** The raw exchange behind an answer, as the panel shows it under the answer: redacted. */
export function exchangeOf(record: ResponseRecord, redact: Redact): TurnExchange {
  const body = record.rawEvents
    ? record.rawEventsWithheld
      ? undefined
      : redact(record.rawEvents.join('\n'))
    : bodyForDisplay(record, redact)?.text;
  const read = answerOfRecord(record);
  return {
    request: redact(record.requestJson ?? ''),
    endpoint: record.endpoint,
    status: record.status,
    statusText: record.statusText,
    headers: record.headers,
    body,
    elapsedMs: record.elapsedMs,
    firstByteMs: record.firstByteMs,
    priced: record.priced,
    model: modelOf(record.requestJson),
    usage: read?.answer.usage,
  };
}

/** The model a request named (as shown), for the conversation's totals. */
function modelOf(requestJson: string | undefined): string | undefined {
  try {
    const model: unknown = (JSON.parse(requestJson ?? '{}') as { model?: unknown }).model;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}
