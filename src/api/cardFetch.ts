/**
 * Fetching a Model Card for the in-editor preview. Pure, no `vscode` import.
 *
 * The request never carries the API key, cookies or the service's headers: a card may live anywhere, and the
 * key belongs to the service alone — even a card on the service's own origin is public documentation, so it
 * is read without the key too. It reaches the card through the same proxy and trust settings as the service
 * (a corporate network lets nothing through otherwise). What is read is capped in size and time. Only
 * Markdown and plain text are previewed; anything else (an HTML page) is for the browser.
 */
import type { Dispatcher } from 'undici';
import { addressRefusal, literalRefusal } from './addressGuard';
import { USER_AGENT } from './headers';
import { dispatcherForUrl, type NetworkSettings } from './dispatcher';
import { isConnectionSetupFailure, networkError, statusText } from './errors';
import { l10n } from '../common/plainL10n';
import { checkCardLink } from './linkSafety';

export const CARD_MAX_BYTES = 1024 * 1024;
export const CARD_TIMEOUT_MS = 15_000;

export type CardFetch =
  | { kind: 'markdown' | 'text'; url: string; text: string; truncated: boolean }
  | { kind: 'browser'; url: string; contentType: string }
  /** `setup`: the proxy or TLS failed (Diagnose Connection shows the proxy chosen and the roots trusted). */
  | { kind: 'failed'; url: string; message: string; setup?: boolean };

const MARKDOWN_TYPES = /^(text\/markdown|text\/x-markdown|text\/x-gfm)$/;
const MARKDOWN_PATH = /\.(md|markdown|mdown|mkd)$/i;

/** How a card is previewed, from its content type and the link's path. */
export function cardKind(contentType: string, url: string): 'markdown' | 'text' | 'browser' {
  const type = contentType.split(';')[0].trim().toLowerCase();
  const markdownPath = MARKDOWN_PATH.test(new URL(url).pathname);
  if (MARKDOWN_TYPES.test(type)) {
    return 'markdown';
  }
  if (type === 'text/plain' || type === '' || type === 'application/octet-stream') {
    return markdownPath ? 'markdown' : type === 'text/plain' ? 'text' : 'browser';
  }
  return 'browser';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * GETs `link` without credentials and returns its text when it is Markdown or plain text. It goes the way
 * a request to the service goes (`network`: the proxy chosen for the card's URL, the same roots, the client
 * certificate only on the service's own origin) but carries no key, cookie or service header. Redirects are
 * followed to http(s) links only, each checked like the link and reached through the proxy chosen for it.
 */
export async function fetchCard(
  link: string,
  options: { maxBytes?: number; timeoutMs?: number; signal?: AbortSignal; network?: NetworkSettings } = {},
): Promise<CardFetch> {
  const check = checkCardLink(link);
  if (!check.ok) {
    return { kind: 'failed', url: link, message: check.reason };
  }
  const url = check.url;
  const maxBytes = options.maxBytes ?? CARD_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? CARD_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  const dispatchers: Dispatcher[] = [];
  let target = new URL(url);
  let proxy: string | undefined;
  try {
    for (let hops = 0; ; hops++) {
      // An IP literal is connected to without a lookup, so the address guard (api/addressGuard.ts) checks it here.
      const literal =
        target.origin === options.network?.serviceOrigin ? undefined : literalRefusal(target.hostname, 'publicOnly');
      if (literal) {
        return { kind: 'failed', url, message: l10n.t('The card could not be read: {0}', literal.message) };
      }
      const hop = dispatcherForUrl(target, options.network ?? {});
      dispatchers.push(hop.dispatcher);
      proxy = hop.proxy;
      const response = await hop.dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: 'GET',
        // Credentials of no kind: no Authorization header is ever set here, and no cookies.
        headers: { accept: 'text/markdown, text/plain;q=0.9, text/html;q=0.5, */*;q=0.1', 'user-agent': USER_AGENT },
        // The timer above bounds the whole read; undici's own limits are longer.
        signal: controller.signal,
      });
      const status = response.statusCode;
      const location = headerOf(response.headers, 'location');
      if (REDIRECTS.has(status) && location !== undefined) {
        await response.body.dump().catch(() => undefined);
        let next: string;
        try {
          next = new URL(location, target).href;
        } catch {
          return { kind: 'failed', url, message: l10n.t('The card redirected to a link that is not valid.') };
        }
        const nextCheck = checkCardLink(next);
        if (!nextCheck.ok) {
          return {
            kind: 'failed',
            url,
            message: l10n.t('The card redirected to a link that is not opened: {0}', nextCheck.reason),
          };
        }
        if (target.protocol === 'https:' && new URL(nextCheck.url).protocol === 'http:') {
          return {
            kind: 'failed',
            url,
            message: l10n.t(
              'The card redirected from https to plain http ({0}); not followed.',
              new URL(nextCheck.url).origin,
            ),
          };
        }
        if (hops >= MAX_REDIRECTS) {
          return {
            kind: 'failed',
            url,
            message: l10n.t('The card redirected more than {0} times; stopped following.', MAX_REDIRECTS),
          };
        }
        target = new URL(nextCheck.url);
        continue;
      }
      if (status < 200 || status >= 300) {
        await response.body.dump().catch(() => undefined);
        return {
          kind: 'failed',
          url,
          message: l10n.t("The card's server answered {0}.", `${status} ${statusText(status)}`.trim()),
        };
      }
      const contentType = headerOf(response.headers, 'content-type') ?? '';
      const kind = cardKind(contentType, target.href);
      if (kind === 'browser') {
        discard(response.body);
        return { kind, url: target.href, contentType };
      }
      const { text, truncated } = await readCapped(response.body, maxBytes);
      return { kind, url: target.href, text, truncated };
    }
  } catch (e) {
    if (controller.signal.aborted) {
      const message = options.signal?.aborted
        ? l10n.t('Cancelled.')
        : l10n.t('The card did not arrive within {0} s.', Math.round(timeoutMs / 1000));
      return { kind: 'failed', url, message };
    }
    const refused = addressRefusal(e);
    if (refused) {
      return { kind: 'failed', url, message: l10n.t('The card could not be read: {0}', refused.message) };
    }
    const err = networkError(e, target.origin, 'headers', undefined, timeoutMs, proxy);
    const message = l10n.t('The card could not be read: {0}', err.message);
    return isConnectionSetupFailure(err)
      ? { kind: 'failed', url, message, setup: true }
      : { kind: 'failed', url, message };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    for (const d of dispatchers) {
      void d.destroy().catch(() => undefined);
    }
  }
}

/** Closes a body that is not read; the error its destruction raises is expected. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** The body as UTF-8 text, at most `maxBytes` of it (the rest is not read: the connection is closed). */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      discard(body);
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks, size)), truncated };
}
