import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { createDispatcher, readCa } from '../../../src/api/dispatcher';
import { ServiceError } from '../../../src/api/errors';

/** A plain http server that records the request targets it receives, tunnel requests included. */
async function recorder(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.end('ok');
  });
  // A proxy is asked to open a tunnel; this one refuses after noting where to.
  server.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url ?? ''}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

async function get(d: Dispatcher, origin: string): Promise<string> {
  try {
    const res = await d.request({ origin, path: '/v1/models', method: 'GET' });
    return await res.body.text();
  } catch (e) {
    return `failed: ${(e as { code?: string }).code ?? String(e)}`;
  } finally {
    await d.close();
  }
}

describe('api/dispatcher', function () {
  this.timeout(20_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ma-ca-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('adds a PEM CA file to the built-in roots, and names an unreadable or non-PEM file', () => {
    const pem = path.join(dir, 'ca.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const cas = readCa(pem);
    assert.equal(cas.length, rootCertificates.length + 1);
    assert.ok(cas.at(-1)?.startsWith('-----BEGIN CERTIFICATE-----'));
    const missing = path.join(dir, 'missing.pem');
    assert.throws(
      () => readCa(missing),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.kind === 'config' &&
        e.message === `Could not read the CA certificate file ${missing} (ENOENT).`,
    );
    const der = path.join(dir, 'ca.der');
    writeFileSync(der, 'not a pem');
    assert.throws(
      () => readCa(der),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.message === `The CA certificate file ${der} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`,
    );
    assert.throws(() => createDispatcher({ caFile: der }), /holds no PEM certificate/);
  });

  it('sends requests for another host through the configured proxy', async () => {
    const proxy = await recorder();
    try {
      const d = createDispatcher({ targetHost: 'models.test', proxy: { url: ` ${proxy.url} ` } });
      await get(d, 'http://models.test');
      assert.deepEqual(proxy.seen, ['CONNECT models.test:80']);
    } finally {
      proxy.server.close();
    }
  });

  it('uses the environment proxy only when asked to', async () => {
    const proxy = await recorder();
    const saved = { http: process.env.http_proxy, HTTP: process.env.HTTP_PROXY };
    process.env.http_proxy = proxy.url;
    process.env.HTTP_PROXY = proxy.url;
    try {
      await get(
        createDispatcher({ targetHost: 'models.test', proxy: { fromEnvironment: true } }),
        'http://models.test',
      );
      assert.deepEqual(proxy.seen, ['CONNECT models.test:80']);
      await get(createDispatcher({ targetHost: 'models.test', proxy: {} }), 'http://models.test');
      assert.deepEqual(proxy.seen, ['CONNECT models.test:80'], 'no proxy unless the settings say so');
    } finally {
      for (const [name, value] of [
        ['http_proxy', saved.http],
        ['HTTP_PROXY', saved.HTTP],
      ] as const) {
        if (value === undefined) {
          delete process.env[name];
        } else {
          process.env[name] = value;
        }
      }
      proxy.server.close();
    }
  });

  it('never sends a loopback service through a proxy, and honours the no-proxy list', async () => {
    const proxy = await recorder();
    const target = await recorder();
    try {
      const port = new URL(target.url).port;
      const direct = createDispatcher({ targetHost: '127.0.0.1', proxy: { url: proxy.url } });
      assert.equal(await get(direct, target.url), 'ok');
      const listed = createDispatcher({ targetHost: 'models.test', proxy: { url: proxy.url, noProxy: ['127.0.0.1'] } });
      assert.equal(await get(listed, `http://127.0.0.1:${port}`), 'ok');
      assert.deepEqual(proxy.seen, []);
      assert.deepEqual(target.seen, ['/v1/models', '/v1/models']);
    } finally {
      proxy.server.close();
      target.server.close();
    }
  });

  it('refuses a proxy setting that is not a URL, and ignores a blank one', async () => {
    assert.throws(
      () => createDispatcher({ targetHost: 'models.test', proxy: { url: 'http://[proxy' } }),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.kind === 'config' &&
        e.message === 'The proxy setting is not a valid URL (expected e.g. http://proxy.example:3128).',
    );
    const target = await recorder();
    try {
      const d = createDispatcher({ targetHost: 'models.test', proxy: { url: '   ' } });
      assert.equal(await get(d, target.url), 'ok');
    } finally {
      target.server.close();
    }
  });
});
