import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ServiceError } from '../../../../src/api/errors';
import { readEventStream } from '../../../../src/api/sse';
import type { ServerSentEvent } from '../../../../src/api/types';
import { addEvent, newStreamState, readStream, TAIL_CHARS } from '../../../../src/requests/send/core/streamText';

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

  it("ends on a failed or incomplete response; an error event's text is its message, else it says the service reported one", () => {
    for (const type of ['response.failed', 'response.incomplete']) {
      const s = addEvent(newStreamState(), ev({ type, response: { status: 'x' } }));
      assert.ok(s.done, type);
      assert.deepEqual(s.final, { type, response: { status: 'x' } });
    }
    const e = addEvent(newStreamState(), ev({ type: 'error', error: 'not an object' }, 'error'));
    assert.equal(e.error, 'not an object');
    assert.deepEqual(e.final, { type: 'error', error: 'not an object' });
    assert.equal(e.done, false);
    assert.equal(
      addEvent(newStreamState(), ev({ type: 'error' }, 'error')).error,
      'The service reported an error in the middle of its answer.',
    );
    // The event name counts when the data has no type.
    const named = addEvent(newStreamState(), ev({ delta: 'named' }, 'response.output_text.delta'));
    assert.equal(named.text, 'named');
    assert.equal(addEvent(newStreamState(), { data: '  [DONE]  ' }).done, true);
  });

  it('reads plain delta and text events; skips other Responses events, .done texts, and what is not JSON', () => {
    const s = newStreamState();
    addEvent(s, ev({ delta: 'a' }));
    addEvent(s, ev({ text: 'b' }));
    addEvent(s, ev({ type: 'response.output_item.added', delta: 'X', text: 'Y' }));
    addEvent(s, ev({ type: 'content.done', text: 'Z' }));
    addEvent(s, { data: 'not json' });
    addEvent(s, ev('a string'));
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 7 }));
    // A typed event of another service: its delta or text counts unless the type ends in .done.
    addEvent(s, ev({ type: 'message.delta', delta: 'c' }));
    addEvent(s, ev({ type: 'message', text: 'd' }));
    addEvent(s, ev({ type: 'ping' }));
    assert.equal(s.text, 'abcd');
    assert.equal(s.events, 10);
    assert.equal(s.final, undefined);
  });

  it('keeps the last chunk with a finish reason, or the usage chunk, as the final event', () => {
    const s = newStreamState();
    addEvent(s, ev({ choices: [{ delta: { content: 'x' } }] }));
    assert.equal(s.final, undefined);
    addEvent(s, ev({ choices: [null, { delta: { content: 7 } }] }));
    addEvent(s, ev({ choices: [{ delta: {}, finish_reason: 'stop' }] }));
    assert.deepEqual(s.final, { choices: [{ delta: {}, finish_reason: 'stop' }] });
    addEvent(s, ev({ choices: [{ delta: {} }], usage: { total_tokens: 3 } }));
    assert.deepEqual(s.final, { choices: [{ delta: {}, finish_reason: 'stop' }] }, 'usage with choices is not the end');
    addEvent(s, ev({ choices: [], usage: { total_tokens: 3 } }));
    assert.deepEqual(s.final, { choices: [], usage: { total_tokens: 3 } });
    assert.equal(s.text, 'x');
  });

  it('keeps a bounded tail of a long answer: the whole text, and its end', () => {
    const s = newStreamState();
    const piece = 'y'.repeat(100_000);
    for (let i = 0; i < 6; i++) {
      addEvent(s, ev({ delta: `${i}${piece}` }));
    }
    assert.equal(s.text.length, 6 * 100_001);
    assert.ok(s.tail.length <= 2 * TAIL_CHARS && s.tail.length >= TAIL_CHARS);
    assert.ok(s.text.endsWith(s.tail));
  });

  it('keeps each raw event, stops past the limit, and is done either way', async () => {
    async function* events() {
      yield { event: 'response.output_text.delta', data: '{"delta":"ab"}', json: { delta: 'ab' } };
      yield { data: '{"delta":"cd"}', json: { delta: 'cd' } };
      yield { data: '{"delta":"ef"}', json: { delta: 'ef' } };
    }
    const seen: number[] = [];
    const s = newStreamState();
    const raw: string[] = [];
    assert.equal(await readStream(events(), s, raw, 1_000, (n) => seen.push(n)), 'ended');
    assert.deepEqual(raw, [
      'event: response.output_text.delta\ndata: {"delta":"ab"}',
      'data: {"delta":"cd"}',
      'data: {"delta":"ef"}',
    ]);
    assert.deepEqual(seen, [
      raw[0].length,
      raw[0].length + raw[1].length,
      raw[0].length + raw[1].length + raw[2].length,
    ]);
    assert.ok(s.done);
    const limited = newStreamState();
    const kept: string[] = [];
    const limit = raw[0].length + 2;
    assert.equal(await readStream(events(), limited, kept, limit), 'limit');
    assert.equal(limited.text, 'abcd', 'exactly at the limit is not past it: the next event is read');
    assert.equal(kept.length, 2);
    const cut = newStreamState();
    assert.equal(await readStream(events(), cut, [], limit - 1), 'limit');
    assert.equal(cut.text, 'ab');
    assert.ok(cut.done);
  });
});
