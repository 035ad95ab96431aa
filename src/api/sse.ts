/**
 * A `text/event-stream` body → an async iterator of events, framed by `eventsource-parser`. Ends on
 * `data: [DONE]`, at the end of the stream, or quietly when the caller aborts; stops reading (and closes
 * the connection) when the consumer stops iterating.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ServiceError } from './errors';
import type { ServerSentEvent } from './types';
import { l10n } from '../common/plainL10n';

/** One event. `json` is parsed on first access, so consumers that only read `data` pay nothing for it. */
export class SseEvent implements ServerSentEvent {
  private parsed?: { value: unknown };
  readonly event?: string;
  readonly id?: string;
  readonly data: string;

  constructor(message: EventSourceMessage) {
    this.data = message.data;
    if (message.event !== undefined) {
      this.event = message.event;
    }
    if (message.id !== undefined) {
      this.id = message.id;
    }
  }

  /** `data` parsed as JSON, or undefined when it is not JSON. */
  get json(): unknown {
    if (this.parsed === undefined) {
      let value: unknown;
      const c = this.data.charCodeAt(0);
      // Only objects, arrays, strings, numbers and literals can be JSON; skip the throw for plain text.
      if (
        c === 123 ||
        c === 91 ||
        c === 34 ||
        (c >= 48 && c <= 57) ||
        c === 45 ||
        c === 116 ||
        c === 102 ||
        c === 110
      ) {
        try {
          value = JSON.parse(this.data);
        } catch {
          value = undefined;
        }
      }
      this.parsed = { value };
    }
    return this.parsed.value;
  }

  toJSON(): ServerSentEvent {
    return { event: this.event, id: this.id, data: this.data, json: this.json };
  }
}

export interface EventStreamOptions {
  /** Removes secrets from event data the server may echo. */
  redact?: (text: string) => string;
  /** The caller's signal: when it fires, iteration ends without an error. */
  signal?: AbortSignal;
  /** Turns a failure of the body (reset, idle timeout) into a ServiceError. */
  mapError: (e: unknown) => ServiceError;
  /** Largest event (or unterminated line) accepted, in characters. Default 16 MiB. */
  maxEventChars?: number;
  /**
   * Longest quiet time between two chunks before the stream fails with a timeout. undici's own body
   * timeout only ticks about once a second, so short idle limits are enforced here too.
   */
  idleMs?: number;
  /** Called once when the iteration is over, however it ended. */
  onEnd?: (outcome: 'done' | 'end' | 'aborted' | 'error' | 'stopped') => void;
}

/** Events of an SSE body as they arrive. */
export async function* readEventStream(
  body: AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void },
  options: EventStreamOptions,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const queue: SseEvent[] = [];
  let parseError: Error | undefined;
  const parser = createParser({
    onEvent: (m) => queue.push(new SseEvent(m)),
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') {
        parseError = e;
      }
      // Unknown fields and bad `retry:` values are ignored, as browsers do.
    },
    maxBufferSize: options.maxEventChars ?? 16 * 1024 * 1024,
  });
  const decoder = new TextDecoder('utf-8');
  const redact = options.redact;
  let outcome: 'done' | 'end' | 'aborted' | 'error' | 'stopped' = 'stopped';
  const idle = idleTimer(body, options.idleMs);
  try {
    try {
      for await (const chunk of body) {
        idle?.refresh();
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (parseError) {
          throw new ServiceError({
            kind: 'invalidResponse',
            message: l10n.t('The event stream sent an event larger than the client accepts; the stream was closed.'),
          });
        }
        for (let i = 0; i < queue.length; i++) {
          const ev = queue[i];
          if (ev.data === '[DONE]') {
            outcome = 'done';
            return;
          }
          yield redact ? redacted(ev, redact) : ev;
        }
        queue.length = 0;
      }
      // A last event without its closing blank line is still delivered (browsers would drop it).
      parser.feed(`${decoder.decode()}\n\n`);
      for (const ev of queue) {
        if (ev.data === '[DONE]') {
          break;
        }
        yield redact ? redacted(ev, redact) : ev;
      }
      outcome = 'end';
    } catch (e) {
      if (options.signal?.aborted) {
        outcome = 'aborted';
        return;
      }
      outcome = 'error';
      throw e instanceof ServiceError ? e : options.mapError(e);
    }
  } finally {
    if (idle) {
      clearTimeout(idle);
    }
    // Stop reading: closes the connection when the consumer breaks out early or the stream ended on [DONE].
    if (outcome !== 'end') {
      body.destroy?.();
    }
    options.onEnd?.(outcome);
  }
}

function redacted(ev: SseEvent, redact: (t: string) => string): SseEvent {
  const data = redact(ev.data);
  return data === ev.data ? ev : new SseEvent({ event: ev.event, id: ev.id, data });
}

/** A timer that fails `body` with undici's body-timeout code when nothing arrives for `ms`. */
export function idleTimer(body: { destroy?: (e?: Error) => void }, ms: number | undefined): NodeJS.Timeout | undefined {
  if (!ms || ms <= 0 || !body.destroy) {
    return undefined;
  }
  const timer = setTimeout(
    () => body.destroy?.(Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' })),
    ms,
  );
  timer.unref();
  return timer;
}
