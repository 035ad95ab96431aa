/**
 * A `text/event-stream` body → its events, framed by `eventsource-parser`: as one array per chunk read
 * (`batches()`), or one by one. Ends on `data: [DONE]`, at the end of the stream, or quietly when the caller
 * aborts; stops reading (and closes the connection) when the consumer stops iterating.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ServiceError } from './errors';
import { certainlyUnchanged } from './redact';
import type { EventStream, ServerSentEvent } from './types';
import { l10n } from '../common/plainL10n';

const UNPARSED: unique symbol = Symbol('unparsed');

/** One event. `json` is parsed on first access, so consumers that only read `data` pay nothing for it. */
export class SseEvent implements ServerSentEvent {
  private parsed: unknown = UNPARSED;
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
    if (this.parsed === UNPARSED) {
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
      this.parsed = value;
    }
    return this.parsed;
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

/**
 * The events of an SSE body. Reading `batches()` costs one await per chunk from the network rather than one
 * per event (a fast stream brings hundreds of events per chunk); iterating the stream itself gives the same
 * events one at a time. Either way it can be read once.
 */
export function readEventStream(
  body: AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void },
  options: EventStreamOptions,
): EventStream {
  return new BatchedEventStream(() => readBatches(body, options), options.signal);
}

const FINISHED: IteratorReturnResult<undefined> = { done: true, value: undefined };

class BatchedEventStream implements EventStream {
  private started = false;

  constructor(
    private readonly open: () => AsyncGenerator<readonly ServerSentEvent[], void, undefined>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  batches(): AsyncGenerator<readonly ServerSentEvent[], void, undefined> {
    if (this.started) {
      throw new Error('An event stream can be read only once.');
    }
    this.started = true;
    return this.open();
  }

  [Symbol.asyncIterator](): AsyncIterator<ServerSentEvent, undefined> {
    const source = this.batches();
    const signal = this.signal;
    let batch: readonly ServerSentEvent[] = [];
    let next = 0;
    const pull = async (): Promise<IteratorResult<ServerSentEvent, undefined>> => {
      for (;;) {
        const r = await source.next();
        if (r.done) {
          return FINISHED;
        }
        if (r.value.length > 0) {
          batch = r.value;
          next = 1;
          return { done: false, value: batch[0] };
        }
      }
    };
    return {
      // Events already read stay in the batch; one that arrived before a cancel is not handed out after it.
      next: () =>
        next < batch.length && !signal?.aborted ? Promise.resolve({ done: false, value: batch[next++] }) : pull(),
      return: async () => {
        batch = [];
        await source.return(undefined);
        return FINISHED;
      },
    };
  }
}

/** The events of each chunk as one array, in order; nothing after `[DONE]`. */
async function* readBatches(
  body: AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void },
  options: EventStreamOptions,
): AsyncGenerator<readonly ServerSentEvent[], void, undefined> {
  let batch: SseEvent[] = [];
  let done = false;
  let parseError: Error | undefined;
  const redact = options.redact;
  const parser = createParser({
    onEvent: (m) => {
      if (done) {
        return;
      }
      if (m.data === '[DONE]') {
        done = true;
        return;
      }
      batch.push(new SseEvent(m));
    },
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') {
        parseError = e;
      }
      // Unknown fields and bad `retry:` values are ignored, as browsers do.
    },
    maxBufferSize: options.maxEventChars ?? 16 * 1024 * 1024,
  });
  const decoder = new TextDecoder('utf-8');
  let outcome: 'done' | 'end' | 'aborted' | 'error' | 'stopped' = 'stopped';
  const idle = idleTimer(body, options.idleMs);
  /** Hands over what the last chunk held and starts a new array (the consumer may keep the old one). */
  const take = (): SseEvent[] => {
    const full = batch;
    batch = [];
    return redact ? redactAll(full, redact) : full;
  };
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
        if (batch.length > 0) {
          yield take();
        }
        if (done) {
          outcome = 'done';
          return;
        }
      }
      // A last event without its closing blank line is still delivered (browsers would drop it).
      parser.feed(`${decoder.decode()}\n\n`);
      if (batch.length > 0) {
        yield take();
      }
      outcome = done ? 'done' : 'end';
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

/**
 * The events of one chunk with the secrets removed from their data: one check of all their data joined when the
 * redactor can tell that none holds anything it removes (the common case), else event by event.
 */
function redactAll(events: SseEvent[], redact: (t: string) => string): SseEvent[] {
  if (events.length > 1 && certainlyUnchanged(redact, events.map((e) => e.data).join('\n'))) {
    return events;
  }
  for (let i = 0; i < events.length; i++) {
    events[i] = redacted(events[i], redact);
  }
  return events;
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
