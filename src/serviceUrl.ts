/**
 * Validation and normalisation of the service's base URL, and the proxy resolution fed into the client.
 * Pure, no `vscode` import.
 */

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Why `text` is not a usable base URL, or undefined when it is. Plain http is accepted only for loopback
 * hosts unless `allowInsecureHttp`.
 */
export function validateBaseUrl(text: string, allowInsecureHttp = false): string | undefined {
  const value = text.trim();
  if (!value) {
    return 'Enter the service URL, e.g. https://models.example.com';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'This is not an absolute URL (it should start with https://).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'The service URL must start with https:// (or http:// for a local service).';
  }
  if (!url.hostname) {
    return 'The service URL has no host.';
  }
  if (url.username || url.password) {
    return 'Do not put credentials in the URL; use Model Access: Set API Key.';
  }
  if (url.search || url.hash) {
    return 'The service URL cannot carry a query (?…) or fragment (#…).';
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return 'Plain http:// is only allowed for a local service (localhost, 127.0.0.1). Use https://, or enable the setting modelAccess.allowInsecureHttp.';
  }
  return undefined;
}

/** The base URL as stored: trimmed, without trailing slashes. */
export function normalizeBaseUrl(text: string): string {
  return text.trim().replace(/\/+$/, '');
}

/** `https://host:port` of a base URL (the key store's key), or undefined when it does not parse. */
export function originOf(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return undefined;
    }
    return url.origin;
  } catch {
    return undefined;
  }
}

export interface ProxyInputs {
  /** VS Code's `http.proxy` setting. */
  setting?: string;
  /** VS Code's `http.noProxy` setting. */
  noProxySetting?: readonly string[];
  /** VS Code's `http.proxyStrictSSL` setting (default true). */
  strictSSL?: boolean;
  env: Record<string, string | undefined>;
}

export interface ProxyOptions {
  url?: string;
  noProxy?: string[];
  strictSSL?: boolean;
}

/**
 * The proxy for requests to `baseUrl`: VS Code's `http.proxy` wins, else `HTTPS_PROXY`/`HTTP_PROXY`
 * (either case) by the target's scheme. No-proxy entries are merged from the setting and `NO_PROXY`.
 */
export function resolveProxy(baseUrl: string, inputs: ProxyInputs): ProxyOptions | undefined {
  const env = inputs.env;
  const pick = (...names: string[]) => names.map((n) => env[n]?.trim()).find((v) => v);
  const https = baseUrl.trim().toLowerCase().startsWith('https:');
  const url =
    inputs.setting?.trim() ||
    (https ? pick('HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy') : pick('HTTP_PROXY', 'http_proxy')) ||
    undefined;
  const noProxy = [
    ...(inputs.noProxySetting ?? []),
    ...(pick('NO_PROXY', 'no_proxy') ?? '').split(','),
  ]
    .map((s) => s.trim())
    .filter(Boolean);
  const strictSSL = inputs.strictSSL ?? true;
  if (!url && noProxy.length === 0 && strictSSL) {
    return undefined;
  }
  return { url, noProxy: noProxy.length ? [...new Set(noProxy)] : undefined, strictSSL };
}
