/**
 * The one keep-alive undici dispatcher of a client: a plain Agent, or a ProxyAgent when `proxy.ts` chose a
 * proxy for the service, with the roots of `trust.ts` and an optional client certificate.
 */
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { isLoopbackHost } from './baseUrl';
import { ServiceError } from './errors';
import { l10n } from '../common/plainL10n';
import { onFirstUse } from '../common/onFirstUse';
import { displayProxy, resolveProxy, type ProxyInputs, type ProxyOptions } from './proxy';
import { trustedRoots, type TrustOptions } from './trust';

/** A client certificate for services that require one (mutual TLS). */
export interface ClientCertificate {
  certFile?: string;
  keyFile?: string;
  pfxFile?: string;
  /** The key's or PKCS#12 file's passphrase (from SecretStorage, never from settings). */
  passphrase?: string;
}

export interface TlsOptions extends TrustOptions {
  clientCertificate?: ClientCertificate;
}

export interface DispatcherOptions {
  connectMs?: number;
  /** Whether the service is https (a proxy then only ever sees a CONNECT; the request travels in the tunnel). */
  https?: boolean;
  /** The service's host name: a loopback service is never reached through a proxy (it would see the key). */
  targetHost?: string;
  proxy?: ProxyOptions;
  tls?: TlsOptions;
}

/**
 * undici, loaded on first use rather than when the extension loads: it is most of the code (about
 * 520 KB), and activation must not pay for it before the first request. esbuild.js puts it in its own
 * file, `dist/undici.js`, so it is neither parsed nor run until this is called.
 */
const undici = onFirstUse(() => require('undici') as typeof import('undici'));

/** A setting that makes no connection possible: said before anything goes over the network. */
function configError(code: 'TLS_CONFIG' | 'PROXY_CONFIG', message: string): ServiceError {
  return new ServiceError({ kind: 'config', code, message });
}

function readClientFile(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'unreadable';
    throw configError(
      'TLS_CONFIG',
      l10n.t(
        "Could not read the client certificate's {0} {1} named in modelAccess.tls.clientCertificate ({2}).",
        what,
        file,
        code,
      ),
    );
  }
}

/** The `connect` options of TLS to the service: roots and client certificate. */
export function serviceTls(o: TlsOptions = {}): {
  ca?: string[];
  cert?: Buffer;
  key?: Buffer;
  pfx?: Buffer;
  passphrase?: string;
} {
  const out: ReturnType<typeof serviceTls> = {};
  const roots = trustedRoots(o);
  if (roots) {
    out.ca = roots.map((r) => r.pem);
  }
  const cc = o.clientCertificate;
  if (cc && (cc.pfxFile?.trim() || cc.certFile?.trim() || cc.keyFile?.trim())) {
    if (cc.pfxFile?.trim()) {
      out.pfx = readClientFile(cc.pfxFile.trim(), 'PKCS#12 file (pfxFile)');
    } else if (cc.certFile?.trim() && cc.keyFile?.trim()) {
      out.cert = readClientFile(cc.certFile.trim(), 'certificate (certFile)');
      out.key = readClientFile(cc.keyFile.trim(), 'key (keyFile)');
    } else {
      throw new ServiceError({
        kind: 'config',
        code: 'TLS_CONFIG',
        message: l10n.t('modelAccess.tls.clientCertificate needs both certFile and keyFile, or a pfxFile.'),
      });
    }
    if (cc.passphrase) {
      out.passphrase = cc.passphrase;
    }
  }
  return out;
}

/**
 * The network settings as the person gave them, before a target is known: what a request to any URL
 * needs to reach it the way the service is reached (proxy, roots), and the client certificate with the one
 * origin it may be shown to.
 */
export interface NetworkSettings {
  /** VS Code's http.* proxy settings and the environment; the proxy is chosen per target. */
  proxy?: ProxyInputs;
  trust?: TrustOptions;
  /** Presented only to `origin` (the service's): a client certificate identifies the person. */
  clientCertificate?: { origin: string; certificate: ClientCertificate };
  connectMs?: number;
}

/**
 * A dispatcher for a request to `url` that carries no key (a Model Card): the proxy chosen for that URL,
 * the same roots as the service, and the client certificate only when `url` is on the service's origin.
 * `proxy` is the proxy in use without credentials, for messages. The caller closes the dispatcher.
 */
export function dispatcherForUrl(url: URL, settings: NetworkSettings): { dispatcher: Dispatcher; proxy?: string } {
  const cc = settings.clientCertificate;
  const proxy = settings.proxy ? resolveProxy(url.href, settings.proxy) : undefined;
  const dispatcher = createDispatcher({
    connectMs: settings.connectMs,
    https: url.protocol === 'https:',
    targetHost: url.hostname,
    proxy,
    tls: { ...settings.trust, clientCertificate: cc && cc.origin === url.origin ? cc.certificate : undefined },
  });
  const inUse = proxy?.url && !proxy.bypass && !isLoopbackHost(url.hostname) ? displayProxy(proxy.url) : undefined;
  return { dispatcher, proxy: inUse };
}

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const { Agent, ProxyAgent } = undici();
  const tls = serviceTls(o.tls);
  const connect = { timeout: o.connectMs ?? 10_000, ...tls };
  const common = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 };
  const loopback = o.targetHost !== undefined && isLoopbackHost(o.targetHost);
  const proxyUrl = o.proxy?.bypass || loopback ? undefined : o.proxy?.url?.trim();
  if (!proxyUrl) {
    return new Agent({ ...common, connect });
  }
  const proxySource = o.proxy?.source ?? 'http.proxy';
  let parsed: URL;
  try {
    parsed = new URL(proxyUrl);
  } catch {
    throw configError(
      'PROXY_CONFIG',
      l10n.t('The proxy ({0}) is not a valid URL (expected e.g. http://proxy.example:3128).', proxySource),
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw configError(
      'PROXY_CONFIG',
      l10n.t('The proxy ({0}) must be an http:// or https:// URL (got {1}).', proxySource, parsed.protocol),
    );
  }
  const strict = o.proxy?.strictSSL ?? true;
  return new ProxyAgent({
    ...common,
    uri: proxyUrl,
    // `http.proxyAuthorization` replaces credentials in the URL (undici refuses both at once).
    ...(o.proxy?.authorization ? { token: o.proxy.authorization, uri: stripCredentials(parsed) } : {}),
    // https: a CONNECT tunnel, so the proxy sees the host name and nothing else. Plain http (loopback is never
    // proxied; elsewhere only with allowInsecureHttp): forwarded as a plain proxy request.
    proxyTunnel: o.https !== false,
    connect: { timeout: o.connectMs ?? 10_000 },
    requestTls: tls,
    // http.proxyStrictSSL applies to the proxy's own certificate only, never to the service's.
    proxyTls: strict ? {} : { rejectUnauthorized: false },
  });
}

function stripCredentials(u: URL): string {
  const c = new URL(u.href);
  c.username = '';
  c.password = '';
  return c.href;
}
