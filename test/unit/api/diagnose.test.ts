import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import MarkdownIt from 'markdown-it';
import { diagnose, diagnoseReport, nextStep, type DiagnoseInput } from '../../../src/api/diagnose';
import { startServer, type RunningServer } from '../../server';
import { startProxy, type TestProxy } from '../helpers/proxy';
import { createPki, startTlsFront, type TestPki, type TlsFront } from '../helpers/tls';

const HOST = 'models.corp.test';
const PROXY_PASSWORD = 'pr0xy-canary-d1a9';
const PASSPHRASE = 'pass-canary-7f3a9c';

/** The report's lines, without the blank ones. */
const linesOf = (report: string): string[] => report.split('\n').filter((l) => l !== '');

/** Runs `fn` with the port of a TCP listener on loopback that accepts connections and never says anything. */
async function withSilentListener(fn: (port: number) => Promise<void>): Promise<void> {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    await fn((silent.address() as AddressInfo).port);
  } finally {
    silent.close();
  }
}

describe('api/diagnose: the Diagnose Connection report, against real TLS and a real proxy', function () {
  this.timeout(60000);
  let pki: TestPki;
  let service: RunningServer;
  let front: TlsFront;
  let wrongHostFront: TlsFront;
  let proxy: TestProxy;
  const ok: DiagnoseInput['probe'] = () => Promise.resolve({ status: 200, elapsedMs: 12 });

  before(async () => {
    pki = createPki([HOST, 'localhost']);
    service = await startServer();
    const servicePort = Number(new URL(service.url).port);
    front = await startTlsFront(servicePort, pki.server);
    wrongHostFront = await startTlsFront(servicePort, pki.wrongHost);
    proxy = await startProxy({ user: 'alice', password: PROXY_PASSWORD, hosts: [HOST] });
  });
  after(async () => {
    await proxy.close();
    await wrongHostFront.close();
    await front.close();
    await service.close();
    pki.dispose();
  });

  it('plain http on this machine: the URL, where the key comes from, DNS, no proxy, no TLS, the status', async () => {
    const report = await diagnose({ baseUrl: service.url, keySource: 'SecretStorage', probe: ok });
    assert.deepEqual(linesOf(report), [
      '# Model Access: connection diagnosis',
      `- **Service URL:** ${service.url}`,
      '- **API key:** SecretStorage',
      '- **DNS (from this machine):** 127.0.0.1 → 127.0.0.1',
      '- **Proxy:** none (no http.proxy, no proxy environment variable)',
      "- **Trust:** Node's roots",
      '## TLS',
      'Plain http: no TLS.',
      '## GET /v1/models',
      '- **Status:** 200 in 12 ms',
      '## What to do next',
      'The service answered with its model list: the connection works. If the Models view still shows an error, refresh it.',
      '_This report names no API key, passphrase or proxy credentials._',
    ]);
  });

  it('says the last rate limits the service announced, as inert text', async () => {
    const report = await diagnose({
      baseUrl: service.url,
      keySource: 'SecretStorage',
      rateLimits: 'requests: 5 of 60 left [x](y)',
      probe: ok,
    });
    // Escaped: the brackets of a would-be link stay brackets.
    assert.ok(
      linesOf(report).some((l) => l.startsWith('- **Rate limits:** requests: 5 of 60 left \\[x\\]')),
      report,
    );
  });

  it('ends with what to do next: Set API Key when the key is missing or refused, the URL when nothing answers', async () => {
    const refused = await diagnoseReport({
      baseUrl: service.url,
      keySource: 'stored key',
      probe: async () => ({ status: 401, elapsedMs: 3 }),
    });
    assert.equal(refused.next, 'key');
    assert.match(
      refused.markdown,
      /## What to do next\n\nThe service needs a valid API key: run \*\*Model Access: Set API Key…\*\*/,
    );
    const noKey = await diagnoseReport({
      baseUrl: service.url,
      keySource: 'no key',
      hasKey: false,
      probe: async () => ({ elapsedMs: 0, error: 'not sent: no API key' }),
    });
    assert.equal(noKey.next, 'key');
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const unreachable = await diagnoseReport({
      baseUrl: `http://127.0.0.1:${closed}`,
      keySource: 'stored key',
      probe: async () => ({ elapsedMs: 1, error: 'connect ECONNREFUSED' }),
    });
    assert.equal(unreachable.next, 'address');
    assert.match(unreachable.markdown, /check the URL with \*\*Model Access: Set Service URL…\*\*/);
  });

  it('a URL in what the network said stays text in the rendered page: the preview’s linkify makes no link of it', async () => {
    const report = await diagnose({
      baseUrl: service.url,
      keySource: 'stored key',
      probe: async () => ({ elapsedMs: 2, error: 'Blocked: sign in at https://evil.example.com/login first' }),
    });
    const html = new MarkdownIt({ linkify: true }).render(report);
    assert.match(html, /sign in at https:\/\/evil\.example\.com\/login first/, 'the text reads as it was');
    assert.doesNotMatch(html, /<a [^>]*evil/, 'no link to where the server said');
  });

  it('reads the next step from what the steps found, never from what the server said', () => {
    const ok = { dnsResolved: true, probe: { status: 200 } };
    assert.equal(nextStep(ok), 'working');
    assert.equal(nextStep({ ...ok, hasKey: false }), 'key');
    assert.equal(nextStep({ ...ok, probe: { status: 403, error: 'run Set Service URL' } }), 'key');
    assert.equal(nextStep({ ...ok, probe: { status: 404 } }), 'address');
    assert.equal(nextStep({ ...ok, dnsResolved: false, probe: { error: 'ENOTFOUND' } }), 'address');
    assert.equal(nextStep({ ...ok, tls: { chainError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } }), 'trust');
    assert.equal(nextStep({ ...ok, tls: { hostError: 'wrong host' } }), 'address');
    assert.equal(nextStep({ ...ok, probe: { status: 503 } }), 'later');
    assert.equal(nextStep({ ...ok, probe: { status: 429 } }), 'later');
  });

  it('https trusted through modelAccess.tls.caCertificates: version, the root and where it came from, the chain', async () => {
    const report = await diagnose({
      baseUrl: `https://localhost:${front.port}`,
      keySource: 'SecretStorage',
      tls: { caFiles: [pki.caFile] },
      probe: ok,
    });
    const lines = linesOf(report);
    assert.ok(lines.includes('- **Version:** TLSv1.3'), report);
    assert.ok(
      lines.includes(
        `- **Trusted by:** CN=Model Access Test Root CA, O=Model Access Tests — from modelAccess.tls.caCertificates (${pki.caFile})`,
      ),
      report,
    );
    assert.ok(lines.includes(`- **Trust:** Node's roots, modelAccess.tls.caCertificates (${pki.caFile})`), report);
    const at = lines.indexOf('| # | Subject | Issuer | Expires |');
    assert.equal(lines[at + 1], '|---|---|---|---|');
    assert.match(
      lines[at + 2],
      /^\| 0 \| CN=models\.corp\.test, O=Model Access Tests \| CN=Model Access Test Root CA, O=Model Access Tests \| .+ GMT \|$/,
    );
    assert.match(
      lines[at + 3],
      /^\| 1 \| CN=Model Access Test Root CA, O=Model Access Tests \| CN=Model Access Test Root CA/,
    );
    assert.equal(lines[at + 4], '## GET /v1/models');
    assert.ok(!report.includes('Wrong host'));
  });

  it('https not trusted: says why and what to do; a certificate for another host is not trusted either', async () => {
    const unknownCa = await diagnose({ baseUrl: `https://localhost:${front.port}`, keySource: 'k', probe: ok });
    assert.match(
      unknownCa,
      /- \*\*Not trusted:\*\* UNABLE\\_TO\\_VERIFY\\_LEAF\\_SIGNATURE; no trusted root issued this chain\. Add the issuing CA's PEM file to modelAccess\.tls\.caCertificates/,
    );
    const otherHost = await diagnose({
      baseUrl: `https://localhost:${wrongHostFront.port}`,
      keySource: 'k',
      tls: { caFiles: [pki.caFile] },
      probe: ok,
    });
    // Issued by a trusted root, for another host: the fix is the host name, not the trust store.
    assert.match(otherHost, /- \*\*Trusted by:\*\* CN=Model Access Test Root CA/);
    assert.match(
      otherHost,
      /- \*\*Wrong host:\*\* Hostname\/IP does not match certificate's altnames: Host: localhost\. is not in the cert's altnames: DNS:elsewhere\.test; use the host name the certificate was issued for/,
    );
    assert.ok(!otherHost.includes('Not trusted'));
  });

  it('through a proxy with credentials in its URL: the tunnel, the proxy resolving the name, never the password', async () => {
    const report = await diagnose({
      baseUrl: `https://${HOST}:${front.port}`,
      keySource: 'SecretStorage',
      proxy: { url: proxy.urlWithCredentials, source: 'HTTPS_PROXY', strictSSL: false },
      tls: { caFiles: [pki.caFile] },
      probe: ok,
    });
    const lines = linesOf(report);
    assert.ok(
      lines.some((l) =>
        /^- \*\*DNS \(from this machine\):\*\* models\.corp\.test → not resolved here \(E\w+\) \(the proxy resolves it for requests\)$/.test(
          l,
        ),
      ),
      report,
    );
    assert.ok(
      lines.includes(
        `- **Proxy:** ${proxy.url} (from HTTPS\\_PROXY; credentials in the proxy URL; CONNECT tunnel, the proxy never sees the key; http.proxyStrictSSL off: the proxy certificate is not verified)`,
      ),
      report,
    );
    assert.ok(lines.includes('- **Version:** TLSv1.3'), report);
    assert.ok(
      lines.some((l) => l.startsWith('- **Trusted by:** ')),
      report,
    );
    assert.ok(!report.includes(PROXY_PASSWORD));
    assert.ok(
      proxy.log.some((l) => l.startsWith(`CONNECT ${HOST}:${front.port}`)),
      'the TLS probe went through the tunnel',
    );
  });

  it('a proxy that refuses the tunnel, and http.proxyAuthorization named as the credentials', async () => {
    const report = await diagnose({
      baseUrl: `https://${HOST}:${front.port}`,
      keySource: 'k',
      proxy: { url: proxy.url, source: 'http.proxy', authorization: 'Basic bm90OnJpZ2h0' },
      probe: ok,
    });
    assert.match(
      report,
      /- \*\*Proxy:\*\* http:\/\/127\.0\.0\.1:\d+ \(from http\.proxy; credentials from http\.proxyAuthorization; CONNECT tunnel/,
    );
    assert.match(
      report,
      /- \*\*Handshake failed:\*\* No tunnel through the proxy: the proxy answered 407 Proxy Authentication Required to CONNECT/,
    );
    assert.ok(!report.includes('bm90OnJpZ2h0'));
  });

  it('a proxy left out: by a no-proxy entry, or because the service is on this machine', async () => {
    proxy.log.length = 0;
    const bypassed = await diagnose({
      baseUrl: `https://localhost:${front.port}`,
      keySource: 'k',
      proxy: { url: proxy.urlWithCredentials, source: 'http.proxy', bypass: 'http.noProxy entry "localhost"' },
      tls: { caFiles: [pki.caFile] },
      probe: ok,
    });
    assert.ok(
      linesOf(bypassed).includes(
        `- **Proxy:** none: ${proxy.url} from http.proxy is bypassed (http.noProxy entry "localhost")`,
      ),
      bypassed,
    );
    assert.ok(linesOf(bypassed).includes('- **Version:** TLSv1.3'), 'reached directly');
    const loopback = await diagnose({
      baseUrl: `http://127.0.0.1:${new URL(service.url).port}`,
      keySource: 'k',
      proxy: { url: proxy.url },
      probe: ok,
    });
    assert.ok(
      linesOf(loopback).includes(
        `- **Proxy:** none: ${proxy.url} from http.proxy is bypassed (the service is on this machine (loopback))`,
      ),
      loopback,
    );
    assert.equal(proxy.log.length, 0, 'the proxy saw nothing');
  });

  it('names the trust sources and the client certificate files, and whether a passphrase is stored, never it', async () => {
    const report = await diagnose({
      baseUrl: service.url,
      keySource: 'the MODEL_ACCESS_API_KEY environment variable',
      tls: {
        systemCertificates: true,
        env: { NODE_EXTRA_CA_CERTS: '/etc/corp/extra.pem' },
        caFiles: ['/etc/corp/root.pem'],
        clientCertificate: { pfxFile: pki.client.pfxFile, passphrase: PASSPHRASE },
      },
      passphraseStored: true,
      probe: ok,
    });
    const lines = linesOf(report);
    assert.ok(
      lines.includes(
        "- **Trust:** Node's roots, the OS trust store (http.systemCertificates), NODE_EXTRA_CA_CERTS (/etc/corp/extra.pem), modelAccess.tls.caCertificates (/etc/corp/root.pem)",
      ),
      report,
    );
    assert.ok(
      lines.includes(`- **Client certificate:** pfxFile ${pki.client.pfxFile}; passphrase stored for this origin`),
      report,
    );
    assert.ok(!report.includes(PASSPHRASE));
    const pem = await diagnose({
      baseUrl: service.url,
      keySource: 'k',
      tls: { clientCertificate: { certFile: pki.client.certFile } },
      probe: ok,
    });
    assert.ok(
      linesOf(pem).includes(
        `- **Client certificate:** certFile ${pki.client.certFile}, keyFile (unset); passphrase not stored`,
      ),
      pem,
    );
    const none = await diagnose({ baseUrl: service.url, keySource: 'k', tls: { clientCertificate: {} }, probe: ok });
    assert.ok(!none.includes('Client certificate'));
  });

  it('never presents the client certificate to a server that fails the checks; presents it as a request would to one that asks', async () => {
    // A server from an unknown CA that asks for a client certificate (and takes a connection without one).
    const seen: boolean[] = [];
    const untrusted = createTlsServer(
      {
        cert: pki.server.cert,
        key: pki.server.key,
        requestCert: true,
        rejectUnauthorized: false,
        maxVersion: 'TLSv1.2',
      },
      (socket) => {
        seen.push(Object.keys(socket.getPeerCertificate() ?? {}).length > 0);
        socket.end();
      },
    );
    await new Promise<void>((resolve) => untrusted.listen(0, '127.0.0.1', resolve));
    const certificate = { pfxFile: pki.client.pfxFile, passphrase: pki.client.passphrase };
    try {
      const report = await diagnose({
        baseUrl: `https://localhost:${(untrusted.address() as AddressInfo).port}`,
        keySource: 'k',
        tls: { clientCertificate: certificate },
        probe: ok,
      });
      assert.match(report, /- \*\*Not trusted:\*\* /);
      for (let i = 0; i < 100 && seen.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(seen, [false], 'the look at the chain presented no certificate');
    } finally {
      untrusted.close();
    }
    // mTLS (TLS 1.2: a handshake without the certificate fails) with a trusted chain: the handshake a request
    // makes succeeds with the certificate.
    const mtls = await startTlsFront(Number(new URL(service.url).port), pki.server, pki.caPem, 'TLSv1.2');
    try {
      const report = await diagnose({
        baseUrl: `https://localhost:${mtls.port}`,
        keySource: 'k',
        tls: { caFiles: [pki.caFile], clientCertificate: certificate },
        probe: ok,
      });
      assert.match(report, /- \*\*Version:\*\* TLSv1\.[23]/, report);
      assert.deepEqual(mtls.clients, ['alice']);
    } finally {
      await mtls.close();
    }
  });

  it('reports no handshake a request could not make: a server that demands the certificate and fails the checks', async () => {
    // A server from an unknown CA that refuses a connection without a client certificate: the look at the
    // chain (no certificate) fails, and a request (checks on) could not connect either.
    const demanding = createTlsServer(
      {
        cert: pki.server.cert,
        key: pki.server.key,
        ca: pki.caPem,
        requestCert: true,
        rejectUnauthorized: true,
        maxVersion: 'TLSv1.2',
      },
      (socket) => socket.end(),
    );
    await new Promise<void>((resolve) => demanding.listen(0, '127.0.0.1', resolve));
    try {
      const report = await diagnose({
        baseUrl: `https://localhost:${(demanding.address() as AddressInfo).port}`,
        keySource: 'k',
        tls: { clientCertificate: { pfxFile: pki.client.pfxFile, passphrase: pki.client.passphrase } },
        probe: ok,
      });
      assert.match(report, /- \*\*Handshake failed:\*\* /, report);
      assert.doesNotMatch(report, /- \*\*Version:\*\* TLS|Not trusted/, report);
    } finally {
      demanding.close();
    }
  });

  it("says the client certificate is not presented to a workspace's URL that is not allowed yet", async () => {
    const report = await diagnose({ baseUrl: service.url, keySource: 'k', certificateWithheld: true, probe: ok });
    assert.ok(
      linesOf(report).includes(
        "- **Client certificate:** not presented: this workspace's service URL is not allowed yet (Allow Stored Key… in the Models view)",
      ),
      report,
    );
  });

  it('a client certificate that cannot be used fails the handshake before anything is sent, and says why', async () => {
    const report = await diagnose({
      baseUrl: `https://localhost:${front.port}`,
      keySource: 'k',
      tls: { caFiles: [pki.caFile], clientCertificate: { pfxFile: pki.client.pfxFile, passphrase: 'wrong' } },
      probe: ok,
    });
    assert.match(report, /- \*\*Handshake failed:\*\* .+/);
    assert.ok(!report.includes('- **Version:**'));
  });

  it('a failed probe, a host that does not resolve, and registry-like text kept inert', async () => {
    const report = await diagnose({
      baseUrl: 'http://no-such-host.invalid:9',
      keySource: '[set](command:workbench.action.openSettings) `x` *y*',
      probe: () => Promise.resolve({ elapsedMs: 5, error: 'connect ECONNREFUSED <here>' }),
    });
    const lines = linesOf(report);
    assert.match(lines[3], /^- \*\*DNS \(from this machine\):\*\* no-such-host\.invalid → not resolved here \(E\w+\)$/);
    assert.ok(lines.includes('- **Failed** after 5 ms: connect ECONNREFUSED \\<here\\>'), report);
    assert.ok(!report.includes('](command:'), 'no link survives');
    assert.ok(lines[2].includes('\\`x\\` \\*y\\*'), lines[2]);
  });

  it('a TLS service that does not answer in time says so', async () => {
    // A plain TCP listener that never speaks TLS.
    await withSilentListener(async (port) => {
      const report = await diagnose({
        baseUrl: `https://127.0.0.1:${port}`,
        keySource: 'k',
        timeoutMs: 300,
        probe: ok,
      });
      assert.match(report, /- \*\*Handshake failed:\*\* no TLS answer within 300 ms/);
    });
  });

  it('a proxy that is down or never answers, a refused TLS port, an unreadable certificate: each said as it failed', async () => {
    await withSilentListener(async (silentPort) => {
      const quiet = await diagnose({
        baseUrl: `https://${HOST}:${front.port}`,
        keySource: 'k',
        timeoutMs: 300,
        proxy: { url: `http://127.0.0.1:${silentPort}`, source: 'http.proxy' },
        probe: ok,
      });
      assert.ok(
        linesOf(quiet).includes(
          `- **Proxy:** http://127.0.0.1:${silentPort} (from http.proxy; no credentials; CONNECT tunnel, the proxy never sees the key)`,
        ),
        quiet,
      );
      assert.match(
        quiet,
        /- \*\*Handshake failed:\*\* No tunnel through the proxy: the proxy did not answer within 300 ms\n/,
      );
    });
    const down = await diagnose({
      baseUrl: `https://${HOST}:${front.port}`,
      keySource: 'k',
      proxy: { url: 'http://127.0.0.1:1', source: 'http.proxy' },
      probe: ok,
    });
    assert.match(
      down,
      /- \*\*Handshake failed:\*\* No tunnel through the proxy: connect ECONNREFUSED 127\.0\.0\.1:1\n/,
    );
    const refused = await diagnose({ baseUrl: 'https://127.0.0.1:1', keySource: 'k', probe: ok });
    assert.match(refused, /- \*\*Handshake failed:\*\* ECONNREFUSED connect ECONNREFUSED 127\.0\.0\.1:1\n/);
    const missing = `${pki.dir}/gone.pem`;
    const unreadable = await diagnose({
      baseUrl: `https://localhost:${front.port}`,
      keySource: 'k',
      tls: { caFiles: [pki.caFile], clientCertificate: { certFile: missing } },
      probe: ok,
    });
    assert.ok(
      linesOf(unreadable).includes(
        `- **Client certificate:** certFile ${missing}, keyFile (unset); passphrase not stored`,
      ),
      unreadable,
    );
    assert.match(
      unreadable,
      /- \*\*Handshake failed:\*\* modelAccess\.tls\.clientCertificate needs both certFile and keyFile, or a pfxFile\.\n/,
    );
  });

  it('plain http through a proxy is a plain proxy request; an IPv6 service is looked up without its brackets', async () => {
    const plain = await diagnose({
      baseUrl: `http://${HOST}:8080`,
      keySource: 'k',
      proxy: { url: 'http://proxy.corp:3128', source: 'http_proxy', strictSSL: true },
      probe: ok,
    });
    assert.ok(
      linesOf(plain).includes(
        '- **Proxy:** http://proxy.corp:3128 (from http\\_proxy; no credentials; plain proxy request)',
      ),
      plain,
    );
    const v6 = await diagnose({ baseUrl: 'http://[::1]:9', keySource: 'k', probe: ok });
    assert.ok(linesOf(v6).includes('- **DNS (from this machine):** ::1 → ::1'), v6);
  });
});
