/**
 * Base URL checks as the settings UI needs them, and the proxy resolution fed into the client.
 * Pure, no `vscode` import.
 */

import { parseBaseUrl } from './api/baseUrl';
import { ServiceError } from './api/errors';

export { isLoopbackHost, originOf } from './api/baseUrl';

/**
 * Why `text` is not a usable base URL, or undefined when it is: the client's own check (one rule for the
 * input box and for requests), with an input-box wording for the empty case.
 */
export function validateBaseUrl(text: string, allowInsecureHttp = false): string | undefined {
  if (!text.trim()) {
    return 'Enter the service URL, e.g. https://models.example.com';
  }
  try {
    parseBaseUrl(text, allowInsecureHttp);
    return undefined;
  } catch (e) {
    if (e instanceof ServiceError) {
      return e.kind === 'insecure' ? `${e.message} The setting is modelAccess.allowInsecureHttp.` : e.message;
    }
    throw e;
  }
}

/** The base URL as stored: trimmed, without trailing slashes. */
export function normalizeBaseUrl(text: string): string {
  return text.trim().replace(/\/+$/, '');
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
  const noProxy = [...(inputs.noProxySetting ?? []), ...(pick('NO_PROXY', 'no_proxy') ?? '').split(',')]
    .map((s) => s.trim())
    .filter(Boolean);
  const strictSSL = inputs.strictSSL ?? true;
  if (!url && noProxy.length === 0 && strictSSL) {
    return undefined;
  }
  return { url, noProxy: noProxy.length ? [...new Set(noProxy)] : undefined, strictSSL };
}
