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

// A line that starts (after any spaces) with `::` is a GitHub Actions workflow command (`::add-mask::`,
// `::error::`, `::stop-commands::`), and `##[` anywhere in a line is its older form, read by the runner wherever it
// stands (as `##vso[` is by Azure Pipelines). Only line feeds end a line here: every other line break was made
// visible first. `[^\S\n]*` never crosses a line feed, so the pattern stays linear however many lines there are.
const LINE_COMMAND = /(^|\n)([^\S\n]*)::/g;
const ANYWHERE_COMMAND = /##(vso)?\[/gi;

/**
 * `text` as a CI runner will not read it as its own command: a `·` before a `::` that starts a line and
 * between the `#`s of `##[` / `##vso[`. Our own lines never start so; only text from a service, a dataset or
 * a file does. Apply after {@link visibleControls}.
 */
export function inertCiCommands(text: string): string {
  if (!text.includes('::') && !text.includes('##')) {
    return text;
  }
  return text.replace(LINE_COMMAND, '$1$2\u00b7::').replace(ANYWHERE_COMMAND, (m) => `#\u00b7${m.slice(1)}`);
}
