/**
 * The one place where untrusted text (from the registry, the service, settings a workspace wrote, file
 * names) becomes text for people. Every surface takes its text from here: notifications, quick picks,
 * tree labels, descriptions and tooltips, the status bar, log lines and document titles. Pure, no
 * `vscode` import.
 *
 * What it neutralises, and why:
 * - `[label](command:…)` — notifications render Markdown-style links and run `command:` links on click;
 *   the `](` pair is split so no link can form.
 * - `$(icon)` — quick picks and the status bar render codicon syntax; a word joiner after `$` stops it.
 * - newlines and other control characters — they forge log lines and multi-line labels.
 * - bidi overrides and zero-width characters — they make text read differently than it is.
 */

/**
 * Text that went through {@link displayText} (or {@link clean}), or a localized message built from such text
 * (src/common/l10n.ts); the UI's message functions take only this.
 */
export type DisplayText = string & { readonly __displayText: true };

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;
const LINE_BREAKS = /[\t\n\r]+/g;
/**
 * Bidi overrides/isolates/marks and zero-width characters, as the body of a regular-expression character
 * class (the one copy of it in src/: link checks build their patterns from it).
 */
export const INVISIBLE_CHARS = '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';
export const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'g');
const LINK_JOIN = /\]\s*\(/g;
const ICON = /\$\(/g;

/**
 * One line of plain text of at most `max` characters that no surface turns into a link, an icon or a
 * second line. Long text ends with an ellipsis. `undefined`/non-strings give an empty string.
 */
export function displayText(value: unknown, max = 200): DisplayText {
  if (value === undefined || value === null) {
    return '' as DisplayText;
  }
  const text = typeof value === 'string' ? value : String(value);
  let s = text.length > max * 4 + 16 ? text.slice(0, max * 4 + 16) : text;
  s = s.replace(INVISIBLE, '').replace(LINE_BREAKS, ' ').replace(CONTROL, '\ufffd');
  if (s.length > max) {
    s = `${s.slice(0, Math.max(0, max - 1))}…`;
  }
  // After truncation, so the inserted characters never push a real character out.
  s = s.replace(LINK_JOIN, '] (').replace(ICON, '$\u2060(');
  return s as DisplayText;
}

/**
 * Like {@link displayText}, but a text longer than `max` keeps its beginning and its end with `…` between them:
 * for ids in lists, where the end of an id (its version, a `{{…}}` a registry hid there) must not be cut off
 * unseen. Very long text is read from both ends only (the mark shows the gap).
 */
export function displayEnds(value: unknown, max = 60): DisplayText {
  if (value === undefined || value === null) {
    return '' as DisplayText;
  }
  const text = typeof value === 'string' ? value : String(value);
  const bound = max * 4 + 16;
  const kept = text.length > 2 * bound ? `${text.slice(0, bound)}\u2026${text.slice(-bound)}` : text;
  let s = kept.replace(INVISIBLE, '').replace(LINE_BREAKS, ' ').replace(CONTROL, '\ufffd');
  if (s.length > max) {
    const tail = Math.floor((max - 1) * 0.4);
    s = `${s.slice(0, Math.max(0, max - 1 - tail))}\u2026${s.slice(s.length - tail)}`;
  }
  // After clipping, as displayText: the inserted characters never push a real one out.
  return s.replace(LINK_JOIN, '] (').replace(ICON, '$\u2060(') as DisplayText;
}

/**
 * An untrusted value (a URL, a file name, a server's sentence) as an argument of a localized message
 * (`l10n.t` in src/common/l10n.ts): {@link displayText} with room for up to 300 characters.
 *
 *     ui.info(l10n.t('Uploaded {0}: {1}', clean(filename), clean(fileId)))
 */
export function clean(value: unknown): DisplayText {
  return displayText(value, 300);
}

/**
 * One line of plain text of at most `max` characters: control characters and runs of white space become
 * one space, long text ends with an ellipsis. For text kept as data (error messages of the client);
 * what people see goes through {@link displayText} as well.
 */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The host (and port) of a URL for display, or the (neutralised) text itself when it does not parse. */
export function hostOf(url: string): DisplayText {
  try {
    return displayText(new URL(url).host, 120);
  } catch {
    return displayText(url, 80);
  }
}
