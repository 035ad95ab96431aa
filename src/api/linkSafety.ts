/**
 * Which Model Card links the extension is willing to hand to the browser. Pure, no `vscode` import.
 *
 * Registries are not under the user's control: a card link could be `command:` (runs an editor command),
 * `file:`, `javascript:`, `vscode:` (opens another extension's handler) or `data:`. Only absolute
 * `http`/`https` URLs with a host and no embedded credentials are opened.
 */

import { l10n } from '../common/l10n';
import { clean, INVISIBLE_CHARS, type DisplayText } from '../common/text';

export const MAX_CARD_URL_LENGTH = 2048;

export type CardLinkCheck = { ok: true; url: string } | { ok: false; reason: DisplayText };

// C0/C1 controls, whitespace and bidi/zero-width marks have no business inside a URL.
const FORBIDDEN_CHARS = new RegExp(`[\\u0000-\\u0020\\u007f-\\u009f${INVISIBLE_CHARS}]`);

export function checkCardLink(link: unknown): CardLinkCheck {
  if (typeof link !== 'string' || link.trim() === '') {
    return { ok: false, reason: l10n.t('The model has no Model Card link.') };
  }
  const text = link.trim();
  if (text.length > MAX_CARD_URL_LENGTH) {
    return {
      ok: false,
      reason: l10n.t('The Model Card link is longer than {0} characters and was not opened.', MAX_CARD_URL_LENGTH),
    };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (!scheme) {
    return { ok: false, reason: l10n.t('The Model Card link is not an absolute URL and was not opened.') };
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return {
      ok: false,
      reason: l10n.t(
        'The Model Card link uses the "{0}:" scheme; only http and https links are opened.',
        clean(scheme),
      ),
    };
  }
  if (!/^https?:\/\//i.test(text)) {
    return { ok: false, reason: l10n.t('The Model Card link is not an absolute http(s) URL and was not opened.') };
  }
  if (FORBIDDEN_CHARS.test(text)) {
    return {
      ok: false,
      reason: l10n.t('The Model Card link contains spaces or control characters and was not opened.'),
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: l10n.t('The Model Card link is not a valid URL and was not opened.') };
  }
  if (!url.hostname) {
    return { ok: false, reason: l10n.t('The Model Card link has no host and was not opened.') };
  }
  if (url.username || url.password) {
    return { ok: false, reason: l10n.t('The Model Card link carries a user name or password and was not opened.') };
  }
  return { ok: true, url: url.href };
}

/** A short form of a link's scheme for messages: never the whole (possibly huge or hostile) link. */
export function describeLink(link: unknown): string {
  if (typeof link !== 'string') {
    return 'none';
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link.trim())?.[1];
  return scheme ? `${scheme.toLowerCase()}:` : 'relative';
}

/**
 * The card link as the registry sent it, from the raw entry, for explaining a refusal: the client keeps
 * only safe links in `cardUrl`, so a `command:` link shows up here and not there.
 */
export function rawCardLink(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return undefined;
  }
  const entries = Object.entries(raw as Record<string, unknown>).filter(([, v]) => typeof v === 'string') as [
    string,
    string,
  ][];
  const byName = (re: RegExp) => entries.find(([k]) => re.test(k))?.[1];
  return byName(/card/i) ?? byName(/^(url|link|href|documentation|docs?)$/i);
}
