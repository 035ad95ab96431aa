import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import type { ServerSentEvent } from '../../../src/api/types';
import { startServer, type RunningServer } from '../../server';
import { clientFor } from '../helpers/api';

const responsesBody = { model: 'aurora-1', input: 'Tell me about model registries, briefly.' };
// A short answer (six deltas, 14 events): the timing tests wait one delay per event.
const shortBody = { model: 'aurora-1', input: 'What is the capital of France?' };
const chatBody = {
  model: 'aurora-1',
  messages: [{ role: 'user', content: 'Hello there' }],
  stream_options: { include_usage: true },
};

describe('client: post and streamed events', function () {
  this.timeout(20000);
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('returns status, headers, request id, elapsed time and parsed JSON', async () => {
    server = await startServer();
    const { client, log } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/responses', responsesBody);
    await client.dispose();
    assert.equal(r.status, 200);
    assert.equal(r.statusText, 'OK');
    assert.equal(r.contentType, 'application/json');
    assert.equal(r.events, undefined);
    assert.equal(r.error, undefined);
    assert.equal(r.requestId, server.requests[0].requestId);
    assert.equal(r.headers['x-request-id'], r.requestId);
    assert.ok(r.elapsedMs >= 0);
    assert.equal((r.body?.json as { object: string }).object, 'response');
    assert.equal(r.body?.truncated, false);
    assert.equal(r.body?.bytes, Buffer.byteLength(r.body?.text ?? ''));
    assert.deepEqual(
      log.map((e) => [e.method, e.path, e.status]),
      [['POST', '/v1/responses', 200]],
    );
  });

  it('resolves for an error answer, with the body and a ServiceError in `error`', async () => {
    server = await startServer();
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/chat', '{"model": "aurora-1"}');
    await client.dispose();
    assert.equal(r.status, 400);
    assert.ok(r.error instanceof ServiceError);
    assert.equal(r.error.kind, 'http');
    assert.match(r.error.message, /^The server answered 400 Bad Request: Missing required parameter: "messages"/);
    assert.equal((r.body?.json as { error: { code: string } }).error.code, 'missing_required_parameter');
  });

  it('bounds the body and says it was truncated', async () => {
    server = await startServer();
    const { client } = clientFor(server.url, server.keys.acme, { maxBodyBytes: 200 });
    const r = await client.post('/v1/embeddings', { model: 'cirrus-embed-1', input: 'x', dimensions: 512 });
    await client.dispose();
    assert.equal(r.body?.truncated, true);
    assert.equal(r.body?.bytes, 200);
    assert.equal(r.body?.json, undefined);
  });

  it('yields events one by one as they arrive, in order, the deltas adding up to the full text', async () => {
    server = await startServer({ streamDelayMs: 60 });
    const { client } = clientFor(server.url, server.keys.acme);
    const full = await client.post('/v1/responses', shortBody);
    const text = (full.body?.json as { output: { content: { text: string }[] }[] }).output[0].content[0].text;

    const r = await client.post('/v1/responses', shortBody, { stream: true });
    assert.equal(r.contentType, 'text/event-stream; charset=utf-8');
    assert.ok(r.events);
    const arrivals: { at: number; ev: ServerSentEvent }[] = [];
    const t0 = performance.now();
    for await (const ev of r.events) {
      arrivals.push({ at: performance.now() - t0, ev });
    }
    await client.dispose();
    const n = arrivals.length;
    assert.ok(n >= 10, `${n} events`);
    assert.equal(arrivals[0].ev.event, 'response.created');
    assert.equal(arrivals[n - 1].ev.event, 'response.completed');
    assert.deepEqual(
      arrivals.map((a) => (a.ev.json as { sequence_number: number }).sequence_number),
      [...Array(n).keys()],
    );
    const deltas = arrivals
      .filter((a) => a.ev.event === 'response.output_text.delta')
      .map((a) => (a.ev.json as { delta: string }).delta);
    assert.equal(deltas.join(''), text);
    // Each event came on its own, about one delay after the previous one, not all at the end.
    const gaps = arrivals.slice(1).map((a, i) => a.at - arrivals[i].at);
    assert.ok(gaps.filter((g) => g >= 35).length >= n - 3, `gaps: ${gaps.map((g) => g.toFixed(0)).join(' ')}`);
    assert.ok(arrivals[0].at < 200, `the first event arrived after ${arrivals[0].at} ms`);
  });

  it('ends a chat stream on [DONE]', async () => {
    server = await startServer();
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/chat', chatBody, { stream: true });
    const events: ServerSentEvent[] = [];
    for await (const ev of r.events ?? []) {
      events.push(ev);
    }
    await client.dispose();
    assert.ok(events.length > 3);
    assert.ok(events.every((e) => e.data !== '[DONE]' && e.json !== undefined));
    assert.deepEqual((events.at(-1)?.json as { choices: unknown[] }).choices, []);
  });

  it('cancellation mid-stream ends the iteration quietly and closes the connection', async () => {
    server = await startServer({ streamDelayMs: 50 });
    const { client } = clientFor(server.url, server.keys.acme);
    const ac = new AbortController();
    const r = await client.post('/v1/responses', responsesBody, { stream: true, signal: ac.signal });
    let seen = 0;
    for await (const _ev of r.events ?? []) {
      if (++seen === 3) {
        ac.abort();
      }
    }
    assert.equal(seen, 3);
    await server.waitForAborts(1);
    assert.equal(server.requests[0].aborted, true);
    await client.dispose();
  });

  it('breaking out of the loop closes the connection too', async () => {
    server = await startServer({ streamDelayMs: 50 });
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/responses', responsesBody, { stream: true });
    for await (const _ev of r.events ?? []) {
      break;
    }
    await server.waitForAborts(1);
    await client.dispose();
  });

  it('a reset mid-stream throws a network ServiceError from the iterator', async () => {
    server = await startServer({ streamDelayMs: 20, faults: { resetMidBody: { rate: 1 }, paths: ['/v1/responses'] } });
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/responses', responsesBody, { stream: true });
    let seen = 0;
    await assert.rejects(
      (async () => {
        for await (const _ev of r.events ?? []) {
          seen++;
        }
      })(),
      (e: unknown) =>
        e instanceof ServiceError && e.kind === 'network' && /was reset before the answer was complete/.test(e.message),
    );
    assert.ok(seen > 0);
    await client.dispose();
  });

  it('a stream that goes quiet times out on the idle timeout, not a total one', async () => {
    server = await startServer({ streamDelayMs: 100 });
    const { client } = clientFor(server.url, server.keys.acme, { timeouts: { bodyIdleMs: 400 } });
    // Every gap (100 ms) is under the idle timeout though the whole stream takes longer than it.
    const r = await client.post('/v1/responses', shortBody, { stream: true });
    let n = 0;
    for await (const _ev of r.events ?? []) {
      n++;
    }
    assert.ok(n >= 10);
    await client.dispose();
    await server.close();

    server = await startServer({ streamDelayMs: 600 });
    const slow = clientFor(server.url, server.keys.acme, { timeouts: { bodyIdleMs: 200 } }).client;
    const r2 = await slow.post('/v1/responses', shortBody, { stream: true });
    await assert.rejects(
      (async () => {
        for await (const _ev of r2.events ?? []) {
          // reading
        }
      })(),
      (e: unknown) => e instanceof ServiceError && e.kind === 'timeout' && /stopped sending its answer/.test(e.message),
    );
    await slow.dispose();
  });

  it('a broken event in the stream is delivered as data without json, the stream goes on', async () => {
    server = await startServer({ faults: { malformedJson: { rate: 1 }, paths: ['/v1/chat'] } });
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/chat', chatBody, { stream: true });
    const events: ServerSentEvent[] = [];
    for await (const ev of r.events ?? []) {
      events.push(ev);
    }
    await client.dispose();
    assert.equal(events.filter((e) => e.json === undefined).length, 1);
    assert.ok(events.length > 3);
  });
});
