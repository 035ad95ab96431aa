/**
 * The one keep-alive undici dispatcher of a client: a plain Agent, or an EnvHttpProxyAgent when a proxy is
 * configured (it applies the no-proxy list per request), with an optional extra CA and strict-SSL switch.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { isLoopbackHost } from './baseUrl';
import { ServiceError } from './errors';

export interface DispatcherOptions {
  connectMs?: number;
  /** The service's host name: a loopback service is never reached through a proxy (it would see the key). */
  targetHost?: string;
  proxy?: { url?: string; noProxy?: string[]; strictSSL?: boolean; fromEnvironment?: boolean };
  caFile?: string;
}

/** Extra CA certificates (PEM) trusted in addition to Node's roots; throws a `config` error when unreadable. */
export function readCa(caFile: string): string[] {
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'unreadable';
    throw new ServiceError({ kind: 'config', message: `Could not read the CA certificate file ${caFile} (${code}).` });
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ServiceError({
      kind: 'config',
      message: `The CA certificate file ${caFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`,
    });
  }
  return [...rootCertificates, pem];
}

/**
 * undici, loaded on first use rather than when the extension loads: it is most of the code (about
 * 520 KB), and activation must not pay for it before the first request. esbuild.js puts it in its own
 * file, `dist/undici.js`, so it is neither parsed nor run until this is called.
 */
function undici(): typeof import('undici') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('undici') as typeof import('undici');
}

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const { Agent, EnvHttpProxyAgent } = undici();
  const strict = o.proxy?.strictSSL ?? true;
  const tls: { ca?: string[]; rejectUnauthorized?: boolean } = {};
  if (o.caFile) {
    tls.ca = readCa(o.caFile);
  }
  if (!strict) {
    tls.rejectUnauthorized = false;
  }
  const connect = { timeout: o.connectMs ?? 10_000, ...tls };
  const common = { connect, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 };
  if (o.targetHost !== undefined && isLoopbackHost(o.targetHost)) {
    // This machine's own service: a proxy has no business there, and over plain http it would read the key.
    return new Agent(common);
  }
  const proxyUrl = o.proxy?.url?.trim();
  if (proxyUrl) {
    try {
      new URL(proxyUrl);
    } catch {
      throw new ServiceError({
        kind: 'config',
        message: 'The proxy setting is not a valid URL (expected e.g. http://proxy.example:3128).',
      });
    }
    return new EnvHttpProxyAgent({
      ...common,
      httpProxy: proxyUrl,
      httpsProxy: proxyUrl,
      // An explicit (possibly empty) list: the environment's NO_PROXY is already merged in by the caller.
      noProxy: (o.proxy?.noProxy ?? []).join(','),
      requestTls: tls,
      proxyTls: strict ? {} : { rejectUnauthorized: false },
    });
  }
  if (o.proxy?.fromEnvironment) {
    return new EnvHttpProxyAgent({ ...common, requestTls: tls, proxyTls: strict ? {} : { rejectUnauthorized: false } });
  }
  return new Agent(common);
}
