/**
 * Control characters made visible, for text written to a terminal or a CI log (the command line, Test
 * Explorer's output): text from a service, a dataset or a file name must not drive the terminal. `ESC[2K`
 * and `\r` erase a line and forge a `PASS`, OSC 8 hides a link, OSC 52 writes the clipboard, and on GitHub
 * Actions a line starting after a lone `\r` may be read as a workflow command. Every C0 control but tab, DEL,
 * every C1 control, U+2028/U+2029 and the bidi and zero-width characters (which make text read otherwise
 * than it is) are shown as what they are: C0 and DEL as their Unicode control pictures (`␛`, `␍`), the rest
 * as `<U+0085>`. Pure; no `vscode` import.
 */
import { INVISIBLE_CHARS } from './text';

const CONTROLS = new RegExp(`[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u2028\\u2029${INVISIBLE_CHARS}]`, 'g');
const CONTROLS_BUT_LF = new RegExp(
  `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029${INVISIBLE_CHARS}]`,
  'g',
);

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) {
    return String.fromCharCode(0x2400 + code);
  }
  if (code === 0x7f) {
    return '\u2421';
  }
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `text` with every control character but tab made visible; with `keepLineFeed`, `\n` stays (a multi-line
 * report field), while a `\r` is still shown.
 */
export function visibleControls(text: string, options: { keepLineFeed?: boolean } = {}): string {
  const re = options.keepLineFeed ? CONTROLS_BUT_LF : CONTROLS;
  re.lastIndex = 0;
  return re.test(text) ? text.replace(re, picture) : text;
}
