/**
 * Turning a stream of server-sent events into the text a person wants to watch grow, for the event shapes
 * of OpenAI's Responses and Chat Completions (and a plain `delta`/`text` field for anything similar).
 * Pure; no `vscode` import.
 */
import type { ServerSentEvent } from '../../api/types';
import { l10n } from '../../common/plainL10n';

export interface StreamState {
  text: string;
  /**
   * The end of `text`, at most about 2 × TAIL_CHARS, kept as its own flat string: redrawing a growing
   * answer reads this, never `text`, whose slicing would copy the whole answer on every redraw.
   */
  tail: string;
  events: number;
  /** The last event that looks like the end of the answer (`response.completed`, a final chunk…). */
  final?: unknown;
  /** An error event's message, if the stream reported one. */
  error?: string;
  done: boolean;
}

/** How much of the end of a stream `tail` keeps (enough for one redraw plus a redaction margin). */
export const TAIL_CHARS = 256 * 1024 + 4096;

export function newStreamState(): StreamState {
  return { text: '', tail: '', events: 0, done: false };
}

function grow(state: StreamState, piece: string): void {
  state.text += piece;
  state.tail += piece;
  if (state.tail.length > 2 * TAIL_CHARS) {
    state.tail = state.tail.slice(-TAIL_CHARS);
  }
}

/** Folds one event into the state (mutates and returns it). */
export function addEvent(state: StreamState, event: ServerSentEvent): StreamState {
  state.events++;
  if (event.data.trim() === '[DONE]') {
    state.done = true;
    return state;
  }
  const json = event.json as Record<string, unknown> | undefined;
  if (!json || typeof json !== 'object') {
    return state;
  }
  const type = typeof json.type === 'string' ? json.type : event.event;
  if (type === 'response.output_text.delta' && typeof json.delta === 'string') {
    grow(state, json.delta);
  } else if (type === 'response.completed' || type === 'response.failed' || type === 'response.incomplete') {
    state.final = json;
    state.done = true;
  } else if (type === 'error') {
    const nested = json.error as Record<string, unknown> | undefined;
    const message =
      typeof json.message === 'string'
        ? json.message
        : typeof nested?.message === 'string'
          ? nested.message
          : l10n.t('the stream reported an error');
    state.error = message;
    state.final = json;
  } else if (Array.isArray(json.choices)) {
    for (const choice of json.choices as Record<string, unknown>[]) {
      const delta = choice?.delta as Record<string, unknown> | undefined;
      if (typeof delta?.content === 'string') {
        grow(state, delta.content);
      }
      if (choice?.finish_reason) {
        state.final = json;
      }
    }
    if (json.usage && (json.choices as unknown[]).length === 0) {
      state.final = json;
    }
  } else if (typeof type === 'string' && type.startsWith('response.')) {
    // Other Responses events (created, in_progress, output_item.added…) carry no text of their own.
  } else if (typeof json.delta === 'string') {
    grow(state, json.delta);
  } else if (typeof json.text === 'string' && !type?.endsWith('.done')) {
    grow(state, json.text);
  }
  return state;
}

export type StreamEnd = 'ended' | 'limit';

/**
 * Folds every event of a stream into `state`, keeping each raw event in `rawEvents`, until the stream
 * ends or what is kept (text + raw events, in characters) passes `limitChars`; then it stops reading
 * (which closes the response) and says so. Reads the stream a chunk's events at a time when it can
 * (`batches()`); `onEvents` runs once after each such batch (to schedule a redraw), not after every event.
 */
export async function readStream(
  events: AsyncIterable<ServerSentEvent> & { batches?(): AsyncIterable<readonly ServerSentEvent[]> },
  state: StreamState,
  rawEvents: string[],
  limitChars: number,
  onEvents: (rawChars: number) => void = () => undefined,
): Promise<StreamEnd> {
  let rawChars = 0;
  const batches: AsyncIterable<readonly ServerSentEvent[]> = events.batches ? events.batches() : oneByOne(events);
  try {
    for await (const batch of batches) {
      for (const event of batch) {
        addEvent(state, event);
        const raw = event.event ? `event: ${event.event}\ndata: ${event.data}` : `data: ${event.data}`;
        rawEvents.push(raw);
        rawChars += raw.length;
        if (rawChars + state.text.length > limitChars) {
          return 'limit';
        }
      }
      onEvents(rawChars);
    }
    return 'ended';
  } finally {
    state.done = true;
  }
}

async function* oneByOne(events: AsyncIterable<ServerSentEvent>): AsyncGenerator<readonly ServerSentEvent[]> {
  for await (const event of events) {
    yield [event];
  }
}
