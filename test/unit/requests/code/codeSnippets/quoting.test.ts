// Shell quoting against hostile strings: what each shell (and curl.exe's argument parser) gives back is the
// string itself. bash is run for real; PowerShell and cmd.exe are not installed here, so their rules are
// modelled in this file from their documentation, independently of the code under test.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import {
  asciiJson,
  cmdQuote,
  cmdSafeJson,
  crtQuoteJson,
  posixQuote,
  powershellQuote,
} from '../../../../../src/requests/code/core/codeSnippets/quoting';
import { curlCmd, curlPowerShell } from '../../../../../src/requests/code/core/codeSnippets/curl';
import { crtArgv } from '../../../helpers/windowsArgv';

export const HOSTILE_STRINGS = [
  '',
  `it's`,
  `"double"`,
  '$HOME ${PATH} $(id) $env:USERPROFILE',
  '`backtick` `n `"',
  '%PATH% %CD% %%x 100%',
  '!PATH! !',
  '^ ^^ caret^',
  'line one\nline two\r\nthree',
  'tab\there',
  'é 中文 😀 \u200b\u202e',
  '\u2018\u2019\u201a\u201b typographic quotes',
  `'' ''' \\' \\" \\\\"`,
  '& | < > ( ) ; , =',
  '@- @file --data -d',
  '\\',
  'ends with backslash\\',
];

/** PowerShell's verbatim string: any of the four single-quote characters, doubled, stands for itself. */
function readPowershellVerbatim(text: string): { value: string; rest: string } {
  const quote = /['\u2018\u2019\u201a\u201b]/;
  assert.ok(quote.test(text[0]), 'starts with a single quote');
  let value = '';
  for (let i = 1; i < text.length; i++) {
    if (quote.test(text[i])) {
      if (i + 1 < text.length && quote.test(text[i + 1])) {
        value += text[i];
        i++;
        continue;
      }
      return { value, rest: text.slice(i + 1) };
    }
    value += text[i];
  }
  throw new Error('unterminated string');
}

/**
 * cmd.exe on one pasted line (interactive, delayed expansion off), then the Microsoft C runtime's argv
 * parsing. Returns the arguments the program sees; fails on anything cmd would act on (a variable it could
 * expand, a separator or redirection outside quotes, a caret).
 */
function cmdThenCrt(line: string, allowedVariables: string[] = []): string[] {
  const percents = [...line.matchAll(/%([^%]*)%/g)].map((m) => m[1]);
  assert.deepEqual(
    percents.filter((v) => !allowedVariables.includes(v)),
    [],
    `cmd would expand %…% in ${line}`,
  );
  let inQuotes = false;
  for (const ch of line) {
    if (ch === '"') {
      inQuotes = !inQuotes;
    } else if (!inQuotes && /[&|<>^()]/.test(ch)) {
      assert.fail(`cmd acts on ${ch} outside quotes in ${line}`);
    }
  }
  assert.ok(!line.includes('!') || !/!.*!/.test(line), 'no !…! pair');
  return crtArgv(line);
}

const jsonValue = fc.jsonValue({ maxDepth: 4 });
const fullUnicodeString = fc.string({ unit: 'binary', maxLength: 40 });

describe('requests: shell quoting for code snippets', () => {
  it('POSIX: sh gives back every hostile string exactly', () => {
    for (const s of HOSTILE_STRINGS) {
      assert.equal(execFileSync('sh', ['-c', `printf %s ${posixQuote(s)}`]).toString(), s, JSON.stringify(s));
    }
  });

  it('PowerShell: a verbatim string gives back every hostile string, typographic quotes included', () => {
    for (const s of [...HOSTILE_STRINGS, ...fc.sample(fullUnicodeString, 300)]) {
      const { value, rest } = readPowershellVerbatim(powershellQuote(s));
      assert.equal(value, s);
      assert.equal(rest, '', 'the string ends where the quoting ends');
    }
  });

  it('PowerShell: the body line holds ASCII JSON of the same value, piped to curl.exe; the key stays a variable', () => {
    fc.assert(
      fc.property(jsonValue, (body) => {
        const snippet = curlPowerShell({ serviceRoot: 'https://h.example/p', endpoint: '/v1/chat', body });
        const line = snippet.split('\n').find((l) => l.startsWith('$body = '))!;
        const { value, rest } = readPowershellVerbatim(line.slice('$body = '.length));
        assert.equal(rest, '');
        assert.match(value, /^[\x20-\x7e]*$/, 'ASCII only: Windows PowerShell pipes ASCII');
        assert.deepEqual(JSON.parse(value), JSON.parse(JSON.stringify(body)));
        assert.ok(snippet.includes('"Authorization: Bearer $env:MODEL_ACCESS_API_KEY"'));
        assert.ok(snippet.includes("--data-binary '@-'"));
      }),
    );
  });

  it('cmd.exe: curl.exe receives the same JSON value, whatever the strings hold; nothing expands or redirects', () => {
    for (const body of [{ input: HOSTILE_STRINGS }, ...fc.sample(jsonValue, 300)]) {
      const snippet = curlCmd({ serviceRoot: 'https://h.example/p', endpoint: '/v1/chat', body });
      const lines = snippet.split('\n').filter((l) => !l.startsWith('REM '));
      assert.ok(
        lines.slice(0, -1).every((l) => l.endsWith(' ^')),
        'each line but the last continues with ^',
      );
      const joined = lines.map((l) => l.replace(/ \^$/, ' ')).join('');
      const args = cmdThenCrt(joined, ['MODEL_ACCESS_API_KEY']);
      assert.equal(args[0], 'curl.exe');
      assert.deepEqual(JSON.parse(args[args.indexOf('--data-binary') + 1]), JSON.parse(JSON.stringify(body)));
      assert.equal(args[args.indexOf('-X') + 2], 'https://h.example/p/v1/chat');
      assert.ok(args.includes('Authorization: Bearer %MODEL_ACCESS_API_KEY%'));
    }
  });

  it('cmd.exe: every header value either reaches curl.exe whole or is left out with a REM line; nothing expands', () => {
    const values = [...HOSTILE_STRINGS, 'trace" https://elsewhere.example/ "x', ...fc.sample(fullUnicodeString, 300)];
    for (const value of values) {
      const snippet = curlCmd({
        serviceRoot: 'https://h.example/p',
        endpoint: '/v1/chat',
        body: {},
        headers: [{ name: 'X-Trace', value }],
      });
      const lines = snippet.split('\n').filter((l) => !l.startsWith('REM '));
      const args = cmdThenCrt(lines.map((l) => l.replace(/ \^$/, ' ')).join(''), ['MODEL_ACCESS_API_KEY']);
      const headers = args.filter((_, i) => args[i - 1] === '-H');
      const leftOut = /^REM The header X-Trace holds characters cmd\.exe would change/m.test(snippet);
      assert.deepEqual(
        headers,
        [
          'Authorization: Bearer %MODEL_ACCESS_API_KEY%',
          'Content-Type: application/json',
          ...(leftOut ? [] : [`X-Trace: ${value}`]),
        ],
        JSON.stringify(value),
      );
      assert.equal(args.filter((a) => /^https?:/.test(a)).length, 1, 'one URL');
    }
  });

  it('cmd.exe: a string is quoted only when cmd leaves it alone; a service URL that is not is read from the environment', () => {
    assert.equal(cmdQuote('https://h.example/a b'), '"https://h.example/a b"');
    for (const s of ['%CD%', 'a!b', 'x^y', 'say "hi"', 'new\nline', 'é', 'a\\b', 'a&b']) {
      assert.equal(cmdQuote(s), undefined, s);
    }
    const snippet = curlCmd({ serviceRoot: 'https://h.example/a%CD%20b', endpoint: '/v1/chat', body: {} });
    assert.ok(snippet.includes('"%MODEL_ACCESS_BASE_URL%/v1/chat"'));
    assert.ok(!snippet.includes('%CD%'));
    assert.match(snippet, /^REM .*set MODEL_ACCESS_BASE_URL/m);
  });

  it('the escaping JSON writers keep the value: cmd-safe, ASCII, and a quote-free argument form', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const expected = JSON.parse(JSON.stringify(value));
        assert.deepEqual(JSON.parse(cmdSafeJson(value)), expected);
        assert.deepEqual(JSON.parse(asciiJson(value)), expected);
        assert.ok(!/\\"/.test(cmdSafeJson(value)), 'no backslash before a quote');
        assert.deepEqual(JSON.parse(cmdThenCrt(crtQuoteJson(cmdSafeJson(value)))[0]), expected);
      }),
    );
  });
});
