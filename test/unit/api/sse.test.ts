import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ServiceError } from '../../../src/api/errors';
import { idleTimer, readEventStream, SseEvent } from '../../../src/api/sse';
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

describe('api/sse: batches', () => {
  it('hands over the events of each chunk as one array, in order, and nothing after [DONE]', async () => {
    const stream = readEventStream(
      body([
        'data: 1\n\ndata: 2\n\ndata: 3',
        '\n\ndata: 4\n\n',
        ': only a comment\n\n',
        'data: 5\n\ndata: [DONE]\n\ndata: 6\n\n',
      ]),
      { mapError },
    );
    const batches: string[][] = [];
    for await (const batch of stream.batches()) {
      batches.push(batch.map((e) => e.data));
    }
    // The third event ends in the second chunk; a chunk with no event gives no (empty) batch.
    assert.deepEqual(batches, [['1', '2'], ['3', '4'], ['5']]);
  });

  it('is read once, whichever way', async () => {
    const stream = readEventStream(body(['data: 1\n\n']), { mapError });
    assert.deepEqual(
      (await collect(stream)).map((e) => e.data),
      ['1'],
    );
    assert.throws(() => stream.batches(), /read only once/);
    assert.throws(() => stream[Symbol.asyncIterator](), /read only once/);
  });

  it('one by one, an event read in the same chunk is not handed out after a cancel', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const e of readEventStream(body(['data: 1\n\ndata: 2\n\ndata: 3\n\n']), {
      mapError,
      signal: ac.signal,
    })) {
      seen.push(e.data);
      ac.abort();
    }
    assert.deepEqual(seen, ['1']);
  });

  it('breaking out of a batch, or of the events one by one, closes the body', async () => {
    const a = body(['data: 1\n\ndata: 2\n\n', 'data: 3\n\n']);
    for await (const batch of readEventStream(a, { mapError }).batches()) {
      assert.equal(batch.length, 2);
      break;
    }
    assert.equal(a.destroyed, true);
    const b = body(['data: 1\n\ndata: 2\n\n', 'data: 3\n\n']);
    for await (const e of readEventStream(b, { mapError })) {
      assert.equal(e.data, '1');
      break;
    }
    assert.equal(b.destroyed, true);
  });
});

describe('api/sse: events, endings and timers', () => {
  /** A body that records whether the reader closed it. */
  function tracked(chunks: string[]): Readable & { destroyed: boolean } {
    return body(chunks) as Readable & { destroyed: boolean };
  }

  it('parses every kind of JSON value, and nothing that only starts like one', async () => {
    const values = ['{"a":1}', '[1,2]', '"s"', '0', '9', '-1', 'true', 'false', 'null', '12abc', 'text', ''];
    const stream = values.map((v) => `data: ${v}\n\n`);
    const events = await collect(readEventStream(body(stream), { mapError }));
    assert.deepEqual(
      events.map((e) => e.json),
      [{ a: 1 }, [1, 2], 's', 0, 9, -1, true, false, null, undefined, undefined, undefined],
    );
  });

  it('serializes an event with its name, id, data and parsed JSON', async () => {
    const [ev] = await collect(readEventStream(body(['event: delta\nid: 3\ndata: [1]\n\n']), { mapError }));
    assert.ok(ev instanceof SseEvent);
    assert.deepEqual(ev.toJSON(), { event: 'delta', id: '3', data: '[1]', json: [1] });
    assert.deepEqual(JSON.parse(JSON.stringify(ev)), { event: 'delta', id: '3', data: '[1]', json: [1] });
  });

  it('keeps the event name and id of an event whose data was redacted', async () => {
    const events = await collect(
      readEventStream(body(['event: echo\nid: 9\ndata: key=K\n\ndata: clean\n\n']), {
        mapError,
        redact: (t) => t.replace('K', '[redacted]'),
      }),
    );
    assert.deepEqual(
      events.map((e) => [e.event, e.id, e.data]),
      [
        ['echo', '9', 'key=[redacted]'],
        [undefined, undefined, 'clean'],
      ],
    );
  });

  it('stops at a [DONE] left without its blank line at the end of the stream', async () => {
    const events = await collect(readEventStream(body(['data: 1\n\ndata: 2\n\ndata: [DONE]']), { mapError }));
    assert.deepEqual(
      events.map((e) => e.data),
      ['1', '2'],
    );
    const after = await collect(readEventStream(body(['data: 1\n\ndata: [DONE]\ndata: x']), { mapError }));
    assert.deepEqual(
      after.map((e) => e.data),
      ['1', '[DONE]\nx'],
    );
  });

  it('tells how it ended, and closes the body unless the server ended it', async () => {
    const outcomes: string[] = [];
    const onEnd = (o: string): void => {
      outcomes.push(o);
    };
    const ended = tracked(['data: 1\n\n']);
    await collect(readEventStream(ended, { mapError, onEnd }));
    const done = tracked(['data: 1\n\ndata: [DONE]\n\ndata: 2\n\n']);
    await collect(readEventStream(done, { mapError, onEnd }));
    const stopped = tracked(['data: 1\n\ndata: 2\n\n']);
    for await (const _ of readEventStream(stopped, { mapError, onEnd })) {
      break;
    }
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
      },
    });
    await assert.rejects(collect(readEventStream(failing, { mapError, onEnd })), /mapped/);
    const ac = new AbortController();
    ac.abort();
    const aborted = new Readable({
      read() {
        this.destroy(new Error('aborted'));
      },
    });
    await collect(readEventStream(aborted, { mapError, onEnd, signal: ac.signal }));
    assert.deepEqual(outcomes, ['end', 'done', 'stopped', 'error', 'aborted']);
    assert.equal(done.destroyed, true, 'the connection closes after [DONE]');
    assert.equal(stopped.destroyed, true, 'the connection closes when the consumer stops');
  });

  it('passes a ServiceError of its own through unmapped', async () => {
    const own = new ServiceError({ kind: 'invalidResponse', message: 'cut' });
    const failing = new Readable({
      read() {
        this.destroy(own);
      },
    });
    await assert.rejects(collect(readEventStream(failing, { mapError })), (e: unknown) => e === own);
  });

  it('accepts events up to 16 MiB by default, and up to maxEventChars when given', async () => {
    // The line arrives in one chunk and its end in the next: the parser has to hold it meanwhile.
    const big = [`data: ${'x'.repeat(1 << 20)}`, '\n\n'];
    assert.equal((await collect(readEventStream(body(big), { mapError })))[0].data.length, 1 << 20);
    await assert.rejects(
      collect(readEventStream(body(big), { mapError, maxEventChars: 1 << 19 })),
      (e: unknown) => e instanceof ServiceError && /larger than the client accepts/.test(e.message),
    );
  });

  it('fails a stream that stays quiet longer than idleMs, and only then', async () => {
    const quiet = new Readable({ read() {} });
    quiet.push('data: 1\n\n');
    const started = Date.now();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of readEventStream(quiet, {
          mapError: (e) => new ServiceError({ kind: 'timeout', message: String((e as { code?: string }).code) }),
          idleMs: 60,
        })) {
          seen.push(ev.data);
        }
      })(),
      (e: unknown) => e instanceof ServiceError && e.message === 'UND_ERR_BODY_TIMEOUT',
    );
    assert.deepEqual(seen, ['1']);
    assert.ok(Date.now() - started >= 50);
    const slow = new Readable({ read() {} });
    const feed = setInterval(() => slow.push('data: t\n\n'), 20);
    setTimeout(() => {
      clearInterval(feed);
      slow.push(null);
    }, 200);
    const ticks = await collect(readEventStream(slow, { mapError, idleMs: 80 }));
    assert.ok(ticks.length >= 5, `a stream that keeps sending is not idle (${ticks.length} events)`);
  });

  it('leaves a body the server ended alone, even after its idle time has passed', async () => {
    // A plain iterable whose destroy() is recorded: a Readable destroys itself at its end, which would hide a call.
    const destroyed: (Error | string)[] = [];
    const ended = Object.assign(
      (async function* () {
        yield Buffer.from('data: 1\n\n');
      })(),
      { destroy: (e?: Error) => void destroyed.push(e ?? 'closed') },
    );
    const events = await collect(readEventStream(ended, { mapError, idleMs: 30 }));
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(
      events.map((e) => e.data),
      ['1'],
    );
    assert.equal(destroyed.length, 0, 'no close and no timeout after the end');
    const done = Object.assign(
      (async function* () {
        yield Buffer.from('data: 1\n\ndata: [DONE]\n\n');
        yield Buffer.from('data: 2\n\n');
      })(),
      { destroy: (e?: Error) => void destroyed.push(e ?? 'closed') },
    );
    await collect(readEventStream(done, { mapError, idleMs: 30 }));
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(destroyed, ['closed'], 'closed once after [DONE], without a later timeout');
  });

  it('stops reading at [DONE] though the server keeps the stream open, and says it ended on [DONE]', async () => {
    const outcomes: string[] = [];
    const open = new Readable({ read() {} });
    open.push('data: 1\n\ndata: [DONE]\n\n');
    const events = await collect(readEventStream(open, { mapError, onEnd: (o) => void outcomes.push(o) }));
    assert.deepEqual(
      events.map((e) => e.data),
      ['1'],
    );
    assert.equal(open.destroyed, true);
    await collect(
      readEventStream(body(['data: 1\n\ndata: [DONE]']), { mapError, onEnd: (o) => void outcomes.push(o) }),
    );
    assert.deepEqual(outcomes, ['done', 'done']);
  });

  it('ignores unknown fields and bad retry values, as browsers do', async () => {
    const events = await collect(
      readEventStream(body(['retry: soon\nfoo: bar\ndata: 1\n\n', 'retry: 100\nx-extra: y\ndata: 2\n\n']), {
        mapError,
      }),
    );
    assert.deepEqual(
      events.map((e) => e.data),
      ['1', '2'],
    );
  });

  it('starts no idle timer without a limit or a way to close the body', () => {
    const closable = { destroy: () => undefined };
    assert.equal(idleTimer(closable, undefined), undefined);
    assert.equal(idleTimer(closable, 0), undefined);
    assert.equal(idleTimer(closable, -5), undefined);
    assert.equal(idleTimer({}, 100), undefined);
    const timer = idleTimer(closable, 100_000);
    assert.ok(timer !== undefined);
    assert.equal(timer.hasRef(), false, 'an idle timer never keeps the process alive');
    clearTimeout(timer);
  });
});
