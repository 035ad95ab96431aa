import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { parseBaseUrl } from '../../../src/api/baseUrl';
import { ServiceError } from '../../../src/api/errors';
import { redactor } from '../../../src/api/redact';
import { requestIdOf, Transport, type Exchange, type TransportOptions } from '../../../src/api/transport';
import type { RequestLogEntry } from '../../../src/api/types';

const KEY = 'sk-transport-123';
const redact = redactor([KEY]);

/** A dispatcher that records each request and answers with `answer` (or throws it). */
function fakeDispatcher(answer: () => Partial<Dispatcher.ResponseData> | Error) {
  const seen: Dispatcher.RequestOptions[] = [];
  const dispatcher = {
    request: async (opts: Dispatcher.RequestOptions) => {
      seen.push(opts);
      const a = answer();
      if (a instanceof Error) {
        throw a;
      }
      return { statusCode: 200, headers: {}, body: Readable.from([]), ...a };
    },
  } as unknown as Dispatcher;
  return { dispatcher, seen };
}

function transport(answer: () => Partial<Dispatcher.ResponseData> | Error, extra: Partial<TransportOptions> = {}) {
  const log: RequestLogEntry[] = [];
  const fake = fakeDispatcher(answer);
  const t = new Transport(parseBaseUrl('https://svc.example/api'), fake.dispatcher, {
    userAgent: 'model-access-test/1',
    connectMs: 1_000,
    headersMs: 2_000,
    bodyIdleMs: 3_000,
    onRequest: (e) => log.push(e),
    ...extra,
  });
  return { t, seen: fake.seen, log };
}

const exchange = (chunks: (string | Buffer)[] | Readable): Exchange => ({
  status: 200,
  headers: {},
  body: (Array.isArray(chunks) ? Readable.from(chunks.map((c) => Buffer.from(c))) : chunks) as Exchange['body'],
  url: 'https://svc.example/api/v1/x',
  startedAt: 0,
  headersAt: 0,
});

describe('api/transport', () => {
  it('reads the request id from the first header that has one, capped at 200 characters', () => {
    const names = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-ms-request-id', 'x-correlation-id', 'cf-ray'];
    for (const [i, name] of names.entries()) {
      const later = Object.fromEntries(names.slice(i + 1).map((n) => [n, `later-${n}`]));
      assert.equal(requestIdOf({ ...later, [name]: `id-${name}` }), `id-${name}`, name);
    }
    assert.equal(requestIdOf({ 'x-request-id': '', 'request-id': 'r' }), 'r');
    assert.equal(requestIdOf({ 'x-request-id': ['a', 'b'] }), 'a');
    assert.equal(requestIdOf({ 'x-request-id': 'x'.repeat(200) })?.length, 200);
    assert.equal(requestIdOf({ 'x-request-id': 'y'.repeat(201) }), 'y'.repeat(200));
    assert.equal(requestIdOf({}), undefined);
  });

  it('sends the key, the user agent, the caller headers and the timeouts to the configured origin only', async () => {
    const { t, seen } = transport(() => ({ statusCode: 201, headers: { 'x-request-id': `id-${KEY}` } }));
    const ex = await t.send({
      method: 'POST',
      url: 'https://svc.example/api/v1/chat?x=1',
      key: KEY,
      redact,
      headers: { 'content-type': 'application/json', 'user-agent': 'override' },
      body: '{}',
    });
    assert.equal(seen.length, 1);
    const [req] = seen;
    assert.equal((req as { origin?: string }).origin, 'https://svc.example');
    assert.equal(req.path, '/api/v1/chat?x=1');
    assert.equal(req.method, 'POST');
    assert.deepEqual(req.headers, {
      authorization: `Bearer ${KEY}`,
      'user-agent': 'override',
      'content-type': 'application/json',
    });
    assert.equal(req.body, '{}');
    assert.equal(req.headersTimeout, 2_000);
    assert.equal(req.bodyTimeout, 3_000);
    assert.equal(ex.status, 201);
    assert.equal(ex.url, 'https://svc.example/api/v1/chat?x=1');
    assert.equal(ex.requestId, 'id-[redacted]');
    const plain = transport(() => ({}));
    await plain.t.send({ method: 'GET', url: 'https://svc.example/api/v1/models', key: KEY, redact });
    assert.equal((plain.seen[0].headers as Record<string, string>)['user-agent'], 'model-access-test/1');
  });

  it('extra headers in any case never replace the key, the user agent or a header the request sets', async () => {
    const { t, seen } = transport(() => ({}), {
      headers: { Authorization: 'Basic ZXZpbA==', 'USER-AGENT': 'evil', Accept: 'text/plain', 'X-Org': 'acme' },
    });
    await t.send({
      method: 'GET',
      url: 'https://svc.example/api/v1/models',
      key: KEY,
      redact,
      headers: { accept: 'application/json' },
    });
    assert.deepEqual(seen[0].headers, {
      'X-Org': 'acme',
      authorization: `Bearer ${KEY}`,
      'user-agent': 'model-access-test/1',
      accept: 'application/json',
    });
  });

  it('refuses to send the key to another origin, and a request already cancelled', async () => {
    const { t, seen } = transport(() => ({}));
    await assert.rejects(
      t.send({ method: 'GET', url: 'https://evil.example/api/v1/models', key: KEY, redact }),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.kind === 'config' &&
        e.message ===
          'Refused to send a request to https://evil.example: only https://svc.example (the configured service) receives your API key.',
    );
    await assert.rejects(
      t.send({ method: 'GET', url: 'http://svc.example/api/v1/models', key: KEY, redact }),
      (e: unknown) => e instanceof ServiceError && e.kind === 'config',
    );
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      t.send({ method: 'GET', url: 'https://svc.example/api/v1/models', key: KEY, redact, signal: ac.signal }),
      (e: unknown) => e instanceof ServiceError && e.kind === 'aborted' && e.message === 'The request was cancelled.',
    );
    assert.equal(seen.length, 0, 'nothing went over the wire');
  });

  it('turns a failed request into a ServiceError and logs it, redacted, with its attempt', async () => {
    const { t, log } = transport(() =>
      Object.assign(new Error(`Headers Timeout for ${KEY}`), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
    );
    await assert.rejects(
      t.send({ method: 'GET', url: `https://svc.example/api/v1/models?k=${KEY}`, key: KEY, redact, attempt: 2 }),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.kind === 'timeout' &&
        e.message === 'https://svc.example did not answer within 2 s (timed out waiting for the response headers).',
    );
    assert.equal(log.length, 1);
    assert.equal(log[0].method, 'GET');
    assert.equal(log[0].path, '/api/v1/models?k=[redacted]');
    assert.equal(log[0].attempt, 2);
    assert.match(log[0].error ?? '', /did not answer within 2 s/);
    assert.ok(log[0].elapsedMs >= 0 && log[0].elapsedMs < 1000, `took ${log[0].elapsedMs} ms in the log`);
  });

  it('says "cancelled" for any failure once the caller has aborted', async () => {
    const ac = new AbortController();
    const { t } = transport(() => {
      ac.abort();
      return Object.assign(new Error('socket'), { code: 'ECONNRESET' });
    });
    await assert.rejects(
      t.send({ method: 'GET', url: 'https://svc.example/api/v1/models', key: KEY, redact, signal: ac.signal }),
      (e: unknown) => e instanceof ServiceError && e.kind === 'aborted' && e.host === 'https://svc.example',
    );
  });

  it('uses the limit of the phase that failed in the message', () => {
    const { t } = transport(() => ({}));
    const timeout = (code: string, phase: 'connect' | 'headers' | 'body') =>
      t.failure(Object.assign(new Error('t'), { code }), phase, redact).message;
    assert.match(timeout('UND_ERR_CONNECT_TIMEOUT', 'connect'), /within 1 s/);
    assert.match(timeout('UND_ERR_HEADERS_TIMEOUT', 'headers'), /within 2 s/);
    assert.match(timeout('UND_ERR_BODY_TIMEOUT', 'body'), /within 3 s/);
    const own = new ServiceError({ kind: 'config', message: 'own' });
    const ac = new AbortController();
    ac.abort();
    assert.equal(t.failure(own, 'body', redact, ac.signal), own);
  });

  it('logs through a failing logger without failing, and logs nothing without one', () => {
    const { t } = transport(() => ({}), {
      onRequest: () => {
        throw new Error('logger broke');
      },
    });
    t.log({ method: 'GET', path: '/x', elapsedMs: 1 }, redact);
    const silent = transport(() => ({}), { onRequest: undefined });
    silent.t.log({ method: 'GET', path: '/x', elapsedMs: 1 }, redact);
    const { t: logging, log } = transport(() => ({}));
    logging.log({ method: 'GET', path: `/x?${KEY}`, elapsedMs: 1, error: `bad ${KEY}` }, redact);
    logging.log({ method: 'GET', path: '/y', elapsedMs: 1, status: 200 }, redact);
    assert.deepEqual(log, [
      { method: 'GET', path: '/x?[redacted]', elapsedMs: 1, error: 'bad [redacted]' },
      { method: 'GET', path: '/y', elapsedMs: 1, status: 200, error: undefined },
    ]);
  });

  it('reads a body in pieces, redacted, and cuts it at exactly max bytes', async () => {
    const { t } = transport(() => ({}));
    assert.deepEqual(await t.readBody(exchange(['ab', 'cd', `-${KEY}`]), 1000, redact), {
      text: 'abcd-[redacted]',
      bytes: 5 + KEY.length,
      truncated: false,
    });
    assert.deepEqual(await t.readBody(exchange(['abcdef']), 6, redact), { text: 'abcdef', bytes: 6, truncated: false });
    assert.deepEqual(await t.readBody(exchange(['abc', 'def', 'ghi']), 6, redact), {
      text: 'abcdef',
      bytes: 6,
      truncated: true,
    });
    assert.deepEqual(await t.readBody(exchange(['abc', 'defg', 'hi']), 6, redact), {
      text: 'abcdef',
      bytes: 6,
      truncated: true,
    });
    assert.deepEqual(await t.readBody(exchange(['é']), 1000, redact), { text: 'é', bytes: 2, truncated: false });
    assert.deepEqual(await t.readBody(exchange([]), 10, redact), { text: '', bytes: 0, truncated: false });
  });

  it('closes a body it cut, and ignores a late error from it', async () => {
    const { t } = transport(() => ({}));
    const body = new Readable({ read() {} });
    body.push('0123456789');
    const read = await t.readBody(exchange(body), 4, redact);
    assert.deepEqual(read, { text: '0123', bytes: 4, truncated: true });
    assert.equal(body.destroyed, true);
    body.emit('error', new Error('late reset'));
  });

  it('leaves nothing behind on a body it read: no listener but the late-error guard, no idle timer firing later', async () => {
    const { t } = transport(() => ({}), { bodyIdleMs: 30 });
    let destroyed = 0;
    const body = Object.assign(new EventEmitter(), {
      destroy: () => {
        destroyed++;
      },
    });
    const pending = t.readBody(exchange(body as unknown as Readable), 100, redact);
    body.emit('data', Buffer.from('ab'));
    body.emit('end');
    assert.deepEqual(await pending, { text: 'ab', bytes: 2, truncated: false });
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(destroyed, 0, 'the idle timer did not fire after the end');
    assert.deepEqual(
      ['data', 'end', 'error'].map((e) => body.listenerCount(e)),
      [0, 0, 1],
    );
  });

  it('fails a body that breaks, or stays quiet longer than the idle limit', async () => {
    const { t } = transport(() => ({}), { bodyIdleMs: 50 });
    const broken = new Readable({
      read() {
        this.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
      },
    });
    await assert.rejects(
      t.readBody(exchange(broken), 100, redact),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.message === 'The connection to https://svc.example was reset before the answer was complete.',
    );
    const quiet = new Readable({ read() {} });
    quiet.push('partial');
    const started = Date.now();
    await assert.rejects(
      t.readBody(exchange(quiet), 100, redact),
      (e: unknown) => e instanceof ServiceError && e.kind === 'timeout' && /within 50 ms/.test(e.message),
    );
    assert.ok(Date.now() - started >= 40);
    const ac = new AbortController();
    const cancelled = new Readable({ read() {} });
    const pending = t.readBody(exchange(cancelled), 100, redact, ac.signal);
    ac.abort();
    cancelled.destroy(new Error('aborted'));
    await assert.rejects(pending, (e: unknown) => e instanceof ServiceError && e.kind === 'aborted');
  });
});
