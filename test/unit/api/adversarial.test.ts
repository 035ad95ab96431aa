// Hostile servers and registries against the real client: every fault ends with a ServiceError a
// person can read, within a time limit, and nothing else escapes — no TypeError, no unhandled rejection.
import * as assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { ServiceError } from '../../../src/api/errors';
import { readEventStream } from '../../../src/api/sse';
import type { ServerSentEvent } from '../../../src/api/types';
import { startServer } from '../../server';
import { clientFor, expectError, startRecorder } from '../helpers/api';

const KEY = 'ma-adversarial-key-0001';

/** Fails the test if `promise` takes longer than `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('adversarial: faults end cleanly', function () {
  this.timeout(30_000);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => {
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, [], 'no unhandled rejection reached the process');
  });

  it('a slow-drip body stalls past the idle timeout: timeout, named as such', async () => {
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      // …and nothing more: the body never completes.
    });
    try {
      const { client } = clientFor(server.url, KEY, {
        timeouts: { headersMs: 2000, bodyIdleMs: 300 },
        retries: { max: 0 },
      });
      const e = await within(5000, expectError(client.listModels(), 'timeout'));
      assert.match(e.message, /stopped sending|within/);
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('a body dripping within the idle timeout is read to the end', async () => {
    const body = JSON.stringify({ data: [{ id: 'drip-1' }, { id: 'drip-2' }] });
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      const t = setInterval(() => {
        res.write(body.slice(i, i + 8));
        i += 8;
        if (i >= body.length) {
          clearInterval(t);
          res.end();
        }
      }, 20);
    });
    try {
      const { client } = clientFor(server.url, KEY, { timeouts: { bodyIdleMs: 500 } });
      const r = await within(5000, client.listModels());
      assert.deepEqual(
        r.models.map((m) => m.id),
        ['drip-1', 'drip-2'],
      );
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('a connection dropped mid-page on page 3 of 5: a network error after bounded retries', async () => {
    const server = await startRecorder((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      const next = page < 5 ? `<${'/v1/models'}?page=${page + 1}>; rel="next"` : undefined;
      res.writeHead(200, { 'content-type': 'application/json', ...(next ? { link: next } : {}) });
      const entries = JSON.stringify([{ id: `m-${page}-a` }, { id: `m-${page}-b` }]);
      if (page === 3) {
        res.write(entries.slice(0, 10));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.end(entries);
    });
    try {
      const { client } = clientFor(server.url, KEY, { retries: { max: 2, baseDelayMs: 10 } });
      const e = await within(10_000, expectError(client.listModels(), 'network'));
      assert.match(e.message, /reset|connect|closed/i);
      const page3 = server.seen.filter((s) => s.url.includes('page=3'));
      assert.equal(page3.length, 3, 'page 3 was tried once and retried twice, no more');
      assert.ok(!server.seen.some((s) => s.url.includes('page=4')), 'nothing after the broken page');
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('a 429 storm: retries are capped in count and time, then rateLimited with the wait asked', async () => {
    const server = await startServer({ keys: { acme: KEY }, faults: { rateLimit: { rate: 1, retryAfterSeconds: 1 } } });
    try {
      const { client } = clientFor(server.url, KEY, { retries: { max: 2, maxTotalMs: 5000 } });
      const started = Date.now();
      const e = await within(10_000, expectError(client.listModels(), 'rateLimited'));
      assert.equal(server.requests.length, 3, 'one try and two retries');
      assert.ok(Date.now() - started >= 2000, 'the Retry-After of the server was honoured');
      assert.equal(e.status, 429);
      assert.ok((e.retryAfterMs ?? 0) >= 1000);
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('invalid UTF-8 in a JSON body: invalidResponse or replacement characters, never a TypeError', async () => {
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        Buffer.concat([Buffer.from('{"data":[{"id":"bad-'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}]}')]),
      );
    });
    try {
      const { client } = clientFor(server.url, KEY);
      try {
        const r = await client.listModels();
        assert.equal(r.models.length, 1);
        assert.ok(r.models[0].id.startsWith('bad-'));
      } catch (e) {
        assert.ok(e instanceof ServiceError, String(e));
        assert.equal(e.kind, 'invalidResponse');
      }
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('a gzip bomb is not inflated: the compressed bytes are refused as not JSON', async () => {
    // Valid JSON once inflated (a list of one model after 200 MB of spaces, in ~200 KB): an inflating client
    // would either list the model or stop at its size limit, never call the body "not JSON".
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from('{"data":['),
        Buffer.alloc(200 * 1024 * 1024, 0x20),
        Buffer.from('{"id":"inflated"}]}'),
      ]),
    );
    const small = gzipSync(Buffer.from('{"data":[{"id":"inflated"}]}'));
    const server = await startRecorder((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(req.url?.includes('small') ? small : bomb);
    });
    try {
      const { client } = clientFor(server.url, KEY);
      const before = process.memoryUsage().rss;
      const e = await within(10_000, expectError(client.listModels(), 'invalidResponse'));
      assert.ok(process.memoryUsage().rss - before < 100 * 1024 * 1024, 'the body was never inflated in memory');
      assert.ok(e.message.length < 400, 'a short message, not the body');
      assert.doesNotMatch(e.message, /inflated|limit|MB/, e.message);
      await client.dispose();
      // A small gzipped list that would parse once inflated is refused the same way: nothing is inflated.
      const { client: other } = clientFor(`${server.url}/small`, KEY);
      await expectError(other.listModels(), 'invalidResponse');
      await other.dispose();
    } finally {
      await server.close();
    }
  });

  it('a huge POST answer is cut at the client limit and says so', async () => {
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && res.write(chunk)) {
          sent++;
        }
        if (sent >= 64) {
          res.end();
        } else {
          res.once('drain', pump);
        }
      };
      pump();
    });
    try {
      const { client } = clientFor(server.url, KEY, { maxBodyBytes: 4 * 1024 * 1024 });
      const r = await within(10_000, client.post('/v1/chat', { model: 'x' }));
      assert.ok(r.body?.truncated, 'marked truncated');
      assert.ok((r.body?.text.length ?? 0) <= 4 * 1024 * 1024);
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('an endless event stream ends when the caller stops reading, and the server sees the abort', async () => {
    let closed = false;
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const t = setInterval(() => res.write('data: {"delta":"x"}\n\n'), 2);
      res.on('close', () => {
        clearInterval(t);
        closed = true;
      });
    });
    try {
      const { client } = clientFor(server.url, KEY);
      const controller = new AbortController();
      const r = await client.post('/v1/chat', { stream: true }, { stream: true, signal: controller.signal });
      let n = 0;
      await within(
        5000,
        (async () => {
          for await (const _ of r.events ?? []) {
            if (++n === 200) {
              controller.abort();
            }
          }
        })(),
      );
      assert.ok(n >= 200);
      await within(
        3000,
        (async () => {
          while (!closed) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })(),
      );
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('an endless paging loop stops with a warning, keeping what was read, in bounded requests', async () => {
    const server = await startServer({ keys: { acme: KEY }, pagingLoop: true, pageSize: 5 });
    try {
      const { client } = clientFor(server.url, KEY);
      const r = await within(10_000, client.listModels());
      assert.ok(
        r.warnings.some((w) => /repeat|loop|again/i.test(w)),
        r.warnings.join('; '),
      );
      assert.ok(r.models.length >= 5);
      assert.ok(server.requests.length <= 10, `${server.requests.length} requests`);
      await client.dispose();
    } finally {
      await server.close();
    }
  });
});

describe('adversarial: hostile registries', function () {
  this.timeout(30_000);

  it('dangerous or oversized card links are dropped; hostile text stays plain text', async () => {
    const hostile = [
      { id: 'cmd', model_card_url: 'command:workbench.action.terminal.new' },
      { id: 'js', model_card_url: 'javascript:alert(1)' },
      { id: 'file', model_card_url: 'file:///etc/passwd' },
      { id: 'vs', model_card_url: 'vscode://some.extension/run' },
      { id: 'data', model_card_url: 'data:text/html,<script>alert(1)</script>' },
      { id: 'long', model_card_url: `https://cards.example/${'a'.repeat(100_000)}` },
      // Links a person could still open: 2,048 characters is the longest kept, one more is dropped.
      { id: 'longest', model_card_url: `https://cards.example/${'b'.repeat(2048 - 'https://cards.example/'.length)}` },
      { id: 'one-over', model_card_url: `https://cards.example/${'c'.repeat(2049 - 'https://cards.example/'.length)}` },
      { id: 'ok', model_card_url: 'https://cards.example/ok' },
      {
        id: '**bold** <img src=x onerror=alert(1)> [link](command:x)',
        family: '\u202Eevil\u0007\u0000',
        version: 'x'.repeat(10_000),
      },
    ];
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: hostile }));
    });
    try {
      const { client } = clientFor(server.url, KEY);
      const r = await client.listModels();
      const card = (id: string) => r.models.find((m) => m.id === id)?.cardUrl;
      for (const id of ['cmd', 'js', 'file', 'vs', 'data']) {
        assert.equal(card(id), undefined, `${id} link dropped`);
      }
      assert.equal(card('long'), undefined, 'a 100,000-character link is dropped');
      assert.equal(card('one-over'), undefined, 'a link over 2,048 characters is dropped');
      assert.equal(card('longest')?.length, 2048, 'a 2,048-character link is kept whole');
      assert.equal(card('ok'), 'https://cards.example/ok');
      const weird = r.models.find((m) => m.id.startsWith('**bold**'));
      assert.ok(weird, 'the markup id is kept as a plain string');
      assert.equal(typeof weird.family, 'string');
      assert.equal(typeof weird.version, 'string');
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('100,000 models with duplicates and missing fields parse quickly; the unusable ones are counted', async () => {
    const entries: unknown[] = [];
    for (let i = 0; i < 100_000; i++) {
      entries.push(
        i % 10 === 0
          ? { family: 'no-id' }
          : i % 7 === 0
            ? { id: 'dup', family: 'd' }
            : { id: `m-${i}`, version: i % 3 ? i : undefined },
      );
    }
    const body = JSON.stringify(entries);
    const server = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    try {
      const { client } = clientFor(server.url, KEY, { maxBodyBytes: 64 * 1024 * 1024 });
      const started = Date.now();
      const r = await client.listModels();
      assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
      assert.equal(r.skipped, 10_000, 'entries without an id are skipped and counted');
      assert.equal(r.models.length + r.skipped, 100_000);
      await client.dispose();
    } finally {
      await server.close();
    }
  });
});

describe('adversarial: SSE framing (fast-check)', function () {
  this.timeout(60_000);
  const mapError = (e: unknown) => new ServiceError({ kind: 'network', message: `stream failed: ${String(e)}` });
  async function events(chunks: Buffer[]): Promise<ServerSentEvent[]> {
    const out: ServerSentEvent[] = [];
    for await (const e of readEventStream(Readable.from(chunks), { mapError })) {
      out.push({ event: e.event, data: e.data, id: e.id });
    }
    return out;
  }
  function splitAt(buf: Buffer, cuts: number[]): Buffer[] {
    const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
    const parts: Buffer[] = [];
    let last = 0;
    for (const p of points) {
      parts.push(buf.subarray(last, p));
      last = p;
    }
    parts.push(buf.subarray(last));
    return parts.filter((p) => p.length > 0);
  }

  it('10,000 random chunkings of a valid stream give the same events (seed 7)', async () => {
    const eventArb = fc.record({
      event: fc.option(fc.stringMatching(/^[a-z.]{1,12}$/), { nil: undefined }),
      data: fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' ')),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        async (evs, cuts, crlf) => {
          const nl = crlf ? '\r\n' : '\n';
          const text = evs.map((e) => `${e.event ? `event: ${e.event}${nl}` : ''}data: ${e.data}${nl}${nl}`).join('');
          const whole = await events([Buffer.from(text)]);
          const chunked = await events(splitAt(Buffer.from(text), cuts));
          assert.deepEqual(chunked, whole);
          assert.deepEqual(
            whole.map((e) => e.data),
            evs.map((e) => e.data),
          );
        },
      ),
      { numRuns: 10_000, seed: 7 },
    );
  });

  it('10,000 random byte streams end cleanly or with a ServiceError, never anything else (seed 11)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 6 }), async (chunks) => {
        try {
          await events(chunks.map((c) => Buffer.from(c)));
        } catch (e) {
          assert.ok(e instanceof ServiceError, `escaped: ${String(e)}`);
        }
      }),
      { numRuns: 10_000, seed: 11 },
    );
  });
});
