/**
 * Following the redirects of a GET: same origin only (the key never goes elsewhere), at most five hops,
 * every kind (301/302/303/307/308). POSTs are never redirected.
 */
import type { Call } from './call';
import { ServiceError } from './errors';
import { header } from './headers';
import type { Exchange, Transport } from './transport';
import { l10n } from '../common/plainL10n';

const MAX_REDIRECTS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** Sends a GET of `start`, following same-origin redirects; resolves with the first answer that is not one. */
export async function getFollowing(t: Transport, call: Call, start: string, attempt: number): Promise<Exchange> {
  let url = start;
  for (let hops = 0; ; hops++) {
    const ex = await t.send({
      method: 'GET',
      url,
      key: call.key,
      secretHeaders: call.secretHeaders,
      redact: call.redact,
      signal: call.signal,
      attempt,
      headers: { accept: 'application/json' },
    });
    const location = header(ex.headers, 'location');
    if (!REDIRECT.has(ex.status) || location === undefined) {
      return ex;
    }
    t.logDone(ex, 'GET', call.redact, undefined, attempt);
    await ex.body.dump().catch(() => undefined);
    url = nextHop(t, call, ex, location, url, hops);
  }
}

/** Where a redirect leads, or the ServiceError that says why it is not followed. */
function nextHop(t: Transport, call: Call, ex: Exchange, location: string, from: string, hops: number): string {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new ServiceError({
      kind: 'invalidResponse',
      status: ex.status,
      message: l10n.t('The server answered {0} with a redirect that is not a valid URL.', ex.status),
      host: t.base.origin,
    });
  }
  if (target.origin !== t.base.origin) {
    throw new ServiceError({
      kind: 'config',
      status: ex.status,
      requestId: ex.requestId,
      host: t.base.origin,
      redact: call.redact,
      message: l10n.t(
        'The server redirected the request to {0}; it was not followed, so your API key is not sent there. If the service has moved, set the service URL to {0}.',
        target.origin,
      ),
    });
  }
  if (hops >= MAX_REDIRECTS) {
    throw new ServiceError({
      kind: 'http',
      status: ex.status,
      host: t.base.origin,
      message: l10n.t('The server redirected more than {0} times; stopped following.', MAX_REDIRECTS),
    });
  }
  return target.href;
}
