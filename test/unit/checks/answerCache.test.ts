// The cache for re-runs: keyed by endpoint, model, catalog version and the exact body; only successful
// answers kept; streams kept once read to the end and replayed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EventStream, ModelService, PostResult, ServerSentEvent } from '../../../src/api/types';
import {
  bodyModel,
  bodyText,
  cacheKey,
  cachingService,
  catalogVersions,
  replayEvents,
  type CacheStore,
} from '../../../src/checks/core/answerCache';
import { defaultCacheFolder, openCacheFolder } from '../../../src/checks/core/cacheFolder';

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
  const stats = () => ({ hits: 0, misses: 0, unwritten: 0 });

  it('keys by endpoint, model, version and every byte of the body', () => {
    const k = cacheKey('u', 'm', 'v', '{"a":1}');
    assert.match(k, /^[0-9a-f]{64}$/);
    assert.notEqual(k, cacheKey('u2', 'm', 'v', '{"a":1}'));
    assert.notEqual(k, cacheKey('u', 'm2', 'v', '{"a":1}'));
    assert.notEqual(k, cacheKey('u', 'm', 'v2', '{"a":1}'));
    assert.notEqual(k, cacheKey('u', 'm', 'v', '{"a": 1}'));
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
    const s = cachingService(inner, store, async () => version, st);
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
    const s = cachingService(inner, store, async () => '', stats());
    for (let i = 0; i < 5; i++) {
      await s.post('/v1/chat', { model: 'm' });
    }
    assert.equal(store.map.size, 0);
    await cachingService(service([json(299, {})]), store, async () => '', stats()).post('/v1/chat', { model: 'm' });
    assert.equal(store.map.size, 1);
  });

  it('a body without a model asks for no version; the version is part of the key', async () => {
    const asked: string[] = [];
    const store = memory();
    const s = cachingService(service([]), store, async (m) => (asked.push(m), 'v9'), stats());
    await s.post('/v1/chat', '{"x":1}');
    await s.post('/v1/chat', '{"model":"m"}');
    assert.deepEqual(asked, ['m']);
    assert.ok(store.map.has(cacheKey('https://svc.example/v1/chat', 'm', 'v9', '{"model":"m"}')));
    assert.ok(store.map.has(cacheKey('https://svc.example/v1/chat', '', '', '{"x":1}')));
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
      await cachingService(inner, { get: () => kept, put: () => undefined }, async () => '', st).post('/v1/chat', {});
      assert.deepEqual([st.hits, st.misses, inner.bodies.length], [0, 1, 1], kept);
    }
    const good = '{"v":1,"status":201,"statusText":"Created","contentType":"application/json"}';
    const st = stats();
    const r = await cachingService(service([]), { get: () => good, put: () => undefined }, async () => '', st).post(
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
    const r = await cachingService(service([streamed]), store, async () => '', stats()).post(
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
    const s = cachingService(inner, store, async () => '', stats());
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
    const r = await cachingService(inner, broken, async () => '', st).post('/v1/chat', { model: 'm' });
    assert.equal(r.status, 200);
    assert.deepEqual(st, { hits: 0, misses: 1, unwritten: 1 });
    const garbage: CacheStore = { get: () => 'not json', put: () => undefined };
    await cachingService(inner, garbage, async () => '', st).post('/v1/chat', { model: 'm' });
    assert.equal(st.misses, 2);
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
      const store = openCacheFolder(path.join(tmp, 'answers'));
      assert.ok(!('warning' in store));
      const key = 'ab'.padEnd(64, '0');
      assert.equal(store.get(key), undefined);
      store.put(key, 'v');
      assert.equal(store.get(key), 'v');
      assert.deepEqual(fs.readdirSync(path.join(tmp, 'answers', 'ab')), [`${key}.json`]);
      // The default folder is several levels under the OS cache dir, none of them there yet.
      const nested = openCacheFolder(path.join(tmp, 'cache', 'model-access', 'answers'));
      assert.ok(!('warning' in nested), JSON.stringify(nested));
      nested.put(key, 'w');
      assert.equal(nested.get(key), 'w');
      fs.writeFileSync(path.join(tmp, 'file'), '');
      const blocked = openCacheFolder(path.join(tmp, 'file', 'answers'));
      assert.ok('warning' in blocked);
      assert.match(
        blocked.warning,
        /^The cache folder .* cannot be written \((ENOTDIR|EEXIST)\); this run goes on without the cache$/,
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
