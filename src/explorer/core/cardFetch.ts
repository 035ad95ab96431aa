/**
 * Fetching a Model Card for the in-editor preview. Pure, no `vscode` import.
 *
 * The request never carries the API key, cookies or any credential: a card may live anywhere, and the key
 * belongs to the service alone — even a card on the service's own origin is public documentation, so it is
 * read without the key too. What is read is capped in size and time. Only Markdown and plain text are
 * previewed; anything else (an HTML page) is for the browser.
 */
import { l10n } from '../../common/plainL10n';
import { checkCardLink } from './linkSafety';

export const CARD_MAX_BYTES = 1024 * 1024;
export const CARD_TIMEOUT_MS = 15_000;

export type CardFetch =
  | { kind: 'markdown' | 'text'; url: string; text: string; truncated: boolean }
  | { kind: 'browser'; url: string; contentType: string }
  | { kind: 'failed'; url: string; message: string };

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

/**
 * GETs `link` without credentials and returns its text when it is Markdown or plain text. Redirects are
 * followed (to http(s) only: fetch follows no other scheme) and the final URL is checked like the link.
 */
export async function fetchCard(
  link: string,
  options: { maxBytes?: number; timeoutMs?: number; signal?: AbortSignal } = {},
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
  try {
    const response = await fetch(url, {
      method: 'GET',
      // Credentials of no kind: no Authorization header is ever set here, and no cookies.
      credentials: 'omit',
      redirect: 'follow',
      headers: { accept: 'text/markdown, text/plain;q=0.9, text/html;q=0.5, */*;q=0.1' },
      signal: controller.signal,
    });
    const finalUrl = response.url || url;
    const finalCheck = checkCardLink(finalUrl);
    if (!finalCheck.ok) {
      await response.body?.cancel();
      return { kind: 'failed', url, message: `The card redirected to a link that is not opened: ${finalCheck.reason}` };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return {
        kind: 'failed',
        url,
        message: `The card's server answered ${response.status} ${response.statusText}.`.trim(),
      };
    }
    const contentType = response.headers.get('content-type') ?? '';
    const kind = cardKind(contentType, finalCheck.url);
    if (kind === 'browser') {
      await response.body?.cancel();
      return { kind, url: finalCheck.url, contentType };
    }
    const { text, truncated } = await readCapped(response, maxBytes);
    return { kind, url: finalCheck.url, text, truncated };
  } catch (e) {
    const message = controller.signal.aborted
      ? options.signal?.aborted
        ? l10n.t('Cancelled.')
        : l10n.t('The card did not arrive within {0} s.', Math.round(timeoutMs / 1000))
      : l10n.t(
          'The card could not be read: {0}',
          e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e),
        );
    return { kind: 'failed', url, message };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The body as UTF-8 text, at most `maxBytes` of it (the rest is not read: the connection is closed). */
async function readCapped(response: Response, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) {
    return { text: '', truncated: false };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes), truncated };
}
