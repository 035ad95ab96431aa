/**
 * Which proxy a request to the service goes through, and why, from VS Code's settings and the environment.
 * The client talks to one origin, so the choice is made once per client (and shown by Diagnose Connection).
 * Pure, no `vscode` import.
 */
import { isIP } from 'node:net';
import { isLoopbackHost, type ServiceBase } from './baseUrl';
import { l10n } from '../common/plainL10n';

export interface ProxyInputs {
  /** VS Code's `http.proxy` setting. */
  setting?: string;
  /** VS Code's `http.noProxy` setting. */
  noProxySetting?: readonly string[];
  /** VS Code's `http.proxyStrictSSL` setting (default true). */
  strictSSL?: boolean;
  /** VS Code's `http.proxyAuthorization` setting: the whole `Proxy-Authorization` header value. */
  authorization?: string;
  /** VS Code's `http.proxySupport` setting; `off` means no proxy at all. */
  support?: string;
  env: Record<string, string | undefined>;
}

export interface ProxyOptions {
  /** The proxy URL, possibly with `user:password@` (undici sends it as Basic Proxy-Authorization). */
  url?: string;
  /** Where `url` came from: `http.proxy` or the environment variable's name. */
  source?: string;
  /** Why no proxy is used although one is configured (the matching no-proxy entry, loopback, proxySupport). */
  bypass?: string;
  /** Verify an https proxy's own certificate (VS Code's `http.proxyStrictSSL`). */
  strictSSL?: boolean;
  /** `Proxy-Authorization` header value from `http.proxyAuthorization`. */
  authorization?: string;
}

/** The proxy URL without credentials, for messages and the diagnosis. */
export function displayProxy(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(not a valid URL)';
  }
}

/**
 * Whether `host[:port]` of the target matches one no-proxy entry. Entries follow curl and VS Code:
 * `*` matches everything; `example.com`, `.example.com` and `*.example.com` match the host and its
 * subdomains; `host:port` only that port; an IPv4 CIDR (`10.0.0.0/8`) the addresses in it.
 */
export function matchesNoProxy(entry: string, hostname: string, port: string): boolean {
  let e = entry.trim().toLowerCase();
  if (!e) {
    return false;
  }
  if (e === '*') {
    return true;
  }
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const cidr = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(e);
  if (cidr) {
    return isIP(host) === 4 && inCidr(host, cidr[1], Number(cidr[2]));
  }
  let entryPort: string | undefined;
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(e);
  if (withPort) {
    e = withPort[1];
    entryPort = withPort[2];
  }
  e = e.replace(/^\[|\]$/g, '');
  if (entryPort !== undefined && entryPort !== port) {
    return false;
  }
  const domain = e.replace(/^\*?\./, '');
  return host === domain || host.endsWith(`.${domain}`);
}

function ipv4(s: string): number {
  return s.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inCidr(ip: string, net: string, bits: number): boolean {
  if (bits > 32) {
    return false;
  }
  const size = 2 ** (32 - bits);
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(net) / size);
}

const ENV_BY_SCHEME = {
  // curl's order: the lower-case name wins; https targets fall back to the http proxy, as undici does.
  https: ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'],
  http: ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'],
};

/**
 * The proxy for requests to `baseUrl`: VS Code's `http.proxy` wins, else the environment by the target's
 * scheme. `http.noProxy` and `NO_PROXY` both apply to either. A loopback service is never proxied (over
 * plain http the proxy would read the key). Undefined when nothing at all is configured.
 */
export function resolveProxy(baseUrl: string, inputs: ProxyInputs): ProxyOptions | undefined {
  const env = inputs.env;
  let target: URL;
  try {
    target = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  const https = target.protocol === 'https:';
  const strictSSL = inputs.strictSSL ?? true;
  const authorization = inputs.authorization?.trim() || undefined;
  let url = inputs.setting?.trim() || undefined;
  let source = url ? 'http.proxy' : undefined;
  if (!url) {
    for (const name of https ? ENV_BY_SCHEME.https : ENV_BY_SCHEME.http) {
      const v = env[name]?.trim();
      if (v) {
        url = v;
        source = name;
        break;
      }
    }
  }
  if (!url) {
    return undefined;
  }
  // `proxy.corp:3128` (common in HTTP_PROXY) means http, as curl reads it; without this it parses as scheme `proxy.corp:`.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    url = `http://${url}`;
  }
  const base = { strictSSL, authorization, source };
  if ((inputs.support ?? '').trim().toLowerCase() === 'off') {
    return { ...base, bypass: l10n.t('http.proxySupport is off') };
  }
  if (isLoopbackHost(target.hostname)) {
    return { ...base, bypass: l10n.t('the service is on this machine (loopback)') };
  }
  const port = target.port || (https ? '443' : '80');
  const envNoProxy = (env.no_proxy ?? env.NO_PROXY ?? '').split(',');
  for (const [list, from] of [
    [inputs.noProxySetting ?? [], 'http.noProxy'],
    [envNoProxy, env.no_proxy !== undefined ? 'no_proxy' : 'NO_PROXY'],
  ] as const) {
    const hit = list.find((entry) => typeof entry === 'string' && matchesNoProxy(entry, target.hostname, port));
    if (hit !== undefined) {
      return { ...base, bypass: l10n.t('{0} entry "{1}"', from, hit.trim()) };
    }
  }
  return { ...base, url };
}

/** The proxy the client's requests go through (without credentials), or undefined when none. */
export function proxyInUse(base: ServiceBase, proxy: ProxyOptions | undefined): string | undefined {
  if (!proxy?.url || proxy.bypass || isLoopbackHost(new URL(base.origin).hostname)) {
    return undefined;
  }
  return displayProxy(proxy.url);
}
