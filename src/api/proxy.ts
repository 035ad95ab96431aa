/**
 * Which proxy a request to the service goes through, from VS Code's settings and the environment. Pure, no
 * `vscode` import.
 */

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
