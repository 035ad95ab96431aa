/**
 * Writing a string so a shell or a program's argument parser gives back exactly that string. Pure; no
 * `vscode` import. Each helper says which strings it can carry; the snippet generators choose accordingly.
 */

/** POSIX shell single quotes (bash, zsh, dash): nothing inside expands; safe for any text without NUL. */
export function posixQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The characters PowerShell reads as a single quote: the ASCII one and the typographic ones
 * (U+2018–U+201B). An unpaired typographic quote would end a '…' string as surely as `'`.
 */
const POWERSHELL_SINGLE_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

/** A PowerShell verbatim string ('…'): every kind of single quote doubled; `$`, backticks and newlines stay literal. */
export function powershellQuote(s: string): string {
  return `'${s.replace(POWERSHELL_SINGLE_QUOTES, (q) => q + q)}'`;
}

/**
 * Whether `s` reaches a native program (curl.exe) as one argument, unchanged, from any PowerShell: printable
 * ASCII without `"` and not ending in `\`. Windows PowerShell 5.1 (and 7.0–7.2) wrap an argument holding a
 * space in double quotes without escaping the quotes inside, so a `"` would end the argument early and let the
 * rest become arguments of its own (another URL curl would send the key to); a trailing `\` would escape the
 * closing quote. PowerShell 7.3+ escapes both, but the snippet must hold for 5.1. Outside ASCII, curl.exe's
 * ANSI code page can map a character to `"` ("best fit"), so none is written.
 */
export function isPowerShellArgumentSafe(s: string): boolean {
  return /^[\x20-\x7e]*$/.test(s) && !s.includes('"') && !s.endsWith('\\');
}

/**
 * What cmd.exe leaves alone whether or not it thinks it is inside double quotes: no `%` or `!` (variable
 * expansion even inside quotes), no `^ & | < > ( )` (escapes, separators, redirections and blocks outside
 * them), no `"` or `\` (argument parsing), no control or non-ASCII characters (code pages). Spaces are fine.
 */
const CMD_SAFE = /^[A-Za-z0-9 _.,:;/+=?@#*~'{}[\]$`-]*$/;

export function isCmdSafe(s: string): boolean {
  return CMD_SAFE.test(s);
}

/**
 * A cmd.exe argument in double quotes for a program that parses its command line the Microsoft C runtime
 * way (curl.exe does), or undefined when `s` holds a character cmd could change (see {@link isCmdSafe}).
 */
export function cmdQuote(s: string): string | undefined {
  return isCmdSafe(s) ? `"${s}"` : undefined;
}

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * JSON text of `value` in which every string writes each character outside `keep` as a `\uXXXX` escape:
 * the same JSON value, spelled with characters a shell cannot touch. Values nested deeper than the call stack
 * allows are not expected here (payloads are written by people); `JSON.stringify` limits apply.
 */
export function jsonEscaping(value: unknown, keep: RegExp): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /"(?:[^"\\]|\\.)*"/g,
    (literal) => `"${[...(JSON.parse(literal) as string)].map((ch) => escapeChar(ch, keep)).join('')}"`,
  );
}

function escapeChar(ch: string, keep: RegExp): string {
  if (ch !== `"` && ch !== '\\' && keep.test(ch)) {
    return ch;
  }
  // Characters outside the BMP are two UTF-16 units, each escaped (JSON's own way to write them).
  return [...Array(ch.length).keys()].map((i) => unicodeEscape(ch[i])).join('');
}

/** JSON with only printable ASCII: survives Windows PowerShell 5.1's ASCII pipe to a native program. */
export function asciiJson(value: unknown): string {
  return jsonEscaping(value, /^[\x20-\x7e]$/);
}

/** JSON that can stand in a cmd.exe argument: every string character cmd could touch is a `\u` escape. */
export function cmdSafeJson(value: unknown): string {
  return jsonEscaping(value, /^[A-Za-z0-9 _.,:;/+=?@#*~'{}[\]$`-]$/);
}

/**
 * `json` (text with no `\` directly before a `"`, as {@link cmdSafeJson} writes it) as one argument for the
 * Microsoft C runtime parser: in double quotes, each `"` written `\"`.
 */
export function crtQuoteJson(json: string): string {
  return `"${json.replace(/"/g, '\\"')}"`;
}
