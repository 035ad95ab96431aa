/**
 * Making server-supplied strings safe to show as plain text. Pure, no `vscode` import.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidi overrides/isolates and zero-width characters: they can make a label read differently than it is. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * One line of plain text of at most `max` characters: control characters become U+FFFD, bidi and
 * zero-width marks are dropped, long text ends with an ellipsis.
 */
export function displayText(value: string | undefined, max = 200): string {
  if (!value) {
    return '';
  }
  let s = value.length > max * 4 ? value.slice(0, max * 4) : value;
  s = s.replace(INVISIBLE, '').replace(CONTROL, '\ufffd');
  if (s.length > max) {
    s = `${s.slice(0, Math.max(0, max - 1))}…`;
  }
  return s;
}

/** The host (and port) of a URL for display, or the text itself when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return displayText(url, 80);
  }
}
