// The client's own decisions, against a small scripted server that records what arrived: the body and
// headers of a POST, how limits and redirects end a list, and the errors raised before anything is sent.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../../src/api/client';
import type { ServiceClientOptions } from '../../../src/api/types';
import { expectError } from '../helpers/api';

const KEY = 'sk-client-test-42';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Scripted {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A server that records each request, body included, then answers with `handler`. */
async function scripted(
  handler: (req: Received, res: ServerResponse, self: { url: string }) => void,
): Promise<Scripted> {
  const received: Received[] = [];
  const self = { url: '' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(r);
      handler(r, res, self);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self.url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, headers);
  res.end(body);
}

describe('api/client', function () {
  this.timeout(20_000);
  const servers: Scripted[] = [];
  const clients: ServiceClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function setup(
    handler: (req: Received, res: ServerResponse, self: { url: string }) => void,
    options: Partial<ServiceClientOptions> = {},
  ): Promise<{ s: Scripted; client: ServiceClient }> {
    const s = await scripted(handler);
    servers.push(s);
    const client = new ServiceClient({
      baseUrl: `${s.url}/api`,
      apiKey: async () => KEY,
      retries: { max: 0 },
      ...options,
    });
    clients.push(client);
    return { s, client };
  }

  describe('post', () => {
    it('sends JSON with the stream flag the caller asked for, unless the payload sets its own', async () => {
      const { s, client } = await setup((_r, res) => send(res, 200, '{}', { 'content-type': 'application/json' }));
      await client.post('/v1/chat', { model: 'm' }, { stream: false });
      await client.post('chat', { model: 'm', stream: true }, { stream: false });
      await client.post('/v1/chat', { model: 'm' });
      await client.post('/v1/chat', '{"raw": true}', { stream: true });
      await client.post('/v1/chat', undefined);
      assert.deepEqual(
        s.received.map((r) => [r.method, r.url, r.body]),
        [
          ['POST', '/api/v1/chat', '{"model":"m","stream":false}'],
          ['POST', '/api/v1/chat', '{"model":"m","stream":true}'],
          ['POST', '/api/v1/chat', '{"model":"m"}'],
          ['POST', '/api/v1/chat', '{"raw": true}'],
          ['POST', '/api/v1/chat', 'null'],
        ],
      );
      assert.equal(s.received[0].headers['content-type'], 'application/json');
      assert.equal(s.received[0].headers.authorization, `Bearer ${KEY}`);
      assert.match(s.received[0].headers['user-agent'] ?? '', /^model-access-vscode\/\d+\.\d+\.\d+/);
      assert.equal(s.received[0].headers.accept, 'application/json, text/event-stream;q=0.9, */*;q=0.5');
      assert.equal(s.received[3].headers.accept, 'text/event-stream, application/json;q=0.9, */*;q=0.5');
    });

    it('refuses a payload that cannot be JSON before sending anything', async () => {
      const { s, client } = await setup((_r, res) => send(res, 200, '{}'));
      const e = await expectError(client.post('/v1/chat', { n: 1n }), 'config');
      assert.match(e.message, /^The request body cannot be encoded as JSON: .*BigInt/);
      assert.equal(s.received.length, 0);
    });

    it('parses JSON for every JSON media type, and says when a JSON answer is not JSON', async () => {
      const answers: [string, string][] = [
        ['application/json; charset=utf-8', '{"a":1}'],
        ['application/problem+json', '{"title":"t"}'],
        ['TEXT/JSON', '[1]'],
        ['application/jsonl', '{"a":1}\n{"a":2}'],
        ['text/plain', '{"a":1}'],
        ['application/json', '{broken'],
      ];
      let i = 0;
      const { client } = await setup((_r, res) => {
        const [type, body] = answers[i++];
        send(res, 200, body, { 'content-type': type });
      });
      const results = [];
      for (let n = 0; n < answers.length; n++) {
        results.push(await client.post('/v1/x', {}));
      }
      assert.deepEqual(
        results.map((r) => r.body?.json),
        [{ a: 1 }, { title: 't' }, [1], undefined, undefined, undefined],
      );
      assert.deepEqual(
        results.map((r) => r.error?.kind),
        [undefined, undefined, undefined, undefined, undefined, 'invalidResponse'],
      );
      assert.equal(results[5].error?.message, "The server's answer says it is JSON but is not valid JSON.");
      assert.equal(results[5].error?.status, 200);
      assert.equal(results[0].contentType, 'application/json; charset=utf-8');
    });

    it('does not parse a body it had to cut, and says it was cut', async () => {
      const { client } = await setup(
        (_r, res) => send(res, 200, `{"a":"${'x'.repeat(100)}"}`, { 'content-type': 'application/json' }),
        {
          maxBodyBytes: 50,
        },
      );
      const r = await client.post('/v1/x', {});
      assert.deepEqual([r.body?.bytes, r.body?.truncated, r.body?.json, r.error], [50, true, undefined, undefined]);
    });

    it('reads an error answer whole even when it says event-stream, and flattens and redacts headers', async () => {
      const { client } = await setup((_r, res) =>
        send(res, 503, `{"error":{"message":"echo ${KEY}"}}`, {
          'content-type': 'text/event-stream',
          'x-echo': KEY,
          'set-cookie': ['a=1', 'b=2'],
          'x-request-id': 'rid-7',
        }),
      );
      const r = await client.post('/v1/chat', {}, { stream: true });
      assert.equal(r.events, undefined);
      assert.equal(r.status, 503);
      assert.equal(r.statusText, 'Service Unavailable');
      assert.equal(r.requestId, 'rid-7');
      assert.equal(r.headers['x-echo'], '[redacted]');
      assert.equal(r.headers['set-cookie'], 'a=1, b=2');
      assert.equal(r.error?.kind, 'http');
      assert.equal(r.error?.message, 'The server answered 503 Service Unavailable: echo [redacted] (request id rid-7)');
      assert.ok(r.elapsedMs >= 0);
    });

    it('streams a successful event-stream answer whatever the case of its media type', async () => {
      const { client } = await setup((_r, res) =>
        send(res, 200, 'data: {"x":1}\n\ndata: [DONE]\n\n', { 'content-type': 'Text/Event-Stream; charset=utf-8' }),
      );
      const r = await client.post('/v1/chat', {}, { stream: true });
      assert.ok(r.events);
      const events = [];
      for await (const ev of r.events) {
        events.push(ev.json);
      }
      assert.deepEqual(events, [{ x: 1 }]);
      assert.equal(r.body, undefined);
    });

    it('uploads with the purpose and extra fields, and an exact Content-Length', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'ma-client-'));
      try {
        const file = path.join(dir, 'a.jsonl');
        writeFileSync(file, '{"x":1}\n');
        const { s, client } = await setup((_r, res) =>
          send(res, 200, '{"id":"file-1"}', { 'content-type': 'application/json' }),
        );
        const r = await client.uploadFile(file, { purpose: 'batch', fields: { note: 'n' } });
        assert.deepEqual(r.body?.json, { id: 'file-1' });
        const [req] = s.received;
        assert.equal(req.url, '/api/v1/files');
        assert.equal(req.headers.accept, 'application/json');
        assert.equal(Number(req.headers['content-length']), Buffer.byteLength(req.body));
        assert.match(req.body, /name="purpose"\r\n\r\nbatch\r\n/);
        assert.match(req.body, /name="note"\r\n\r\nn\r\n/);
        assert.match(req.body, /filename="a.jsonl"\r\nContent-Type: application\/octet-stream\r\n\r\n\{"x":1\}\n\r\n/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('before any request', () => {
    it('says what is wrong with the key, and sends nothing', async () => {
      const s = await scripted((_r, res) => send(res, 200, '[]'));
      servers.push(s);
      const make = (apiKey: () => Promise<string | undefined>) => {
        const c = new ServiceClient({ baseUrl: s.url, apiKey, retries: { max: 0 } });
        clients.push(c);
        return c;
      };
      const missing = await expectError(make(async () => '   ').listModels(), 'config');
      assert.equal(missing.message, `No API key is set for ${s.url}.`);
      assert.equal(missing.host, s.url);
      const unreadable = await expectError(
        make(async () => {
          throw new Error('keychain locked');
        }).listModels(),
        'config',
      );
      assert.equal(unreadable.message, 'The API key could not be read from storage.');
      const spaced = await expectError(make(async () => 'sk one').listModels(), 'config');
      assert.match(spaced.message, /^The API key contains spaces, line breaks or non-ASCII characters/);
      await expectError(make(async () => 'sk-é').listModels(), 'config');
      assert.equal(s.received.length, 0);
      await make(async () => `  ${KEY}\n`).listModels();
      assert.equal(s.received[0].headers.authorization, `Bearer ${KEY}`);
    });

    it('refuses a call that was cancelled already, a blank model id, and calls after dispose', async () => {
      const { s, client } = await setup((_r, res) => send(res, 200, '[]'));
      const ac = new AbortController();
      ac.abort();
      const aborted = await expectError(client.listModels({ signal: ac.signal }), 'aborted');
      assert.equal(aborted.message, 'The request was cancelled.');
      assert.equal((await expectError(client.getModel('  '), 'config')).message, 'A model id is required.');
      await client.dispose();
      await client.dispose();
      const closed = await expectError(client.listModels(), 'config');
      assert.equal(closed.message, 'This service client was closed (the settings changed); try again.');
      assert.equal(s.received.length, 0);
    });

    it('reports a bad set-up on every call, and still names endpoints', async () => {
      const bad = new ServiceClient({ baseUrl: 'ftp://host/x/', apiKey: async () => KEY });
      clients.push(bad);
      assert.match((await expectError(bad.listModels(), 'config')).message, /must start with https:\/\//);
      await expectError(bad.post('/v1/chat', {}), 'config');
      assert.equal(bad.endpointUrl('/v1/chat'), 'ftp://host/x/v1/chat');
      assert.equal(bad.endpointUrl('v1/chat'), 'ftp://host/x/v1/chat');
      const noCa = new ServiceClient({
        baseUrl: 'https://h',
        apiKey: async () => KEY,
        tls: { caFiles: ['/nonexistent/ca.pem'] },
      });
      clients.push(noCa);
      assert.match((await expectError(noCa.listModels(), 'config')).message, /Could not read the CA certificate file/);
      const good = new ServiceClient({ baseUrl: 'https://h/api/v1/', apiKey: async () => KEY });
      clients.push(good);
      assert.equal(good.endpointUrl('models'), 'https://h/api/v1/models');
    });
  });

  describe('getModel', () => {
    it('reads a wrapped entry, fills a missing id with the one asked for, and refuses a non-entry', async () => {
      const bodies = ['{"data":{"id":"a/b","family":"f"}}', '{"object":"model","version":"3"}', '[1,2]', 'not json'];
      let i = 0;
      const { s, client } = await setup((_r, res) =>
        send(res, 200, bodies[i++], { 'content-type': 'application/json' }),
      );
      const wrapped = await client.getModel('a/b');
      assert.deepEqual([wrapped.id, wrapped.family, wrapped.raw], ['a/b', 'f', { id: 'a/b', family: 'f' }]);
      const filled = await client.getModel('m 1');
      assert.deepEqual([filled.id, filled.version, filled.raw], ['m 1', '3', { object: 'model', version: '3' }]);
      const notEntry = await expectError(client.getModel('x'), 'invalidResponse');
      assert.equal(notEntry.message, `The answer for model "x" from ${s.url} is not a model entry.`);
      const notJson = await expectError(client.getModel('y'), 'invalidResponse');
      assert.match(notJson.message, new RegExp(`^The entry of model "y" from ${s.url} is not valid JSON \\(.+\\)\\.$`));
      assert.deepEqual(
        s.received.map((r) => r.url),
        ['/api/v1/models/a%2Fb', '/api/v1/models/m%201', '/api/v1/models/x', '/api/v1/models/y'],
      );
      assert.equal(s.received[0].headers.accept, 'application/json');
    });
  });

  describe('listModels limits', () => {
    const page = (n: number, next?: string) =>
      JSON.stringify({ data: Array.from({ length: n }, (_, i) => ({ id: `m${i}` })), ...(next ? { next } : {}) });

    it('stops at maxModels with a warning when more pages remain, and trims a last page over it', async () => {
      const { client } = await setup((r, res) => send(res, 200, page(3, r.url.includes('p=2') ? undefined : '?p=2')), {
        maxModels: 2,
      });
      const r = await client.listModels();
      assert.equal(r.models.length, 2);
      assert.equal(r.pages, 1);
      assert.deepEqual(r.warnings, [
        'Stopped after 3 models (the limit set by modelAccess.limits.maxModels); the list may be incomplete.',
      ]);
      const last = await setup((_r, res) => send(res, 200, page(3)), { maxModels: 2 });
      const t = await last.client.listModels();
      assert.equal(t.models.length, 2);
      assert.deepEqual(t.warnings, [
        'Showing the first 2 of 3 models (the limit set by modelAccess.limits.maxModels).',
      ]);
      const exact = await setup((_r, res) => send(res, 200, page(2, '?p=2')), { maxModels: 2, maxPages: 1 });
      assert.deepEqual((await exact.client.listModels()).warnings, [
        'Stopped after 1 page (the page limit); the list may be incomplete.',
      ]);
    });

    it('stops when the pages add up to maxListBytes, and at the page limit (at least one page)', async () => {
      const { s, client } = await setup(
        (r, res) => {
          const n = Number(new URL(r.url, 'http://x').searchParams.get('p') ?? '1');
          send(res, 200, page(1, `?p=${n + 1}`));
        },
        { maxListBytes: 60 },
      );
      const r = await client.listModels();
      const warning =
        'Stopped after 2 pages: the list passed 0 MB (the limit set by modelAccess.limits.maxListMegabytes); it may be incomplete.';
      assert.deepEqual(r.warnings, [warning]);
      assert.equal(s.received.length, 2);
      const one = await setup((r2, res) => send(res, 200, page(1, `?p=${r2.url.length}`)), { maxPages: 0 });
      const single = await one.client.listModels();
      assert.equal(single.pages, 1);
      assert.deepEqual(single.warnings, ['Stopped after 1 page (the page limit); the list may be incomplete.']);
    });

    it('names the page in an error of a later page', async () => {
      const { client } = await setup((r, res) => send(res, 200, r.url.includes('p=2') ? '{oops' : page(1, '?p=2')));
      const e = await expectError(client.listModels(), 'invalidResponse');
      assert.match(e.message, /^Page 2 of the model list from http:\/\/127\.0\.0\.1:\d+ is not valid JSON/);
    });
  });

  describe('redirects of GETs', () => {
    it('follows relative and absolute same-origin redirects of every kind, with the key', async () => {
      const hops: Record<string, [number, string]> = {
        '/api/v1/models': [301, '/api/a'],
        '/api/a': [302, 'b'],
        '/api/b': [303, '/api/c'],
        '/api/c': [307, '/api/d'],
      };
      const { s, client } = await setup((r, res, self) => {
        const hop = hops[r.url];
        if (hop) {
          send(res, hop[0], '', { location: hop[1] });
        } else if (r.url === '/api/d') {
          send(res, 308, '', { location: `${self.url}/api/final` });
        } else {
          send(res, 200, '[{"id":"m"}]');
        }
      });
      const r = await client.listModels();
      assert.deepEqual(
        r.models.map((m) => m.id),
        ['m'],
      );
      assert.deepEqual(
        s.received.map((x) => x.url),
        ['/api/v1/models', '/api/a', '/api/b', '/api/c', '/api/d', '/api/final'],
      );
      assert.ok(s.received.every((x) => x.headers.authorization === `Bearer ${KEY}`));
    });

    it('stops after five redirects, and on a redirect without a usable location', async () => {
      const { s, client } = await setup((r, res) => {
        const n = Number(r.url.split('/').pop()) || 0;
        send(res, 302, '', { location: `/api/${n + 1}` });
      });
      const e = await expectError(client.listModels(), 'http');
      assert.equal(e.message, 'The server redirected more than 5 times; stopped following.');
      assert.equal(s.received.length, 6);
      const bad = await setup((_r, res) => send(res, 301, '', { location: 'http://[bad' }));
      const invalid = await expectError(bad.client.listModels(), 'invalidResponse');
      assert.equal(invalid.message, 'The server answered 301 with a redirect that is not a valid URL.');
      const noLocation = await setup((_r, res) => send(res, 302, '{"error":"moved"}'));
      assert.equal(
        (await expectError(noLocation.client.listModels(), 'http')).message,
        'The server answered 302 Found: moved',
      );
    });
  });
});
