/**
 * Hostile mode of the local service, checked over raw HTTP: the hostile registry, error bodies and
 * answers carry exactly the exported hostile strings and the key in its escaped forms; endless answers and the
 * endless list never end, stop when the client goes away and never buffer without bound.
 */
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { USAGE, parseServeArgs } from '../../server/args';
import {
  ALL_HOSTILE_PIECES,
  DIALECTS,
  ENDLESS_ORG,
  HOSTILE,
  HOSTILE_DEEP_DEPTH,
  HOSTILE_IDS,
  HOSTILE_ORG,
  HOSTILE_STRINGS,
  hostileAnswerPieces,
  hostileErrorMessage,
  jsonEscapeAll,
  jsonEscapeLikeOthers,
  splitKey,
  startServer,
  type Dialect,
  type EndlessWrite,
  type RunningServer,
} from '../../server/index';
import { parseSse, withServer } from '../helpers/api';

interface Entry {
  id: string;
  family: string;
  version: string;
  model_card_url?: string;
  description?: string;
  nested?: unknown;
}

const auth = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

function get(s: RunningServer, p: string, key: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${s.url}${p}`, { headers: auth(key), signal });
}

function post(s: RunningServer, p: string, body: unknown, key: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${s.url}${p}`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Depth of nested arrays, counted without recursion. */
function arrayDepth(value: unknown): number {
  let depth = 0;
  let v = value;
  while (Array.isArray(v)) {
    depth++;
    v = v[0];
  }
  return depth;
}

/** Every entry of the hostile organization, following the openai dialect's pages. */
async function listHostile(s: RunningServer): Promise<{ entries: Entry[]; raw: string[] }> {
  const entries: Entry[] = [];
  const raw: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const res = await get(
      s,
      `/v1/models${after === undefined ? '' : `?after=${encodeURIComponent(after)}`}`,
      s.keys[HOSTILE_ORG],
    );
    assert.equal(res.status, 200);
    const text = await res.text();
    raw.push(text);
    const body = JSON.parse(text) as { data: Entry[]; has_more: boolean; last_id: string };
    entries.push(...body.data);
    if (!body.has_more) {
      return { entries, raw };
    }
    after = body.last_id;
  }
  assert.fail('the hostile organization list does not end');
}

describe('local Model Access Service: hostile mode', () => {
  let s: RunningServer;
  let key: string;
  before(async () => {
    s = await startServer({ hostile: true });
    key = s.keys[HOSTILE_ORG];
  });
  after(() => s.close());

  describe('organizations and keys', () => {
    it('adds organizations "hostile" and "endless" whose keys carry a "/" and a "+"; server.hostile says where things are', () => {
      assert.deepEqual(s.registry.organizations, ['acme', 'globex', 'initech', HOSTILE_ORG, ENDLESS_ORG]);
      assert.match(key, /^sk-hostile\/[0-9a-f]{24}\+x$/);
      assert.match(s.keys[ENDLESS_ORG], /^sk-endless\/[0-9a-f]{24}\+x$/);
      assert.equal(s.hostile?.key, key);
      assert.equal(s.hostile?.endlessKey, s.keys[ENDLESS_ORG]);
      assert.deepEqual(s.hostile?.pieces, ALL_HOSTILE_PIECES);
      assert.equal(jsonEscapeLikeOthers(key).includes('\\/'), true);
      assert.equal(jsonEscapeLikeOthers(key).includes('\\u002b'), true);
    });

    it('serves the other organizations byte for byte as without hostile mode', async () => {
      await withServer({}, async (plain) => {
        for (const p of ['/v1/models', '/v1/models?after=aurora-2', '/v1/models/aurora-1.5', '/v1/models/nope']) {
          const [a, b] = await Promise.all([get(s, p, s.keys.acme), get(plain, p, plain.keys.acme)]);
          assert.equal(a.status, b.status, p);
          assert.equal(await a.text(), await b.text(), p);
        }
        const body = { model: 'aurora-2', messages: [{ role: 'user', content: 'same' }] };
        const [a, b] = await Promise.all([
          post(s, '/v1/chat', body, s.keys.acme),
          post(plain, '/v1/chat', body, plain.keys.acme),
        ]);
        const text = (r: unknown) => (r as { choices: { message: { content: string } }[] }).choices[0].message.content;
        assert.equal(text(await a.json()), text(await b.json()));
      });
    });

    it('a caller of another organization cannot see hostile models', async () => {
      const res = await get(s, `/v1/models/${encodeURIComponent(HOSTILE_IDS.commandLink)}`, s.keys.acme);
      assert.equal(res.status, 404);
      assert.doesNotMatch(await res.text(), /\$\(alert\)|API key/);
    });
  });

  describe('registry', () => {
    let entries: Entry[];
    let raw: string[];
    before(async () => {
      ({ entries, raw } = await listHostile(s));
    });
    const byId = (id: string): Entry[] => entries.filter((e) => e.id === id);

    it('lists normal models with https cards next to the hostile ones', () => {
      for (const id of HOSTILE_IDS.normal) {
        const [e] = byId(id);
        assert.ok(e, id);
        assert.match(e.model_card_url ?? '', /^https:\/\/cards\.example\//);
      }
      assert.deepEqual(
        byId('plain-1').map((e) => [e.family, e.version]),
        [['plain', '1']],
      );
    });

    it('ids, families, versions and descriptions carry command links, $(icons), newlines, CR, bidi, zero-width, quotes, HTML, ANSI verbatim', () => {
      const ids = [
        'commandLink',
        'commandLinkNoCard',
        'icon',
        'forgedLogLine',
        'carriageReturn',
        'lineSeparators',
        'bidi',
        'zeroWidth',
        'quotes',
        'html',
        'ansi',
        'markdown',
      ] as const;
      for (const name of ids) {
        assert.equal(byId(HOSTILE_IDS[name]).length, 1, name);
      }
      const link = byId(HOSTILE_IDS.commandLink)[0];
      assert.equal(link.family, HOSTILE.zenLink);
      assert.equal(link.version, HOSTILE.icon);
      assert.ok(
        link.description?.includes(HOSTILE.commandLink) &&
          link.description.includes('\n2026-01-01 [error] forged') &&
          link.description.includes('\u202E'),
      );
      assert.equal(byId(HOSTILE_IDS.forgedLogLine)[0].version, HOSTILE.carriageReturn);
      assert.equal(byId(HOSTILE_IDS.html)[0].version, HOSTILE.script);
      const used = new Set(
        entries.flatMap((e) => [e.id, e.family, e.version, e.description ?? '', e.model_card_url ?? '']),
      );
      const everywhere = [...used].join('\u0001');
      for (const hostile of HOSTILE_STRINGS) {
        assert.ok(everywhere.includes(hostile), `served somewhere: ${JSON.stringify(hostile)}`);
      }
      // Quotes and backslashes survive JSON: the raw text has them escaped, the parsed value verbatim.
      assert.ok(raw.join('').includes(JSON.stringify(HOSTILE.quotes)));
    });

    it('the command-link model without a card has no model_card_url at all; bad card links are served as they are', () => {
      const [noCard] = byId(HOSTILE_IDS.commandLinkNoCard);
      assert.equal(noCard.id, `[Open file](command:workbench.action.files.newUntitledFile)`);
      assert.equal('model_card_url' in noCard, false);
      assert.equal(byId(HOSTILE_IDS.cardCommand)[0].model_card_url, 'command:workbench.action.openSettings');
      assert.equal(byId(HOSTILE_IDS.cardBreakout)[0].model_card_url, HOSTILE.cardBreakout);
      assert.equal(byId(HOSTILE_IDS.longText)[0].version.length, 10_000);
    });

    it('colliding ids: "x" twice and "x\\u00001" in family "collide"; ids differing only in a separator; family/id boundary', () => {
      assert.deepEqual(
        entries.filter((e) => e.family === 'collide').map((e) => [e.id, e.version]),
        [
          ['x', '1'],
          ['x', '2'],
          ['x\u00001', '1'],
        ],
      );
      assert.deepEqual(
        entries.filter((e) => e.family === 'sep').map((e) => e.id),
        [...HOSTILE_IDS.separators],
      );
      for (const { family, id } of HOSTILE_IDS.familyBoundary) {
        assert.equal(byId(id).filter((e) => e.family === family).length, 1);
      }
      const [a, b] = HOSTILE_IDS.familyBoundary;
      assert.equal(`${a.family}\u0000${a.id}`, `${b.family}\u0000${b.id}`, 'the pair collides when joined with NUL');
    });

    it('every listed id can be inspected by its percent-encoded id, NUL and "%2F" included', async () => {
      for (const id of ['a\u0000b', 'a%2Fb', 'a/b', HOSTILE.forgedLogLine, HOSTILE.bidi, 'x\u00001']) {
        const res = await get(s, `/v1/models/${encodeURIComponent(id)}`, key);
        assert.equal(res.status, 200, JSON.stringify(id));
        assert.equal(((await res.json()) as Entry).id, id);
      }
    });

    it(`the deep entry is ${HOSTILE_DEEP_DEPTH} arrays deep (≈ 20 KB), in the list and on inspect`, async () => {
      const [deep] = byId(HOSTILE_IDS.deep);
      assert.equal(arrayDepth(deep.nested), HOSTILE_DEEP_DEPTH);
      const res = await get(s, `/v1/models/${HOSTILE_IDS.deep}`, key);
      const text = await res.text();
      const start = text.indexOf('"nested":') + '"nested":'.length;
      assert.equal(text.slice(start, start + HOSTILE_DEEP_DEPTH), '['.repeat(HOSTILE_DEEP_DEPTH));
      assert.ok(text.length > 20_000 && text.length < 21_000, `${text.length} bytes`);
      const inner = ((text: string) => {
        let v: unknown = (JSON.parse(text) as Entry).nested;
        while (Array.isArray(v)) {
          v = v[0];
        }
        return v;
      })(text);
      assert.equal(inner, HOSTILE.commandLink);
    });

    it('the deep entry and its raw field are sent in the models dialect too (picked alone)', async () => {
      await withServer({ dialect: 'models', hostile: { deepEntry: true } }, async (m) => {
        const res = await get(m, `/v1/models?pageSize=50`, m.keys[HOSTILE_ORG]);
        const body = (await res.json()) as { models: (Entry & { modelId: string })[] };
        assert.equal(arrayDepth(body.models.find((e) => e.modelId === HOSTILE_IDS.deep)?.nested), HOSTILE_DEEP_DEPTH);
      });
    });
  });

  describe('error bodies', () => {
    it('inspect-404, inspect-500 and unknown ids: hostile messages, the key written with "\\/" and "\\u002b"', async () => {
      const cases: [string, 404 | 500, string][] = [
        [HOSTILE_IDS.inspect404, 404, 'model_not_found'],
        [HOSTILE_IDS.inspect500, 500, 'server_error'],
        [`never-${HOSTILE.commandLink}`, 404, 'model_not_found'],
      ];
      for (const [id, status, code] of cases) {
        const res = await get(s, `/v1/models/${encodeURIComponent(id)}`, key);
        assert.equal(res.status, status);
        assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
        const text = await res.text();
        assert.ok(text.includes(jsonEscapeLikeOthers(key)), text);
        assert.ok(!text.includes(key), 'the key is never written verbatim');
        const body = JSON.parse(text) as { error: { message: string; code: string } };
        assert.equal(body.error.code, code);
        assert.equal(body.error.message, hostileErrorMessage(status, id, key));
        for (const part of [HOSTILE.commandLink, '$(alert)', '\n2026-01-01 [error] forged', '\u202E', key]) {
          assert.ok(body.error.message.includes(part), part);
        }
      }
    });

    it('POSTs naming those models get the same errors', async () => {
      for (const [id, status] of [
        [HOSTILE_IDS.inspect500, 500],
        ['unknown', 404],
      ] as const) {
        const res = await post(s, '/v1/chat', { model: id, messages: [{ role: 'user', content: 'hi' }] }, key);
        assert.equal(res.status, status);
        assert.equal(
          ((await res.json()) as { error: { message: string } }).error.message,
          hostileErrorMessage(status, id, key),
        );
      }
    });

    it('requests with a broken body still get the ordinary 400s', async () => {
      const res = await post(s, '/v1/chat', { model: 'plain-1' }, key);
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'missing_required_parameter');
    });
  });

  describe('answers', () => {
    const text = (): string => hostileAnswerPieces(key, key).join('');

    it('non-streamed chat and responses answers: hostile text, the key only \\uXXXX-escaped in the raw body', async () => {
      for (const [p, body, read] of [
        [
          '/v1/chat',
          { model: 'plain-1', messages: [{ role: 'user', content: 'hi' }] },
          (j: never) => (j as { choices: { message: { content: string } }[] }).choices[0].message.content,
        ],
        [
          '/v1/responses',
          { model: 'plain-2', input: 'hi' },
          (j: never) => (j as { output: { content: { text: string }[] }[] }).output[0].content[0].text,
        ],
      ] as const) {
        const res = await post(s, p, body, key);
        assert.equal(res.status, 200);
        const raw = await res.text();
        assert.ok(raw.includes(jsonEscapeAll(key)), `${p}: escaped key`);
        assert.ok(!raw.includes(key) && !raw.includes(JSON.stringify(key).slice(1, -1)), `${p}: no plain key`);
        const answer = read(JSON.parse(raw) as never);
        assert.equal(answer, text());
        for (const part of [
          HOSTILE.commandLink,
          HOSTILE.zenLink,
          '$(alert)',
          '\n2026-01-01 [error] forged',
          '\u202E',
          HOSTILE.html,
          key,
        ]) {
          assert.ok(answer.includes(part), part);
        }
      }
    });

    it('streamed chat: hostile deltas, the key split across two consecutive delta events and in none whole', async () => {
      const res = await post(
        s,
        '/v1/chat',
        { model: 'plain-1', messages: [{ role: 'user', content: 'hi' }], stream: true },
        key,
      );
      const events = parseSse(await res.text());
      assert.equal(events.at(-1)?.data, '[DONE]');
      const deltas = events
        .slice(0, -1)
        .map((e) => (JSON.parse(e.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content);
      const contents = deltas.filter((d): d is string => d !== undefined && d !== '');
      assert.deepEqual(contents, hostileAnswerPieces(key, key));
      const [head, tail] = splitKey(key);
      const at = contents.indexOf(head);
      assert.ok(at > 0 && contents[at + 1] === tail, 'consecutive halves');
      assert.ok(head.length > 0 && tail.length > 0);
      assert.ok(
        events.every((e) => !e.data.includes(key)),
        'no event carries the whole key',
      );
    });

    it('streamed responses: the same deltas, then done/completed events with the whole text', async () => {
      const res = await post(s, '/v1/responses', { model: 'solo-1.5', input: 'hi', stream: true }, key);
      const events = parseSse(await res.text());
      const deltas = events
        .filter((e) => e.event === 'response.output_text.delta')
        .map((e) => (JSON.parse(e.data) as { delta: string }).delta);
      assert.deepEqual(deltas, hostileAnswerPieces(key, key));
      const done = events.find((e) => e.event === 'response.output_text.done');
      assert.equal((JSON.parse(done?.data ?? '{}') as { text: string }).text, text());
      assert.equal(events.at(-1)?.event, 'response.completed');
    });

    it('embeddings of the hostile organization are ordinary', async () => {
      const res = await post(s, '/v1/embeddings', { model: 'plain-1', input: 'x' }, key);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { data: unknown[] }).data.length, 1);
    });
  });

  describe('endless answers', () => {
    const lastWrite = (): EndlessWrite => {
      const w = s.hostile?.endlessWrites.at(-1);
      assert.ok(w, 'an endless answer was started');
      return w;
    };

    async function readThenAbort(
      p: string,
      body: Record<string, unknown>,
      bytes: number,
    ): Promise<{ read: number; head: string; contentType: string }> {
      const controller = new AbortController();
      const res = await post(s, p, { model: HOSTILE_IDS.endless, ...body }, key, controller.signal);
      assert.equal(res.status, 200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let read = 0;
      let head = '';
      while (read < bytes) {
        const { value, done } = await reader.read();
        assert.ok(!done && value, 'the answer ended');
        if (head.length < 4096) {
          head += Buffer.from(value).toString('utf8');
        }
        read += value.length;
      }
      controller.abort();
      return { read, head, contentType: res.headers.get('content-type') ?? '' };
    }

    /** After an abort: the server stops within 500 ms and writes nothing more. */
    async function stopsPromptly(w: EndlessWrite, abortedAt: number): Promise<void> {
      await until(() => w.endedAt !== undefined, 500, 'the server to stop writing');
      assert.ok((w.endedAt ?? Infinity) - abortedAt < 500);
      const bytes = w.bytes;
      await sleep(50);
      assert.equal(w.bytes, bytes, 'nothing written after the stop');
    }

    it('chat stream keeps going past 8 MB, then stops writing promptly after the client aborts', async () => {
      const { read, head, contentType } = await readThenAbort(
        '/v1/chat',
        { messages: [{ role: 'user', content: 'go' }], stream: true },
        8 * 1024 * 1024,
      );
      const abortedAt = Date.now();
      assert.match(contentType, /^text\/event-stream/);
      assert.ok(read >= 8 * 1024 * 1024);
      const first = parseSse(head.slice(0, head.lastIndexOf('\n\n') + 2));
      assert.equal(
        (JSON.parse(first[0].data) as { choices: { delta: { role: string } }[] }).choices[0].delta.role,
        'assistant',
      );
      assert.ok(first.slice(1).some((e) => e.data.includes(JSON.stringify(HOSTILE.commandLink).slice(1, -1))));
      const w = lastWrite();
      assert.equal(w.path, '/v1/chat');
      await stopsPromptly(w, abortedAt);
      assert.ok(w.bytes >= read);
      assert.ok(w.maxBuffered < 256 * 1024, `at most ${w.maxBuffered} bytes waited in the response buffer`);
      const record = await s.waitForRequest((r) => r.url === '/v1/chat' && r.aborted);
      assert.equal(record.stream, 'aborted');
    });

    it('responses stream: created … content_part.added, then numbered deltas forever', async () => {
      const { head } = await readThenAbort('/v1/responses', { input: 'go', stream: true }, 1024 * 1024);
      const abortedAt = Date.now();
      const events = parseSse(head.slice(0, head.lastIndexOf('\n\n') + 2));
      assert.deepEqual(
        events.slice(0, 4).map((e) => e.event),
        ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added'],
      );
      const deltas = events.slice(4).map((e) => JSON.parse(e.data) as { type: string; sequence_number: number });
      assert.ok(deltas.length > 5);
      deltas.forEach((d, i) => {
        assert.equal(d.type, 'response.output_text.delta');
        assert.equal(d.sequence_number, i + 4);
      });
      await stopsPromptly(lastWrite(), abortedAt);
    });

    it('without stream: an application/json body that never ends', async () => {
      const { head, contentType } = await readThenAbort(
        '/v1/chat',
        { messages: [{ role: 'user', content: 'go' }] },
        2 * 1024 * 1024,
      );
      const abortedAt = Date.now();
      assert.match(contentType, /^application\/json/);
      assert.match(head, /^\{"id":"chatcmpl-[0-9a-f]+","object":"chat.completion",.*"content":"endless words/);
      const w = lastWrite();
      assert.equal(w.stream, false);
      await stopsPromptly(w, abortedAt);
    });

    it('a client that stops reading makes the server wait for drain, not buffer', async () => {
      const res = await request(`${s.url}/v1/chat`, {
        method: 'POST',
        headers: { ...auth(key), 'content-type': 'application/json' },
        body: JSON.stringify({ model: HOSTILE_IDS.endless, messages: [{ role: 'user', content: 'go' }], stream: true }),
      });
      try {
        const w = lastWrite();
        // Read nothing: socket buffers and undici's fill up, then the server must stop.
        await until(() => w.bytes > 0, 1000, 'the first write');
        // Stalled: no byte written for 50 ms, then still none 100 ms later.
        let previous = -1;
        for (const deadline = Date.now() + 2000; w.bytes !== previous;) {
          assert.ok(Date.now() < deadline, 'writing never stalled');
          previous = w.bytes;
          await sleep(50);
        }
        await sleep(100);
        assert.equal(w.bytes, previous, 'still stalled');
        assert.ok(w.bytes < 64 * 1024 * 1024, `${w.bytes} bytes before stalling`);
        assert.ok(w.maxBuffered < 256 * 1024, `${w.maxBuffered} bytes buffered`);
        assert.equal(w.endedAt, undefined, 'still open, waiting');
      } finally {
        res.body.destroy();
      }
      await until(() => lastWrite().endedAt !== undefined, 1000, 'the stop after the client went away');
    });

    it('closing the server ends an endless stream that is still being read', async () => {
      await withServer({ hostile: { endlessStream: true } }, async (e) => {
        const res = await post(
          e,
          '/v1/chat',
          { model: HOSTILE_IDS.endless, messages: [{ role: 'user', content: 'go' }], stream: true },
          e.keys[HOSTILE_ORG],
        );
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        await reader.read();
        const started = Date.now();
        await e.close();
        assert.ok(Date.now() - started < 1000);
        await until(() => e.hostile?.endlessWrites[0].endedAt !== undefined, 500, 'the stop');
        await reader.read().then(
          () => reader.cancel(),
          () => undefined,
        );
      });
    });
  });

  describe('endless list', () => {
    it('hands out large pages (1000 entries) with a next page, always', async () => {
      const res = await get(s, '/v1/models?limit=5', s.keys[ENDLESS_ORG]);
      const body = (await res.json()) as { data: Entry[]; has_more: boolean; last_id: string };
      assert.equal(body.data.length, 1000, 'the asked limit is ignored');
      assert.equal(body.has_more, true);
      assert.equal(body.last_id, 'endless/1/999');
      const entry = await get(s, `/v1/models/${encodeURIComponent('endless/7/3')}`, s.keys[ENDLESS_ORG]);
      assert.equal(((await entry.json()) as Entry).id, 'endless/7/3');
    });

    for (const dialect of DIALECTS) {
      it(`${dialect}: more than 100 distinct pages, never a repeated cursor or id`, async () => {
        await withServer({ dialect, hostile: { endlessList: true, endlessPageSize: 25 } }, async (e) => {
          const endlessKey = e.keys[ENDLESS_ORG];
          const ids = new Set<string>();
          const urls = new Set<string>();
          let next = `${e.url}/v1/models`;
          for (let page = 1; page <= 120; page++) {
            assert.ok(!urls.has(next), `page ${page} repeats ${next}`);
            urls.add(next);
            const res = await fetch(next, { headers: auth(endlessKey) });
            assert.equal(res.status, 200, await res.clone().text());
            const body = (await res.json()) as never;
            const { entries, nextUrl } = readPage(dialect, body, res, next);
            assert.equal(entries.length, 25);
            for (const id of entries) {
              assert.ok(!ids.has(id), `id ${id} repeated`);
              ids.add(id);
            }
            assert.ok(nextUrl, `page ${page} has a next page`);
            next = nextUrl;
          }
          assert.equal(ids.size, 120 * 25);
          assert.equal(e.hostile?.endlessPages, 120);
        });
      });
    }

    it('only the endless organization lists forever', async () => {
      const before = s.hostile?.endlessPages;
      const { raw } = await listHostile(s);
      assert.ok(raw.length >= 3, 'the hostile organization pages, and ends');
      const res = await get(s, '/v1/models?limit=100', s.keys.globex);
      assert.equal(((await res.json()) as { has_more: boolean }).has_more, false);
      assert.equal(s.hostile?.endlessPages, before);
    });
  });

  describe('picking pieces', () => {
    it('an object turns on only the pieces set: { endlessStream } has the normal models and "endless", ordinary errors', async () => {
      await withServer({ hostile: { endlessStream: true } }, async (e) => {
        assert.deepEqual(e.registry.organizations.slice(-1), [HOSTILE_ORG], 'no endless organization');
        assert.equal(e.keys[ENDLESS_ORG], undefined);
        const hostileKey = e.keys[HOSTILE_ORG];
        const list = (await (await get(e, '/v1/models', hostileKey)).json()) as { data: Entry[] };
        assert.deepEqual(
          list.data.map((m) => m.id),
          [...HOSTILE_IDS.normal, HOSTILE_IDS.endless],
        );
        const missing = await get(e, `/v1/models/${HOSTILE_IDS.inspect404}`, hostileKey);
        assert.equal(missing.status, 404);
        assert.doesNotMatch(await missing.text(), /command:|API key/);
        const answer = (await (
          await post(e, '/v1/chat', { model: 'plain-1', messages: [{ role: 'user', content: 'hi' }] }, hostileKey)
        ).json()) as { choices: { message: { content: string } }[] };
        assert.match(answer.choices[0].message.content, /^Hello! I am a demo model/);
      });
    });

    it('keys given in options win over the generated ones', async () => {
      await withServer({ hostile: { answers: true }, keys: { hostile: 'sk-mine/1+2' } }, async (e) => {
        assert.equal(e.hostile?.key, 'sk-mine/1+2');
        const raw = await (
          await post(e, '/v1/chat', { model: 'plain-1', messages: [{ role: 'user', content: 'hi' }] }, 'sk-mine/1+2')
        ).text();
        assert.ok(raw.includes(jsonEscapeAll('sk-mine/1+2')));
      });
    });

    it('is off by default and with hostile: false', async () => {
      await withServer({ hostile: false }, async (e) => {
        assert.equal(e.hostile, undefined);
        assert.deepEqual(Object.keys(e.keys), ['acme', 'globex', 'initech']);
      });
    });
  });

  describe('command line', () => {
    it('--hostile turns every piece on and is in the usage text', () => {
      assert.equal(parseServeArgs(['--hostile']).hostile, true);
      assert.equal(parseServeArgs([]).hostile, undefined);
      assert.match(USAGE, /--hostile /);
    });
  });
});

/** Entry ids of one page and the URL of the next, in any dialect. */
function readPage(
  dialect: Dialect,
  body: never,
  res: Response,
  current: string,
): { entries: string[]; nextUrl?: string } {
  const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '');
  const base = current.slice(0, current.indexOf('/v1/models') + '/v1/models'.length);
  switch (dialect) {
    case 'openai': {
      const b = body as { data: { id: string }[]; has_more: boolean; last_id: string };
      return {
        entries: b.data.map((m) => m.id),
        nextUrl: b.has_more ? `${base}?after=${encodeURIComponent(b.last_id)}` : undefined,
      };
    }
    case 'array':
      return {
        entries: (body as { id: string }[]).map((m) => m.id),
        nextUrl: link ? new URL(link[1], current).href : undefined,
      };
    case 'link':
      return {
        entries: (body as { data: { id: string }[] }).data.map((m) => m.id),
        nextUrl: link ? new URL(link[1], current).href : undefined,
      };
    case 'models': {
      const b = body as { models: { modelId: string }[]; next_page_token?: string };
      return {
        entries: b.models.map((m) => m.modelId),
        nextUrl: b.next_page_token ? `${base}?page_token=${encodeURIComponent(b.next_page_token)}` : undefined,
      };
    }
  }
}
