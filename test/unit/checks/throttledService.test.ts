// The client a check run sends through: 429 and 503 waited out and sent again, the limiter told of each
// answer, the waits counted; other answers and GETs untouched.
import * as assert from 'node:assert/strict';
import type { ModelService, PostResult } from '../../../src/api/types';
import { AimdLimiter } from '../../../src/checks/core/aimd';
import { newWaitStats, sleep, throttledService, waitedBefore } from '../../../src/checks/core/throttledService';

function answer(status: number, headers: Record<string, string> = {}): PostResult {
  return { status, statusText: '', headers, elapsedMs: 1, contentType: 'application/json', body: undefined };
}

function fake(statuses: Array<number | PostResult>): ModelService & { posts: number } {
  const queue = [...statuses];
  const service = {
    posts: 0,
    endpointUrl: (p: string) => `http://x${p}`,
    listModels: async () => ({ models: [], skipped: 0, warnings: [], pages: 1 }),
    getModel: async () => ({ id: 'm', raw: {} }),
    post: async () => {
      service.posts++;
      const next = queue.shift() ?? 200;
      return typeof next === 'number' ? answer(next, next === 429 ? { 'retry-after': '2' } : {}) : next;
    },
    uploadFile: async () => answer(200),
    dispose: async () => undefined,
  };
  return service;
}

describe('checks/core/throttledService', () => {
  it('waits out 429 and 503 as asked, then returns the answer; counts the waits and halves on each 429', async () => {
    const inner = fake([429, answer(503, { 'retry-after-ms': '10' }), 200]);
    const limiter = new AimdLimiter(4);
    const stats = newWaitStats();
    const waited: number[] = [];
    const s = throttledService(
      inner,
      limiter,
      { maxRetries: 5, maxWaitMs: 30_000, baseWaitMs: 1000 },
      stats,
      async (ms) => {
        waited.push(ms);
      },
    );
    const r = await s.post('/v1/chat', {});
    assert.equal(r.status, 200);
    assert.equal(inner.posts, 3);
    assert.deepEqual(waited, [2000, 10]);
    assert.deepEqual(stats, { waits: 2, waitedMs: 2010, rateLimited: 1 });
    // 4 halved to 2 by the 429; the 503 and the 200 are two answers in a row at 2: one slot back.
    assert.equal(limiter.limit, 3);
    assert.equal(limiter.decreases, 1);
    assert.equal(limiter.inFlight, 0);
    assert.equal(waitedBefore(answer(200)), 0);
  });

  it('says how long an answer waited (for time expectations), and 0 for one that came at once', async () => {
    const s = throttledService(
      fake([429, 200]),
      new AimdLimiter(1),
      { maxRetries: 5, maxWaitMs: 30, baseWaitMs: 1 },
      newWaitStats(),
    );
    const r = await s.post('/v1/chat', {});
    assert.equal(r.status, 200);
    // The fake asks for 2 s; the policy caps it at 30 ms, and the default sleep really waits.
    assert.ok(waitedBefore(r) >= 20 && waitedBefore(r) < 1000, String(waitedBefore(r)));
    const direct = await throttledService(
      fake([200]),
      new AimdLimiter(1),
      { maxRetries: 5, maxWaitMs: 30, baseWaitMs: 1 },
      newWaitStats(),
    ).post('/v1/chat', {});
    assert.equal(waitedBefore(direct), 0);
  });

  it('closes the stream of a refused answer before waiting', async () => {
    let closed = false;
    const refused: PostResult = {
      ...answer(429, { 'retry-after': '0' }),
      events: {
        [Symbol.asyncIterator]: () => ({
          next: async () => ({ done: true, value: undefined }),
          return: async () => ((closed = true), { done: true, value: undefined }),
        }),
        batches: async function* () {},
      },
    };
    const r = await throttledService(
      fake([refused, 200]),
      new AimdLimiter(1),
      { maxRetries: 5, maxWaitMs: 1, baseWaitMs: 1 },
      newWaitStats(),
    ).post('/v1/chat', {});
    assert.equal(r.status, 200);
    assert.equal(closed, true);
  });

  it('gives the last refusal back when the retries are used up', async () => {
    const inner = fake([429, 429, 429]);
    const stats = newWaitStats();
    const s = throttledService(
      inner,
      new AimdLimiter(1),
      { maxRetries: 2, maxWaitMs: 5, baseWaitMs: 1 },
      stats,
      async () => undefined,
    );
    const r = await s.post('/v1/chat', {});
    assert.equal(r.status, 429);
    assert.equal(inner.posts, 3);
    assert.equal(stats.waits, 2);
    assert.equal(stats.rateLimited, 3);
  });

  it('sends anything else once: 500, 400, 200', async () => {
    for (const status of [500, 400, 200]) {
      const inner = fake([status]);
      const stats = newWaitStats();
      const r = await throttledService(
        inner,
        new AimdLimiter(1),
        { maxRetries: 5, maxWaitMs: 5, baseWaitMs: 1 },
        stats,
      ).post('/v1/chat', {});
      assert.equal(r.status, status);
      assert.equal(inner.posts, 1);
      assert.equal(stats.waits, 0);
    }
  });

  it('stops waiting when the run is cancelled', async () => {
    const inner = fake([429, 200]);
    const controller = new AbortController();
    const s = throttledService(
      inner,
      new AimdLimiter(1),
      { maxRetries: 5, maxWaitMs: 60_000, baseWaitMs: 1 },
      newWaitStats(),
    );
    const pending = s.post('/v1/chat', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const r = await pending;
    assert.equal(r.status, 429);
    assert.equal(inner.posts, 1);
  });

  it('a POST that throws frees its slot', async () => {
    const inner = fake([]);
    inner.post = async () => {
      throw new Error('refused');
    };
    const limiter = new AimdLimiter(1);
    const s = throttledService(inner, limiter, { maxRetries: 5, maxWaitMs: 5, baseWaitMs: 1 }, newWaitStats());
    await assert.rejects(s.post('/v1/chat', {}), /refused/);
    assert.equal(limiter.inFlight, 0);
  });

  it('passes everything but POST through', async () => {
    const inner = fake([]);
    const s = throttledService(
      inner,
      new AimdLimiter(1),
      { maxRetries: 1, maxWaitMs: 1, baseWaitMs: 1 },
      newWaitStats(),
    );
    assert.equal(s.endpointUrl('/v1/chat'), 'http://x/v1/chat');
    assert.equal((await s.listModels()).pages, 1);
    assert.equal((await s.getModel('m')).id, 'm');
    assert.equal((await s.uploadFile('f', { purpose: 'x' } as never)).status, 200);
    assert.equal(s.probe, undefined);
    let disposed = false;
    inner.dispose = async () => void (disposed = true);
    await s.dispose();
    assert.equal(disposed, true);
    const probed = { ...inner, probe: async () => ({ status: 200, elapsedMs: 3 }) };
    const p = throttledService(
      probed,
      new AimdLimiter(1),
      { maxRetries: 1, maxWaitMs: 1, baseWaitMs: 1 },
      newWaitStats(),
    );
    assert.deepEqual(await p.probe?.(), { status: 200, elapsedMs: 3 });
  });

  it('sleep without a signal waits, and one aborted while waiting ends it', async () => {
    const t = performance.now();
    await sleep(15);
    assert.ok(performance.now() - t >= 10);
    const c = new AbortController();
    setTimeout(() => c.abort(), 5);
    const u = performance.now();
    await sleep(10_000, c.signal);
    assert.ok(performance.now() - u < 2000);
  });

  it('sleep ends at once on an aborted signal', async () => {
    const c = new AbortController();
    c.abort();
    const t = performance.now();
    await sleep(10_000, c.signal);
    assert.ok(performance.now() - t < 1000);
  });
});
