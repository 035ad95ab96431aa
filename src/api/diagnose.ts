/**
 * Diagnose Connection: how the service is reached, step by step (DNS, proxy, TLS and its chain, the first
 * API call), as a Markdown report. It names files, hosts and where settings came from; never the key, a
 * passphrase or proxy credentials. Pure, no `vscode` import.
 */
import { lookup } from 'node:dns/promises';
import { X509Certificate } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { isLoopbackHost } from './baseUrl';
import { serviceTls, type TlsOptions } from './dispatcher';
import { displayProxy, type ProxyOptions } from './proxy';
import { trustedRoots } from './trust';

export interface DiagnoseInput {
  baseUrl: string;
  proxy?: ProxyOptions;
  tls?: TlsOptions;
  /** Where the key comes from, in words (never the key). */
  keySource: string;
  /** Whether a client certificate passphrase is stored (never the passphrase). */
  passphraseStored?: boolean;
  /** One `GET /v1/models` with the key; resolves with its status or the failure's message. */
  probe: () => Promise<{ status?: number; elapsedMs: number; error?: string }>;
  timeoutMs?: number;
}

interface ChainCert {
  subject: string;
  issuer: string;
  validTo: string;
  raw: Buffer;
}

interface TlsResult {
  protocol?: string;
  authorized?: boolean;
  authorizationError?: string;
  chain: ChainCert[];
  error?: string;
}

const md = (s: string): string => s.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);

function dn(d: tls.Certificate | undefined): string {
  if (!d) {
    return '(none)';
  }
  return Object.entries(d)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ');
}

function chainOf(peer: tls.DetailedPeerCertificate): ChainCert[] {
  const out: ChainCert[] = [];
  const seen = new Set<string>();
  let cur: tls.DetailedPeerCertificate | undefined = peer;
  while (cur && cur.raw && !seen.has(cur.fingerprint256)) {
    seen.add(cur.fingerprint256);
    out.push({ subject: dn(cur.subject), issuer: dn(cur.issuer), validTo: cur.valid_to, raw: cur.raw });
    cur = cur.issuerCertificate;
  }
  return out;
}

/** A CONNECT tunnel through the proxy to `host:port`, for the TLS probe. */
function tunnel(proxy: ProxyOptions, host: string, port: number, timeoutMs: number): Promise<Socket> {
  const p = new URL(proxy.url ?? '');
  const headers: Record<string, string> = { host: `${host}:${port}` };
  if (proxy.authorization) {
    headers['proxy-authorization'] = proxy.authorization;
  } else if (p.username) {
    const user = `${decodeURIComponent(p.username)}:${decodeURIComponent(p.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  const request = p.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({
      host: p.hostname,
      port: p.port || (p.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: `${host}:${port}`,
      headers,
      timeout: timeoutMs,
      rejectUnauthorized: proxy.strictSSL !== false,
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) {
        resolve(socket);
      } else {
        socket.destroy();
        reject(new Error(`the proxy answered ${res.statusCode} ${res.statusMessage ?? ''} to CONNECT`.trim()));
      }
    });
    req.on('timeout', () => req.destroy(new Error(`the proxy did not answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

async function probeTls(
  host: string,
  port: number,
  options: TlsOptions | undefined,
  proxy: ProxyOptions | undefined,
  timeoutMs: number,
): Promise<TlsResult> {
  let socket: Socket | undefined;
  try {
    socket = proxy?.url && !proxy.bypass ? await tunnel(proxy, host, port, timeoutMs) : undefined;
  } catch (e) {
    return { chain: [], error: `No tunnel through the proxy: ${e instanceof Error ? e.message : String(e)}` };
  }
  let settings: ReturnType<typeof serviceTls>;
  try {
    settings = serviceTls(options);
  } catch (e) {
    return { chain: [], error: e instanceof Error ? e.message : String(e) };
  }
  return new Promise((resolve) => {
    let s: tls.TLSSocket;
    try {
      s = tls.connect({
        ...(socket ? { socket } : { host, port }),
        servername: isIpLiteral(host) ? undefined : host,
        ...settings,
        // Only to look: the chain and the verdict are read below, and nothing is sent.
        rejectUnauthorized: false,
        timeout: timeoutMs,
      });
    } catch (e) {
      // The client certificate itself (a wrong passphrase) fails before any byte is sent.
      socket?.destroy();
      resolve({ chain: [], error: e instanceof Error ? e.message : String(e) });
      return;
    }
    const done = (r: TlsResult): void => {
      s.destroy();
      resolve(r);
    };
    s.once('secureConnect', () => {
      const hostError = s.authorized ? tls.checkServerIdentity(host, s.getPeerCertificate()) : undefined;
      done({
        protocol: s.getProtocol() ?? undefined,
        authorized: s.authorized && !hostError,
        authorizationError: hostError ? hostError.message : s.authorizationError?.toString(),
        chain: chainOf(s.getPeerCertificate(true)),
      });
    });
    s.once('timeout', () => done({ chain: [], error: `no TLS answer within ${timeoutMs} ms` }));
    s.once('error', (e: Error & { code?: string }) =>
      done({ chain: [], error: `${e.code ?? ''} ${e.message}`.trim() }),
    );
  });
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** Which trusted root issued the chain's last certificate (or is it), with where that root came from. */
function trustingRoot(chain: ChainCert[], options: TlsOptions | undefined): string | undefined {
  const last = chain.at(-1);
  if (!last) {
    return undefined;
  }
  const roots =
    trustedRoots(options ?? {}) ??
    tls.rootCertificates.map((pem) => ({ pem, source: "Node's default roots (with NODE_EXTRA_CA_CERTS)" }));
  let lastX: X509Certificate;
  try {
    lastX = new X509Certificate(last.raw);
  } catch {
    return undefined;
  }
  for (const r of roots) {
    try {
      const x = new X509Certificate(r.pem);
      if (x.fingerprint256 === lastX.fingerprint256 || lastX.checkIssued(x)) {
        return `${x.subject.replace(/\n/g, ', ')} — from ${r.source}`;
      }
    } catch {
      // A malformed entry in a bundle file: skip it, as OpenSSL does.
    }
  }
  return undefined;
}

/** Runs every step and returns the report as Markdown. */
export async function diagnose(input: DiagnoseInput): Promise<string> {
  const timeoutMs = input.timeoutMs ?? 10_000;
  const lines: string[] = ['# Model Access: connection diagnosis', ''];
  const url = new URL(input.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  lines.push(`- **Service URL:** ${md(input.baseUrl)}`, `- **API key:** ${md(input.keySource)}`);

  let dns: string;
  try {
    const found = await lookup(host, { all: true });
    dns = found.map((a) => a.address).join(', ');
  } catch (e) {
    dns = `not resolved here (${(e as { code?: string }).code ?? 'error'})`;
  }
  const proxied = Boolean(input.proxy?.url && !input.proxy.bypass && !isLoopbackHost(host));
  lines.push(
    `- **DNS (from this machine):** ${md(host)} → ${md(dns)}${proxied ? ' (the proxy resolves it for requests)' : ''}`,
  );

  const p = input.proxy;
  let proxyLine: string;
  if (!p?.url) {
    proxyLine = 'none (no http.proxy, no proxy environment variable)';
  } else if (p.bypass || !proxied) {
    proxyLine = `none: ${displayProxy(p.url)} from ${p.source ?? 'http.proxy'} is bypassed (${p.bypass ?? 'the service is on this machine (loopback)'})`;
  } else {
    const auth = p.authorization
      ? 'credentials from http.proxyAuthorization'
      : new URL(p.url).username
        ? 'credentials in the proxy URL'
        : 'no credentials';
    proxyLine = `${displayProxy(p.url)} (from ${p.source ?? 'http.proxy'}; ${auth}; ${https ? 'CONNECT tunnel, the proxy never sees the key' : 'plain proxy request'}${p.strictSSL === false ? '; http.proxyStrictSSL off: the proxy certificate is not verified' : ''})`;
  }
  lines.push(`- **Proxy:** ${md(proxyLine)}`);

  const o = input.tls ?? {};
  lines.push(
    `- **Trust:** Node's roots${o.systemCertificates ? ', the OS trust store (http.systemCertificates)' : ''}${o.env?.NODE_EXTRA_CA_CERTS ? `, NODE_EXTRA_CA_CERTS (${md(o.env.NODE_EXTRA_CA_CERTS)})` : ''}${o.caFiles?.length ? `, modelAccess.tls.caCertificates (${o.caFiles.map(md).join(', ')})` : ''}`,
  );
  const cc = o.clientCertificate;
  if (cc && (cc.pfxFile || cc.certFile || cc.keyFile)) {
    const files = cc.pfxFile
      ? `pfxFile ${cc.pfxFile}`
      : `certFile ${cc.certFile ?? '(unset)'}, keyFile ${cc.keyFile ?? '(unset)'}`;
    lines.push(
      `- **Client certificate:** ${md(files)}; passphrase ${input.passphraseStored ? 'stored for this origin' : 'not stored'}`,
    );
  }

  lines.push('', '## TLS', '');
  if (!https) {
    lines.push('Plain http: no TLS.');
  } else {
    const t = await probeTls(host, port, o, p?.bypass || !proxied ? undefined : p, timeoutMs);
    if (t.error) {
      lines.push(`- **Handshake failed:** ${md(t.error)}`);
    } else {
      lines.push(`- **Version:** ${md(t.protocol ?? 'unknown')}`);
      lines.push(
        t.authorized
          ? `- **Trusted by:** ${md(trustingRoot(t.chain, o) ?? 'a root of the default store')}`
          : `- **Not trusted:** ${md(t.authorizationError ?? 'unknown reason')}; no trusted root issued this chain. Add the issuing CA's PEM file to modelAccess.tls.caCertificates, or install it in the OS with http.systemCertificates on.`,
      );
      lines.push('', '| # | Subject | Issuer | Expires |', '|---|---|---|---|');
      t.chain.forEach((c, i) => lines.push(`| ${i} | ${md(c.subject)} | ${md(c.issuer)} | ${md(c.validTo)} |`));
    }
  }

  lines.push('', '## GET /v1/models', '');
  const r = await input.probe();
  lines.push(
    r.error ? `- **Failed** after ${r.elapsedMs} ms: ${md(r.error)}` : `- **Status:** ${r.status} in ${r.elapsedMs} ms`,
  );
  lines.push('', '_This report names no API key, passphrase or proxy credentials._', '');
  return lines.join('\n');
}
