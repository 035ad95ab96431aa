import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import type { ServiceClientOptions } from '../../../src/api/types';
import { startServer, type RunningServer } from '../../server';
import { clientFor, expectError } from '../helpers/api';
import { startProxy, type TestProxy } from '../helpers/proxy';
import { createPki, startTlsFront, type TestPki, type TlsFront } from '../helpers/tls';

const HOST = 'models.corp.test';

describe('api/dispatcher: through a real CONNECT proxy with Basic auth, to a TLS service', function () {
  this.timeout(120000);
  let pki: TestPki;
  let service: RunningServer;
  let front: TlsFront;
  let proxy: TestProxy;
  let url: string;
  const tls = (): ServiceClientOptions['tls'] => ({ caFiles: [pki.caFile] });

  before(async () => {
    pki = createPki([HOST, 'localhost']);
    service = await startServer();
    front = await startTlsFront(Number(new URL(service.url).port), pki.server);
    proxy = await startProxy({ user: 'alice', password: 'pr0xy-canary', hosts: [HOST] });
    url = `https://${HOST}:${front.port}`;
  });
  after(async () => {
    await proxy.close();
    await front.close();
    await service.close();
    pki.dispose();
  });
  beforeEach(() => {
    proxy.log.length = 0;
  });

  const assertTunnelOnly = (): void => {
    assert.ok(proxy.log.length > 0, 'the proxy saw the requests');
    for (const entry of proxy.log) {
      assert.match(entry, new RegExp(`^CONNECT ${HOST}:${front.port}\n`), entry);
      assert.ok(!/authorization: bearer/i.test(entry), `the proxy saw the key: ${entry}`);
      assert.ok(!entry.includes(service.keys.acme), `the proxy saw the key: ${entry}`);
    }
  };

  it('lists the models; the proxy sees a CONNECT and never the key', async () => {
    const { client } = clientFor(url, service.keys.acme, { proxy: { url: proxy.urlWithCredentials }, tls: tls() });
    const list = await client.listModels();
    await client.dispose();
    assert.ok(list.models.length > 0);
    assertTunnelOnly();
    assert.match(proxy.log[0], /Proxy-Authorization: Basic /i);
    assert.equal(service.requests.at(-1)?.path, '/v1/models');
  });

  it('inspects a model and POSTs a payload (not streamed) through the tunnel', async () => {
    const { client } = clientFor(url, service.keys.acme, { proxy: { url: proxy.urlWithCredentials }, tls: tls() });
    const model = await client.getModel('aurora-2');
    const r = await client.post('/v1/embeddings', { model: 'cirrus-embed-1', input: 'through the proxy' });
    await client.dispose();
    assert.equal(model.id, 'aurora-2');
    assert.equal(r.status, 200, r.body?.text);
    assert.deepEqual(
      service.requests.slice(-2).map((q) => `${q.method} ${q.path} ${q.authorization}`),
      ['GET /v1/models/aurora-2 true', 'POST /v1/embeddings true'],
    );
    assertTunnelOnly();
  });

  it('streams a chat answer through the tunnel', async () => {
    const { client } = clientFor(url, service.keys.acme, { proxy: { url: proxy.urlWithCredentials }, tls: tls() });
    const r = await client.post(
      '/v1/chat',
      { model: 'aurora-1', messages: [{ role: 'user', content: 'Hello there' }] },
      { stream: true },
    );
    assert.ok(r.events, `an event stream (status ${r.status})`);
    let events = 0;
    for await (const e of r.events) {
      assert.ok(e.data.length >= 0);
      events++;
    }
    await client.dispose();
    assert.ok(events > 2, `${events} events`);
    assertTunnelOnly();
  });

  it('uploads 50 MB through the tunnel, intact', async () => {
    const file = join(pki.dir, 'big.bin');
    const hash = createHash('sha256');
    const out = createWriteStream(file);
    for (let i = 0; i < 50; i++) {
      const chunk = randomBytes(1024 * 1024);
      hash.update(chunk);
      if (!out.write(chunk)) {
        await once(out, 'drain');
      }
    }
    out.end();
    await once(out, 'close');
    const { client } = clientFor(url, service.keys.acme, { proxy: { url: proxy.urlWithCredentials }, tls: tls() });
    const r = await client.uploadFile(file, { purpose: 'batch' });
    await client.dispose();
    assert.equal(r.status, 200, r.body?.text);
    const stored = service.uploads.at(-1);
    assert.equal(stored?.bytes, 50 * 1024 * 1024);
    assert.equal(stored?.sha256, hash.digest('hex'));
    assertTunnelOnly();
  });

  it('takes the credentials from http.proxyAuthorization as well', async () => {
    const token = `Basic ${Buffer.from('alice:pr0xy-canary').toString('base64')}`;
    const { client } = clientFor(url, service.keys.acme, {
      proxy: { url: proxy.url, authorization: token },
      tls: tls(),
    });
    assert.ok((await client.listModels()).models.length > 0);
    await client.dispose();
    assertTunnelOnly();
  });

  for (const [what, proxyUrl] of [
    ['wrong proxy credentials', () => proxy.url.replace('//', '//alice:wrong@')],
    ['no proxy credentials', () => proxy.url],
  ] as const) {
    it(`${what}: the 407 says what to set, without the credentials`, async () => {
      const { client } = clientFor(url, service.keys.acme, {
        proxy: { url: proxyUrl(), source: 'http.proxy' },
        tls: tls(),
        retries: { max: 0 },
      });
      const e = await expectError(client.listModels(), 'network');
      await client.dispose();
      assert.equal(e.code, 'PROXY_AUTH');
      assert.equal(
        e.message,
        `The proxy ${proxy.url} requires credentials (407 Proxy Authentication Required). Put them in the http.proxy setting (http://user:password@host:port) or set http.proxyAuthorization; if they are set, the proxy refused them.`,
      );
      assert.ok(!e.message.includes('wrong'));
    });
  }

  it('http.proxyStrictSSL off does not turn off verification of the service behind the proxy', async () => {
    const { client } = clientFor(url, service.keys.acme, {
      proxy: { url: proxy.urlWithCredentials, strictSSL: false },
      retries: { max: 0 },
    });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.match(e.message, /is not trusted/);
  });

  it('an unreachable proxy is named as the proxy, not as the service', async () => {
    const { client } = clientFor(url, service.keys.acme, {
      proxy: { url: 'http://127.0.0.1:1' },
      tls: tls(),
      retries: { max: 0 },
    });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.equal(e.message, 'Could not connect to the proxy http://127.0.0.1:1: connection refused.');
  });
});

describe('api/dispatcher: a service that requires a client certificate (mTLS)', function () {
  this.timeout(60000);
  let pki: TestPki;
  let service: RunningServer;
  let front: TlsFront;
  let url: string;
  before(async () => {
    pki = createPki(['localhost']);
    service = await startServer();
    front = await startTlsFront(Number(new URL(service.url).port), pki.server, pki.caPem);
    url = `https://localhost:${front.port}`;
  });
  after(async () => {
    await front.close();
    await service.close();
    pki.dispose();
  });

  it('is refused without a client certificate; over TLS 1.2 the message names the setting', async () => {
    const { client } = clientFor(url, service.keys.acme, { tls: { caFiles: [pki.caFile] }, retries: { max: 0 } });
    await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.ok(!service.requests.some((r) => r.path === '/v1/models'), 'the service was not reached');
    const tls12 = await startTlsFront(Number(new URL(service.url).port), pki.server, pki.caPem, 'TLSv1.2');
    const other = clientFor(`https://localhost:${tls12.port}`, service.keys.acme, {
      tls: { caFiles: [pki.caFile] },
      retries: { max: 0 },
    }).client;
    const e = await expectError(other.listModels(), 'network');
    await other.dispose();
    await tls12.close();
    assert.match(e.message, /requires a client certificate \(modelAccess\.tls\.clientCertificate\)/);
  });

  it('works with certFile + keyFile and the passphrase, and with a pfxFile', async () => {
    const c = pki.client;
    for (const clientCertificate of [
      { certFile: c.certFile, keyFile: c.keyFile, passphrase: c.passphrase },
      { pfxFile: c.pfxFile, passphrase: c.passphrase },
    ]) {
      const { client, log } = clientFor(url, service.keys.acme, { tls: { caFiles: [pki.caFile], clientCertificate } });
      assert.ok((await client.listModels()).models.length > 0);
      await client.dispose();
      assert.ok(!JSON.stringify(log).includes(c.passphrase));
    }
    assert.deepEqual(front.clients.slice(-2), ['alice', 'alice']);
  });

  it('a wrong or missing passphrase says how to set it, and never shows it', async () => {
    const c = pki.client;
    for (const passphrase of ['not-it-canary', undefined]) {
      const { client, log } = clientFor(url, service.keys.acme, {
        tls: { caFiles: [pki.caFile], clientCertificate: { certFile: c.certFile, keyFile: c.keyFile, passphrase } },
        retries: { max: 0 },
      });
      const e = await expectError(client.listModels(), 'config');
      await client.dispose();
      assert.match(e.message, /Set Client Certificate Passphrase/);
      const all = JSON.stringify({ e, message: e.message, log });
      assert.ok(!all.includes('not-it-canary') && !all.includes(c.passphrase));
    }
    assert.ok(readFileSync(c.keyFile, 'utf8').includes('ENCRYPTED'));
  });
});
