/**
 * The request log (the Output channel's lines): every exchange the client makes appears once, with the method
 * that went over the wire, its path, status, a plausible time and the failure a person would read.
 */
import * as assert from 'node:assert/strict';
import type { RequestLogEntry } from '../../../src/api/types';
import { clientFor, expectError, json, useRecorder } from '../helpers/api';

const KEY = 'sk-log-test-0123456789';

describe('client: the request log', function () {
  this.timeout(20000);
  const recorder = useRecorder();

  /** Each entry without its time, and checks the time is within what the test waited. */
  const lines = (log: RequestLogEntry[], wallMs: number): Omit<RequestLogEntry, 'elapsedMs' | 'requestId'>[] =>
    log.map(({ elapsedMs, requestId: _r, ...rest }) => {
      assert.ok(elapsedMs >= 0 && elapsedMs <= wallMs + 1, `elapsedMs ${elapsedMs} within the ${wallMs} ms waited`);
      return rest;
    });

  it('a redirect hop, a slow answer and a 404 are each logged as the GET they were, with status and time', async () => {
    const rec = await recorder((req, res) => {
      if (req.url === '/v1/models/old') {
        res.writeHead(307, { location: '/v1/models/slow' });
        res.end();
      } else if (req.url === '/v1/models/slow') {
        setTimeout(() => json(res, 200, { id: 'slow', family: 'f', version: '1' }), 150);
      } else {
        json(res, 404, { error: { message: 'No such model' } });
      }
    });
    const { client, log } = clientFor(rec.url, KEY);
    const t0 = performance.now();
    const model = await client.getModel('old');
    await expectError(client.getModel('gone'), 'notFound');
    const wall = performance.now() - t0;
    await client.dispose();
    assert.equal(model.id, 'slow');
    assert.deepEqual(lines(log, wall), [
      { method: 'GET', path: '/v1/models/old', status: 307, error: undefined, attempt: 1 },
      { method: 'GET', path: '/v1/models/slow', status: 200, error: undefined, attempt: 1 },
      {
        method: 'GET',
        path: '/v1/models/gone',
        status: 404,
        error: log[2].error,
        attempt: 1,
      },
    ]);
    assert.match(log[2].error ?? '', /404.*No such model/);
    assert.ok(log[1].elapsedMs >= 140, `the slow answer took ${log[1].elapsedMs} ms in the log`);
  });

  it('an answer whose body breaks after a 200 is logged once, as the GET with its failure', async () => {
    const rec = await recorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":[');
      setTimeout(() => res.destroy(), 30);
    });
    const { client, log } = clientFor(rec.url, KEY, { retries: { max: 0 } });
    const t0 = performance.now();
    await expectError(client.listModels(), 'network');
    const wall = performance.now() - t0;
    await client.dispose();
    const shown = lines(log, wall);
    assert.equal(shown.length, 1, JSON.stringify(log));
    assert.equal(shown[0].method, 'GET');
    assert.equal(shown[0].status, 200);
    assert.ok(shown[0].error, 'the failure is in the log line');
  });

  it('a POST, answered or refused, is logged as a POST with its status and error', async () => {
    const rec = await recorder((req, res) => {
      if (req.url === '/v1/chat') {
        json(res, 200, { ok: true });
      } else {
        json(res, 400, { error: { message: 'payload rejected' } });
      }
    });
    const { client, log } = clientFor(rec.url, KEY);
    const t0 = performance.now();
    const ok = await client.post('/v1/chat', { model: 'm' });
    const bad = await client.post('/v1/embeddings', { model: 'm' });
    const wall = performance.now() - t0;
    await client.dispose();
    assert.equal(ok.status, 200);
    assert.ok(ok.elapsedMs >= 0 && ok.elapsedMs <= wall + 1, `result time ${ok.elapsedMs}`);
    assert.equal(bad.status, 400);
    const shown = lines(log, wall);
    assert.deepEqual(
      shown.map((e) => [e.method, e.path, e.status]),
      [
        ['POST', '/v1/chat', 200],
        ['POST', '/v1/embeddings', 400],
      ],
    );
    assert.equal(shown[0].error, undefined);
    assert.match(shown[1].error ?? '', /400.*payload rejected/);
    assert.equal(shown[0].rateLimitHeaders, undefined, 'no rate-limit headers, none logged');
  });

  it("an answer's rate-limit headers ride with its log entry (for the last limits seen), redacted", async () => {
    const rec = await recorder((_req, res) => {
      res.setHeader('x-ratelimit-remaining-requests', '41');
      res.setHeader('x-ratelimit-limit-requests', '50');
      res.setHeader('retry-after', `2 ${KEY}`);
      json(res, 429, { error: { message: 'slow down' } });
    });
    const { client, log } = clientFor(rec.url, KEY);
    await client.post('/v1/chat', { model: 'm' });
    await client.dispose();
    assert.deepEqual(log[0].rateLimitHeaders, {
      'x-ratelimit-remaining-requests': '41',
      'x-ratelimit-limit-requests': '50',
      'retry-after': '2 [redacted]',
    });
  });

  it('a stream that breaks is logged a second time, saying the event stream failed', async () => {
    const rec = await recorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"delta":"a"}\n\n');
      setTimeout(() => res.destroy(), 30);
    });
    const { client, log } = clientFor(rec.url, KEY);
    const r = await client.post('/v1/responses', { model: 'm' }, { stream: true });
    await assert.rejects(async () => {
      for await (const _ of r.events!) {
        // drain
      }
    });
    await client.dispose();
    assert.deepEqual(
      log.map((e) => [e.method, e.path, e.status, e.error]),
      [
        ['POST', '/v1/responses', 200, undefined],
        ['POST', '/v1/responses', 200, 'the event stream failed'],
      ],
    );
  });

  it('the key never appears in a log line, even when the server puts it in the path it redirects to', async () => {
    const rec = await recorder((req, res) => {
      if (req.url === '/v1/models/a') {
        res.writeHead(302, { location: `/v1/models/${KEY}` });
        res.end();
      } else {
        json(res, 404, { error: { message: `unknown ${KEY}` } });
      }
    });
    const { client, log } = clientFor(rec.url, KEY);
    await expectError(client.getModel('a'), 'notFound');
    await client.dispose();
    assert.equal(log.length, 2);
    assert.ok(!JSON.stringify(log).includes(KEY), JSON.stringify(log));
  });

  it('an error answer whose body breaks is still logged, with its status and the failure', async () => {
    const rec = await recorder((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"error":');
      setTimeout(() => res.destroy(), 30);
    });
    const { client, log } = clientFor(rec.url, KEY, { retries: { max: 0 } });
    await expectError(client.getModel('m'), 'network');
    await client.dispose();
    assert.deepEqual(
      log.map((e) => [e.method, e.path, e.status, Boolean(e.error)]),
      [['GET', '/v1/models/m', 404, true]],
    );
  });
});

describe('client: answers and cancellations around the request', function () {
  this.timeout(20000);
  const recorder = useRecorder();

  it('the URL of an endpoint, with a service URL that works and with one that does not', () => {
    const ok = clientFor('http://127.0.0.1:9/api/v1', KEY).client;
    assert.equal(ok.endpointUrl('/v1/chat'), 'http://127.0.0.1:9/api/v1/chat');
    const bad = clientFor(' ftp://models.example/api//  ', KEY).client;
    assert.equal(bad.endpointUrl('/v1/chat'), 'ftp://models.example/api/v1/chat');
    assert.equal(bad.endpointUrl('v1/chat'), 'ftp://models.example/api/v1/chat');
  });

  it('a 300 answer without a Location is an error, not a list', async () => {
    const rec = await recorder((_req, res) => json(res, 300, { data: [{ id: 'm', family: 'f', version: '1' }] }));
    const { client } = clientFor(rec.url, KEY);
    const e = await expectError(client.listModels(), 'http');
    await client.dispose();
    assert.equal(e.status, 300);
  });

  it('a cancel while waiting to retry ends the call at once, as cancelled', async () => {
    const rec = await recorder((_req, res) => json(res, 503, { error: { message: 'busy' } }));
    const { client } = clientFor(rec.url, KEY, { retries: { max: 3, baseDelayMs: 5000, maxDelayMs: 5000 } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const t0 = Date.now();
    const e = await expectError(client.listModels({ signal: ac.signal }), 'aborted');
    await client.dispose();
    assert.equal(e.message, 'The request was cancelled.');
    assert.ok(Date.now() - t0 < 2000, `ended ${Date.now() - t0} ms after the start`);
    assert.equal(rec.seen.length, 1);
  });

  it('retries stop once their waits would pass the total allowed', async () => {
    const rec = await recorder((_req, res) => json(res, 503, { error: { message: 'busy' } }));
    const { client } = clientFor(rec.url, KEY, {
      retries: { max: 20, baseDelayMs: 60, maxDelayMs: 60, maxTotalMs: 200 },
    });
    await expectError(client.listModels(), 'http');
    await client.dispose();
    assert.ok(rec.seen.length >= 4 && rec.seen.length <= 8, `${rec.seen.length} attempts within 200 ms of waits`);
  });

  it('a first page whose next link is itself is read once, with a warning', async () => {
    const rec = await recorder((_req, res, self) =>
      json(
        res,
        200,
        { data: [{ id: 'm', family: 'f', version: '1' }] },
        { link: `<${self.url}/v1/models>; rel="next"` },
      ),
    );
    const { client } = clientFor(rec.url, KEY);
    const r = await client.listModels();
    await client.dispose();
    assert.equal(rec.seen.length, 1);
    assert.equal(r.models.length, 1);
    assert.match(r.warnings.join('\n'), /already read/);
  });
});
