import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { isRetryable, retryAfterMs, retryDelay, retryPolicy } from '../../../src/api/retry';

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
