// Which answers to a check's POST are retried (429 but not insufficient_quota, 503; nothing else) and after
// how long (what the service asked, capped; else 1 s, 2 s, 4 s…).
import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { DEFAULT_POST_RETRY, retryReason, waitBeforeRetry } from '../../../src/checks/core/retryPolicy';

const error = (status: number, code?: string, type?: string) =>
  new ServiceError({ kind: 'http', status, code, type, message: 'm' });

describe('checks/core/retryPolicy', () => {
  it('retries 429 and 503 only; insufficient_quota is not waited out', () => {
    assert.equal(retryReason({ status: 429, error: error(429, 'rate_limit_exceeded') }), 'rateLimited');
    assert.equal(retryReason({ status: 429, error: undefined }), 'rateLimited');
    assert.equal(retryReason({ status: 503, error: error(503) }), 'unavailable');
    assert.equal(retryReason({ status: 429, error: error(429, 'insufficient_quota') }), undefined);
    assert.equal(retryReason({ status: 429, error: error(429, undefined, 'insufficient_quota') }), undefined);
    for (const status of [200, 400, 401, 404, 408, 500, 502, 504]) {
      assert.equal(retryReason({ status, error: undefined }), undefined, String(status));
    }
  });

  it('waits what retry-after-ms or retry-after says, capped; else doubling from the base', () => {
    const p = { maxRetries: 3, maxWaitMs: 10_000, baseWaitMs: 1000 };
    assert.equal(waitBeforeRetry(p, 1, { 'retry-after': '1' }), 1000);
    assert.equal(waitBeforeRetry(p, 1, { 'retry-after-ms': '250' }), 250);
    assert.equal(waitBeforeRetry(p, 1, { 'retry-after': '0' }), 0);
    assert.equal(waitBeforeRetry(p, 1, { 'retry-after': '3600' }), 10_000);
    const now = Date.parse('2026-11-27T12:00:00Z');
    assert.equal(waitBeforeRetry(p, 1, { 'retry-after': 'Fri, 27 Nov 2026 12:00:02 GMT' }, now), 2000);
    assert.equal(waitBeforeRetry(p, 1, {}), 1000);
    assert.equal(waitBeforeRetry(p, 2, {}), 2000);
    assert.equal(waitBeforeRetry(p, 3, {}), 4000);
    assert.equal(waitBeforeRetry(p, 4, {}), undefined);
    assert.equal(waitBeforeRetry(p, 4, { 'retry-after': '1' }), undefined);
    assert.equal(waitBeforeRetry({ ...p, maxWaitMs: 1500 }, 3, {}), 1500);
  });

  it('defaults: five retries, 30 s at most per wait, from 1 s', () => {
    assert.deepEqual(DEFAULT_POST_RETRY, { maxRetries: 5, maxWaitMs: 30_000, baseWaitMs: 1000 });
  });
});
