/**
 * The local Model Access Service, exercised through real HTTP: auth, organizations, paging in every
 * dialect, 404s, streaming, uploads and every fault option.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { parseServeArgs } from '../../server/args';
import { DEFAULT_EMBEDDING_DIMENSIONS } from '../../server/generation';
import {
  CARD_MARKER,
  DEMO_KEYS,
  DIALECTS,
  loadRegistry,
  startServer,
  type Dialect,
  type RunningServer,
} from '../../server/index';
import { parseSse, withServer } from '../helpers/api';
import { formatPrice, readPrice } from '../../../src/domain/cost/prices';
import { readRateLimits } from '../../../src/domain/cost/rateLimits';
import { usageOf } from '../../../src/domain/answer';

const registry = loadRegistry();
const idsOf = (org: string): string[] => registry.models.filter((m) => m.organization === org).map((m) => m.id);

function auth(key: string | undefined): Record<string, string> {
  return key === undefined ? {} : { authorization: `Bearer ${key}` };
}

function get(
  s: RunningServer,
  p: string,
  key: string | undefined = s.keys.acme,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${s.url}${p}`, { headers: auth(key), signal });
}

function post(
  s: RunningServer,
  p: string,
  body: unknown,
  key: string | undefined = s.keys.acme,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${s.url}${p}`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

interface ErrorBody {
  error: { message: string; type: string; code: string | null };
}

async function expectError(res: Response, status: number, code: string | null): Promise<ErrorBody> {
  assert.equal(res.status, status);
  assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
  const body = (await res.json()) as ErrorBody;
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
  assert.equal(typeof body.error.type, 'string');
  assert.equal(body.error.code, code);
  return body;
}

/** Follows a dialect's paging to the end; returns the ids and how many pages it took. */
async function listAll(
  s: RunningServer,
  dialect: Dialect,
  key = s.keys.acme,
): Promise<{ ids: string[]; pages: number; repeated: boolean }> {
  const ids: string[] = [];
  let next: string | undefined = `${s.url}/v1/models`;
  let pages = 0;
  const seen = new Set<string>();
  while (next !== undefined) {
    if (seen.has(next)) {
      return { ids, pages, repeated: true };
    }
    seen.add(next);
    assert.ok(pages < 50, 'paging does not end');
    const res: Response = await fetch(next, { headers: auth(key) });
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as never;
    pages++;
    const current: string = next;
    next = undefined;
    switch (dialect) {
      case 'openai': {
        const b = body as {
          object: string;
          data: { id: string; object: string }[];
          has_more: boolean;
          last_id: string | null;
        };
        assert.equal(b.object, 'list');
        b.data.forEach((m) => assert.equal(m.object, 'model'));
        ids.push(...b.data.map((m) => m.id));
        if (b.has_more) {
          next = `${s.url}/v1/models?after=${encodeURIComponent(b.last_id ?? '')}`;
        }
        break;
      }
      case 'array':
      case 'link': {
        const entries = dialect === 'array' ? (body as { id: string }[]) : (body as { data: { id: string }[] }).data;
        assert.ok(Array.isArray(entries));
        ids.push(...entries.map((m) => m.id));
        const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '');
        next = link ? new URL(link[1], current).href : undefined;
        break;
      }
      case 'models': {
        const b = body as { models: { modelId: string }[]; next_page_token?: string };
        ids.push(...b.models.map((m) => m.modelId));
        next = b.next_page_token ? `${s.url}/v1/models?page_token=${encodeURIComponent(b.next_page_token)}` : undefined;
        break;
      }
    }
  }
  return { ids, pages, repeated: false };
}

describe('local Model Access Service', () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer();
  });
  after(async () => {
    await s.close();
  });

  describe('basics', () => {
    it('listens on 127.0.0.1 and reports a base URL without a trailing slash', () => {
      assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(s.keys, { ...DEMO_KEYS });
    });

    it('ships a registry of 30+ models over 2+ organizations, each with a Model Card URL', () => {
      assert.ok(registry.models.length >= 30);
      assert.ok(new Set(registry.models.map((m) => m.organization)).size >= 2);
      assert.ok(new Set(registry.models.map((m) => m.family)).size >= 5);
      for (const m of registry.models) {
        assert.match(m.model_card_url, /^https:\/\/cards\.example\//);
      }
      assert.ok(registry.models.some((m) => m.id.includes('/')));
      assert.ok(registry.models.some((m) => m.id.includes(':')));
    });

    it("with localCards, serves the registry's cards itself: the demo previews cards offline", async () => {
      const local = await startServer({ localCards: true, pathPrefix: '/api' });
      try {
        const res = await fetch(`${local.url}/v1/models?limit=100`, { headers: auth(local.keys.acme) });
        const listed = ((await res.json()) as { data: { id: string; model_card_url: string }[] }).data;
        assert.ok(listed.length > 10);
        for (const m of listed) {
          assert.equal(m.model_card_url, `${local.url}/cards/${encodeURIComponent(m.id)}.md`);
        }
        assert.deepEqual(
          local.registry.models.filter((m) => m.organization === 'acme').map((m) => m.model_card_url),
          listed.map((m) => m.model_card_url),
        );
        // A card is a public page: no key needed; an id with a slash is one path segment.
        const slashed = listed.find((m) => m.id.includes('/'));
        assert.ok(slashed);
        const card = await fetch(slashed.model_card_url);
        assert.equal(card.status, 200);
        assert.match(card.headers.get('content-type') ?? '', /^text\/markdown/);
        const text = await card.text();
        assert.ok(text.startsWith(`# ${slashed.id}`) && text.includes(CARD_MARKER), text);
      } finally {
        await local.close();
      }
      // Without the option the registry's own addresses are served.
      assert.ok(s.registry.models.every((m) => m.model_card_url.startsWith('https://cards.example/')));
    });

    it('answers unknown paths with 404 and wrong methods with 405', async () => {
      await expectError(await get(s, '/v1/nothing'), 404, 'unknown_url');
      const res = await fetch(`${s.url}/v1/models`, { method: 'DELETE', headers: auth(s.keys.acme) });
      await expectError(res, 405, 'method_not_allowed');
      assert.equal(res.headers.get('allow'), 'GET');
      await expectError(await get(s, '/v1/responses'), 405, 'method_not_allowed');
    });
  });

  describe('authentication', () => {
    const endpoints: [string, string][] = [
      ['GET', '/v1/models'],
      ['GET', '/v1/models/aurora-2'],
      ['POST', '/v1/responses'],
      ['POST', '/v1/chat'],
      ['POST', '/v1/embeddings'],
      ['POST', '/v1/files'],
    ];

    it('rejects a missing key on every endpoint with 401 and an OpenAI-style body', async () => {
      for (const [method, p] of endpoints) {
        const res = await fetch(`${s.url}${p}`, { method, body: method === 'POST' ? '{}' : undefined });
        await expectError(res, 401, 'missing_api_key');
      }
    });

    it('rejects malformed Authorization headers', async () => {
      for (const header of [
        'Basic YWNtZTpzZWNyZXQ=',
        'Bearer',
        'Bearer   ',
        `${s.keys.acme}`,
        `Bearer ${s.keys.acme} extra`,
      ]) {
        const res = await fetch(`${s.url}/v1/models`, { headers: { authorization: header } });
        assert.equal(res.status, 401, header);
        const body = (await res.json()) as ErrorBody;
        assert.match(body.error.code ?? '', /^(invalid_authorization_header|missing_api_key)$/, header);
      }
    });

    it('rejects an unknown key without repeating it', async () => {
      const body = await expectError(await get(s, '/v1/models', 'ma-unknown-secret-42'), 401, 'invalid_api_key');
      assert.ok(!body.error.message.includes('ma-unknown-secret-42'));
    });

    it('accepts the scheme case-insensitively', async () => {
      const res = await fetch(`${s.url}/v1/models`, { headers: { authorization: `bearer ${s.keys.acme}` } });
      assert.equal(res.status, 200);
    });

    it('uses keys given in options instead of the demo keys (canary keys)', async () => {
      await withServer({ keys: { acme: 'canary-1234' } }, async (c) => {
        assert.equal(c.keys.acme, 'canary-1234');
        assert.equal((await get(c, '/v1/models', 'canary-1234')).status, 200);
        assert.equal((await get(c, '/v1/models', DEMO_KEYS.acme)).status, 401);
        assert.equal((await get(c, '/v1/models', DEMO_KEYS.globex)).status, 200);
      });
    });

    it('records requests without their key', async () => {
      await get(s, '/v1/models?limit=1');
      const r = await s.waitForRequest((x) => x.url === '/v1/models?limit=1');
      assert.equal(r.authorization, true);
      assert.equal(r.organization, 'acme');
      assert.equal(r.status, 200);
      assert.ok(!JSON.stringify(r).includes(s.keys.acme));
    });
  });

  describe('organizations', () => {
    it('each caller lists only its organization models', async () => {
      assert.deepEqual((await listAll(s, 'openai', s.keys.acme)).ids, idsOf('acme'));
      assert.deepEqual((await listAll(s, 'openai', s.keys.globex)).ids, idsOf('globex'));
    });

    it('an organization without models gets an empty list', async () => {
      const body = (await (await get(s, '/v1/models', s.keys.initech)).json()) as {
        data: unknown[];
        has_more: boolean;
        first_id: unknown;
      };
      assert.deepEqual(body.data, []);
      assert.equal(body.has_more, false);
      assert.equal(body.first_id, null);
    });

    it("another organization's model is 404 model_not_found, on inspect and on use", async () => {
      const globexModel = idsOf('globex')[0];
      await expectError(await get(s, `/v1/models/${encodeURIComponent(globexModel)}`), 404, 'model_not_found');
      await expectError(await post(s, '/v1/responses', { model: globexModel, input: 'hi' }), 404, 'model_not_found');
      assert.equal((await get(s, `/v1/models/${encodeURIComponent(globexModel)}`, s.keys.globex)).status, 200);
    });
  });

  describe('inspect', () => {
    it('returns the entry with all its fields', async () => {
      const res = await get(s, '/v1/models/aurora-10');
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {
        id: 'aurora-10',
        object: 'model',
        family: 'aurora',
        version: '10',
        model_card_url: 'https://cards.example/acme/aurora-10',
        owned_by: 'acme',
        created: 1740787200,
        capabilities: { chat: true, embeddings: false, vision: true, tools: true, reasoning: true },
        context_window: 262144,
        max_output_tokens: 16384,
        // OpenRouter's shape: USD per token, as strings.
        pricing: { prompt: '0.000005', completion: '0.000015', input_cache_read: '0.0000025' },
        lifecycle_status: 'preview',
      });
    });

    it('a deprecated entry says when it retires and what replaces it', async () => {
      const entry = (await (await get(s, '/v1/models/aurora-1')).json()) as Record<string, unknown>;
      assert.equal(entry.lifecycle_status, 'deprecated');
      assert.match(String(entry.deprecation_date), /^\d{4}-\d{2}-\d{2}$/);
      assert.match(String(entry.retirement_date), /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(entry.replacement, 'aurora-2');
      assert.ok(
        s.registry.models.some((m) => m.id === entry.replacement),
        'the replacement is a listed model',
      );
    });

    it('accepts ids with "/", ":" and spaces, percent-encoded or with a literal slash', async () => {
      for (const [key, id] of [
        [s.keys.acme, 'acme/sable-7b:q4_k_m'],
        [s.keys.globex, 'globex/research preview:0.9'],
      ]) {
        const res = await get(s, `/v1/models/${encodeURIComponent(id)}`, key);
        assert.equal(res.status, 200, id);
        assert.equal(((await res.json()) as { id: string }).id, id);
      }
      const literal = await get(s, '/v1/models/acme/sable-70b:latest');
      assert.equal(((await literal.json()) as { id: string }).id, 'acme/sable-70b:latest');
    });

    it('answers 404 model_not_found for an unknown id', async () => {
      const body = await expectError(await get(s, '/v1/models/no-such-model'), 404, 'model_not_found');
      assert.match(body.error.message, /no-such-model/);
    });
  });

  describe('paging', () => {
    for (const dialect of DIALECTS) {
      it(`${dialect}: lists every model of the organization over 3+ pages`, async () => {
        await withServer({ dialect }, async (d) => {
          const { ids, pages } = await listAll(d, dialect);
          assert.deepEqual(ids, idsOf('acme'));
          assert.ok(pages >= 3, `${pages} pages`);
        });
      });
    }

    for (const dialect of DIALECTS) {
      it(`${dialect}: pagingLoop makes the next cursor repeat`, async () => {
        await withServer({ dialect, pagingLoop: true }, async (d) => {
          const { repeated, pages } = await listAll(d, dialect);
          assert.equal(repeated, true);
          assert.ok(pages >= 2 && pages <= 3, `${pages} pages`);
        });
      });
    }

    it('openai: limit and after select a page; has_more/first_id/last_id describe it', async () => {
      const all = idsOf('acme');
      const body = (await (await get(s, `/v1/models?limit=4&after=${encodeURIComponent(all[1])}`)).json()) as {
        data: { id: string }[];
        has_more: boolean;
        first_id: string;
        last_id: string;
      };
      assert.deepEqual(
        body.data.map((m) => m.id),
        all.slice(2, 6),
      );
      assert.equal(body.first_id, all[2]);
      assert.equal(body.last_id, all[5]);
      assert.equal(body.has_more, true);
    });

    it('rejects invalid page sizes and cursors with 400', async () => {
      await expectError(await get(s, '/v1/models?limit=0'), 400, 'invalid_page_size');
      await expectError(await get(s, '/v1/models?limit=abc'), 400, 'invalid_page_size');
      await expectError(await get(s, '/v1/models?after=not-a-model'), 400, 'invalid_cursor');
      await withServer({ dialect: 'models' }, async (d) => {
        await expectError(await get(d, '/v1/models?page_token=garbage'), 400, 'invalid_cursor');
      });
    });

    it('models: entries use camelCase names and the last page has no token', async () => {
      await withServer({ dialect: 'models', pageSize: 100 }, async (d) => {
        const body = (await (await get(d, '/v1/models')).json()) as {
          models: Record<string, unknown>[];
          next_page_token?: string;
        };
        assert.equal(body.next_page_token, undefined);
        assert.deepEqual(
          Object.keys(body.models[0])
            .filter((k) => k.startsWith('model'))
            .sort(),
          ['modelCardUrl', 'modelFamily', 'modelId', 'modelVersion'],
        );
        const one = (await (await get(d, '/v1/models/aurora-2')).json()) as Record<string, unknown>;
        assert.equal(one.modelId, 'aurora-2');
        assert.equal(one.modelCardUrl, 'https://cards.example/acme/aurora-2');
      });
    });

    it('array: the next link is absolute and may point at another origin when asked', async () => {
      await withServer({ dialect: 'array', linkOrigin: 'http://elsewhere.example:9' }, async (d) => {
        const res = await get(d, '/v1/models');
        assert.match(
          res.headers.get('link') ?? '',
          /^<http:\/\/elsewhere\.example:9\/v1\/models\?limit=10&cursor=[^>]+>; rel="next"$/,
        );
      });
    });

    it('link: relative links carry first/prev/next/last and the path prefix', async () => {
      await withServer({ dialect: 'link', pathPrefix: '/api/' }, async (d) => {
        assert.match(d.url, /\/api$/);
        const res = await get(d, '/v1/models?page=2');
        const link = res.headers.get('link') ?? '';
        for (const rel of ['first', 'prev', 'next', 'last']) {
          assert.match(link, new RegExp(`</api/v1/models\\?page=\\d+&per_page=10>; rel="${rel}"`));
        }
        const { pages } = await listAll(d, 'link');
        assert.ok(pages >= 3);
        // Outside the prefix nothing is served.
        assert.equal(
          (await fetch(`${d.url.replace(/\/api$/, '')}/v1/models`, { headers: auth(d.keys.acme) })).status,
          404,
        );
      });
    });

    it('several path prefixes (two teams on one gateway) serve the same registry; others get 404', async () => {
      await withServer({ pathPrefix: ['/team-a', '/team-b/'] }, async (d) => {
        const origin = d.url.replace(/\/team-a$/, '');
        assert.equal(d.url, `${origin}/team-a`);
        for (const team of ['/team-a', '/team-b']) {
          const res = await fetch(`${origin}${team}/v1/models`, { headers: auth(d.keys.acme) });
          assert.equal(res.status, 200, team);
        }
        for (const other of ['/team-ab', '/team-c', '']) {
          assert.equal(
            (await fetch(`${origin}${other}/v1/models`, { headers: auth(d.keys.acme) })).status,
            404,
            other || '/',
          );
        }
        assert.deepEqual(
          d.requests.map((r) => [r.url, r.authorization]),
          ['/team-a', '/team-b', '/team-ab', '/team-c', ''].map((p) => [`${p}/v1/models`, true]),
        );
      });
    });

    it('generates a large registry quickly and pages through it by cursor', async () => {
      const started = Date.now();
      await withServer({ models: 100_000, pageSize: 1000 }, async (big) => {
        assert.ok(Date.now() - started < 3000, 'generating 100,000 models is fast');
        const first = (await (await get(big, '/v1/models?limit=5000')).json()) as {
          data: { id: string }[];
          last_id: string;
        };
        assert.equal(first.data.length, 1000, 'limit is clamped to maxPageSize');
        const deep = (await (
          await get(big, `/v1/models?after=${encodeURIComponent(big.registry.models[99_990].id)}`)
        ).json()) as {
          data: { id: string }[];
          has_more: boolean;
        };
        assert.equal(deep.data.length, 9);
        assert.equal(deep.has_more, false);
        // The other organizations keep their own models.
        assert.deepEqual((await listAll(big, 'openai', big.keys.globex)).ids, idsOf('globex'));
      });
    });
  });

  describe('prices, usage and rate limits', () => {
    const headersOf = (res: Response): Record<string, string> => {
      const out: Record<string, string> = {};
      res.headers.forEach((value, name) => (out[name] = value));
      return out;
    };
    it('every chat and embeddings model of the demo has a price the client reads; the others have none', () => {
      for (const m of registry.models) {
        const caps = (m.extra?.capabilities ?? {}) as { chat?: boolean; embeddings?: boolean };
        const price = readPrice({ id: m.id, ...m.extra });
        if (m.id === 'halo-guard-1' || (!caps.chat && !caps.embeddings)) {
          assert.equal(price, undefined, `${m.id}: shows "no price known"`);
        } else {
          assert.ok(price?.inputPerToken !== undefined && price.outputPerToken !== undefined, m.id);
          assert.equal(price.currency, 'USD');
        }
      }
      assert.equal(
        formatPrice(readPrice(registry.models.find((m) => m.id === 'aurora-2-mini')?.extra)),
        '0.15 / 0.60 USD per 1M tokens (input / output), cached input 0.075',
      );
    });

    it('answers chat, responses and embeddings with usage and x-ratelimit headers that count down', async () => {
      const first = await post(s, '/v1/chat', { model: 'aurora-2-mini', messages: [{ role: 'user', content: 'Hi' }] });
      const second = await post(s, '/v1/responses', { model: 'aurora-2-mini', input: 'Hi' });
      const embeddings = await post(s, '/v1/embeddings', { model: 'cirrus-embed-2', input: 'Hi' });
      for (const res of [first, second, embeddings]) {
        const body = (await res.json()) as Record<string, unknown>;
        assert.ok(usageOf(body), 'the answer reports its usage');
      }
      const a = readRateLimits(headersOf(first), Date.now());
      const b = readRateLimits(headersOf(second), Date.now());
      assert.equal(a?.limitRequests, 600);
      assert.ok(a?.remainingRequests !== undefined && b?.remainingRequests === a.remainingRequests - 1);
      assert.ok((a?.resetRequestsAt ?? 0) > Date.now());
      assert.ok(a?.remainingTokens !== undefined && a.limitTokens !== undefined);
    });
  });

  describe('responses and chat', () => {
    type ResponseBody = {
      object: string;
      status: string;
      model: string;
      output: { type: string; content: { type: string; text: string }[] }[];
    };
    const textOf = (r: ResponseBody): string => r.output[0].content[0].text;

    it('answers with deterministic text derived from the input', async () => {
      const a = (await (
        await post(s, '/v1/responses', { model: 'aurora-2', input: 'Tell me about ravens' })
      ).json()) as ResponseBody;
      const b = (await (
        await post(s, '/v1/responses', { model: 'aurora-2', input: 'Tell me about ravens' })
      ).json()) as ResponseBody;
      assert.equal(a.object, 'response');
      assert.equal(a.status, 'completed');
      assert.equal(a.model, 'aurora-2');
      assert.equal(textOf(a), textOf(b));
      assert.match(textOf(a), /about ravens/);
      const c = (await (
        await post(s, '/v1/responses', { model: 'aurora-2', input: [{ role: 'user', content: 'Something else' }] })
      ).json()) as ResponseBody;
      assert.notEqual(textOf(c), textOf(a));
    });

    it('validates the body: malformed JSON, missing model, unknown model, missing input', async () => {
      const bad = await expectError(await post(s, '/v1/responses', '{"model": "aurora-2",'), 400, 'invalid_json');
      assert.match(bad.error.message, /JSON/);
      await expectError(await post(s, '/v1/chat', '[1,2]'), 400, 'invalid_json');
      await expectError(await post(s, '/v1/responses', { input: 'hi' }), 400, 'missing_required_parameter');
      await expectError(await post(s, '/v1/responses', { model: 'nope', input: 'hi' }), 404, 'model_not_found');
      await expectError(await post(s, '/v1/responses', { model: 'aurora-2' }), 400, 'missing_required_parameter');
      await expectError(
        await post(s, '/v1/chat', { model: 'aurora-2', messages: [] }),
        400,
        'missing_required_parameter',
      );
      await expectError(
        await post(s, '/v1/chat', { model: 'aurora-2', messages: [{ role: 'user', content: 'x' }], stream: 'yes' }),
        400,
        'invalid_type',
      );
    });

    it('streams Responses events: created, deltas, done, completed — consistent with each other', async () => {
      const res = await post(s, '/v1/responses', { model: 'aurora-2', input: 'Stream please', stream: true });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      const events = parseSse(await res.text());
      const types = events.map((e) => e.event);
      assert.equal(types[0], 'response.created');
      assert.equal(types[types.length - 1], 'response.completed');
      const payloads = events.map(
        (e) =>
          JSON.parse(e.data) as {
            type: string;
            sequence_number: number;
            delta?: string;
            text?: string;
            response?: ResponseBody;
          },
      );
      payloads.forEach((p, i) => {
        assert.equal(p.type, types[i]);
        assert.equal(p.sequence_number, i);
      });
      const deltas = payloads.filter((p) => p.type === 'response.output_text.delta').map((p) => p.delta);
      assert.ok(deltas.length >= 5);
      const text = deltas.join('');
      assert.equal(payloads.find((p) => p.type === 'response.output_text.done')?.text, text);
      assert.equal(textOf(payloads[payloads.length - 1].response as ResponseBody), text);
      const plain = (await (
        await post(s, '/v1/responses', { model: 'aurora-2', input: 'Stream please' })
      ).json()) as ResponseBody;
      assert.equal(textOf(plain), text);
    });

    it('streams Chat chunks ending with [DONE]; with include_usage a usage chunk precedes it', async () => {
      const body = {
        model: 'meridian-4',
        messages: [{ role: 'user', content: 'Hello' }],
        stream: true,
        stream_options: { include_usage: true },
      };
      const res = await post(s, '/v1/chat', body, s.keys.globex);
      const events = parseSse(await res.text());
      assert.equal(events[events.length - 1].data, '[DONE]');
      assert.ok(events.every((e) => e.event === undefined));
      type Chunk = {
        object: string;
        choices: { delta: { content?: string }; finish_reason: string | null }[];
        usage?: unknown;
      };
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Chunk);
      chunks.forEach((c) => assert.equal(c.object, 'chat.completion.chunk'));
      assert.deepEqual(chunks[chunks.length - 1].choices, []);
      assert.ok(chunks[chunks.length - 1].usage);
      assert.equal(chunks[chunks.length - 2].choices[0].finish_reason, 'stop');
      const text = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? '')).join('');
      const plain = (await (await post(s, '/v1/chat', { ...body, stream: false }, s.keys.globex)).json()) as {
        object: string;
        choices: { message: { content: string } }[];
      };
      assert.equal(plain.object, 'chat.completion');
      assert.equal(plain.choices[0].message.content, text);
    });

    it('a request carrying tools gets a call of a tool, streamed in argument fragments; a tool result gets text', async () => {
      const tools = [
        { type: 'function', function: { name: 'first', parameters: {} } },
        { type: 'function', function: { name: 'lookup', parameters: {} } },
      ];
      const messages = [{ role: 'user', content: 'Weather in Oslo?' }];
      const body = {
        model: 'aurora-2',
        messages,
        tools,
        tool_choice: { type: 'function', function: { name: 'lookup' } },
      };
      type Call = { index?: number; id?: string; function: { name?: string; arguments: string } };
      type Chunk = {
        choices: { delta: { content?: string | null; tool_calls?: Call[] }; finish_reason: string | null }[];
      };
      const events = parseSse(await (await post(s, '/v1/chat', { ...body, stream: true })).text());
      assert.equal(events[events.length - 1].data, '[DONE]');
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Chunk);
      const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
      assert.ok(calls.length >= 3, 'the arguments come in several fragments');
      assert.equal(calls[0].function.name, 'lookup', 'tool_choice names the tool');
      const args = calls.map((c) => c.function.arguments).join('');
      assert.deepEqual(JSON.parse(args), { input: 'Weather in Oslo?' });
      assert.equal(chunks[chunks.length - 1].choices[0].finish_reason, 'tool_calls');
      assert.ok(
        chunks.every((c) => !c.choices[0].delta.content),
        'no text',
      );

      const plain = (await (await post(s, '/v1/chat', body)).json()) as {
        choices: { message: { content: string | null; tool_calls: Call[] }; finish_reason: string }[];
      };
      assert.equal(plain.choices[0].finish_reason, 'tool_calls');
      assert.equal(plain.choices[0].message.content, null);
      assert.deepEqual(plain.choices[0].message.tool_calls, [
        { id: calls[0].id, type: 'function', function: { name: 'lookup', arguments: args } },
      ]);

      const after = [
        ...messages,
        { role: 'assistant', content: null, tool_calls: plain.choices[0].message.tool_calls },
        { role: 'tool', tool_call_id: calls[0].id, content: 'Sunny' },
      ];
      const answer = (await (await post(s, '/v1/chat', { ...body, messages: after })).json()) as {
        choices: { message: { content: string } }[];
      };
      assert.match(answer.choices[0].message.content, /demo model/, 'after the tool result, text');
    });

    it('with a stream delay, events arrive separately while the answer is still open', async () => {
      await withServer({ streamDelayMs: 15 }, async (d) => {
        const res = await post(d, '/v1/responses', { model: 'aurora-2', input: 'slowly', stream: true });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const first = await reader.read();
        assert.match(new TextDecoder().decode(first.value), /^event: response\.created\n/);
        const record = d.requests.find((r) => r.url === '/v1/responses');
        assert.equal(record?.finishedAt, undefined, 'the server is still streaming');
        let reads = 1;
        while (!(await reader.read()).done) {
          reads++;
        }
        assert.ok(reads >= 5, `${reads} separate reads`);
        const done = await d.waitForRequest((r) => r.url === '/v1/responses');
        assert.equal(done.stream, 'completed');
        assert.equal(done.aborted, false);
      });
    });

    it('notices when the client aborts a stream', async () => {
      await withServer({ streamDelayMs: 30 }, async (d) => {
        const controller = new AbortController();
        const res = await post(
          d,
          '/v1/chat',
          { model: 'aurora-2', messages: [{ role: 'user', content: 'long' }], stream: true },
          d.keys.acme,
          controller.signal,
        );
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        await reader.read();
        controller.abort();
        await d.waitForAborts(1);
        assert.equal(d.abortedCount(), 1);
        const r = await d.waitForRequest((x) => x.aborted);
        assert.equal(r.stream, 'aborted');
      });
    });
  });

  describe('embeddings', () => {
    type Embeddings = {
      object: string;
      model: string;
      data: { object: string; index: number; embedding: number[] | string }[];
    };

    it('returns one deterministic unit vector per input', async () => {
      const body = { model: 'cirrus-embed-2', input: ['alpha', 'beta', 'alpha'] };
      const a = (await (await post(s, '/v1/embeddings', body)).json()) as Embeddings;
      const b = (await (await post(s, '/v1/embeddings', body)).json()) as Embeddings;
      assert.equal(a.object, 'list');
      assert.deepEqual(a, b);
      assert.equal(a.data.length, 3);
      assert.deepEqual(a.data[0].embedding, a.data[2].embedding);
      assert.notDeepEqual(a.data[0].embedding, a.data[1].embedding);
      const v = a.data[0].embedding as number[];
      assert.equal(v.length, DEFAULT_EMBEDDING_DIMENSIONS);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-4);
      const single = (await (
        await post(s, '/v1/embeddings', { model: 'cirrus-embed-2', input: 'alpha', dimensions: 64 })
      ).json()) as Embeddings;
      assert.equal((single.data[0].embedding as number[]).length, 64);
    });

    it('encodes base64 as little-endian float32', async () => {
      const floats = (await (
        await post(s, '/v1/embeddings', { model: 'cirrus-embed-1', input: 'x' })
      ).json()) as Embeddings;
      const b64 = (await (
        await post(s, '/v1/embeddings', { model: 'cirrus-embed-1', input: 'x', encoding_format: 'base64' })
      ).json()) as Embeddings;
      const buf = Buffer.from(b64.data[0].embedding as string, 'base64');
      const decoded = Array.from({ length: buf.length / 4 }, (_, i) => buf.readFloatLE(i * 4));
      (floats.data[0].embedding as number[]).forEach((f, i) => assert.ok(Math.abs(f - decoded[i]) < 1e-6));
    });

    it('rejects invalid input', async () => {
      await expectError(await post(s, '/v1/embeddings', { model: 'cirrus-embed-1', input: 42 }), 400, 'invalid_input');
      await expectError(
        await post(s, '/v1/embeddings', { model: 'cirrus-embed-1', input: 'x', dimensions: 0 }),
        400,
        'invalid_dimensions',
      );
    });
  });

  describe('what it received (the request record)', () => {
    it('keeps the path, the headers without Authorization, and the parsed JSON body of a POST', async () => {
      const messages = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Which models?' },
      ];
      const res = await fetch(`${s.url}/v1/chat?trace=1`, {
        method: 'POST',
        headers: { ...auth(s.keys.acme), 'content-type': 'application/json', 'x-probe': 'p1' },
        body: JSON.stringify({ model: 'aurora-2', messages, temperature: 0.5 }),
      });
      assert.equal(res.status, 200);
      const id = res.headers.get('x-request-id');
      const record = await s.waitForRequest((r) => r.requestId === id);
      assert.equal(record.path, '/v1/chat');
      assert.equal(record.url, '/v1/chat?trace=1');
      assert.deepEqual(record.json, { model: 'aurora-2', messages, temperature: 0.5 });
      assert.equal(record.headers['x-probe'], 'p1');
      assert.equal(record.headers['content-type'], 'application/json');
      assert.equal(record.authorization, true);
      assert.equal(record.headers.authorization, undefined, 'the key is never recorded');
      assert.ok(!JSON.stringify(record).includes(s.keys.acme));
      assert.equal(s.lastReceived('/v1/chat', 'POST').requestId, id);
      assert.ok(s.received('/v1/chat').some((r) => r.requestId === id));
      assert.ok(!s.received('/v1/responses').some((r) => r.requestId === id));
      assert.throws(() => s.lastReceived('/v1/never'), /received no request on \/v1\/never/);
    });

    it('keeps every text field of an upload, in the record and with the stored file', async () => {
      const fd = new FormData();
      fd.append('purpose', 'batch');
      fd.append('note', 'ünïcode "quoted" value');
      fd.append('expires_after[days]', '7');
      fd.append('file', new Blob(['{"a":1}\n']), 'data.jsonl');
      const res = await fetch(`${s.url}/v1/files`, { method: 'POST', headers: auth(s.keys.acme), body: fd });
      assert.equal(res.status, 200);
      const file = (await res.json()) as { id: string };
      const expected = { purpose: 'batch', note: 'ünïcode "quoted" value', 'expires_after[days]': '7' };
      const record = await s.waitForRequest((r) => r.requestId === res.headers.get('x-request-id'));
      assert.deepEqual(record.fields, expected);
      assert.deepEqual(s.uploads.find((u) => u.id === file.id)?.fields, expected);
      assert.equal(record.json, undefined);
    });

    it('a GET has no body in its record; a refused body is not recorded as received', async () => {
      const res = await get(s, '/v1/models?limit=2');
      const record = await s.waitForRequest((r) => r.requestId === res.headers.get('x-request-id'));
      assert.equal(record.path, '/v1/models');
      assert.equal(record.json, undefined);
      const bad = await post(s, '/v1/chat', '{not json');
      assert.equal(bad.status, 400);
      const refused = await s.waitForRequest((r) => r.requestId === bad.headers.get('x-request-id'));
      assert.equal(refused.json, undefined);
      assert.ok(refused.bodyBytes > 0);
    });
  });

  describe('uploads', () => {
    function form(content: Buffer | Blob, filename: string, purpose?: string): FormData {
      const fd = new FormData();
      if (purpose !== undefined) {
        fd.append('purpose', purpose);
      }
      fd.append('file', content instanceof Blob ? content : new Blob([new Uint8Array(content)]), filename);
      return fd;
    }

    it('stores the file and answers a file object with bytes, filename and purpose', async () => {
      const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
      const res = await fetch(`${s.url}/v1/files`, {
        method: 'POST',
        headers: auth(s.keys.acme),
        body: form(content, 'train set.jsonl', 'fine-tune'),
      });
      assert.equal(res.status, 200);
      const file = (await res.json()) as Record<string, unknown>;
      assert.match(String(file.id), /^file-/);
      assert.equal(file.object, 'file');
      assert.equal(file.bytes, content.length);
      assert.equal(file.filename, 'train set.jsonl');
      assert.equal(file.purpose, 'fine-tune');
      assert.equal(file.status, 'processed');
      assert.equal(typeof file.created_at, 'number');
      const stored = s.uploads.find((u) => u.id === file.id);
      assert.ok(stored);
      assert.equal(stored.sha256, createHash('sha256').update(content).digest('hex'));
      assert.ok(stored.path.startsWith(s.uploadDir));
      assert.deepEqual(await readFile(stored.path), content);
    });

    it('streams a chunked body of unknown length to disk', async () => {
      const boundary = 'xYzBoundary42';
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      const total = 24;
      async function* body(): AsyncGenerator<Buffer> {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        );
        for (let i = 0; i < total; i++) {
          yield chunk;
        }
        yield Buffer.from(
          `\r\n--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}--\r\n`,
        );
      }
      const res = await request(`${s.url}/v1/files`, {
        method: 'POST',
        headers: { ...auth(s.keys.acme), 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Readable.from(body()),
      });
      const file = (await res.body.json()) as { bytes: number; purpose: string; filename: string };
      assert.equal(res.statusCode, 200);
      assert.equal(file.bytes, total * chunk.length);
      assert.equal(file.purpose, 'batch');
      assert.equal(file.filename, 'big.bin');
    });

    it('an upload the client abandons is recorded as aborted and leaves no file behind', async () => {
      await withServer({}, async (d) => {
        const boundary = 'abandon';
        const controller = new AbortController();
        async function* body(): AsyncGenerator<Buffer> {
          yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n\r\n`);
          for (let i = 0; i < 8; i++) {
            yield Buffer.alloc(64 * 1024, 1);
          }
          controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        await assert.rejects(
          request(`${d.url}/v1/files`, {
            method: 'POST',
            headers: { ...auth(d.keys.acme), 'content-type': `multipart/form-data; boundary=${boundary}` },
            body: Readable.from(body()),
            signal: controller.signal,
          }),
        );
        await d.waitForAborts(1);
        // The partial file is removed just after the server notices the abort.
        for (let i = 0; i < 100 && (await readdir(d.uploadDir)).length > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.deepEqual(await readdir(d.uploadDir), []);
        assert.equal(d.uploads.length, 0);
      });
    });

    it('answers 413 over the size cap, by declared length and while streaming', async () => {
      await withServer({ maxUploadBytes: 1000 }, async (d) => {
        const declared = await fetch(`${d.url}/v1/files`, {
          method: 'POST',
          headers: auth(d.keys.acme),
          body: form(Buffer.alloc(200_000), 'a.bin', 'user_data'),
        });
        await expectError(declared, 413, 'file_too_large');
        const small = await fetch(`${d.url}/v1/files`, {
          method: 'POST',
          headers: auth(d.keys.acme),
          body: form(Buffer.alloc(1000), 'ok.bin', 'user_data'),
        });
        assert.equal(small.status, 200);
        // Within the declared-length allowance, so only the streaming count can catch it.
        const counted = await fetch(`${d.url}/v1/files`, {
          method: 'POST',
          headers: auth(d.keys.acme),
          body: form(Buffer.alloc(5000), 'b.bin', 'user_data'),
        });
        await expectError(counted, 413, 'file_too_large');
        assert.equal(d.uploads.length, 1);
      });
    });

    it('rejects uploads without file or purpose, or not multipart', async () => {
      await expectError(
        await fetch(`${s.url}/v1/files`, {
          method: 'POST',
          headers: auth(s.keys.acme),
          body: form(Buffer.from('x'), 'x.txt'),
        }),
        400,
        'missing_required_parameter',
      );
      await expectError(
        await fetch(`${s.url}/v1/files`, {
          method: 'POST',
          headers: auth(s.keys.acme),
          body: form(Buffer.from('x'), 'x.txt', 'homework'),
        }),
        400,
        'invalid_value',
      );
      const fd = new FormData();
      fd.append('purpose', 'batch');
      await expectError(
        await fetch(`${s.url}/v1/files`, { method: 'POST', headers: auth(s.keys.acme), body: fd }),
        400,
        'missing_required_parameter',
      );
      await expectError(await post(s, '/v1/files', { file: 'x' }), 415, 'unsupported_media_type');
    });

    it('rejects malformed multipart: cut short, two files, an over-long field, no boundary', async () => {
      const boundary = 'm4lformed';
      const send = (body: string, type = `multipart/form-data; boundary=${boundary}`) =>
        request(`${s.url}/v1/files`, { method: 'POST', headers: { ...auth(s.keys.acme), 'content-type': type }, body });
      const part = (name: string, value: string, filename?: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${value}\r\n`;
      const code = async (res: Awaited<ReturnType<typeof send>>): Promise<[number, string]> => [
        res.statusCode,
        ((await res.body.json()) as { error: { code: string } }).error.code,
      ];
      const before = s.uploads.length;
      const files = await readdir(s.uploadDir);
      assert.deepEqual(
        await code(
          await send(
            `${part('purpose', 'batch')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\ncut`,
          ),
        ),
        [400, 'invalid_multipart'],
      );
      assert.deepEqual(
        await code(
          await send(
            `${part('purpose', 'batch')}${part('file', 'a', 'a.txt')}${part('file', 'b', 'b.txt')}--${boundary}--\r\n`,
          ),
        ),
        [400, 'invalid_multipart'],
      );
      assert.deepEqual(
        await code(
          await send(`${part('purpose', 'x'.repeat(70_000))}${part('file', 'a', 'a.txt')}--${boundary}--\r\n`),
        ),
        [400, 'invalid_multipart'],
      );
      assert.deepEqual(
        await code(
          await send(
            `${part('purpose', 'batch')}${part('file', 'a', 'a.txt')}--${boundary}--\r\n`,
            'multipart/form-data',
          ),
        ),
        [400, 'invalid_multipart'],
      );
      assert.equal(s.uploads.length, before);
      assert.deepEqual(await readdir(s.uploadDir), files, 'no partial file left behind');
    });
  });

  describe('faults', () => {
    it('latency delays every answer', async () => {
      await withServer({ faults: { latencyMs: 150 } }, async (d) => {
        const started = Date.now();
        assert.equal((await get(d, '/v1/models')).status, 200);
        assert.ok(Date.now() - started >= 140);
      });
    });

    it('setFaults makes a quick service slow from the next request on, and quick again', async () => {
      await withServer({}, async (d) => {
        let started = Date.now();
        assert.equal((await get(d, '/v1/models')).status, 200);
        assert.ok(Date.now() - started < 150);
        d.setFaults({ latencyMs: 200, paths: ['/v1/models'] });
        started = Date.now();
        assert.equal((await get(d, '/v1/models')).status, 200);
        assert.ok(Date.now() - started >= 190);
        d.setFaults(undefined);
        started = Date.now();
        assert.equal((await get(d, '/v1/models')).status, 200);
        assert.ok(Date.now() - started < 150);
      });
    });

    it('rate limit first:N gives 429 with Retry-After, then success', async () => {
      await withServer({ faults: { rateLimit: { first: 2, retryAfterSeconds: 0 } } }, async (d) => {
        for (let i = 0; i < 2; i++) {
          const res = await get(d, '/v1/models');
          await expectError(res, 429, 'rate_limit_exceeded');
          assert.equal(res.headers.get('retry-after'), '0');
        }
        assert.equal((await get(d, '/v1/models')).status, 200);
        assert.deepEqual(
          d.requests.map((r) => r.fault),
          ['rateLimit', 'rateLimit', undefined],
        );
      });
    });

    it('probabilistic faults follow the seed', async () => {
      const statuses = async (seed: number): Promise<number[]> =>
        withServer({ faults: { rateLimit: { rate: 0.5 }, seed } }, async (d) => {
          const out: number[] = [];
          for (let i = 0; i < 16; i++) {
            const res = await get(d, '/v1/models?limit=1');
            await res.arrayBuffer();
            out.push(res.status);
          }
          return out;
        });
      const a = await statuses(7);
      assert.deepEqual(await statuses(7), a);
      assert.ok(a.includes(429) && a.includes(200), a.join(','));
      assert.equal((await get(s, '/v1/models')).status, 200, 'rate 0 by default');
    });

    it('500 errors, limited to a path', async () => {
      await withServer({ faults: { serverError: { first: 1 }, paths: ['/v1/chat'] } }, async (d) => {
        const body = { model: 'aurora-2', messages: [{ role: 'user', content: 'x' }] };
        assert.equal((await get(d, '/v1/models')).status, 200, 'other paths are not affected');
        await expectError(await post(d, '/v1/chat', body), 500, 'server_error');
        assert.equal((await post(d, '/v1/chat', body)).status, 200);
      });
    });

    it('503 errors with Retry-After', async () => {
      await withServer({ faults: { unavailable: { rate: 1, retryAfterSeconds: 3 } } }, async (d) => {
        const res = await get(d, '/v1/models');
        await expectError(res, 503, 'service_unavailable');
        assert.equal(res.headers.get('retry-after'), '3');
      });
    });

    it('an HTML error page', async () => {
      await withServer({ faults: { htmlError: { rate: 1 } } }, async (d) => {
        const res = await get(d, '/v1/models');
        assert.equal(res.status, 502);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await res.text(), /<h1>502 Bad Gateway<\/h1>/);
      });
    });

    it('malformed JSON bodies, and a broken event in streams', async () => {
      await withServer({ faults: { malformedJson: { rate: 1 } } }, async (d) => {
        const res = await get(d, '/v1/models');
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /application\/json/);
        const text = await res.text();
        assert.throws(() => JSON.parse(text));
        const stream = parseSse(
          await (await post(d, '/v1/responses', { model: 'aurora-2', input: 'x', stream: true })).text(),
        );
        assert.ok(
          stream.some((e) =>
            (() => {
              try {
                JSON.parse(e.data);
                return false;
              } catch {
                return true;
              }
            })(),
          ),
        );
        assert.equal((await get(d, '/v1/models/none')).status, 404, 'error answers stay intact');
      });
    });

    it('a connection reset mid-body, for JSON and for streams', async () => {
      await withServer({ faults: { resetMidBody: { rate: 1 } } }, async (d) => {
        const res = await get(d, '/v1/models');
        assert.equal(res.status, 200);
        await assert.rejects(res.text());
        const stream = await post(d, '/v1/responses', { model: 'aurora-2', input: 'x', stream: true });
        await assert.rejects(stream.text());
        const record = await d.waitForRequest((r) => r.url === '/v1/responses');
        assert.equal(record.stream, 'reset');
        assert.equal(record.aborted, false, 'a reset the server caused is not a client abort');
      });
    });

    it('hang: never answers; the server records the client giving up', async () => {
      await withServer({ faults: { hang: { first: 1 } } }, async (d) => {
        await assert.rejects(get(d, '/v1/models', d.keys.acme, AbortSignal.timeout(150)));
        await d.waitForAborts(1);
        assert.equal((await get(d, '/v1/models')).status, 200);
      });
    });

    it('echoKey: error messages repeat the presented key', async () => {
      await withServer({ faults: { echoKey: true } }, async (d) => {
        const body = await expectError(await get(d, '/v1/models', 'sk-canary-echo-77'), 401, 'invalid_api_key');
        assert.match(body.error.message, /sk-canary-echo-77/);
        const notFound = await expectError(await get(d, '/v1/models/none'), 404, 'model_not_found');
        assert.match(notFound.error.message, new RegExp(d.keys.acme));
      });
    });
  });

  describe('command line', () => {
    it('parses flags into server options', () => {
      const o = parseServeArgs([
        '--port',
        '8123',
        '--dialect',
        'models',
        '--models',
        '500',
        '--rate-limit',
        'first:2',
        '--retry-after',
        '4',
        '--unavailable',
        '0.25',
        '--fault-path',
        '/v1/models',
        '--key',
        'acme=k1',
        '--echo-key',
        '--local-cards',
      ]);
      assert.equal(o.localCards, true);
      assert.equal(parseServeArgs([]).localCards, undefined);
      assert.equal(o.port, 8123);
      assert.equal(o.dialect, 'models');
      assert.equal(o.models, 500);
      assert.deepEqual(o.keys, { acme: 'k1' });
      assert.deepEqual(o.faults?.rateLimit, { first: 2, retryAfterSeconds: 4 });
      assert.deepEqual(o.faults?.unavailable, { rate: 0.25, retryAfterSeconds: undefined });
      assert.deepEqual(o.faults?.paths, ['/v1/models']);
      assert.equal(o.faults?.echoKey, true);
      assert.throws(() => parseServeArgs(['--dialect', 'xml']), /dialect/);
      assert.throws(() => parseServeArgs(['--rate-limit', '2']), /probability/);
      assert.throws(() => parseServeArgs(['--nope']));
    });

    it('prints {url, keys} as the first stdout line, serves, and exits cleanly on SIGTERM', async function () {
      this.timeout(15000);
      const root = path.resolve(__dirname, '..', '..', '..');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/server/cli.ts', '--port', '0', '--dialect', 'array', '--quiet'],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      try {
        const firstLine = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (b: Buffer) => {
            out += b.toString();
            const nl = out.indexOf('\n');
            if (nl >= 0) {
              resolve(out.slice(0, nl));
            }
          });
          child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
        });
        const info = JSON.parse(firstLine) as { url: string; keys: Record<string, string> };
        assert.deepEqual(Object.keys(info), ['url', 'keys']);
        assert.equal(info.keys.acme, DEMO_KEYS.acme);
        assert.equal((await fetch(`${info.url}/v1/models`)).status, 401);
        const res = await fetch(`${info.url}/v1/models`, { headers: auth(info.keys.acme) });
        assert.ok(Array.isArray(await res.json()));
        assert.match(res.headers.get('link') ?? '', /rel="next"/);
        const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        assert.equal(await exit, 0);
      } finally {
        child.kill('SIGKILL');
      }
    });
  });
});
