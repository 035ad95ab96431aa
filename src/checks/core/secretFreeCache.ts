/**
 * The answer cache keeps no answer that holds a secret once read whole. The client removes secrets from each
 * streamed event as it arrives, but a service can split the key across two events (`"sk-ab"`, `"cd…"`): no
 * single event holds it, the cache file would. Such an entry is simply not kept (the next run asks again):
 * answerCache.ts's `keeps` option asks this before it seals an entry.
 * Pure; no `vscode` import.
 */
import { AnswerStream, type AnswerEvent } from '../../domain/answer';

/** Whether the cache entry `value` (answerCache.ts's JSON) holds a secret `removeSecrets` would remove. */
export function entryHoldsSecret(value: string, removeSecrets: (text: string) => string): boolean {
  let entry: { events?: unknown };
  try {
    entry = JSON.parse(value) as { events?: unknown };
  } catch {
    return false;
  }
  if (!Array.isArray(entry?.events)) {
    // A body is redacted whole by the client before it gets here.
    return false;
  }
  const reader = new AnswerStream();
  let text = '';
  for (const event of entry.events as AnswerEvent[]) {
    if (typeof event?.data !== 'string') {
      continue;
    }
    for (const piece of reader.push(event.json === undefined ? { ...event, json: parsed(event.data) } : event)) {
      if (piece.kind === 'text') {
        text += piece.text;
      }
    }
  }
  reader.end();
  const answer = reader.answer();
  const read = [text, answer.text ?? '', ...answer.toolCalls.flatMap((c) => [c.id, c.name, c.arguments])];
  return read.some((t) => t !== '' && removeSecrets(t) !== t);
}

function parsed(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
