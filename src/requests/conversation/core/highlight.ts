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

/** One token at a time, first match wins: comments, strings, numbers, words; anything else one character. */
const TOKEN =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|#[^\n]*|--[^\n]*)|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b)|([A-Za-z_$][\w$]*)|([\s\S])/g;

/** Languages whose `#` starts a comment (elsewhere `#` is ordinary: C's `#include`, CSS colours, Markdown). */
const HASH_COMMENTS =
  /^(py|python|sh|bash|shell|zsh|console|ruby|rb|r|yaml|yml|toml|perl|pl|powershell|ps1|ini|conf|dockerfile|make|makefile)$/i;
const DASH_COMMENTS = /^(sql|lua|haskell|hs)$/i;

/** `code` as HTML: every piece escaped, tokens wrapped in their class. */
export function highlight(code: string, language: string): string {
  const lang = language.trim().split(/\s+/)[0] ?? '';
  const hash = HASH_COMMENTS.test(lang);
  const dash = DASH_COMMENTS.test(lang);
  let out = '';
  for (const m of code.matchAll(TOKEN)) {
    const [whole, comment, string, number, word] = m;
    if (comment !== undefined) {
      const kind = comment[0];
      if ((kind === '#' && !hash) || (kind === '-' && !dash)) {
        // Not a comment here: the first character alone, the rest read on.
        out += escapeHtml(kind) + highlight(comment.slice(1), language);
        continue;
      }
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
