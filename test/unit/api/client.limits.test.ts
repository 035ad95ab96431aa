/**
 * The client at its edges: the list limits and what they say, the probe of Diagnose Connection, a blank model id,
 * POST answers without a content type or with a 300, closing with a request in flight, a proxy on loopback.
 */
import * as assert from 'node:assert/strict';
import { clientFor, expectError, json, useRecorder, type Recorder } from '../helpers/api';

const KEY = 'sk-limits-test-0123456789';
const entry = (id: string): object => ({ id, family: 'f', version: '1' });

describe('client: limits, the probe and other edges', function () {
  this.timeout(20000);
  const recorder = useRecorder();

  /** Pages of one model each, `count` of them, linked by `?page=N`. */
  const pagedList = async (count: number): Promise<Recorder> =>
    recorder((req, res, self) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      const next: Record<string, string> =
        n < count ? { link: `<${self.url}/v1/models?page=${n + 1}>; rel="next"` } : {};
      json(res, 200, { data: [entry(`m${n}`), { no: 'id' }] }, next);
    });

  it('waits as long as the server asks before it retries a GET', async () => {
    let n = 0;
    const rec = await recorder((_req, res) =>
      n++ === 0
        ? json(res, 503, { error: { message: 'busy' } }, { 'retry-after-ms': '300' })
        : json(res, 200, { data: [entry('m1')] }),
    );
    const { client } = clientFor(rec.url, KEY, { retries: { max: 1, baseDelayMs: 10, maxDelayMs: 2000 } });
    const started = performance.now();
    const r = await client.listModels();
    assert.ok(performance.now() - started >= 290, 'the retry came after the 300 ms the server asked for');
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['m1'],
    );
    assert.equal(rec.seen.length, 2);
    await client.dispose();
  });

  it('stops at exactly maxModels, saying so in the singular, and counts the entries it skipped', async () => {
    const rec = await pagedList(3);
    const { client } = clientFor(rec.url, KEY, { maxModels: 1 });
    const pages: number[] = [];
    const r = await client.listModels({ onPage: (m) => pages.push(m.length) });
    await client.dispose();
    assert.equal(rec.seen.length, 1, 'no page after the limit was reached');
    assert.deepEqual(
      r.models.map((m) => m.id),
      ['m1'],
    );
    assert.equal(r.skipped, 1);
    assert.deepEqual(r.warnings, [
      'Stopped after 1 model (the limit set by modelAccess.limits.maxModels); the list may be incomplete.',
    ]);
    assert.deepEqual(pages, [1], 'the rows so far were shown once');
    rec.seen.length = 0;
    const all = clientFor(rec.url, KEY);
    const full = await all.client.listModels({ onPage: (m) => pages.push(m.length) });
    await all.client.dispose();
    assert.equal(full.skipped, 3, 'one skipped entry on each of three pages');
    assert.deepEqual(pages, [1, 1, 2], 'rows shown after each page but the last');
  });

  it('stops after the first page once the list passes maxListBytes, in the singular', async () => {
    const rec = await pagedList(3);
    const { client } = clientFor(rec.url, KEY, { maxListBytes: 10 });
    const r = await client.listModels();
    await client.dispose();
    assert.equal(rec.seen.length, 1);
    assert.deepEqual(r.warnings, [
      'Stopped after 1 page: the list passed 0 MB (the limit set by modelAccess.limits.maxListMegabytes); it may be incomplete.',
    ]);
  });

  it('the probe of Diagnose Connection: one GET with its status and time, or the failure', async () => {
    const rec = await recorder((_req, res) => json(res, 401, { error: { message: 'no' } }));
    const { client, log } = clientFor(rec.url, KEY);
    const t0 = performance.now();
    const answered = await client.probe();
    const wall = performance.now() - t0;
    await client.dispose();
    assert.equal(answered.status, 401);
    assert.equal(answered.error, undefined);
    assert.ok(answered.elapsedMs >= 0 && answered.elapsedMs <= wall + 1, `${answered.elapsedMs} ms`);
    assert.deepEqual(
      log.map((e) => [e.method, e.path, e.status]),
      [['GET', '/v1/models', 401]],
    );
    const down = clientFor('http://127.0.0.1:1', KEY).client;
    const failed = await down.probe();
    await down.dispose();
    assert.equal(failed.status, undefined);
    assert.equal(failed.error, 'Could not connect to http://127.0.0.1:1: connection refused.');
    assert.ok(failed.elapsedMs >= 0 && failed.elapsedMs < 5000);
  });

  it('a blank model id is refused before anything is sent', async () => {
    const rec = await recorder();
    const { client } = clientFor(rec.url, KEY);
    const e = await expectError(client.getModel('  '), 'config');
    await client.dispose();
    assert.equal(e.message, 'A model id is required.');
    assert.equal(rec.seen.length, 0);
  });

  it('a POST answer without a content type shows none; a 300 to a POST is an error', async () => {
    const rec = await recorder((req, res) => {
      if (req.url === '/v1/chat') {
        res.writeHead(200);
        res.end('plain');
      } else {
        json(res, 300, { choices: [] });
      }
    });
    const { client } = clientFor(rec.url, KEY);
    const plain = await client.post('/v1/chat', { model: 'm' });
    const multiple = await client.post('/v1/responses', { model: 'm' });
    await client.dispose();
    assert.equal(plain.contentType, '');
    assert.equal(plain.body?.text, 'plain');
    assert.equal(plain.error, undefined);
    assert.equal(multiple.status, 300);
    assert.equal(multiple.error?.kind, 'http');
  });

  it('closing the client cuts a request still waiting after a grace second, and refuses new ones', async () => {
    const rec = await recorder(() => undefined); // never answers
    const { client } = clientFor(rec.url, KEY, { retries: { max: 0 } });
    const pending = client.listModels();
    pending.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await client.dispose();
    const took = Date.now() - t0;
    assert.ok(took >= 900 && took < 3000, `dispose waited ${took} ms`);
    await assert.rejects(pending);
    const e = await expectError(client.listModels(), 'config');
    assert.match(e.message, /was closed/);
  });

  it('a service on this machine is reached directly; a failure names it, not the proxy that is set', async () => {
    const { client } = clientFor('http://127.0.0.1:1', KEY, {
      proxy: { url: 'http://proxy.corp:3128', source: 'http.proxy' },
      retries: { max: 0 },
    });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.equal(e.message, 'Could not connect to http://127.0.0.1:1: connection refused.');
  });

  it('a service elsewhere without a proxy: a failure names the service', async () => {
    const { client } = clientFor('https://no-such-host.invalid', KEY, { retries: { max: 0 } });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.match(e.message, /^Could not connect to https:\/\/no-such-host\.invalid: the host name /);
  });

  it('a streamed answer reports the time to its headers', async () => {
    const rec = await recorder((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"delta":"a"}\n\n');
      }, 120);
    });
    const { client } = clientFor(rec.url, KEY);
    const t0 = performance.now();
    const r = await client.post('/v1/responses', { model: 'm' }, { stream: true });
    const wall = performance.now() - t0;
    for await (const _ of r.events!) {
      // drain
    }
    await client.dispose();
    assert.ok(r.elapsedMs >= 100 && r.elapsedMs <= wall + 1, `${r.elapsedMs} ms of ${wall}`);
  });
});
