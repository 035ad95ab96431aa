/**
 * The service's `{base_url}`: validation before any request, a kept path prefix, and a pasted `/v1`
 * suffix that does not double the version segment. Pure; no `vscode` import.
 */
import { ServiceError } from './errors';
import { l10n } from '../common/plainL10n';

export interface ServiceBase {
  /** `https://host:port`. */
  origin: string;
  /** Path prefix before `/v1`, without a trailing slash (`''` or e.g. `/api`). */
  prefix: string;
  /** Whether the origin uses plain http. */
  insecure: boolean;
}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Parses and checks a base URL; throws ServiceError `config` or `insecure` with a sentence a person can act on. */
export function parseBaseUrl(text: string, allowInsecureHttp = false): ServiceBase {
  const value = (text ?? '').trim();
  if (value === '') {
    throw new ServiceError({
      kind: 'config',
      message: l10n.t('No service URL is set; it should look like https://models.example.com.'),
    });
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ServiceError({
      kind: 'config',
      message: l10n.t('The service URL is not a valid absolute URL; it should look like https://models.example.com.'),
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ServiceError({
      kind: 'config',
      message: l10n.t('The service URL must start with https:// (got {0}).', clip(url.protocol)),
    });
  }
  if (!url.hostname) {
    throw new ServiceError({ kind: 'config', message: l10n.t('The service URL has no host name.') });
  }
  if (url.username || url.password) {
    throw new ServiceError({
      kind: 'config',
      message: l10n.t('The service URL must not contain a user name or password; the API key is sent separately.'),
    });
  }
  if (url.search || url.hash) {
    throw new ServiceError({
      kind: 'config',
      message: l10n.t('The service URL must not contain a query (?…) or fragment (#…).'),
    });
  }
  const insecure = url.protocol === 'http:';
  if (insecure && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new ServiceError({
      kind: 'insecure',
      message: l10n.t(
        'Refusing to send the API key to {0} over plain http: anyone on the network could read it. Use https://, or allow insecure http explicitly for a network you trust.',
        url.origin,
      ),
    });
  }
  let prefix = url.pathname.replace(/\/+$/, '');
  // A pasted `…/v1` (or `…/v1/`) is the version segment itself: the client adds it to every path.
  if (/\/v1$/i.test(prefix)) {
    prefix = prefix.slice(0, -3);
  }
  return { origin: url.origin, prefix, insecure };
}

/**
 * Absolute URL of an API path under the base. `/v1/models`, `v1/models` and `/models` all give
 * `<origin><prefix>/v1/models`.
 */
export function joinUrl(base: ServiceBase, path: string): string {
  let p = path.startsWith('/') ? path : `/${path}`;
  if (!/^\/v1(\/|$|\?)/i.test(p)) {
    p = `/v1${p}`;
  }
  return `${base.origin}${base.prefix}${p}`;
}

/** Origin of an absolute URL, or undefined when it is not an absolute http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/**
 * Why `text` is not a usable base URL, or undefined when it is: the client's own check (one rule for the
 * input box and for requests), with an input-box wording for the empty case.
 */
export function validateBaseUrl(text: string, allowInsecureHttp = false): string | undefined {
  if (!text.trim()) {
    return l10n.t('Enter the service URL, e.g. https://models.example.com');
  }
  try {
    parseBaseUrl(text, allowInsecureHttp);
    return undefined;
  } catch (e) {
    if (e instanceof ServiceError) {
      return e.kind === 'insecure' ? l10n.t('{0} The setting is modelAccess.allowInsecureHttp.', e.message) : e.message;
    }
    throw e;
  }
}

/** The base URL as stored: trimmed, without trailing slashes. */
export function normalizeBaseUrl(text: string): string {
  return text.trim().replace(/\/+$/, '');
}
