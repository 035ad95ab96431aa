/**
 * Network settings that can never work are said before anything goes over the network, naming the setting
 * and what to change; settings that can work reach the service (or are passed over for a loopback one).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, ProxyAgent } from 'undici';
import { createDispatcher, dispatcherForUrl, serviceTls } from '../../../src/api/dispatcher';
import type { ServiceError } from '../../../src/api/errors';
import { clientFor, expectError, startRecorder, type Recorder } from '../helpers/api';

describe('api/dispatcher: settings that cannot work, and settings that can', function () {
  this.timeout(20000);
  let dir: string;
  let rec: Recorder;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ma-dispatcher-'));
    writeFileSync(join(dir, 'client.pem'), 'CERT');
    writeFileSync(join(dir, 'client.key'), 'KEY');
    writeFileSync(join(dir, 'client.p12'), 'PFX');
    rec = await startRecorder();
  });
  after(async () => {
    await rec.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const configError = async (options: Parameters<typeof clientFor>[2]): Promise<ServiceError> => {
    const { client } = clientFor('https://models.example.com', 'sk-test', options);
    const e = await expectError(client.listModels(), 'config');
    await client.dispose();
    return e;
  };

  it('a client certificate file that cannot be read is named with what it is and why', async () => {
    const missing = join(dir, 'gone.pem');
    for (const [certificate, what, file] of [
      [{ certFile: missing, keyFile: join(dir, 'client.key') }, 'certificate (certFile)', missing],
      [{ certFile: join(dir, 'client.pem'), keyFile: ` ${missing} ` }, 'key (keyFile)', missing],
      [{ pfxFile: `${missing}\t` }, 'PKCS#12 file (pfxFile)', missing],
    ] as const) {
      const e = await configError({ tls: { clientCertificate: certificate } });
      assert.equal(e.code, 'TLS_CONFIG');
      assert.equal(
        e.message,
        `Could not read the client certificate's ${what} ${file} named in modelAccess.tls.clientCertificate (ENOENT).`,
      );
    }
    assert.equal(rec.seen.length, 0, 'nothing went over the network');
  });

  it('a certificate without its key, or a key without its certificate, asks for both or a pfxFile', async () => {
    for (const certificate of [
      { certFile: join(dir, 'client.pem') },
      { keyFile: join(dir, 'client.key') },
      { certFile: join(dir, 'client.pem'), keyFile: '  ' },
      { certFile: ' ', keyFile: join(dir, 'client.key'), pfxFile: '' },
    ]) {
      const e = await configError({ tls: { clientCertificate: certificate } });
      assert.equal(e.code, 'TLS_CONFIG', JSON.stringify(certificate));
      assert.equal(e.message, 'modelAccess.tls.clientCertificate needs both certFile and keyFile, or a pfxFile.');
    }
  });

  it('reads the files of a client certificate by their trimmed names, a pfxFile first; blank fields mean none', () => {
    assert.deepEqual(
      serviceTls({ clientCertificate: { certFile: ' ', keyFile: '', pfxFile: '\t', passphrase: 'p' } }),
      {},
    );
    assert.deepEqual(serviceTls({ clientCertificate: { passphrase: 'p' } }), {});
    assert.deepEqual(serviceTls({ clientCertificate: { keyFile: '  ' } }), {});
    const blankPfx = serviceTls({
      clientCertificate: { pfxFile: ' ', certFile: join(dir, 'client.pem'), keyFile: join(dir, 'client.key') },
    });
    assert.deepEqual([blankPfx.pfx, blankPfx.cert?.toString()], [undefined, 'CERT']);
    const pair = serviceTls({
      clientCertificate: { certFile: ` ${join(dir, 'client.pem')} `, keyFile: `${join(dir, 'client.key')}\n` },
    });
    assert.deepEqual(
      { cert: pair.cert?.toString(), key: pair.key?.toString(), pfx: pair.pfx, passphrase: pair.passphrase },
      { cert: 'CERT', key: 'KEY', pfx: undefined, passphrase: undefined },
    );
    const pfx = serviceTls({
      clientCertificate: {
        pfxFile: ` ${join(dir, 'client.p12')}`,
        certFile: join(dir, 'gone.pem'),
        keyFile: join(dir, 'gone.key'),
        passphrase: 'secret',
      },
    });
    assert.deepEqual(
      { pfx: pfx.pfx?.toString(), cert: pfx.cert, passphrase: pfx.passphrase },
      { pfx: 'PFX', cert: undefined, passphrase: 'secret' },
    );
  });

  it('a proxy that is not an http(s) URL is named by the setting it came from', async () => {
    const notUrl = await configError({ proxy: { url: 'http://proxy corp:3128' } });
    assert.equal(notUrl.code, 'PROXY_CONFIG');
    assert.equal(
      notUrl.message,
      'The proxy (http.proxy) is not a valid URL (expected e.g. http://proxy.example:3128).',
    );
    const socks = await configError({ proxy: { url: 'socks5://proxy.corp:1080', source: 'HTTPS_PROXY' } });
    assert.equal(socks.code, 'PROXY_CONFIG');
    assert.equal(socks.message, 'The proxy (HTTPS_PROXY) must be an http:// or https:// URL (got socks5:).');
  });

  it('an https proxy, a proxy written with spaces around it, and a bypassed or loopback target all work', async () => {
    const kinds = (o: Parameters<typeof createDispatcher>[0]): string => {
      const d = createDispatcher(o);
      void d.close();
      return d instanceof ProxyAgent ? 'proxy' : d instanceof Agent ? 'direct' : 'other';
    };
    assert.equal(
      kinds({ https: true, targetHost: 'models.example.com', proxy: { url: 'https://proxy.corp:443' } }),
      'proxy',
    );
    assert.equal(
      kinds({ https: true, targetHost: 'models.example.com', proxy: { url: ' http://proxy.corp:3128 ' } }),
      'proxy',
    );
    assert.equal(kinds({ https: true, targetHost: 'models.example.com', proxy: { url: '  ' } }), 'direct');
    assert.equal(kinds({ https: true, proxy: { url: 'http://proxy.corp:3128' } }), 'proxy');
    assert.equal(
      kinds({
        https: true,
        targetHost: 'models.example.com',
        proxy: { url: 'http://proxy.corp:3128', bypass: 'no_proxy' },
      }),
      'direct',
    );
    assert.equal(kinds({ https: false, targetHost: '127.0.0.1', proxy: { url: 'http://proxy.corp:3128' } }), 'direct');
    assert.equal(kinds({}), 'direct');
  });

  it('a loopback service is reached directly even with a proxy set, its requests going to it', async () => {
    const { client } = clientFor(rec.url, 'sk-test', { proxy: { url: 'http://127.0.0.1:1', source: 'http.proxy' } });
    const r = await client.listModels();
    await client.dispose();
    assert.deepEqual(r.models, []);
    assert.equal(rec.seen.at(-1)?.url, '/v1/models');
  });

  it('a URL without a key gets the proxy chosen for it, shown without credentials, and the client certificate only on its origin', () => {
    const settings = {
      proxy: { setting: 'http://alice:s3cret@proxy.corp:3128', env: {} },
      clientCertificate: {
        origin: 'https://models.example.com',
        certificate: { certFile: join(dir, 'gone.pem'), keyFile: join(dir, 'gone.key') },
      },
    };
    const card = dispatcherForUrl(new URL('https://cards.example.org/m.md'), settings);
    void card.dispatcher.close();
    assert.equal(card.proxy, 'http://proxy.corp:3128');
    assert.ok(card.dispatcher instanceof ProxyAgent);
    const local = dispatcherForUrl(new URL('http://127.0.0.1:9/m.md'), settings);
    void local.dispatcher.close();
    assert.equal(local.proxy, undefined);
    assert.ok(!(local.dispatcher instanceof ProxyAgent));
    const none = dispatcherForUrl(new URL('https://cards.example.org/m.md'), { proxy: { env: {} } });
    void none.dispatcher.close();
    assert.equal(none.proxy, undefined);
    // On the service's own origin the certificate is read (here: it does not exist, so that fails loudly).
    assert.throws(
      () => dispatcherForUrl(new URL('https://models.example.com/card.md'), settings),
      (e: unknown) => (e as ServiceError).code === 'TLS_CONFIG',
    );
  });
});
