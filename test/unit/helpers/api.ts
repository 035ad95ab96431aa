/** Shared helpers of the client tests: a client for a running local service, error assertions, a recorder server. */
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../../src/api/client';
import { ServiceError, type ServiceErrorKind } from '../../../src/api/errors';
import type { RequestLogEntry, ServiceClientOptions } from '../../../src/api/types';
import { startServer, type RunningServer, type ServerOptions } from '../../server';

export function clientFor(
  url: string,
  key: string | undefined,
  options: Partial<ServiceClientOptions> = {},
): { client: ServiceClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = new ServiceClient({
    baseUrl: url,
    apiKey: async () => key,
    retries: { baseDelayMs: 20, maxDelayMs: 2000 },
    onRequest: (e) => log.push(e),
    ...options,
  });
  return { client, log };
}

/** Awaits `promise`, asserts it rejected with a ServiceError of `kind`, returns the error. */
export async function expectError(promise: Promise<unknown>, kind: ServiceErrorKind): Promise<ServiceError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ServiceError, `expected a ServiceError, got ${String(e)}`);
    assert.equal(e.kind, kind, `kind of: ${e.message}`);
    return e;
  }
  assert.fail(`expected a ${kind} ServiceError, but the call succeeded`);
}

export interface Recorder {
  url: string;
  /** Every request: method, url and the Authorization header it carried (if any). */
  seen: { method: string; url: string; authorization?: string }[];
  close(): Promise<void>;
}

/** A plain node:http server that records every request (with its Authorization header) and answers `handler`. */
export async function startRecorder(handler: RecorderHandler = (_q, res) => res.end('[]')): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const self = { url: '' };
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    handler(req, res, self);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self.url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type RecorderHandler = (req: IncomingMessage, res: ServerResponse, self: { url: string }) => void;

/**
 * Recorders for the tests of one `describe`: call it there (`const recorder = useRecorder();`), then
 * `const rec = await recorder(handler)` in a test. Every recorder a test started is closed after it, passed or
 * failed, so no test leaves a server listening.
 */
export function useRecorder(): (handler?: RecorderHandler) => Promise<Recorder> {
  const open: Recorder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (handler) => {
    const rec = await startRecorder(handler);
    open.push(rec);
    return rec;
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A text/event-stream body as the events it holds (`event:` and joined `data:` lines of each block). */
export function parseSse(text: string): { event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice('data: '.length))
        .join('\n');
      return { event, data };
    });
}

/** Runs `fn` against a local service started with `options`, and closes the service afterwards. */
export async function withServer<T>(options: ServerOptions, fn: (s: RunningServer) => Promise<T>): Promise<T> {
  const s = await startServer(options);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}
