/**
 * Code blocks of answers coloured from the theme: a small tokenizer (strings, comments, numbers, keywords,
 * literals) that writes `<span class="tok-…">` around escaped text; the page colours each class with the
 * theme's own variables, so Light, Dark and High Contrast read well. No grammar per language: the common
 * shapes of C-like, Python, shell, JSON and SQL code are enough to read an answer; anything else stays plain.
 * Pure; no `vscode` import.
 */
import { escapeHtml } from '../../../common/html';

const KEYWORDS = new Set(
  (
    'abstract and as async await break case catch class const continue def default del do elif else enum ' +
    'except export extends finally fn for from func function go if impl import in interface is lambda let ' +
    'match mod module new not or package pass private protected pub public raise return select static struct ' +
    'super switch then this throw trait try type typeof use var void where while with yield ' +
    'SELECT FROM WHERE INSERT INTO UPDATE DELETE JOIN ON GROUP BY ORDER LIMIT VALUES CREATE TABLE AND OR NOT'
  ).split(' '),
);
const LITERALS = new Set(['true', 'false', 'null', 'None', 'True', 'False', 'undefined', 'nil', 'NULL']);

/** Languages whose `#` starts a comment (elsewhere `#` is ordinary: C's `#include`, CSS colours, Markdown). */
const HASH_COMMENTS =
  /^(py|python|sh|bash|shell|zsh|console|ruby|rb|r|yaml|yml|toml|perl|pl|powershell|ps1|ini|conf|dockerfile|make|makefile)$/i;
const DASH_COMMENTS = /^(sql|lua|haskell|hs)$/i;

/**
 * One token at a time, first match wins: comments, strings, numbers, words; anything else one character. The
 * comment forms depend on the language (`#…` and `--…` only where they start comments), so a line of 5,000
 * `#` in C is 5,000 one-character tokens read in one pass, never a scan of the rest of the line per `#`.
 */
const C_COMMENTS = /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/.source;
const HASH_COMMENT = /#[^\n]*/.source;
const DASH_COMMENT = /--[^\n]*/.source;
const NOT_COMMENTS =
  /("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b)|([A-Za-z_$][\w$]*)|([\s\S])/
    .source;

function tokenPattern(hash: boolean, dash: boolean): RegExp {
  const comments = [C_COMMENTS, ...(hash ? [HASH_COMMENT] : []), ...(dash ? [DASH_COMMENT] : [])];
  return new RegExp(`(${comments.join('|')})|${NOT_COMMENTS}`, 'g');
}

/** The four token patterns, by whether `#` and `--` start comments. */
const PATTERNS = [false, true].map((hash) => [false, true].map((dash) => tokenPattern(hash, dash)));

/**
 * `code` as HTML: every piece escaped, tokens wrapped in their class. One pass, no recursion: any answer
 * (a line of 5,000 `#` or `-` included) costs time linear in its length and a constant stack.
 */
export function highlight(code: string, language: string): string {
  const lang = language.trim().split(/\s+/)[0] ?? '';
  const pattern = PATTERNS[Number(HASH_COMMENTS.test(lang))][Number(DASH_COMMENTS.test(lang))];
  let out = '';
  for (const m of code.matchAll(pattern)) {
    const [whole, comment, string, number, word] = m;
    if (comment !== undefined) {
      out += span('comment', comment);
    } else if (string !== undefined) {
      out += span('string', string);
    } else if (number !== undefined) {
      out += span('number', number);
    } else if (word !== undefined) {
      out += LITERALS.has(word) ? span('literal', word) : KEYWORDS.has(word) ? span('keyword', word) : escapeHtml(word);
    } else {
      out += escapeHtml(whole);
    }
  }
  return out;
}

function span(kind: string, text: string): string {
  return `<span class="tok-${kind}">${escapeHtml(text)}</span>`;
}
