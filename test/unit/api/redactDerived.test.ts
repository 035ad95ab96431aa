// Derived forms of the key a service may echo so that no search for the key finds it: base64 (standard and
// URL-safe, padded or not, at each alignment inside a longer encoded text), hex, HTML character references,
// and the key split by zero-width or NUL characters. Each is removed by the one redaction function (issue 44).
import * as assert from 'node:assert/strict';
import { REDACTED, redact, redactor, Redactor } from '../../../src/api/redact';

const KEY = 'ma-k3y/Secret+value_9Z';

/** Every base64 run in `text` decoded (standard and URL-safe alike), to see what a reader could recover. */
function decodedRuns(text: string): string {
  return (text.match(/[A-Za-z0-9+/_-]{4,}={0,2}/g) ?? [])
    .map((run) => Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'))
    .join('\n');
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const urlSafe = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_');

describe('api/redact: derived forms of the key', () => {
  it('base64, standard and URL-safe, padded or not, at each of the three alignments', () => {
    for (const before of ['', 'a', 'ab', 'user:', 'Bearer ', '{"k":"']) {
      for (const after of ['', 'x', 'xy', 'xyz', '"}']) {
        const std = b64(`${before}${KEY}${after}`);
        for (const encoded of [std, std.replace(/=+$/, ''), urlSafe(std), urlSafe(std).replace(/=+$/, '')]) {
          const out = redact(`token ${encoded} end`, KEY);
          const label = JSON.stringify({ before, after, encoded, out });
          assert.ok(out.includes(REDACTED), label);
          assert.ok(out.startsWith('token ') && out.endsWith(' end'), label);
          // What is left around the mark decodes to a few bits of the key at most, never to most of it.
          assert.ok(!decodedRuns(out).includes(KEY.slice(1, -1)), label);
        }
      }
    }
  });

  it('the whole base64 of the key (with its padding) leaves nothing of it', () => {
    for (const key of ['abcdef', 'abcdefg', 'abcdefgh']) {
      const std = b64(key);
      assert.equal(redact(`[${std}]`, key), `[${REDACTED}]`, std);
      assert.equal(redact(`[${std.replace(/=+$/, '')}]`, key), `[${REDACTED}]`, std);
      assert.equal(redact(`[${urlSafe(std)}]`, key), `[${REDACTED}]`, std);
    }
  });

  it('hex, lower and upper case', () => {
    const hex = Buffer.from(KEY).toString('hex');
    assert.equal(redact(`a ${hex} b`, KEY), `a ${REDACTED} b`);
    assert.equal(redact(`a ${hex.toUpperCase()} b`, KEY), `a ${REDACTED} b`);
    assert.equal(redact(`0x${hex}`, KEY), `0x${REDACTED}`);
  });

  it('HTML character references, decimal and hex, whole or in part, with or without the semicolon', () => {
    const dec = [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('');
    const hex = [...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('');
    const upperHex = [...KEY].map((c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`).join('');
    const padded = [...KEY].map((c) => `&#00${c.charCodeAt(0)}`).join('');
    const some = [...KEY].map((c, i) => (i % 3 === 0 ? `&#${c.charCodeAt(0)};` : c)).join('');
    for (const echoed of [dec, hex, upperHex, padded, some]) {
      assert.equal(redact(`<p>key: ${echoed}</p>`, KEY), `<p>key: ${REDACTED}</p>`, echoed);
    }
    // A key with markup characters, HTML-escaped by name.
    const markup = `k<e>y&"q'-123`;
    const escaped = markup
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;');
    assert.equal(redact(`<td>${escaped}</td>`, markup), `<td>${REDACTED}</td>`);
    // Ordinary references are left alone.
    assert.equal(redact('it&#39;s &amp; &#x2014; fine', KEY), 'it&#39;s &amp; &#x2014; fine');
  });

  it('split by a zero-width character (U+200B, U+200C, U+200D, U+FEFF, U+2060) or NUL between its characters', () => {
    for (const splitter of ['\u200B', '\u200C', '\u200D', '\uFEFF', '\u2060', '\u0000']) {
      const everywhere = [...KEY].join(splitter);
      const once = `${KEY.slice(0, 5)}${splitter}${KEY.slice(5)}`;
      const twice = `${KEY.slice(0, 3)}${splitter}${splitter}${KEY.slice(3)}`;
      for (const echoed of [everywhere, once, twice]) {
        const out = redact(`key: ${echoed}.`, KEY);
        assert.equal(out, `key: ${REDACTED}.`, JSON.stringify(echoed));
      }
    }
    // Mixed: zero-width and NUL, JSON-escaped (`\u200b`) and HTML-referenced (`&#8203;`) splitters, escaped letters.
    const mixed = `m\u200Ba\\u0000-&#8203;k3y/Secret+v\\u0061lue_9Z`;
    assert.equal(redact(`{"t":"${mixed}"}`, KEY), `{"t":"${REDACTED}"}`);
    // Text with these characters but no key is left as it is.
    const text = 'zero\u200Bwidth\u0000text &#8203; ma-k3y/Secre';
    assert.equal(redact(text, KEY), text);
  });

  it('in every secret the Redactor holds, for answers (removeSecrets) and logs (redact)', () => {
    const r = new Redactor();
    r.add(KEY);
    r.add('second-secret-value');
    const text = `${b64(`u:${KEY}`)} ${Buffer.from('second-secret-value').toString('hex')} ${[...KEY].join('\u200D')}`;
    for (const out of [r.removeSecrets(text), r.redact(text)]) {
      assert.ok(!decodedRuns(out).includes(KEY.slice(2, -2)), out);
      assert.ok(!out.includes(Buffer.from('second-secret-value').toString('hex')), out);
      assert.ok(!out.replace(/\u200D/g, '').includes(KEY), out);
    }
    // A short secret (six characters) still gets its derived forms; text that merely looks encoded stays.
    assert.equal(
      redactor(['abc123'])(`${b64('abc123')} ${Buffer.from('abc123').toString('hex')}`),
      `${REDACTED} ${REDACTED}`,
    );
    assert.equal(redactor(['abc123'])('YWJj aGVsbG8= 616263'), 'YWJj aGVsbG8= 616263');
  });

  it('stays linear: megabytes of near misses among splitters and references take well under a second', () => {
    const long = 'k'.repeat(300) + '/end';
    const worst = `${'k\u200B'.repeat(299)}&#107;x`.repeat(800);
    const started = performance.now();
    redact(worst, long);
    assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
  });
});
