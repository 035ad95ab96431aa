import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { splitPem, SYSTEM_BUNDLES, systemRoots, trustedRoots } from '../../../src/api/trust';
import { startServer, type RunningServer } from '../../server';
import { clientFor, expectError } from '../helpers/api';
import { createPki, startTlsFront, type TestPki, type TlsFront } from '../helpers/tls';

describe('api/trust: a private CA, against a real TLS service', function () {
  this.timeout(60000);
  let pki: TestPki;
  let service: RunningServer;
  const fronts: TlsFront[] = [];
  const front = async (pem: TestPki['server']): Promise<string> => {
    const f = await startTlsFront(Number(new URL(service.url).port), pem);
    fronts.push(f);
    return `https://localhost:${f.port}`;
  };

  before(async () => {
    pki = createPki(['localhost', '127.0.0.1']);
    service = await startServer();
  });
  after(async () => {
    await Promise.all(fronts.map((f) => f.close()));
    await service.close();
    pki.dispose();
  });

  it('without the CA, says the certificate is not trusted and names the setting', async () => {
    const url = await front(pki.server);
    const { client } = clientFor(url, service.keys.acme, { tls: { systemCertificates: true }, retries: { max: 0 } });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.match(e.message, /^The certificate of https:\/\/localhost:\d+ is not trusted/);
    assert.match(e.message, /modelAccess\.tls\.caCertificates/);
    assert.ok(!e.message.includes(service.keys.acme));
  });

  it('with the CA in modelAccess.tls.caCertificates, lists the models (OS roots still trusted beside it)', async () => {
    const url = await front(pki.server);
    const { client } = clientFor(url, service.keys.acme, {
      tls: { systemCertificates: true, caFiles: [pki.caFile] },
    });
    const list = await client.listModels();
    await client.dispose();
    assert.ok(list.models.length > 0);
  });

  it('trusts the CA named by NODE_EXTRA_CA_CERTS', async () => {
    const url = await front(pki.server);
    const { client } = clientFor(url, service.keys.acme, {
      tls: { systemCertificates: true, env: { NODE_EXTRA_CA_CERTS: pki.caFile } },
    });
    const list = await client.listModels();
    await client.dispose();
    assert.ok(list.models.length > 0);
  });

  it('names an expired certificate', async () => {
    const url = await front(pki.expired);
    const { client } = clientFor(url, service.keys.acme, { tls: { caFiles: [pki.caFile] }, retries: { max: 0 } });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.match(e.message, /certificate of https:\/\/localhost:\d+ has expired \(CERT_HAS_EXPIRED\)/);
  });

  it('names a certificate for another host, with the names it is for', async () => {
    const url = await front(pki.wrongHost);
    const { client } = clientFor(url, service.keys.acme, { tls: { caFiles: [pki.caFile] }, retries: { max: 0 } });
    const e = await expectError(client.listModels(), 'network');
    await client.dispose();
    assert.match(e.message, /certificate of https:\/\/localhost:\d+ is for another host name \(DNS:elsewhere\.test\)/);
  });

  it('an unreadable or empty CA file is a config error naming the file and the setting, before any request', async () => {
    const empty = join(pki.dir, 'empty.pem');
    writeFileSync(empty, 'not a certificate');
    for (const [file, pattern] of [
      [
        join(pki.dir, 'missing.pem'),
        /Could not read the CA certificate file .*missing\.pem named in modelAccess\.tls\.caCertificates \(ENOENT\)/,
      ],
      [empty, /empty\.pem named in modelAccess\.tls\.caCertificates holds no PEM certificate/],
    ] as const) {
      const before = service.requests.length;
      const { client } = clientFor('https://localhost:1', 'k', { tls: { caFiles: [file] } });
      const e = await expectError(client.listModels(), 'config');
      assert.match(e.message, pattern);
      assert.equal(e.code, 'TLS_CONFIG');
      assert.equal(service.requests.length, before);
    }
  });

  it('reads the OS store from the distribution bundle where Node cannot give it, and labels every root', () => {
    const bundle = join(pki.dir, 'bundle.crt');
    writeFileSync(bundle, `# comment\n${pki.caPem}\n${pki.server.cert}`);
    const fromFile = systemRoots([join(pki.dir, 'nope.crt'), bundle]);
    // On a Node with tls.getCACertificates('system') the OS answers instead of the file.
    if (!fromFile.from.includes('(')) {
      assert.equal(fromFile.from, 'the OS trust store');
      return;
    }
    assert.equal(fromFile.from, `the OS trust store (${bundle})`);
    assert.equal(fromFile.pems.length, 2);
    assert.equal(splitPem(pki.caPem).length, 1);
    const roots = trustedRoots({ caFiles: [pki.caFile] }) ?? [];
    assert.ok(roots.some((r) => r.source === "Node's bundled roots"));
    assert.equal(roots.at(-1)?.source, `modelAccess.tls.caCertificates (${pki.caFile})`);
    assert.equal(trustedRoots({}), undefined);
  });

  it('skips a bundle place that is a directory or holds no certificate, and says when none is found', () => {
    const noPem = join(pki.dir, 'no-pem.crt');
    writeFileSync(noPem, 'nothing here');
    const bundle = join(pki.dir, 'bundle2.crt');
    writeFileSync(bundle, pki.caPem);
    const found = systemRoots([pki.dir, noPem, bundle]);
    const none = systemRoots([pki.dir, noPem, join(pki.dir, 'nope.crt')]);
    if (!found.from.includes('(')) {
      return; // This Node reads the OS store itself.
    }
    assert.deepEqual(found, { pems: splitPem(pki.caPem), from: `the OS trust store (${bundle})` });
    assert.deepEqual(none, { pems: [], from: 'the OS trust store (not found)' });
  });

  it('adds the OS store, NODE_EXTRA_CA_CERTS and the CA files, each root labelled, names trimmed', () => {
    const extraFile = join(pki.dir, 'extra.pem');
    writeFileSync(extraFile, pki.server.cert);
    const roots = trustedRoots({
      systemCertificates: true,
      caFiles: ['  ', ` ${pki.caFile}\t`],
      env: { NODE_EXTRA_CA_CERTS: ` ${extraFile} ` },
    });
    assert.ok(roots);
    const bySource = new Map<string, number>();
    for (const r of roots) {
      bySource.set(r.source, (bySource.get(r.source) ?? 0) + 1);
    }
    assert.equal(bySource.get("Node's bundled roots"), rootCertificates.length);
    const os = [...bySource.keys()].find((k) => k.startsWith('the OS trust store'));
    assert.ok(
      os && (os === 'the OS trust store' || SYSTEM_BUNDLES.some((f) => os === `the OS trust store (${f})`)),
      os,
    );
    assert.ok((bySource.get(os) ?? 0) > 0, 'the OS store holds roots');
    assert.equal(bySource.get(`NODE_EXTRA_CA_CERTS (${extraFile})`), 1);
    assert.equal(bySource.get(`modelAccess.tls.caCertificates (${pki.caFile})`), 1);
    assert.equal(roots.at(-1)?.pem, splitPem(pki.caPem)[0]);
    assert.equal(
      roots.length,
      [...bySource.values()].reduce((a, b) => a + b, 0),
    );
    // The same again comes from the saved OS store, with the same roots.
    assert.deepEqual(trustedRoots({ systemCertificates: true })?.length, roots.length - 2);
  });

  it("leaves Node's own store alone when nothing is asked for, and an unreadable NODE_EXTRA_CA_CERTS is no error", () => {
    assert.equal(trustedRoots({ caFiles: [' ', ''] }), undefined);
    assert.equal(trustedRoots({ env: { NODE_EXTRA_CA_CERTS: pki.caFile } }), undefined);
    const roots = trustedRoots({ caFiles: [pki.caFile], env: { NODE_EXTRA_CA_CERTS: join(pki.dir, 'missing.pem') } });
    assert.equal(roots?.length, rootCertificates.length + 1);
    assert.ok(!roots?.some((r) => r.source.startsWith('NODE_EXTRA_CA_CERTS')));
    assert.ok(!roots?.some((r) => r.source.startsWith('the OS trust store')));
  });
});
