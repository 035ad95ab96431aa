/**
 * Which stored API key serves a base URL. A key is stored for a *scope*: an origin plus a path prefix
 * (`https://gw` or `https://gw/team-a`). A URL is served by the longest stored scope it lies under,
 * compared segment by segment (`/team-a` covers `/team-a/x`, never `/team-ab` or `/team-b`); a key
 * stored for the bare origin covers every path on it. Pure; no `vscode` import.
 */

export interface KeyScope {
  /** `https://host:port`, as the URL parser writes it. */
  origin: string;
  /**
   * The path prefix in segments, as the URL parser writes them (percent-encoding kept, dot segments
   * resolved), without trailing slashes and without the `/v1` the client adds itself. `[]` is the origin.
   */
  segments: string[];
  /**
   * A segment carries an encoded `/` or `\` (`%2F`, `%5C`). A server that decodes them before routing
   * may see other segments than we do, so such a URL is covered only by a key stored for exactly its
   * scope, or by one stored for its origin — never by a shorter prefix.
   */
  opaque: boolean;
}

const ENCODED_SEPARATOR = /%2f|%5c/i;

/** The scope of `url`, or undefined when it is not an absolute http(s) URL. */
export function keyScopeOf(url: string): KeyScope | undefined {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return undefined;
  }
  // The same prefix the client uses: trailing slashes dropped, a pasted `/v1` is the version segment.
  let path = u.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) {
    path = path.slice(0, -3);
  }
  const segments = path === '' ? [] : path.slice(1).split('/');
  return { origin: u.origin, segments, opaque: segments.some((s) => ENCODED_SEPARATOR.test(s)) };
}

/** The scope as one string, the name keys are stored under: `https://gw` or `https://gw/team-a`. */
export function scopeString(scope: KeyScope): string {
  return scope.segments.length === 0 ? scope.origin : `${scope.origin}/${scope.segments.join('/')}`;
}

/** The scope a key entered for `url` is stored for (its origin and path prefix), or undefined. */
export function scopeOf(url: string): string | undefined {
  const scope = keyScopeOf(url);
  return scope && scopeString(scope);
}

/** Whether `scope` is a bare origin (a key stored there covers every path on the origin). */
export function isOriginScope(scope: string): boolean {
  const s = keyScopeOf(scope);
  return s !== undefined && s.segments.length === 0;
}

/**
 * The scopes whose stored key may serve `url`, longest first, the origin last: look them up in this
 * order and take the first key found. Empty when `url` is not an absolute http(s) URL.
 */
export function candidateScopes(url: string): string[] {
  const scope = keyScopeOf(url);
  if (!scope) {
    return [];
  }
  if (scope.opaque) {
    return scope.segments.length === 0 ? [scope.origin] : [scopeString(scope), scope.origin];
  }
  const out: string[] = [];
  for (let n = scope.segments.length; n >= 0; n--) {
    out.push(scopeString({ ...scope, segments: scope.segments.slice(0, n) }));
  }
  return out;
}

/** Whether a key stored for `scope` may serve `url` (same origin, and `scope`'s path is a segment prefix of `url`'s). */
export function scopeCovers(scope: string, url: string): boolean {
  const canonical = scopeOf(scope);
  return canonical !== undefined && canonical === scope && candidateScopes(url).includes(scope);
}

/**
 * `url` as people should read it in a prompt: what the URL parser made of it (host lower-cased,
 * non-ASCII and spaces percent-encoded), without a query, fragment or trailing slash.
 */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.trim().slice(0, 200);
  }
}
