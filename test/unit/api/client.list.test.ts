import * as assert from 'node:assert/strict';
import { DIALECTS, loadRegistry, startServer, type RunningServer } from '../../server';
import { clientFor, expectError } from '../helpers/api';

const registry = loadRegistry();
const acme = registry.models.filter((m) => m.organization === 'acme');

describe('client: listModels and getModel against the local service', function () {
  this.timeout(20000);

  for (const dialect of DIALECTS) {
    describe(`dialect ${dialect}`, () => {
      let server: RunningServer;
      before(async () => {
        server = await startServer({ dialect, pageSize: 4, pathPrefix: '/api' });
      });
      after(() => server.close());

      it('reads every page and exactly the ids, families, versions and card links', async () => {
        assert.ok(acme.length >= 12, 'the registry must give at least 3 pages');
        const { client, log } = clientFor(server.url, server.keys.acme);
        const result = await client.listModels();
        await client.dispose();
        assert.equal(result.pages, Math.ceil(acme.length / 4));
        assert.ok(result.pages >= 3);
        assert.deepEqual(result.warnings, []);
        assert.equal(result.skipped, 0);
        assert.deepEqual(
          result.models.map((m) => [m.id, m.family, m.version, m.cardUrl]),
          acme.map((m) => [m.id, m.family, m.version, m.model_card_url]),
        );
        // Every request went under the path prefix with the key, one per page.
        const lists = server.requests.filter((r) => r.url.startsWith('/api/v1/models'));
        assert.equal(lists.length, result.pages);
        assert.ok(lists.every((r) => r.authorization && r.organization === 'acme' && r.status === 200));
        assert.equal(log.length, result.pages);
        assert.ok(log.every((e) => e.method === 'GET' && e.path.startsWith('/api/v1/models') && e.status === 200));
      });

      it('reports the models read so far after each page but the last, before the next page is asked for', async () => {
        const { client } = clientFor(server.url, server.keys.acme);
        const seen: { count: number; requests: number }[] = [];
        const before = server.requests.length;
        const result = await client.listModels({
          onPage: (soFar) => seen.push({ count: soFar.length, requests: server.requests.length }),
        });
        await client.dispose();
        assert.equal(seen.length, result.pages - 1);
        assert.deepEqual(
          seen.map((s) => s.count),
          seen.map((_, i) => 4 * (i + 1)),
        );
        // The first report comes when only the first page has been read: rows can be shown after page 1.
        assert.equal(seen[0].requests - before, 1);
      });

      it('sees only the organization of the key', async () => {
        const { client } = clientFor(`${server.url}/v1/`, server.keys.globex);
        const { models } = await client.listModels();
        await client.dispose();
        assert.deepEqual(
          models.map((m) => m.id),
          registry.models.filter((m) => m.organization === 'globex').map((m) => m.id),
        );
      });
    });
  }

  describe('getModel', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ dialect: 'models' });
    });
    after(() => server.close());

    it('URL-encodes ids with "/", ":" and spaces', async () => {
      const { client } = clientFor(server.url, server.keys.globex);
      const m = await client.getModel('globex/research preview:0.9');
      const m2 = await client.getModel('globex/quill:10');
      await client.dispose();
      const expected = registry.models.find((x) => x.id === 'globex/research preview:0.9');
      assert.deepEqual(
        [m.id, m.family, m.version, m.cardUrl],
        [expected?.id, expected?.family, expected?.version, expected?.model_card_url],
      );
      assert.equal(m2.version, '10');
      assert.ok(server.requests.some((r) => r.url === '/v1/models/globex%2Fresearch%20preview%3A0.9'));
    });

    it('tells an unknown id apart as notFound, with the server message and request id', async () => {
      const { client } = clientFor(server.url, server.keys.acme);
      const e = await expectError(client.getModel('acme/nope:1'), 'notFound');
      await client.dispose();
      assert.equal(e.status, 404);
      assert.equal(e.code, 'model_not_found');
      assert.match(
        e.message,
        /^The server answered 404 Not Found: The model `acme\/nope:1` does not exist or you do not have access to it\. \(request id req_[0-9a-f]+\)$/,
      );
      assert.equal(e.requestId, server.requests.at(-1)?.requestId);
    });

    it('a model of another organization is not found either', async () => {
      const { client } = clientFor(server.url, server.keys.acme);
      await expectError(client.getModel('globex/quill:1'), 'notFound');
      await client.dispose();
    });
  });

  describe('authentication', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer();
    });
    after(() => server.close());

    it('a missing key is a config error and nothing is sent', async () => {
      server.clearRecords();
      const { client } = clientFor(server.url, undefined);
      const e = await expectError(client.listModels(), 'config');
      await client.dispose();
      assert.match(e.message, /No API key is set for http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(server.requests.length, 0);
    });

    it('without an Authorization header the service answers 401 (checked with a raw request)', async () => {
      const res = await fetch(`${server.url}/v1/models`);
      assert.equal(res.status, 401);
    });

    it('a wrong key gives unauthorized with the server message', async () => {
      server.clearRecords();
      const { client } = clientFor(server.url, 'ma-wrong-key-000');
      const e = await expectError(client.listModels(), 'unauthorized');
      await client.dispose();
      assert.equal(e.status, 401);
      assert.match(
        e.message,
        /^The server answered 401 Unauthorized: Incorrect API key provided\. .* \(request id req_[0-9a-f]+\)$/,
      );
      assert.equal(server.requests.filter((r) => r.status === 401).length, 1, '401 is not retried');
    });

    it('a key that cannot go in a header is refused before sending', async () => {
      server.clearRecords();
      const { client } = clientFor(server.url, 'ma-demo\r\nx-evil: 1');
      await expectError(client.listModels(), 'config');
      assert.equal(server.requests.length, 0);
    });
  });

  describe('configuration errors come before any request', () => {
    it('invalid and insecure base URLs', async () => {
      for (const [url, kind] of [
        ['not a url', 'config'],
        ['ftp://x', 'config'],
        ['http://models.example.invalid', 'insecure'],
      ] as const) {
        let asked = 0;
        const { client } = clientFor(url, 'k', { apiKey: async () => (asked++, 'k') });
        await expectError(client.listModels(), kind);
        await expectError(client.post('/v1/chat', {}), kind);
        assert.equal(asked, 0);
        await client.dispose();
      }
    });

    it('a connection refused names the host', async () => {
      const server = await startServer();
      const url = server.url;
      await server.close();
      const { client } = clientFor(url, 'k');
      const e = await expectError(client.listModels(), 'network');
      await client.dispose();
      assert.equal(e.message, `Could not connect to ${url}: connection refused.`);
    });
  });

  it('stops at the page cap with a warning, keeping what was read', async () => {
    const server = await startServer({ dialect: 'openai', pageSize: 3 });
    const { client } = clientFor(server.url, server.keys.acme, { maxPages: 2 });
    const r = await client.listModels();
    await client.dispose();
    await server.close();
    assert.equal(r.pages, 2);
    assert.equal(r.models.length, 6);
    assert.match(r.warnings[0], /Stopped after 2 pages/);
  });
});
