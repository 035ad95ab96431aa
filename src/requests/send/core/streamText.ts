/**
 * A stream of server-sent events as the text a person watches grow (with a bounded tail for redraws), the
 * raw events kept for the document, and a limit on what is kept. What each event says is read by the shared
 * answer reader (src/domain/answer). Pure; no `vscode` import.
 */
import type { ServerSentEvent } from '../../../api/types';
import { AnswerStream } from '../../../domain/answer';

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
  /** The answer as read so far (text, tool calls, usage, ids, error): `reader.answer()`. */
  reader: AnswerStream;
}

/** How much of the end of a stream `tail` keeps (enough for one redraw plus a redaction margin). */
export const TAIL_CHARS = 256 * 1024 + 4096;

export function newStreamState(): StreamState {
  return { text: '', tail: '', events: 0, done: false, reader: new AnswerStream() };
}

function grow(state: StreamState, piece: string): void {
  state.text += piece;
  state.tail += piece;
  if (state.tail.length > 2 * TAIL_CHARS) {
    state.tail = state.tail.slice(-TAIL_CHARS);
  }
}

/** Folds one event into the state (mutates and returns it); the shared answer reader reads the event. */
export function addEvent(state: StreamState, event: ServerSentEvent): StreamState {
  state.events++;
  for (const piece of state.reader.push(event)) {
    if (piece.kind === 'text') {
      grow(state, piece.text);
    }
  }
  state.final = state.reader.final;
  state.error = state.reader.answer().error?.message;
  state.done ||= state.reader.done;
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
