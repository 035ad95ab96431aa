/**
 * How much of one answer the extension keeps, the same for Send and checks (Test Explorer, Run Checks, the
 * command line): a body is cut at the limit by the client (`maxBodyBytes`), a stream is stopped once the raw
 * events kept plus the text read pass it. An endless stream must not grow memory without bound, in the
 * extension host or in a CI job. Pure; no `vscode` import.
 */
import type { ServerSentEvent } from './types';

/** `modelAccess.limits.maxResponseMegabytes`' default, and the command line's. */
export const DEFAULT_MAX_RESPONSE_MEGABYTES = 32;
export const DEFAULT_MAX_RESPONSE_BYTES = DEFAULT_MAX_RESPONSE_MEGABYTES * 1024 * 1024;

/** An event as the response document keeps it (and as its size is counted). */
export function rawEventText(event: ServerSentEvent): string {
  return event.event ? `event: ${event.event}\ndata: ${event.data}` : `data: ${event.data}`;
}

/** Whether a stream that kept `rawChars` of events and read `textChars` of text passed `limit`. */
export function pastAnswerLimit(rawChars: number, textChars: number, limit: number): boolean {
  return rawChars + textChars > limit;
}

/** `limit` bytes as people read it: `32 MB`, `0.5 MB`. */
export function limitText(limit: number): string {
  const mb = limit / (1024 * 1024);
  return `${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}
