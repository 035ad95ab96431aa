import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { ServiceError } from '../../../src/api/errors';
import {
  isRetryable,
  retryAfterMs,
  retryDelay,
  retrying,
  retryPolicy,
  sleep,
  type Attempt,
} from '../../../src/api/retry';

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

describe('api/retry: policy edges', () => {
  const e = (status: number, extra: { code?: string; type?: string } = {}): ServiceError =>
    new ServiceError({ kind: 'http', message: '', status, ...extra });

  it('defaults to 3 retries from 500 ms, 20 s per wait and 60 s in all; ignores unusable numbers', () => {
    assert.deepEqual(retryPolicy(), { max: 3, baseDelayMs: 500, maxDelayMs: 20_000, maxTotalMs: 60_000 });
    assert.deepEqual(retryPolicy({ max: -1, baseDelayMs: NaN, maxDelayMs: Infinity }), {
      max: 3,
      baseDelayMs: 500,
      maxDelayMs: 20_000,
      maxTotalMs: 60_000,
    });
    assert.deepEqual(retryPolicy({ max: 2.7, baseDelayMs: 0, maxDelayMs: 10, maxTotalMs: 0 }), {
      max: 2,
      baseDelayMs: 0,
      maxDelayMs: 10,
      maxTotalMs: 0,
    });
  });

  it('reads padded and fractional header values, the first of repeated ones, and past dates as 0', () => {
    assert.equal(retryAfterMs({ 'retry-after-ms': ' 12.6 ' }), 13);
    assert.equal(retryAfterMs({ 'retry-after-ms': ['40', '90'] }), 40);
    assert.equal(retryAfterMs({ 'retry-after-ms': '-5', 'retry-after': '1' }), 1000);
    assert.equal(retryAfterMs({ 'retry-after-ms': 'x1', 'retry-after': '1' }), 1000);
    assert.equal(retryAfterMs({ 'retry-after-ms': '1x', 'retry-after': '1' }), 1000);
    assert.equal(retryAfterMs({ 'retry-after-ms': '250.75' }), 251);
    assert.equal(retryAfterMs({ 'retry-after': ' 1.5 ' }), 1500);
    assert.equal(retryAfterMs({ 'retry-after': '1.25' }), 1250);
    // Neither seconds nor a date: no wait the server asked for (never NaN).
    assert.equal(retryAfterMs({ 'retry-after': '5 seconds' }), undefined);
    assert.equal(retryAfterMs({ 'retry-after': 'abc5' }), undefined);
    assert.equal(retryAfterMs({ 'retry-after': ['3', '9'] }), 3000);
    assert.equal(retryAfterMs({ 'retry-after': '   ' }), undefined);
    assert.equal(retryAfterMs({ 'retry-after': new Date(1_000).toUTCString() }, 5_000), 0);
    const now = Date.now();
    const later = retryAfterMs({ 'retry-after': new Date(now + 60_000).toUTCString() });
    assert.ok(later !== undefined && later > 55_000 && later <= 60_000, String(later));
  });

  it('follows x-should-retry in any case, and never retries a quota error', () => {
    assert.equal(isRetryable(e(500), { 'x-should-retry': ' TRUE ' }), true);
    assert.equal(isRetryable(e(503), { 'x-should-retry': ['False'] }), false);
    assert.equal(isRetryable(e(500), { 'x-should-retry': 'maybe' }), false);
    assert.equal(isRetryable(e(429, { type: 'insufficient_quota' })), false);
    assert.equal(isRetryable(e(503, { code: 'insufficient_quota' })), true);
    assert.equal(isRetryable(e(429, { code: 'rate_limit_exceeded' })), true);
    assert.equal(
      isRetryable(new ServiceError({ kind: 'network', code: 'ECONNRESET', message: '' }), {
        'x-should-retry': 'false',
      }),
      false,
    );
  });

  it('allows exactly max retries, a server wait of exactly maxDelayMs, and a total of exactly maxTotalMs', () => {
    const p = retryPolicy({ max: 2, baseDelayMs: 100, maxDelayMs: 300, maxTotalMs: 1000 });
    const zero = (): number => 0;
    assert.equal(retryDelay(p, 2, undefined, 0, zero), 100);
    assert.equal(retryDelay(p, 3, undefined, 0, zero), undefined);
    assert.equal(retryDelay(p, 1, 300, 0, zero), 300);
    assert.equal(retryDelay(p, 1, 301, 0, zero), undefined);
    assert.equal(retryDelay(p, 1, 200, 800, zero), 200);
    assert.equal(retryDelay(p, 1, 200, 801, zero), undefined);
  });

  it('doubles the step per attempt up to maxDelayMs, waiting between half and all of it', () => {
    const p = retryPolicy({ max: 10, baseDelayMs: 100, maxDelayMs: 700, maxTotalMs: 100_000 });
    const at = (attempt: number, r: number) => retryDelay(p, attempt, undefined, 0, () => r);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => at(n, 0)),
      [50, 100, 200, 350, 350],
    );
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => at(n, 0.5)),
      [75, 150, 300, 525],
    );
  });

  it('adds at most 250 ms (and at most half the base step) of jitter to a server-given wait', () => {
    const p = retryPolicy({ baseDelayMs: 100, maxDelayMs: 10_000 });
    const big = retryPolicy({ baseDelayMs: 2_000, maxDelayMs: 10_000 });
    assert.equal(
      retryDelay(p, 1, 1000, 0, () => 0.999),
      1050,
    );
    assert.equal(
      retryDelay(big, 1, 1000, 0, () => 0.999),
      1249,
    );
    assert.equal(
      retryDelay(big, 1, 1000, 0, () => 0.5),
      1125,
    );
  });

  it('sleeps the given time, and stops at once with the reason when aborted', async () => {
    const t0 = Date.now();
    await sleep(30);
    assert.ok(Date.now() - t0 >= 25);
    const before = new AbortController();
    before.abort(new Error('already'));
    await assert.rejects(sleep(10_000, before.signal), /already/);
    const during = new AbortController();
    const started = Date.now();
    setTimeout(() => during.abort(new Error('stopped')), 20);
    await assert.rejects(sleep(10_000, during.signal), /stopped/);
    assert.ok(Date.now() - started < 5_000);
    const done = new AbortController();
    await sleep(5, done.signal);
    done.abort(new Error('late'));
  });

  it('leaves no listener on a long-lived signal once a sleep is over', async () => {
    const session = new AbortController();
    for (let i = 0; i < 3; i++) {
      await sleep(1, session.signal);
    }
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);
  });
});

describe('api/retry: the loop', () => {
  const policy = retryPolicy({ max: 2, baseDelayMs: 100, maxDelayMs: 1000, maxTotalMs: 10_000 });
  const fail = (status: number, kind: 'http' | 'aborted' | 'config' = 'http'): Attempt<string> => ({
    failure: new ServiceError({ kind, message: `failed ${status}`, status }),
  });

  async function run(answers: Attempt<string>[]): Promise<{ result: string; waits: number[]; tries: number[] }> {
    const waits: number[] = [];
    const tries: number[] = [];
    let i = 0;
    const result = await retrying(
      policy,
      async (attempt) => {
        tries.push(attempt);
        return answers[i++];
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    return { result, waits, tries };
  }

  it('tries again after a retryable failure, waiting between tries, until a value comes', async () => {
    const r = await run([fail(503), fail(429), { value: 'list' }]);
    assert.equal(r.result, 'list');
    assert.deepEqual(r.tries, [1, 2, 3]);
    assert.equal(r.waits.length, 2);
    assert.ok(r.waits[0] >= 50 && r.waits[0] <= 100 && r.waits[1] >= 100 && r.waits[1] <= 200, String(r.waits));
  });

  it('gives the last failure when the retries are used up, and never retries a cancel, a set-up error or a 500', async () => {
    await assert.rejects(run([fail(503), fail(503), fail(502), { value: 'late' }]), /failed 502/);
    for (const answer of [fail(503, 'aborted'), fail(503, 'config'), fail(500)]) {
      const waits: number[] = [];
      await assert.rejects(
        retrying(
          policy,
          async () => answer,
          async (ms) => void waits.push(ms),
        ),
        /failed/,
      );
      assert.deepEqual(waits, []);
    }
  });

  it('honours the headers of the failed answer (x-should-retry: false) and stops when the wait rejects', async () => {
    const refused: Attempt<string> = { ...fail(503), headers: { 'x-should-retry': 'false' } };
    await assert.rejects(run([refused, { value: 'never' }]), /failed 503/);
    await assert.rejects(
      retrying(
        policy,
        async () => fail(503),
        async () => Promise.reject(new Error('cancelled while waiting')),
      ),
      /cancelled while waiting/,
    );
  });
});
