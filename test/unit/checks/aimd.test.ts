// Concurrency that halves on a 429 and grows back one slot per `limit` answers, never above the maximum.
import * as assert from 'node:assert/strict';
import { AimdLimiter } from '../../../src/checks/core/aimd';

const tick = () => new Promise((r) => setImmediate(r));

describe('checks/core/aimd', () => {
  it('starts at the maximum (at least 1) and hands out that many slots at once', async () => {
    assert.equal(new AimdLimiter(0).limit, 1);
    assert.equal(new AimdLimiter(2.7).limit, 2);
    const l = new AimdLimiter(2);
    const a = await l.acquire();
    await l.acquire();
    assert.equal(l.inFlight, 2);
    let third = false;
    void l.acquire().then(() => (third = true));
    await tick();
    assert.equal(third, false, 'a third request started past the limit');
    a();
    await tick();
    assert.equal(third, true);
    assert.equal(l.inFlight, 2);
  });

  it('a freed slot lets exactly one waiter in, the first', async () => {
    const l = new AimdLimiter(1);
    const a = await l.acquire();
    const started: string[] = [];
    void l.acquire().then(() => started.push('second'));
    void l.acquire().then(() => started.push('third'));
    await tick();
    assert.deepEqual(started, []);
    a();
    await tick();
    assert.deepEqual(started, ['second']);
    assert.equal(l.inFlight, 1);
  });

  it('releasing twice frees one slot', async () => {
    const l = new AimdLimiter(1);
    const a = await l.acquire();
    a();
    a();
    assert.equal(l.inFlight, 0);
  });

  it('a 429 halves the limit (not below 1); waiters start as slots free under it, in order', async () => {
    const l = new AimdLimiter(8);
    l.onRateLimited();
    assert.equal(l.limit, 4);
    l.onRateLimited();
    l.onRateLimited();
    l.onRateLimited();
    assert.equal(l.limit, 1);
    assert.equal(l.decreases, 4);
    const first = await l.acquire();
    const order: number[] = [];
    void l.acquire().then((r) => (order.push(1), r()));
    void l.acquire().then((r) => (order.push(2), r()));
    first();
    await tick();
    await tick();
    assert.deepEqual(order, [1, 2]);
  });

  it('grows back by one slot after `limit` answers in a row, up to the maximum; a 429 restarts the count', async () => {
    const l = new AimdLimiter(4);
    l.onRateLimited();
    assert.equal(l.limit, 2);
    l.onAnswered();
    assert.equal(l.limit, 2);
    l.onAnswered();
    assert.equal(l.limit, 3);
    l.onAnswered();
    l.onAnswered();
    l.onRateLimited();
    assert.equal(l.limit, 1);
    l.onAnswered();
    assert.equal(l.limit, 2);
    for (let i = 0; i < 20; i++) {
      l.onAnswered();
    }
    assert.equal(l.limit, 4);
  });

  it('a slot added by growth wakes a waiter', async () => {
    const l = new AimdLimiter(2);
    l.onRateLimited();
    await l.acquire();
    let started = false;
    void l.acquire().then(() => (started = true));
    await tick();
    assert.equal(started, false);
    l.onAnswered();
    await tick();
    assert.equal(started, true);
  });
});
