import * as assert from 'node:assert/strict';
import { joinUrl, parseBaseUrl } from '../../src/api/baseUrl';
import { ServiceError } from '../../src/api/errors';
import { redact } from '../../src/api/redact';
import { isRetryable, retryAfterMs, retryDelay, retryPolicy } from '../../src/api/retry';

describe('api/baseUrl', () => {
  const url = (base: string, path = '/v1/models'): string => joinUrl(parseBaseUrl(base), path);

  it('keeps a path prefix and never doubles /v1', () => {
    assert.equal(url('https://host'), 'https://host/v1/models');
    assert.equal(url('https://host/'), 'https://host/v1/models');
    assert.equal(url('https://host/api'), 'https://host/api/v1/models');
    assert.equal(url('https://host/api//'), 'https://host/api/v1/models');
    assert.equal(url('https://host/api/v1'), 'https://host/api/v1/models');
    assert.equal(url('https://host/v1/'), 'https://host/v1/models');
    assert.equal(url('  https://host:8443/x/V1  '), 'https://host:8443/x/v1/models');
    assert.equal(url('https://host', 'models/a%2Fb'), 'https://host/v1/models/a%2Fb');
  });

  it('gives config errors for unusable URLs, insecure for plain http off loopback', () => {
    const kind = (text: string, allow = false): string | undefined => {
      try {
        parseBaseUrl(text, allow);
        return undefined;
      } catch (e) {
        assert.ok(e instanceof ServiceError);
        return e.kind;
      }
    };
    for (const bad of [
      '',
      '   ',
      'host',
      'ftp://host',
      'https://u:p@host',
      'https://host?x=1',
      'https://host#f',
      'https://',
    ]) {
      assert.equal(kind(bad), 'config', bad);
    }
    assert.equal(kind('http://models.example'), 'insecure');
    assert.equal(kind('http://models.example', true), undefined);
    for (const ok of ['http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:3000', 'http://app.localhost']) {
      assert.equal(kind(ok), undefined, ok);
    }
  });
});

describe('api/redact', () => {
  it('removes a key verbatim, URL-encoded and JSON-escaped, leaving the rest', () => {
    const key = 'sk-a/b"c+d';
    const text = `k=${key} u=${encodeURIComponent(key)} j=${JSON.stringify(key)}`;
    const out = redact(text, key);
    assert.ok(!out.includes(key) && !out.includes(encodeURIComponent(key)) && !out.includes('a/b\\"c'));
    assert.ok(out.startsWith('k=[redacted] u=[redacted]'));
    assert.equal(redact('nothing', undefined), 'nothing');
  });
});

describe('api/retry', () => {
  it('reads retry-after-ms, Retry-After seconds and dates', () => {
    assert.equal(retryAfterMs({ 'retry-after-ms': '250' }), 250);
    assert.equal(retryAfterMs({ 'retry-after': '2' }), 2000);
    assert.equal(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString() }, 7_000), 3000);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }), undefined);
    assert.equal(retryAfterMs({}), undefined);
  });

  it('retries 429/502/503/504 and resets, not quota errors or x-should-retry: false', () => {
    const e = (status: number, code?: string): ServiceError =>
      new ServiceError({ kind: 'http', message: '', status, code });
    assert.deepEqual(
      [429, 502, 503, 504, 500, 400, 404].map((s) => isRetryable(e(s))),
      [true, true, true, true, false, false, false],
    );
    assert.equal(isRetryable(e(429, 'insufficient_quota')), false);
    assert.equal(isRetryable(e(503), { 'x-should-retry': 'false' }), false);
    assert.equal(isRetryable(new ServiceError({ kind: 'network', code: 'ECONNRESET', message: '' })), true);
    assert.equal(isRetryable(new ServiceError({ kind: 'network', code: 'ECONNREFUSED', message: '' })), false);
  });

  it('backs off with jitter, honours the server, and is capped in count and time', () => {
    const p = retryPolicy({ max: 3, baseDelayMs: 100, maxDelayMs: 1000, maxTotalMs: 1500 });
    assert.equal(
      retryDelay(p, 1, undefined, 0, () => 0),
      50,
    );
    assert.equal(
      retryDelay(p, 3, undefined, 0, () => 0.999),
      399,
    );
    assert.equal(retryDelay(p, 4, undefined, 0), undefined);
    assert.equal(
      retryDelay(p, 1, 800, 0, () => 0),
      800,
    );
    assert.equal(retryDelay(p, 1, 5000, 0), undefined, 'a server asking for more than maxDelayMs is not waited for');
    assert.equal(
      retryDelay(p, 2, 800, 900, () => 0),
      undefined,
      'the total budget',
    );
  });
});
