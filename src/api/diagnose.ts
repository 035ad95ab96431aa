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
import { l10n } from '../common/plainL10n';
import { displayText } from '../common/text';

export interface DiagnoseInput {
  baseUrl: string;
  proxy?: ProxyOptions;
  tls?: TlsOptions;
  /** Where the key comes from, in words (never the key). */
  keySource: string;
  /** The last rate limits the service announced, in words (from its answers to this window), if any. */
  rateLimits?: string;
  /** Whether a key is set for the URL (false: the probe is not sent, and the way out is Set API Key). */
  hasKey?: boolean;
  /** Whether a client certificate passphrase is stored (never the passphrase). */
  passphraseStored?: boolean;
  /** A client certificate is configured but not presented: the workspace's URL is not allowed yet. */
  certificateWithheld?: boolean;
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
  /** Why no trusted root issued the chain (Node's verdict), when none did. */
  chainError?: string;
  /** Why the certificate does not name the host, when it does not. */
  hostError?: string;
  chain: ChainCert[];
  error?: string;
}

/** Text from settings, certificates or errors as inert Markdown, one line. */
const md = (s: string): string => displayText(s, 1000).replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);

/**
 * Text the network chose (a certificate's names, an error a server or proxy caused) as inert Markdown that the
 * preview cannot turn into a link either: its linkify makes `https://…` clickable, so the `://` after a
 * scheme is written escaped (`\:\/\/`, shown as `://`).
 */
const mdData = (s: string): string => md(s).replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1\\:\\/\\/');

function dn(d: tls.Certificate | undefined): string {
  if (!d) {
    return l10n.t('(none)');
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
        reject(
          new Error(
            l10n.t('the proxy answered {0} {1} to CONNECT', res.statusCode ?? 0, res.statusMessage ?? '').trim(),
          ),
        );
      }
    });
    req.on('timeout', () => req.destroy(new Error(l10n.t('the proxy did not answer within {0} ms', timeoutMs))));
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
  let settings: ReturnType<typeof serviceTls>;
  try {
    settings = serviceTls(options);
  } catch (e) {
    return { chain: [], error: e instanceof Error ? e.message : String(e) };
  }
  const { cert, key, pfx, passphrase, ...trust } = settings;
  if (cert || pfx) {
    try {
      // The client certificate itself (a wrong passphrase) fails here, before any connection.
      tls.createSecureContext({ cert, key, pfx, passphrase });
    } catch (e) {
      return { chain: [], error: e instanceof Error ? e.message : String(e) };
    }
  }
  // To look at the chain the checks are off, so the client certificate stays out: it identifies the person,
  // and a request would not present it to a server that fails them.
  const look = await handshake(host, port, { ...trust, rejectUnauthorized: false }, proxy, timeoutMs);
  if (!look.error || !(cert || pfx)) {
    return look;
  }
  // A service that asks for the certificate: one handshake as a request makes it, checks on.
  const asRequest = await handshake(
    host,
    port,
    { ...trust, cert, key, pfx, passphrase, rejectUnauthorized: true },
    proxy,
    timeoutMs,
  );
  return asRequest.error ? look : asRequest;
}

/** One TLS handshake (through the proxy's tunnel when one is used); nothing is sent after it. */
async function handshake(
  host: string,
  port: number,
  settings: tls.ConnectionOptions,
  proxy: ProxyOptions | undefined,
  timeoutMs: number,
): Promise<TlsResult> {
  let socket: Socket | undefined;
  try {
    socket = proxy?.url && !proxy.bypass ? await tunnel(proxy, host, port, timeoutMs) : undefined;
  } catch (e) {
    return {
      chain: [],
      error: l10n.t('No tunnel through the proxy: {0}', e instanceof Error ? e.message : String(e)),
    };
  }
  return new Promise((resolve) => {
    let s: tls.TLSSocket;
    try {
      s = tls.connect({
        ...(socket ? { socket } : { host, port }),
        servername: isIpLiteral(host) ? undefined : host,
        ...settings,
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
      // Node folds a host mismatch into its verdict; the two need different fixes, so they are told apart.
      const verdict = s.authorizationError?.toString();
      const hostError = tls.checkServerIdentity(host, s.getPeerCertificate());
      done({
        protocol: s.getProtocol() ?? undefined,
        chainError: verdict === 'ERR_TLS_CERT_ALTNAME_INVALID' ? undefined : verdict,
        hostError: hostError?.message,
        chain: chainOf(s.getPeerCertificate(true)),
      });
    });
    s.once('timeout', () => done({ chain: [], error: l10n.t('no TLS answer within {0} ms', timeoutMs) }));
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
    tls.rootCertificates.map((pem) => ({ pem, source: l10n.t("Node's default roots (with NODE_EXTRA_CA_CERTS)") }));
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
        return l10n.t('{0} — from {1}', x.subject.replace(/\n/g, ', '), r.source);
      }
    } catch {
      // A malformed entry in a bundle file: skip it, as OpenSSL does.
    }
  }
  return undefined;
}

/** Which proxy requests take, and why (setting, environment variable, noProxy), never its credentials. */
function proxyLine(p: ProxyOptions | undefined, proxied: boolean, https: boolean): string {
  if (!p?.url) {
    return l10n.t('none (no http.proxy, no proxy environment variable)');
  }
  const source = p.source ?? 'http.proxy';
  if (p.bypass || !proxied) {
    return l10n.t(
      'none: {0} from {1} is bypassed ({2})',
      displayProxy(p.url),
      source,
      p.bypass ?? l10n.t('the service is on this machine (loopback)'),
    );
  }
  const parts = [
    p.authorization
      ? l10n.t('credentials from http.proxyAuthorization')
      : new URL(p.url).username
        ? l10n.t('credentials in the proxy URL')
        : l10n.t('no credentials'),
    https ? l10n.t('CONNECT tunnel, the proxy never sees the key') : l10n.t('plain proxy request'),
    ...(p.strictSSL === false ? [l10n.t('http.proxyStrictSSL off: the proxy certificate is not verified')] : []),
  ];
  return l10n.t('{0} (from {1}; {2})', displayProxy(p.url), source, parts.join('; '));
}

/**
 * What the report says to do next: the connection works (`working`), the key is missing or refused (`key`),
 * the address is wrong or unreachable (`address`), the certificate is not trusted (`trust`), or the service
 * failed and may answer later (`later`).
 */
export type NextStep = 'working' | 'key' | 'address' | 'trust' | 'later';

/** The next step from what the steps found (our own reading, never the server's words). */
export function nextStep(found: {
  hasKey?: boolean;
  dnsResolved: boolean;
  tls?: Pick<TlsResult, 'error' | 'chainError' | 'hostError'>;
  probe: { status?: number; error?: string };
}): NextStep {
  if (found.tls?.chainError) {
    return 'trust';
  }
  if (found.tls?.hostError) {
    return 'address';
  }
  if (found.hasKey === false) {
    return 'key';
  }
  const status = found.probe.status;
  if (status !== undefined && status >= 200 && status < 300) {
    return 'working';
  }
  if (status === 401 || status === 403) {
    return 'key';
  }
  if (status === 404 || !found.dnsResolved || found.tls?.error || (status === undefined && found.probe.error)) {
    return 'address';
  }
  return 'later';
}

/** The report's last section: what to do next, naming our own commands. */
function nextStepLines(step: NextStep): string[] {
  const text: Record<NextStep, string> = {
    working: l10n.t(
      'The service answered with its model list: the connection works. If the Models view still shows an error, refresh it.',
    ),
    key: l10n.t(
      'The service needs a valid API key: run **Model Access: Set API Key…**. It is checked against the service, then kept in VS Code SecretStorage.',
    ),
    address: l10n.t(
      'The service could not be reached at this address: check the URL with **Model Access: Set Service URL…** (or **Edit Environment…**), that the service is running, and the proxy above.',
    ),
    trust: l10n.t(
      "The service's certificate is not trusted here: add the issuing CA's PEM file to modelAccess.tls.caCertificates, then run the diagnosis again.",
    ),
    later: l10n.t('The service answered with an error: try again in a moment, and show the log if it persists.'),
  };
  return ['', l10n.t('## What to do next'), '', text[step]];
}

/** Runs every step and returns the report as Markdown. */
export async function diagnose(input: DiagnoseInput): Promise<string> {
  return (await diagnoseReport(input)).markdown;
}

/** Runs every step: the report as Markdown (ending with what to do next), and that next step. */
export async function diagnoseReport(input: DiagnoseInput): Promise<{ markdown: string; next: NextStep }> {
  const timeoutMs = input.timeoutMs ?? 10_000;
  const lines: string[] = [l10n.t('# Model Access: connection diagnosis'), ''];
  const url = new URL(input.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  lines.push(l10n.t('- **Service URL:** {0}', md(input.baseUrl)), l10n.t('- **API key:** {0}', md(input.keySource)));
  if (input.rateLimits) {
    lines.push(l10n.t('- **Rate limits:** {0}', md(input.rateLimits)));
  }

  let dns: string;
  let dnsResolved = true;
  try {
    const found = await lookup(host, { all: true });
    dns = found.map((a) => a.address).join(', ');
  } catch (e) {
    dnsResolved = false;
    dns = l10n.t('not resolved here ({0})', (e as { code?: string }).code ?? 'error');
  }
  const proxied = Boolean(input.proxy?.url && !input.proxy.bypass && !isLoopbackHost(host));
  lines.push(
    proxied
      ? l10n.t('- **DNS (from this machine):** {0} → {1} (the proxy resolves it for requests)', md(host), md(dns))
      : l10n.t('- **DNS (from this machine):** {0} → {1}', md(host), md(dns)),
  );
  lines.push(l10n.t('- **Proxy:** {0}', md(proxyLine(input.proxy, proxied, https))));

  const o = input.tls ?? {};
  const roots = [
    l10n.t("Node's roots"),
    ...(o.systemCertificates ? [l10n.t('the OS trust store (http.systemCertificates)')] : []),
    ...(o.env?.NODE_EXTRA_CA_CERTS ? [l10n.t('NODE_EXTRA_CA_CERTS ({0})', md(o.env.NODE_EXTRA_CA_CERTS))] : []),
    ...(o.caFiles?.length ? [l10n.t('modelAccess.tls.caCertificates ({0})', o.caFiles.map(md).join(', '))] : []),
  ];
  lines.push(l10n.t('- **Trust:** {0}', roots.join(', ')));
  const cc = o.clientCertificate;
  if (input.certificateWithheld) {
    lines.push(
      l10n.t(
        "- **Client certificate:** not presented: this workspace's service URL is not allowed yet (Allow Stored Key… in the Models view)",
      ),
    );
  } else if (cc && (cc.pfxFile || cc.certFile || cc.keyFile)) {
    const files = cc.pfxFile
      ? l10n.t('pfxFile {0}', md(cc.pfxFile))
      : l10n.t('certFile {0}, keyFile {1}', md(cc.certFile ?? l10n.t('(unset)')), md(cc.keyFile ?? l10n.t('(unset)')));
    lines.push(
      input.passphraseStored
        ? l10n.t('- **Client certificate:** {0}; passphrase stored for this origin', files)
        : l10n.t('- **Client certificate:** {0}; passphrase not stored', files),
    );
  }

  lines.push('', l10n.t('## TLS'), '');
  let tlsFound: TlsResult | undefined;
  if (!https) {
    lines.push(l10n.t('Plain http: no TLS.'));
  } else {
    const t = await probeTls(host, port, o, input.proxy?.bypass || !proxied ? undefined : input.proxy, timeoutMs);
    tlsFound = t;
    if (t.error) {
      lines.push(l10n.t('- **Handshake failed:** {0}', mdData(t.error)));
    } else {
      lines.push(l10n.t('- **Version:** {0}', md(t.protocol ?? l10n.t('unknown'))));
      if (t.chainError) {
        lines.push(
          l10n.t(
            "- **Not trusted:** {0}; no trusted root issued this chain. Add the issuing CA's PEM file to modelAccess.tls.caCertificates, or install it in the OS with http.systemCertificates on.",
            mdData(t.chainError),
          ),
        );
      } else {
        lines.push(
          l10n.t('- **Trusted by:** {0}', md(trustingRoot(t.chain, o) ?? l10n.t('a root of the default store'))),
        );
      }
      if (t.hostError) {
        lines.push(
          l10n.t(
            '- **Wrong host:** {0}; use the host name the certificate was issued for in the service URL, or ask for a certificate that names this one.',
            mdData(t.hostError),
          ),
        );
      }
      lines.push('', l10n.t('| # | Subject | Issuer | Expires |'), '|---|---|---|---|');
      t.chain.forEach((c, i) => lines.push(`| ${i} | ${mdData(c.subject)} | ${mdData(c.issuer)} | ${md(c.validTo)} |`));
    }
  }

  lines.push('', l10n.t('## GET /v1/models'), '');
  const r = await input.probe();
  lines.push(
    r.error
      ? l10n.t('- **Failed** after {0} ms: {1}', r.elapsedMs, mdData(r.error))
      : l10n.t('- **Status:** {0} in {1} ms', r.status ?? 0, r.elapsedMs),
  );
  const next = nextStep({ hasKey: input.hasKey, dnsResolved: dnsResolved || proxied, tls: tlsFound, probe: r });
  lines.push(...nextStepLines(next));
  lines.push('', l10n.t('_This report names no API key, passphrase or proxy credentials._'), '');
  return { markdown: lines.join('\n'), next };
}
