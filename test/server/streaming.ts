/**
 * Server-sent events writer. Events go out one write at a time with an optional delay between them, so a
 * client (and its tests) can observe intermediate states, and the writer stops as soon as the client
 * goes away so the server can record the abort.
 */
import type { ServerResponse } from 'node:http';
import type { RequestFaults } from './faults';

export interface SseEvent {
  /** The `event:` field; absent for Chat Completions, which uses `data:` lines only. */
  event?: string;
  data: string;
}

export type StreamOutcome = 'completed' | 'aborted' | 'reset';

export interface StreamOptions {
  delayMs: number;
  faults: RequestFaults;
  headers: Record<string, string>;
}

export function formatEvent(e: SseEvent): string {
  return `${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${e.data}\n\n`;
}

export async function writeEventStream(
  res: ServerResponse,
  events: SseEvent[],
  options: StreamOptions,
): Promise<StreamOutcome> {
  res.writeHead(200, {
    ...options.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  // Headers go out now, before the first event, as a real streaming service does.
  res.flushHeaders();
  const gone = (): boolean => res.destroyed || res.socket === null || res.socket.destroyed;
  // The fault variants break the stream half way: a reset, or one event whose JSON is cut short.
  const breakAt = Math.max(1, Math.floor(events.length / 2));
  for (let i = 0; i < events.length; i++) {
    if (gone()) {
      return 'aborted';
    }
    if (options.faults.resetMidBody && i === breakAt) {
      res.socket?.destroy();
      return 'reset';
    }
    let event = events[i];
    if (options.faults.malformedJson && i === breakAt) {
      event = { ...event, data: event.data.slice(0, Math.max(1, Math.floor(event.data.length / 2))) };
    }
    const flushed = res.write(formatEvent(event));
    if (!flushed) {
      await drainOrClose(res);
    }
    if (options.delayMs > 0 && i < events.length - 1) {
      await sleepUnlessClosed(res, options.delayMs);
    }
  }
  if (gone()) {
    return 'aborted';
  }
  res.end();
  return 'completed';
}

/** Waits `ms`, returning early when the response closes (a client abort should not wait out the delay). */
export function sleepUnlessClosed(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      res.off('close', finish);
      resolve();
    }
    res.on('close', finish);
  });
}

/** Resolves when a response that stopped accepting writes drains again, or closes (the client went away). */
export function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
