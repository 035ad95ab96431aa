import * as assert from 'node:assert/strict';
import { startServer, type FaultOptions, type RunningServer } from '../../server';
import { clientFor, expectError } from '../helpers/api';

const PATHS = { paths: ['/v1/models'] };

describe('client: faults of the local service', function () {
  this.timeout(20000);
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (faults: FaultOptions, pageSize = 100): Promise<RunningServer> => {
    server = await startServer({ pageSize, faults: { ...PATHS, ...faults } });
    return server;
  };

  it('429 with Retry-After is retried after the time the server asked, then succeeds', async () => {
    const s = await start({ rateLimit: { first: 2, retryAfterSeconds: 1 } });
    const { client, log } = clientFor(s.url, s.keys.acme, { retries: { max: 3, baseDelayMs: 10 } });
    const t0 = Date.now();
    const r = await client.listModels();
    const took = Date.now() - t0;
    await client.dispose();
    assert.ok(r.models.length > 0);
    assert.deepEqual(
      s.requests.map((q) => q.status),
      [429, 429, 200],
    );
    assert.ok(took >= 2000 && took < 4000, `honoured Retry-After twice (took ${took} ms)`);
    assert.deepEqual(
      log.map((e) => [e.status, e.attempt]),
      [
        [429, 1],
        [429, 2],
        [200, 3],
      ],
    );
    assert.match(log[0].error ?? '', /^The server answered 429 Too Many Requests: Rate limit reached/);
  });

  it('429 for longer than the client waits is not slept on: rateLimited with retryAfterMs', async () => {
    const s = await start({ rateLimit: { first: 5, retryAfterSeconds: 120 } });
    const { client } = clientFor(s.url, s.keys.acme);
    const e = await expectError(client.listModels(), 'rateLimited');
    await client.dispose();
    assert.equal(e.status, 429);
    assert.equal(e.retryAfterMs, 120_000);
    assert.equal(s.requests.length, 1);
  });

  it('503 until retries are exhausted gives the last error, after max+1 attempts', async () => {
    const s = await start({ unavailable: { rate: 1 } });
    const { client } = clientFor(s.url, s.keys.acme, { retries: { max: 2, baseDelayMs: 10 } });
    const e = await expectError(client.listModels(), 'http');
    await client.dispose();
    assert.equal(e.status, 503);
    assert.match(
      e.message,
      /^The server answered 503 Service Unavailable: The server is overloaded\. Please retry your request after a brief wait\. \(request id req_[0-9a-f]+\)$/,
    );
    assert.equal(s.requests.length, 3);
  });

  it('POSTs are never retried', async () => {
    server = await startServer({ faults: { unavailable: { rate: 1 }, paths: ['/v1/chat'] } });
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.post('/v1/chat', { model: 'aurora-1', messages: [{ role: 'user', content: 'x' }] });
    await client.dispose();
    assert.equal(r.status, 503);
    assert.equal(r.error?.kind, 'http');
    assert.equal(server.requests.length, 1);
  });

  it('a reset mid-body is retried for GETs; when it persists it is a network error', async () => {
    let s = await start({ resetMidBody: { first: 1 } });
    let { client } = clientFor(s.url, s.keys.acme);
    assert.ok((await client.listModels()).models.length > 0);
    await client.dispose();
    assert.equal(s.requests.length, 2);
    await s.close();

    s = await start({ resetMidBody: { rate: 1 } });
    ({ client } = clientFor(s.url, s.keys.acme, { retries: { max: 1, baseDelayMs: 10 } }));
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.equal(e.message, `The connection to ${s.url} was reset before the answer was complete.`);
    assert.equal(s.requests.length, 2);
  });

  it('an HTML error page becomes one clean line', async () => {
    const s = await start({ htmlError: { rate: 1 } });
    const { client } = clientFor(s.url, s.keys.acme, { retries: { max: 0 } });
    const e = await expectError(client.listModels(), 'http');
    await client.dispose();
    assert.equal(e.status, 502);
    assert.match(
      e.message,
      /^The server answered 502 Bad Gateway \(an HTML page, probably from a proxy or gateway in front of the service\) \(request id req_[0-9a-f]+\)$/,
    );
    assert.ok(!e.message.includes('<'));
  });

  it('malformed JSON is invalidResponse, for the list and for one model', async () => {
    const s = await start({ malformedJson: { rate: 1 } });
    const { client } = clientFor(s.url, s.keys.acme);
    const e = await expectError(client.listModels(), 'invalidResponse');
    assert.match(
      e.message,
      /^The model list from http:\/\/127\.0\.0\.1:\d+ is not valid JSON \(.+\) \(request id req_[0-9a-f]+\)\.$/,
    );
    await expectError(client.getModel('aurora-1'), 'invalidResponse');
    await client.dispose();
  });

  it('a server that never answers times out after the headers timeout', async () => {
    const s = await start({ hang: { rate: 1 } });
    const { client } = clientFor(s.url, s.keys.acme, { timeouts: { headersMs: 300 }, retries: { max: 0 } });
    const t0 = Date.now();
    const e = await expectError(client.listModels(), 'timeout');
    await client.dispose();
    assert.ok(Date.now() - t0 < 2000);
    assert.equal(e.message, `${s.url} did not answer within 300 ms (timed out waiting for the response headers).`);
  });

  it('slow headers within the timeout are fine', async () => {
    const s = await start({ latencyMs: 150 });
    const { client } = clientFor(s.url, s.keys.acme, { timeouts: { headersMs: 2000 } });
    assert.ok((await client.listModels()).models.length > 0);
    await client.dispose();
  });

  it('cancelling a list mid-way (during a backoff) rejects with aborted at once', async () => {
    const s = await start({ unavailable: { rate: 1, retryAfterSeconds: 5 } });
    const { client } = clientFor(s.url, s.keys.acme, { retries: { max: 3, maxDelayMs: 10_000 } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const t0 = Date.now();
    const e = await expectError(client.listModels({ signal: ac.signal }), 'aborted');
    await client.dispose();
    assert.ok(Date.now() - t0 < 1500);
    assert.equal(e.message, 'The request was cancelled.');
  });
});
