import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ServiceError } from '../../../src/api/errors';
import { readEventStream } from '../../../src/api/sse';
import type { ServerSentEvent } from '../../../src/api/types';
import { addEvent, newStreamState, readStream } from '../../../src/requests/core/streamText';

const ev = (json: unknown, event?: string) => ({ event, data: JSON.stringify(json), json });

describe('requests: stream text', () => {
  it('grows with Responses deltas and keeps the completed event', () => {
    const s = newStreamState();
    addEvent(s, ev({ type: 'response.created' }, 'response.created'));
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 'Hel' }, 'response.output_text.delta'));
    assert.equal(s.text, 'Hel');
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 'lo' }, 'response.output_text.delta'));
    addEvent(s, ev({ type: 'response.output_text.done', text: 'Hello' }, 'response.output_text.done'));
    addEvent(s, ev({ type: 'response.completed', response: { status: 'completed' } }, 'response.completed'));
    assert.equal(s.text, 'Hello');
    assert.ok(s.done);
    assert.deepEqual(s.final, { type: 'response.completed', response: { status: 'completed' } });
  });

  it('grows with Chat chunks and ends on [DONE]', () => {
    const s = newStreamState();
    addEvent(s, ev({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant' } }] }));
    addEvent(s, ev({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' } }] }));
    addEvent(
      s,
      ev({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }],
      }),
    );
    addEvent(s, { data: '[DONE]' });
    assert.equal(s.text, 'Hi there');
    assert.ok(s.done);
    assert.equal(s.events, 4);
  });

  it('records an error event, flat or nested', () => {
    assert.equal(addEvent(newStreamState(), ev({ type: 'error', message: 'boom' })).error, 'boom');
    assert.equal(addEvent(newStreamState(), ev({ type: 'error', error: { message: 'nested' } })).error, 'nested');
  });

  describe('reading a stream', () => {
    const mapError = (e: unknown) => new ServiceError({ kind: 'network', message: String(e) });
    const delta = (d: string) =>
      `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', delta: d })}\n\n`;
    const chunks = [delta('a') + delta('b') + delta('c'), delta('d'), delta('e') + delta('f')];

    it('asks for one redraw per chunk read, with the text of every event of that chunk in the state', async () => {
      const s = newStreamState();
      const raw: string[] = [];
      const seen: string[] = [];
      const end = await readStream(
        readEventStream(Readable.from(chunks.map((c) => Buffer.from(c))), { mapError }),
        s,
        raw,
        1 << 20,
        () => seen.push(s.text),
      );
      assert.equal(end, 'ended');
      assert.deepEqual(seen, ['abc', 'abcd', 'abcdef']);
      assert.equal(raw.length, 6);
      assert.match(raw[0], /^event: response\.output_text\.delta\ndata: \{/);
      assert.equal(s.done, true);
    });

    it('reads a plain async iterable one event at a time', async () => {
      async function* events(): AsyncGenerator<ServerSentEvent> {
        yield ev({ delta: 'x' });
        yield ev({ delta: 'y' });
      }
      const s = newStreamState();
      const seen: string[] = [];
      await readStream(events(), s, [], 1 << 20, () => seen.push(s.text));
      assert.deepEqual(seen, ['x', 'xy']);
    });

    it('stops inside a batch at the limit and closes the stream', async () => {
      const s = newStreamState();
      const raw: string[] = [];
      const body = Readable.from(chunks.map((c) => Buffer.from(c)));
      const limit = 2 * delta('a').length;
      const end = await readStream(readEventStream(body, { mapError }), s, raw, limit);
      assert.equal(end, 'limit');
      // The third event, still in the first chunk, passed the limit: nothing of the later chunks was read.
      assert.equal(raw.length, 3);
      assert.equal(s.text, 'abc');
      assert.equal(body.destroyed, true);
    });
  });
});
