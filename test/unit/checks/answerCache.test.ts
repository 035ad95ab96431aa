// The cache for re-runs: keyed by endpoint, model, catalog version and the exact body; only successful
// answers kept; streams kept once read to the end and replayed.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EventStream, ModelService, PostResult, ServerSentEvent } from '../../../src/api/types';
import {
  cacheBinding,
  openEntry,
  sealEntry,
  bodyModel,
  bodyText,
  cacheKey,
  cachingService,
  catalogVersions,
  replayEvents,
  type CacheStats,
  type CacheStore,
} from '../../../src/checks/core/answerCache';
import { defaultCacheFolder, openCacheFolder } from '../../../src/checks/core/cacheFolder';

/** The binding of one key at one service: what names and seals its entries. */
const B = cacheBinding('ma-test-key', { origin: 'https://svc.example' });

function memory(): CacheStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: (k) => map.get(k), put: (k, v) => void map.set(k, v) };
}

function service(answers: PostResult[]): ModelService & { bodies: unknown[] } {
  const s = {
    bodies: [] as unknown[],
    endpointUrl: (p: string) => `https://svc.example${p}`,
    listModels: async () => ({
      models: [
        { id: 'm', version: '2026-01', raw: {} },
        { id: 'plain', raw: {} },
      ],
      skipped: 0,
      warnings: [],
      pages: 1,
    }),
    getModel: async () => ({ id: 'm', raw: {} }),
    post: async (_e: string, body: unknown) => {
      s.bodies.push(body);
      return answers.shift() ?? json(200, { ok: true });
    },
    uploadFile: async () => json(200, {}),
    dispose: async () => undefined,
  };
  return s;
}

function json(status: number, value: unknown): PostResult {
  const text = JSON.stringify(value);
  return {
    status,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    elapsedMs: 5,
    contentType: 'application/json',
    body: { json: value, text, bytes: text.length, truncated: false },
  };
}

async function read(events: EventStream | undefined): Promise<string[]> {
  const out: string[] = [];
  for await (const e of events ?? []) {
    out.push(e.data);
  }
  return out;
}

describe('checks/core/answerCache', () => {
  const stats = (): CacheStats => ({ hits: 0, misses: 0, unwritten: 0 });

  it('keys by endpoint, model, version and every byte of the body', () => {
    const k = cacheKey(B, 'u', 'm', 'v', '{"a":1}');
    assert.match(k, /^[0-9a-f]{64}$/);
    assert.notEqual(k, cacheKey(B, 'u2', 'm', 'v', '{"a":1}'));
    assert.notEqual(k, cacheKey(B, 'u', 'm2', 'v', '{"a":1}'));
    assert.notEqual(k, cacheKey(B, 'u', 'm', 'v2', '{"a":1}'));
    assert.notEqual(k, cacheKey(B, 'u', 'm', 'v', '{"a": 1}'));
    assert.equal(bodyText('{"x"}'), '{"x"}');
    assert.equal(bodyText({ x: 1 }), '{"x":1}');
    assert.equal(bodyModel('{"model":"m"}'), 'm');
    assert.equal(bodyModel('{"model":1}'), '');
    assert.equal(bodyModel('not json'), '');
    assert.equal(bodyModel('null'), '');
  });

  it('answers a repeated request from the store; a changed body or a new model version goes to the service', async () => {
    const inner = service([]);
    const store = memory();
    const st = stats();
    let version = 'v1';
    const s = cachingService(inner, store, async () => version, st, B);
    const first = await s.post('/v1/chat', '{"model":"m","x":1}');
    const again = await s.post('/v1/chat', '{"model":"m","x":1}');
    assert.equal(inner.bodies.length, 1);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.status, 200);
    assert.equal(again.headers['x-model-access-cache'], 'hit');
    await s.post('/v1/chat', '{"model":"m","x":2}');
    assert.equal(inner.bodies.length, 2);
    await s.post('/v1/embeddings', '{"model":"m","x":1}');
    assert.equal(inner.bodies.length, 3);
    version = 'v2';
    await s.post('/v1/chat', '{"model":"m","x":1}');
    assert.equal(inner.bodies.length, 4);
    assert.deepEqual(st, { hits: 1, misses: 4, unwritten: 0 });
  });

  it('keeps no error answer and no truncated body; keeps 2xx from 200 to 299', async () => {
    const truncated = json(200, {});
    truncated.body!.truncated = true;
    const inner = service([json(429, { error: {} }), json(500, {}), json(300, {}), json(199, {}), truncated]);
    const store = memory();
    const s = cachingService(inner, store, async () => '', stats(), B);
    for (let i = 0; i < 5; i++) {
      await s.post('/v1/chat', { model: 'm' });
    }
    assert.equal(store.map.size, 0);
    await cachingService(service([json(299, {})]), store, async () => '', stats(), B).post('/v1/chat', { model: 'm' });
    assert.equal(store.map.size, 1);
  });

  it('a body without a model asks for no version; the version is part of the key', async () => {
    const asked: string[] = [];
    const store = memory();
    const s = cachingService(service([]), store, async (m) => (asked.push(m), 'v9'), stats(), B);
    await s.post('/v1/chat', '{"x":1}');
    await s.post('/v1/chat', '{"model":"m"}');
    assert.deepEqual(asked, ['m']);
    assert.ok(store.map.has(cacheKey(B, 'https://svc.example/v1/chat', 'm', 'v9', '{"model":"m"}')));
    assert.ok(store.map.has(cacheKey(B, 'https://svc.example/v1/chat', '', '', '{"x":1}')));
  });

  it('an entry of another shape is a miss', async () => {
    for (const kept of [
      '{"v":2,"status":200,"contentType":"application/json"}',
      '{"v":1,"contentType":"application/json"}',
      '{"v":1,"status":200}',
      'null',
    ]) {
      const inner = service([]);
      const st = stats();
      const sealed = sealEntry(B, cacheKey(B, 'https://svc.example/v1/chat', '', '', '{}'), kept);
      await cachingService(inner, { get: () => sealed, put: () => undefined }, async () => '', st, B).post(
        '/v1/chat',
        {},
      );
      assert.deepEqual([st.hits, st.misses, inner.bodies.length], [0, 1, 1], kept);
    }
    const good = sealEntry(
      B,
      cacheKey(B, 'https://svc.example/v1/chat', '', '', '{}'),
      '{"v":1,"status":201,"statusText":"Created","contentType":"application/json"}',
    );
    const st = stats();
    const r = await cachingService(service([]), { get: () => good, put: () => undefined }, async () => '', st, B).post(
      '/v1/chat',
      {},
    );
    assert.deepEqual([r.status, r.statusText, st.hits], [201, 'Created', 1]);
  });

  it('a stream read to its end after the run was cancelled is not kept', async () => {
    const streamed: PostResult = {
      ...json(200, {}),
      body: undefined,
      contentType: 'text/event-stream',
      events: replayEvents([{ data: 'a' }]),
    };
    const store = memory();
    const c = new AbortController();
    const r = await cachingService(service([streamed]), store, async () => '', stats(), B).post(
      '/v1/chat',
      {},
      { signal: c.signal },
    );
    c.abort();
    await read(r.events);
    assert.equal(store.map.size, 0);
  });

  it('keeps a stream once read to its end, and replays its events; a stream read halfway is not kept', async () => {
    const events: ServerSentEvent[] = [{ data: 'a' }, { data: 'b' }];
    const streamed: PostResult = {
      ...json(200, {}),
      body: undefined,
      contentType: 'text/event-stream',
      events: replayEvents(events),
    };
    const inner = service([streamed, { ...streamed, events: replayEvents(events) }]);
    const store = memory();
    const s = cachingService(inner, store, async () => '', stats(), B);
    const first = await s.post('/v1/chat', { model: 'm', stream: true });
    assert.equal(store.map.size, 0, 'kept before it was read');
    assert.deepEqual(await read(first.events), ['a', 'b']);
    assert.equal(store.map.size, 1);
    const replay = await s.post('/v1/chat', { model: 'm', stream: true });
    assert.equal(inner.bodies.length, 1);
    assert.deepEqual(await read(replay.events), ['a', 'b']);
    const batches: string[][] = [];
    for await (const b of replay.events!.batches()) {
      batches.push(b.map((e) => e.data));
    }
    assert.deepEqual(batches, [['a', 'b']]);
    const half = await s.post('/v1/chat', { model: 'm', stream: true, n: 2 });
    for await (const _ of half.events ?? []) {
      break;
    }
    assert.equal(store.map.size, 1);
  });

  it('an entry that cannot be read is a miss; one that cannot be written is counted, and the answer still comes', async () => {
    const inner = service([]);
    const st = stats();
    const broken: CacheStore = {
      get: () => '{"v":1,"status":"x"}',
      put: () => {
        throw new Error('disk full');
      },
    };
    const r = await cachingService(inner, broken, async () => '', st, B).post('/v1/chat', { model: 'm' });
    assert.equal(r.status, 200);
    // Unsealed text under the name is not an entry of this key: rejected, and the request sent.
    assert.deepEqual(st, { hits: 0, misses: 1, unwritten: 1, rejected: 1 });
    const garbage: CacheStore = { get: () => 'not json', put: () => undefined };
    await cachingService(inner, garbage, async () => '', st, B).post('/v1/chat', { model: 'm' });
    assert.equal(st.misses, 2);
  });

  describe('bound to who asked (issue 44)', () => {
    const endpoint = 'https://svc.example/v1/chat';
    const body = '{"model":"m"}';

    it('names entries by origin, headers, secret headers and a one-way fingerprint of the key, never the key', () => {
      const name = cacheKey(B, endpoint, 'm', 'v', body);
      assert.match(name, /^[0-9a-f]{64}$/);
      const other = (b: ReturnType<typeof cacheBinding>) => cacheKey(b, endpoint, 'm', 'v', body);
      assert.notEqual(other(cacheBinding('ma-test-key-2', { origin: 'https://svc.example' })), name);
      assert.notEqual(other(cacheBinding('ma-test-key', { origin: 'https://staging.svc.example' })), name);
      assert.notEqual(
        other(cacheBinding('ma-test-key', { origin: 'https://svc.example', headers: { 'X-Org': 'a' } })),
        name,
      );
      assert.notEqual(other(cacheBinding('ma-test-key', { origin: 'https://svc.example', secrets: ['s'] })), name);
      assert.equal(other(cacheBinding('ma-test-key', { origin: 'https://svc.example' })), name, 'stable across runs');
      assert.equal(
        cacheKey(cacheBinding('k', { origin: 'o', headers: { A: '1', b: '2' } }), endpoint, 'm', 'v', body),
        cacheKey(cacheBinding('k', { origin: 'o', headers: { B: '2', a: '1' } }), endpoint, 'm', 'v', body),
        'header order and case do not matter',
      );
      const sha = createHash('sha256').update('ma-test-key').digest('hex');
      const stored = sealEntry(B, name, '{"v":1}');
      for (const text of [name, stored]) {
        assert.ok(!text.includes('ma-test-key') && !text.includes(sha.slice(0, 16)), text);
      }
    });

    it('a changed, planted, moved or other-key entry fails its seal: not used, said, sent again, then replaced', async () => {
      const inner = service([json(200, { answer: 'live' })]);
      const store = memory();
      const st = stats();
      const rejected: string[] = [];
      const s = cachingService(inner, store, async () => 'v', st, B, { onRejected: (w) => rejected.push(w) });
      await s.post('/v1/chat', body);
      const name = cacheKey(B, endpoint, 'm', 'v', body);
      const good = store.map.get(name)!;
      assert.equal(openEntry(B, name, good), good.slice(65));
      const forged = good.replace('live', 'lies');
      const planted = sealEntry(
        cacheBinding('attacker-key', { origin: 'https://svc.example' }),
        name,
        good.slice(65).replace('live', 'lies'),
      );
      const moved = sealEntry(B, 'another-name', good.slice(65).replace('live', 'lies'));
      for (const bad of [forged, planted, moved, good.slice(65).replace('live', 'lies'), 'x'.repeat(64) + '\n{}', '']) {
        store.map.set(name, bad);
        inner.bodies.length = 0;
        const r = await s.post('/v1/chat', body);
        assert.deepEqual(r.body?.json, { ok: true }, 'the answer came from the service');
        assert.equal(inner.bodies.length, 1, bad.slice(0, 80));
        assert.notEqual(store.map.get(name), bad, 'the bad entry was replaced');
        assert.ok(openEntry(B, name, store.map.get(name)!));
      }
      assert.equal(st.rejected, 6);
      assert.deepEqual(rejected, Array(6).fill('/v1/chat (model m)'));
      const replay = await s.post('/v1/chat', body);
      assert.equal(replay.headers['x-model-access-cache'], 'hit');
    });

    it("what is stored passes through the run's redaction before it is sealed", async () => {
      const store = memory();
      const s = cachingService(
        service([json(200, { echo: 'token s3cr3t-value' })]),
        store,
        async () => '',
        stats(),
        B,
        {
          redact: (t) => t.replaceAll('s3cr3t-value', '[redacted]'),
        },
      );
      await s.post('/v1/chat', body);
      const [stored] = [...store.map.values()];
      assert.ok(!stored.includes('s3cr3t-value'));
      assert.match(stored, /\[redacted\]/);
      const replay = await s.post('/v1/chat', body);
      assert.deepEqual(replay.body?.json, { echo: 'token [redacted]' });
    });
  });

  it('catalogVersions lists once and gives each model its version, or nothing', async () => {
    const inner = service([]);
    let lists = 0;
    const list = inner.listModels;
    inner.listModels = async () => (lists++, list());
    const v = catalogVersions(inner);
    assert.equal(await v('m'), '2026-01');
    assert.equal(await v('plain'), '');
    assert.equal(await v('unknown'), '');
    assert.equal(lists, 1);
    inner.listModels = async () => {
      throw new Error('down');
    };
    assert.equal(await catalogVersions(inner)('m'), '');
  });

  it('the folder: under the OS cache dir by default; files written whole; unwritable → a warning', () => {
    assert.equal(
      defaultCacheFolder({ XDG_CACHE_HOME: '/x' }, 'linux', '/home/a'),
      path.join('/x', 'model-access', 'answers'),
    );
    assert.equal(defaultCacheFolder({}, 'linux', '/home/a'), path.join('/home/a', '.cache', 'model-access', 'answers'));
    assert.equal(
      defaultCacheFolder({}, 'darwin', '/Users/a'),
      path.join('/Users/a', 'Library', 'Caches', 'model-access', 'answers'),
    );
    assert.equal(
      defaultCacheFolder({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\U'),
      path.join('C:\\L', 'model-access', 'answers'),
    );
    assert.equal(
      defaultCacheFolder({}, 'win32', 'C:\\U'),
      path.join('C:\\U', 'AppData', 'Local', 'model-access', 'answers'),
    );
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-cache-'));
    try {
      const opened = openCacheFolder(path.join(tmp, 'answers'));
      assert.ok(!('warning' in opened));
      const store = opened.store;
      const key = 'ab'.padEnd(64, '0');
      assert.equal(store.get(key), undefined);
      store.put(key, 'v');
      assert.equal(store.get(key), 'v');
      assert.deepEqual(fs.readdirSync(path.join(tmp, 'answers', 'ab')), [`${key}.json`]);
      if (process.platform !== 'win32') {
        // A link where an entry belongs is read as nothing valid (it then fails its seal), never followed.
        const entry = path.join(tmp, 'answers', 'ab', `${key}.json`);
        fs.writeFileSync(path.join(tmp, 'elsewhere'), 'v');
        fs.rmSync(entry);
        fs.symlinkSync(path.join(tmp, 'elsewhere'), entry);
        assert.equal(store.get(key), '');
        store.put(key, 'v2');
        assert.ok(fs.lstatSync(entry).isFile(), 'put replaced the link');
        assert.equal(fs.readFileSync(path.join(tmp, 'elsewhere'), 'utf8'), 'v');
      }
      // The default folder is several levels under the OS cache dir, none of them there yet.
      const nestedOpened = openCacheFolder(path.join(tmp, 'cache', 'model-access', 'answers'));
      assert.ok(!('warning' in nestedOpened), JSON.stringify(nestedOpened));
      const nested = nestedOpened.store;
      nested.put(key, 'w');
      assert.equal(nested.get(key), 'w');
      fs.writeFileSync(path.join(tmp, 'file'), '');
      const blocked = openCacheFolder(path.join(tmp, 'file', 'answers'));
      assert.ok('warning' in blocked);
      assert.match(
        blocked.warning,
        /^The cache folder .* cannot be used \(it cannot be written: (ENOTDIR|EEXIST)\); this run goes on without the cache$/,
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
