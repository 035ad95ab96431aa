import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ServiceError } from '../../../src/api/errors';
import { readEventStream } from '../../../src/api/sse';
import type { ServerSentEvent } from '../../../src/api/types';

function body(chunks: string[]): Readable {
  return Readable.from(chunks.map((c) => Buffer.from(c, 'utf8')));
}

async function collect(it: AsyncIterable<ServerSentEvent>): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  for await (const e of it) {
    out.push(e);
  }
  return out;
}

const mapError = (e: unknown): ServiceError => new ServiceError({ kind: 'network', message: `mapped: ${String(e)}` });

describe('api/sse', () => {
  it('frames events split anywhere, with event names, ids, multi-line data and CRLF', async () => {
    const text =
      'event: response.created\r\ndata: {"a":1}\r\n\r\n: comment\n\nid: 7\ndata: line1\ndata: line2\n\ndata: {"é":"ü"}\n\n';
    // Split every 3 bytes, including through a multi-byte character.
    const bytes = Buffer.from(text, 'utf8');
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 3) {
      chunks.push(bytes.subarray(i, i + 3));
    }
    const events = await collect(readEventStream(Readable.from(chunks), { mapError }));
    assert.deepEqual(
      events.map((e) => [e.event, e.id, e.data]),
      [
        ['response.created', undefined, '{"a":1}'],
        [undefined, '7', 'line1\nline2'],
        [undefined, undefined, '{"é":"ü"}'],
      ],
    );
    assert.deepEqual(events[0].json, { a: 1 });
    assert.equal(events[1].json, undefined);
  });

  it('ends on [DONE] without reading further', async () => {
    const events = await collect(readEventStream(body(['data: 1\n\ndata: [DONE]\n\ndata: 2\n\n']), { mapError }));
    assert.deepEqual(
      events.map((e) => e.data),
      ['1'],
    );
  });

  it('delivers a last event without the final blank line', async () => {
    const events = await collect(readEventStream(body(['data: 1\n\ndata: 2']), { mapError }));
    assert.deepEqual(
      events.map((e) => e.data),
      ['1', '2'],
    );
  });

  it('maps a failing body to a ServiceError, and ends quietly when the caller aborted', async () => {
    const failing = (): Readable =>
      new Readable({
        read() {
          this.push('data: 1\n\n');
          this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
        },
      });
    await assert.rejects(
      collect(readEventStream(failing(), { mapError })),
      (e: unknown) => e instanceof ServiceError && e.message.startsWith('mapped'),
    );
    const ac = new AbortController();
    ac.abort();
    assert.deepEqual((await collect(readEventStream(failing(), { mapError, signal: ac.signal }))).length, 1);
  });

  it('removes secrets from event data', async () => {
    const events = await collect(
      readEventStream(body(['data: {"k":"sk-secret-123"}\n\n']), {
        mapError,
        redact: (t) => t.replace('sk-secret-123', 'X'),
      }),
    );
    assert.equal(events[0].data, '{"k":"X"}');
  });

  it('refuses an endless line instead of buffering it', async () => {
    const huge = new Readable({
      read() {
        this.push('data: ' + 'x'.repeat(1 << 20));
      },
    });
    await assert.rejects(
      collect(readEventStream(huge, { mapError, maxEventChars: 4 << 20 })),
      (e: unknown) => e instanceof ServiceError && e.kind === 'invalidResponse',
    );
  });
});
