/**
 * Certificates made at test time (a private CA, server and client certificates, expired or for another
 * host) and a real TLS server in front of the local service, for the tests of trust, mTLS and proxies.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer, type TLSSocket } from 'node:tls';
import forge from 'node-forge';

export interface Pem {
  cert: string;
  key: string;
}

// RSA in plain JS takes seconds; Node makes the keys and forge only signs.
function keyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; pem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const priv = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  return { privateKey: priv, publicKey: forge.pki.setRsaPublicKey(priv.n, priv.e), pem };
}

let serial = 1;

interface CertSpec {
  commonName: string;
  /** DNS names and IPs of the subjectAltName (server certificates). */
  hosts?: string[];
  issuer?: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey };
  ca?: boolean;
  client?: boolean;
  notBefore?: Date;
  notAfter?: Date;
}

function makeCert(spec: CertSpec): { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey; pem: Pem } {
  const keys = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = (serial++).toString(16).padStart(2, '0');
  cert.validity.notBefore = spec.notBefore ?? new Date(Date.now() - 24 * 3600_000);
  cert.validity.notAfter = spec.notAfter ?? new Date(Date.now() + 30 * 24 * 3600_000);
  const subject = [
    { name: 'commonName', value: spec.commonName },
    { name: 'organizationName', value: 'Model Access Tests' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(spec.issuer ? spec.issuer.cert.subject.attributes : subject);
  const extensions: object[] = [{ name: 'basicConstraints', cA: spec.ca === true, critical: true }];
  if (spec.ca) {
    extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true });
  } else {
    extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true });
    extensions.push({ name: 'extKeyUsage', serverAuth: !spec.client, clientAuth: spec.client === true });
  }
  if (spec.hosts) {
    extensions.push({
      name: 'subjectAltName',
      altNames: spec.hosts.map((h) => (/^[\d.]+$/.test(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    });
  }
  cert.setExtensions(extensions);
  cert.sign(spec.issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey, pem: { cert: forge.pki.certificateToPem(cert), key: keys.pem } };
}

export interface TestPki {
  dir: string;
  /** The CA's certificate file (PEM), what a person would name in modelAccess.tls.caCertificates. */
  caFile: string;
  caPem: string;
  /** Issued by the CA for `hosts`. */
  server: Pem;
  /** Issued by the CA for `hosts`, expired yesterday. */
  expired: Pem;
  /** Issued by the CA for another host name only. */
  wrongHost: Pem;
  /** A client certificate issued by the CA: PEM files (key encrypted with `passphrase`) and a PKCS#12 file. */
  client: { certFile: string; keyFile: string; pfxFile: string; passphrase: string };
  dispose(): void;
}

/** A private CA and its certificates, written to a temporary folder. */
export function createPki(hosts: string[], passphrase = 'pass-canary-7f3a9c'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'ma-pki-'));
  const ca = makeCert({ commonName: 'Model Access Test Root CA', ca: true });
  const issuer = { cert: ca.cert, key: ca.key };
  const server = makeCert({ commonName: hosts[0], hosts, issuer });
  const expired = makeCert({
    commonName: hosts[0],
    hosts,
    issuer,
    notBefore: new Date(Date.now() - 60 * 24 * 3600_000),
    notAfter: new Date(Date.now() - 24 * 3600_000),
  });
  const wrongHost = makeCert({ commonName: 'elsewhere.test', hosts: ['elsewhere.test'], issuer });
  const client = makeCert({ commonName: 'alice', client: true, issuer });
  const caFile = join(dir, 'corp-root-ca.pem');
  writeFileSync(caFile, ca.pem.cert);
  const certFile = join(dir, 'client.crt');
  const keyFile = join(dir, 'client.key');
  const pfxFile = join(dir, 'client.p12');
  writeFileSync(certFile, client.pem.cert);
  writeFileSync(keyFile, forge.pki.encryptRsaPrivateKey(client.key, passphrase, { algorithm: 'aes256' }));
  const p12 = forge.pkcs12.toPkcs12Asn1(client.key, [client.cert], passphrase, { algorithm: '3des' });
  writeFileSync(pfxFile, Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
  return {
    dir,
    caFile,
    caPem: ca.pem.cert,
    server: server.pem,
    expired: expired.pem,
    wrongHost: wrongHost.pem,
    client: { certFile, keyFile, pfxFile, passphrase },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsFront {
  port: number;
  /** Client certificates' subjects the front saw on accepted connections. */
  clients: string[];
  close(): Promise<void>;
}

/**
 * A TLS server on 127.0.0.1 that decrypts and forwards every connection to `targetPort` (the local service),
 * so the service answers over real TLS with the given certificate; `requireClientCa` makes it mTLS.
 */
export async function startTlsFront(
  targetPort: number,
  pem: Pem,
  requireClientCa?: string,
  maxVersion?: 'TLSv1.2' | 'TLSv1.3',
): Promise<TlsFront> {
  const clients: string[] = [];
  const sockets = new Set<TLSSocket>();
  const server: TlsServer = createTlsServer(
    {
      cert: pem.cert,
      key: pem.key,
      maxVersion,
      ...(requireClientCa ? { requestCert: true, rejectUnauthorized: true, ca: [requireClientCa] } : {}),
    },
    (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      if (requireClientCa) {
        clients.push(String(socket.getPeerCertificate().subject?.CN ?? ''));
      }
      const upstream = netConnect(targetPort, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const end = (): void => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', end);
      upstream.on('error', end);
    },
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    clients,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
