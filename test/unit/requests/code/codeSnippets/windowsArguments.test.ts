// The argument vector curl.exe receives from the PowerShell snippet, whatever a header value holds. PowerShell
// is not installed here, so each step is modelled from its documentation, independently of the code under test:
// PowerShell's parsing of the command (verbatim and expandable strings, a parenthesized concatenation, backtick
// line continuations), how it writes the native command line (Windows PowerShell 5.1 and 7.0–7.2 "Legacy";
// 7.3+ "Windows"/"Standard", which is .NET's PasteArguments for curl.exe), and the Microsoft C runtime's argv
// parsing that curl.exe does.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { curlPowerShell } from '../../../../../src/requests/code/core/codeSnippets/curl';
import type { SnippetHeader, SnippetRequest } from '../../../../../src/requests/code/core/codeSnippets/request';
import { HOSTILE_STRINGS } from './quoting.test';
import { crtArgv } from '../../../helpers/windowsArgv';

const ENV: Record<string, string> = {
  MODEL_ACCESS_API_KEY: 'sk-canary',
  MODEL_ACCESS_BASE_URL: 'https://from-env.example/p',
  MODEL_ACCESS_HEADER_X_ORG_TOKEN: 'org-secret',
};

/** PowerShell's verbatim string: any of the four single-quote characters, doubled, stands for itself. */
function verbatim(text: string, at: number): { value: string; end: number } {
  const quote = /['\u2018\u2019\u201a\u201b]/;
  let value = '';
  for (let i = at + 1; i < text.length; i++) {
    if (quote.test(text[i])) {
      if (quote.test(text[i + 1] ?? '')) {
        value += text[i];
        i++;
        continue;
      }
      return { value, end: i + 1 };
    }
    value += text[i];
  }
  throw new Error('unterminated verbatim string');
}

/** An expandable string ("…"): only `$env:NAME` is expected in a snippet; any other `$` or backtick fails. */
function expandable(text: string, at: number): { value: string; end: number } {
  const close = text.indexOf('"', at + 1);
  assert.ok(close > at, 'terminated');
  const inner = text.slice(at + 1, close);
  assert.ok(!inner.includes('`'), `no escape in ${inner}`);
  const value = inner.replace(/\$env:([A-Za-z0-9_]+)|\$/g, (_m, name: string | undefined) => {
    assert.ok(name, `only $env: variables expand (${inner})`);
    return ENV[name] ?? '';
  });
  return { value, end: close + 1 };
}

/** The arguments PowerShell gives the native command after `curl.exe` on the snippet's command lines. */
function powershellArguments(snippet: string): string[] {
  const lines = snippet.split('\n');
  const start = lines.findIndex((l) => l.startsWith('$body | curl.exe '));
  assert.ok(start >= 0, 'the command line');
  const command = lines.slice(start);
  assert.ok(
    command.slice(0, -1).every((l) => l.endsWith(' `')),
    'each line but the last continues with a backtick',
  );
  const text = command.map((l) => l.replace(/ `$/, ' ')).join('');
  const args: string[] = [];
  let i = text.indexOf('curl.exe ') + 'curl.exe '.length;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ') {
      i++;
    } else if (/['\u2018\u2019\u201a\u201b]/.test(c)) {
      const s = verbatim(text, i);
      args.push(s.value);
      i = s.end;
    } else if (c === '"') {
      const s = expandable(text, i);
      args.push(s.value);
      i = s.end;
    } else if (c === '(') {
      // ('Name: ' + $env:VARIABLE)
      const s = verbatim(text, i + 1);
      const rest = /^ \+ \$env:([A-Za-z0-9_]+)\)/.exec(text.slice(s.end));
      assert.ok(rest, `a concatenation at ${text.slice(i)}`);
      args.push(s.value + (ENV[rest[1]] ?? ''));
      i = s.end + rest[0].length;
    } else {
      const word = /^[A-Za-z0-9_.:/@-]+/.exec(text.slice(i));
      assert.ok(word, `a bare word at ${text.slice(i, i + 20)}`);
      args.push(word[0]);
      i += word[0].length;
    }
  }
  return args;
}

/**
 * Windows PowerShell 5.1 and 7.0–7.2 (Legacy): an argument holding whitespace outside balanced quotes is
 * wrapped in double quotes, nothing inside escaped; an empty argument is left out.
 */
function legacyCommandLine(args: string[]): string {
  const needQuotes = (s: string) => {
    let quotes = 0;
    let afterBackslash = false;
    for (const ch of s) {
      if (ch === '"' && !afterBackslash) {
        quotes++;
      } else if (/\s/.test(ch) && quotes % 2 === 0) {
        return true;
      }
      afterBackslash = ch === '\\';
    }
    return false;
  };
  return ['curl.exe', ...args]
    .filter((a) => a !== '')
    .map((a) => (needQuotes(a) ? `"${a}"` : a))
    .join(' ');
}

/** PowerShell 7.3+ for curl.exe (.NET PasteArguments): quotes when needed, `\"` inside, backslashes doubled before a quote. */
function standardCommandLine(args: string[]): string {
  const paste = (s: string) => {
    if (s !== '' && !/[\s"]/.test(s)) {
      return s;
    }
    let out = '"';
    for (let i = 0; i < s.length; i++) {
      let n = 0;
      while (s[i] === '\\') {
        n++;
        i++;
      }
      if (i === s.length) {
        out += '\\'.repeat(n * 2);
      } else if (s[i] === '"') {
        out += '\\'.repeat(n * 2 + 1) + '"';
      } else {
        out += '\\'.repeat(n) + s[i];
      }
    }
    return `${out}"`;
  };
  return ['curl.exe', ...args].map(paste).join(' ');
}

/** What curl.exe should receive: the service URL once, the key from the environment, each header kept whole. */
function expectedArgv(url: string, headers: string[]): string[] {
  return [
    'curl.exe',
    '-sS',
    '-X',
    'POST',
    url,
    '-H',
    `Authorization: Bearer ${ENV.MODEL_ACCESS_API_KEY}`,
    '-H',
    'Content-Type: application/json',
    ...headers.flatMap((h) => ['-H', h]),
    '--data-binary',
    '@-',
  ];
}

/** The argv of both PowerShell generations for `request`, asserted equal to what curl.exe should receive. */
function assertCurlReceives(request: SnippetRequest, url: string): void {
  const snippet = curlPowerShell(request);
  const kept = (request.headers ?? []).filter(
    (h) => !new RegExp(`^# The header ${escapeRegExp(h.name)} holds`, 'm').test(snippet),
  );
  const headers = kept.map((h) => ('variable' in h ? `${h.name}: ${ENV[h.variable]}` : `${h.name}: ${h.value}`));
  const args = powershellArguments(snippet);
  const expected = expectedArgv(url, headers);
  assert.deepEqual(crtArgv(legacyCommandLine(args)), expected, `PowerShell 5.1:\n${snippet}`);
  assert.deepEqual(crtArgv(standardCommandLine(args)), expected, `PowerShell 7.3+:\n${snippet}`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const ROOT = 'https://h.example/p';

describe('requests: the PowerShell snippet as curl.exe receives it (5.1 and 7.3+)', () => {
  it('a header value with quotes and spaces adds no argument: the issue 27 example is left out with a comment', () => {
    const value = 'trace" https://elsewhere.example/ "x';
    const request: SnippetRequest = {
      serviceRoot: ROOT,
      endpoint: '/v1/chat',
      body: { model: 'm' },
      headers: [
        { name: 'X-Trace', value },
        { name: 'X-Plain', value: 'a b c' },
      ],
    };
    const snippet = curlPowerShell(request);
    assert.match(
      snippet,
      /^# The header X-Trace holds characters PowerShell would not pass to curl\.exe unchanged: it is left out; add it by hand\.$/m,
    );
    assert.ok(!snippet.includes('elsewhere.example'), 'the value is not written');
    assertCurlReceives(request, `${ROOT}/v1/chat`);
    assert.ok(!crtArgv(legacyCommandLine(powershellArguments(snippet))).includes('https://elsewhere.example/'));
  });

  it('every hostile header value either arrives whole or is left out with a comment, in both generations', () => {
    const values = [
      ...HOSTILE_STRINGS,
      'trace" https://elsewhere.example/ "x',
      'a b\\',
      'a\\" b',
      '\\\\server\\share x',
      'ＡＢ＂ x',
      "O'Brien \u2019quoted\u2019",
    ];
    for (const value of values) {
      assertCurlReceives(
        { serviceRoot: ROOT, endpoint: '/v1/chat', body: {}, headers: [{ name: 'X-Trace', value }] },
        `${ROOT}/v1/chat`,
      );
    }
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary-ascii', maxLength: 30 }), { maxLength: 3 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (asciiValues, anyValue) => {
          const headers: SnippetHeader[] = [
            ...asciiValues.map((value, i) => ({ name: `X-H${i}`, value })),
            { name: 'X-Any', value: anyValue },
            { name: 'X-Org-Token', variable: 'MODEL_ACCESS_HEADER_X_ORG_TOKEN' },
          ];
          assertCurlReceives(
            { serviceRoot: ROOT, endpoint: '/v1/responses', body: {}, headers },
            `${ROOT}/v1/responses`,
          );
        },
      ),
      { seed: 27, numRuns: 500 },
    );
  });

  it('a service URL PowerShell 5.1 would split is read from $env:MODEL_ACCESS_BASE_URL instead, with a comment', () => {
    // Not a URL the extension accepts (it would be percent-encoded), but the snippet must not depend on that.
    const request: SnippetRequest = { serviceRoot: 'https://h.example/a" b', endpoint: '/v1/chat', body: {} };
    const snippet = curlPowerShell(request);
    assert.match(
      snippet,
      /^# This service URL holds characters PowerShell would not pass to curl\.exe unchanged: set \$env:MODEL_ACCESS_BASE_URL to it first\.$/m,
    );
    assertCurlReceives(request, `${ENV.MODEL_ACCESS_BASE_URL}/v1/chat`);
  });

  it('a plain request reaches curl.exe as written, with the URL literal', () => {
    const request: SnippetRequest = {
      serviceRoot: ROOT,
      endpoint: '/v1/embeddings',
      body: { input: 'x' },
      headers: [{ name: 'X-Team', value: 'blue team' }],
    };
    assert.ok(
      !curlPowerShell(request)
        .split('\n')
        .some((l) => /^# (The header|This service URL)/.test(l)),
    );
    assertCurlReceives(request, `${ROOT}/v1/embeddings`);
  });
});
