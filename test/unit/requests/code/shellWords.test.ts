// Splitting a pasted command line as bash or PowerShell would: what each quote and escape reads as, where
// words and the command end, and which shell a paste looks like.
import * as assert from 'node:assert/strict';
import { guessShell, shellWords } from '../../../../src/requests/code/core/shellWords';

const bash = (text: string) => shellWords(text, 'posix');
const ps = (text: string) => shellWords(text, 'powershell');

describe('requests: shell words', () => {
  it("bash's $'…' reads ANSI-C escapes: letters, hex, \\u and \\U code points; an unknown escape stays as written", () => {
    assert.deepEqual(bash("$'a\\nb\\tc\\\\d\\'e\\\"f'").words, ['a\nb\tc\\d\'e"f']);
    assert.deepEqual(bash("$'\\x41\\x4g\\u00e9\\u263Ax\\U0001F600\\U00110000z'").words, ['A\x04gé☺x😀z']);
    assert.deepEqual(bash("$'\\a\\b\\e\\f\\v\\r'").words, ['\x07\b\x1b\f\v\r']);
    assert.deepEqual(bash("$'\\q' $'\\xZ'").words, ['\\q', '\\xZ']);
    // Hex digits count only right after the escape letter.
    assert.deepEqual(bash("$'\\xg1' $'\\ug1' $'\\Ug1'").words, ['\\xg1', '\\ug1', '\\Ug1']);
    assert.deepEqual(bash("$'\\U0010FFFF'").words, [String.fromCodePoint(0x10ffff)]);
    // A $ not followed by a quote is a plain character (the command keeps the variable as written).
    assert.deepEqual(bash('echo $HOME/x "$USER"').words, ['echo', '$HOME/x', '$USER']);
    assert.deepEqual(bash("$'open").words, ['open']);
    assert.equal(bash("$'open").unterminated, true);
    assert.deepEqual(bash("$'trailing\\").words, ['trailing\\']);
  });

  it('bash\'s double quotes unescape only $ ` " \\ and a newline; single quotes are literal', () => {
    assert.deepEqual(bash('"a\\$b\\`c\\"d\\\\e\\\nf\\ng"').words, ['a$b`c"d\\ef\\ng']);
    assert.deepEqual(bash("'a\\nb\"c'").words, ['a\\nb"c']);
    assert.deepEqual(bash('x"y z"\'w\'').words, ['xy zw']);
    assert.deepEqual(bash('"open \\"').words, ['open "']);
    assert.equal(bash('"open \\"').unterminated, true);
    assert.deepEqual(bash("'open").words, ['open']);
    assert.equal(bash("'open").unterminated, true);
    assert.deepEqual(bash('"" a').words, ['', 'a'], 'an empty quoted word is a word');
  });

  it('a backslash continues the line before a newline (LF or CRLF), else takes the next character', () => {
    assert.deepEqual(bash('curl \\\n  -X POST \\\r\n  url').words, ['curl', '-X', 'POST', 'url']);
    assert.deepEqual(bash('a\\ b \\#c d\\').words, ['a b', '#c', 'd']);
    assert.deepEqual(bash('\\\\').words, ['\\']);
    assert.deepEqual(bash('say \\!\nnext').words, ['say', '!', 'next']);
  });

  it('a comment starts only at a word; a pipe, ;, &, < or > ends the command', () => {
    assert.deepEqual(bash('a#b # comment\nc').words, ['a#b', 'c']);
    assert.deepEqual(bash('# only a comment').words, []);
    for (const stop of ['|', ';', '&', '<', '>']) {
      assert.deepEqual(bash(`curl url${stop} rm -rf x`).words, ['curl', 'url'], stop);
    }
    assert.deepEqual(bash('a "|;&" b').words, ['a', '|;&', 'b']);
  });

  it('PowerShell: backtick continuations and escapes, doubled quotes, typographic quotes', () => {
    assert.deepEqual(ps('curl.exe `\n  -X POST `\r\n  url').words, ['curl.exe', '-X', 'POST', 'url']);
    assert.deepEqual(ps('"a`nb`tc`0`"d``e`q"').words, ['a\nb\tc\0"d`eq']);
    assert.deepEqual(ps('\'it\'\'s\' "say ""hi"""').words, ["it's", 'say "hi"']);
    assert.deepEqual(ps('\u2018single\u2019 \u201cdouble\u201d').words, ['single', 'double']);
    assert.deepEqual(ps("'a`nb'").words, ['a`nb'], 'single quotes are literal');
    assert.deepEqual(ps('a`"b').words, ['a"b']);
    assert.deepEqual(ps('"open`').words, ['open`']);
    assert.equal(ps('"open`').unterminated, true);
    assert.equal(ps("'open").unterminated, true);
  });

  it('guesses PowerShell from a backtick continuation, curl.exe at the start, or $env:', () => {
    assert.equal(guessShell('curl `\r\n -X POST'), 'powershell');
    assert.equal(guessShell('curl `\n -X POST'), 'powershell');
    assert.equal(guessShell('  curl.exe -X POST'), 'powershell');
    assert.equal(guessShell('curl -H "Authorization: Bearer $env:KEY"'), 'powershell');
    assert.equal(guessShell('curl -X POST url'), 'posix');
    assert.equal(guessShell('echo curl.exe'), 'posix');
    assert.equal(guessShell('mycurl.exe -X POST'), 'posix');
    assert.deepEqual(shellWords("curl.exe -d 'it''s'").words, ['curl.exe', '-d', "it's"]);
    assert.deepEqual(shellWords("curl -d 'it''s'").words, ['curl', '-d', 'its']);
  });
});
