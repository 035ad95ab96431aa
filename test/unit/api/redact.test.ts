import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { REDACTED, redact, redactor, Redactor } from '../../../src/api/redact';

describe('api/redact', () => {
  it('removes a key verbatim, URL-encoded and JSON-escaped, leaving the rest', () => {
    const key = 'sk-a/b"c+d';
    const text = `k=${key} u=${encodeURIComponent(key)} j=${JSON.stringify(key)}`;
    const out = redact(text, key);
    assert.ok(!out.includes(key) && !out.includes(encodeURIComponent(key)) && !out.includes('a/b\\"c'));
    assert.ok(out.startsWith('k=[redacted] u=[redacted]'));
    assert.equal(redact('nothing', undefined), 'nothing');
  });

  it('removes a key echoed with JSON escapes in any of its characters, hex in either case', () => {
    const key = 'sk-ab/cd';
    for (const echoed of [
      'sk-ab\\/cd',
      '\\u0073k-ab/cd',
      '\\u0073\\u006B\\u002d\\u0061\\u0062\\u002F\\u0063\\u0064',
      'sk-ab\\u002fcd',
    ]) {
      assert.equal(redact(`{"error":"bad key ${echoed}"}`, key), `{"error":"bad key ${REDACTED}"}`, echoed);
    }
    assert.equal(redact('a \\"q\\" in \\\\ text', 'q"'), `a \\"${REDACTED} in \\\\ text`);
    assert.equal(redact('x k\\\\ y', 'k\\'), `x ${REDACTED} y`);
  });

  it('treats regex characters in a key as themselves', () => {
    const key = 'a.b*c';
    assert.equal(redact('aXbbbc a\\u002eb*c', key), `aXbbbc ${REDACTED}`);
    assert.equal(redact('a-b a\\u002db', 'a-b'), `${REDACTED} ${REDACTED}`);
  });

  it('removes every given secret, ignores empty ones, and keeps text without any unchanged', () => {
    const clean = redactor(['one', undefined, '', 'two']);
    assert.equal(clean('one and two and three'), `${REDACTED} and ${REDACTED} and three`);
    assert.equal(clean('o\\u006ee'), REDACTED);
    assert.equal(redactor([])('a \\u0073 b'), 'a \\u0073 b');
    assert.equal(redactor(['', undefined])('a \\u0073 b'), 'a \\u0073 b');
  });

  it('removes a key with a lone surrogate verbatim (it cannot be URL-encoded)', () => {
    const key = 'sk-\uD800x';
    assert.equal(redact(`key ${key} end`, key), `key ${REDACTED} end`);
  });

  it('removes escaped forms of keys of any length, in time linear in the text', () => {
    const key = 'k'.repeat(511) + '/';
    assert.equal(redact(`[${'k'.repeat(511)}\\/]`, key), `[${REDACTED}]`);
    const long = 'k'.repeat(512) + '/';
    assert.equal(redact(`[${long}] [${encodeURIComponent(long)}]`, long), `[${REDACTED}] [${REDACTED}]`);
    assert.equal(redact(`[${'k'.repeat(512)}\\/]`, long), `[${REDACTED}]`);
    const huge = `sk-${'x'.repeat(20_000)}/end`;
    const echoed = JSON.stringify({ error: `bad key ${huge}` }).replace(/\//g, '\\/');
    assert.equal(redact(echoed, huge), `{"error":"bad key ${REDACTED}"}`);
    // The worst case for a naive matcher: a text of near-misses of a long key. Linear: well under a second.
    const worst = `${'k'.repeat(511)}\\u006b`.repeat(400);
    const started = performance.now();
    redact(worst, long);
    assert.ok(performance.now() - started < 1000, 'linear time');
  });

  it('decodes escapes as JSON does: an escaped backslash is not the start of another escape', () => {
    assert.equal(redact('a\\\\u0073k b', 'sk'), 'a\\\\u0073k b');
    assert.equal(redact('\\u0073k\\u0073k', 'sksk'), REDACTED);
    assert.equal(redact('x\\q sk\\/ y', 'sk/'), `x\\q ${REDACTED} y`);
  });
});

describe('redaction', () => {
  it('removes registered secrets in plain, URL-encoded and JSON-escaped forms', () => {
    const r = new Redactor();
    const key = 'sk-canary/12+34"5';
    r.add(key);
    const text = `key ${key} url ?k=${encodeURIComponent(key)} json ${JSON.stringify(key)}`;
    const out = r.redact(text);
    assert.ok(!out.includes(key));
    assert.ok(!out.includes(encodeURIComponent(key)));
    assert.ok(!out.includes(JSON.stringify(key).slice(1, -1)));
  });

  it('removes bearer tokens and key-like parameters it was not told about', () => {
    const r = new Redactor();
    assert.equal(r.redact('Authorization: Bearer abc.def-123'), 'Authorization: Bearer [redacted]');
    assert.equal(r.redact('GET /x?api_key=abc123&y=1'), 'GET /x?api_key=[redacted]&y=1');
    assert.equal(r.redact('{"api_key": "zzz"}'), '{"api_key": "[redacted]"}');
  });
});

describe('Redactor', () => {
  it('removes every escaped echo of a key in a text, not only the first', () => {
    const echoed = '{"a":"sk-ab\\/cd","b":"sk-ab\\/cd"}';
    assert.equal(redact(echoed, 'sk-ab/cd'), `{"a":"${REDACTED}","b":"${REDACTED}"}`);
  });

  it('takes secrets of six characters or more: shorter ones would shred ordinary text', () => {
    const r = new Redactor();
    r.add('abc');
    r.add('');
    r.add(undefined);
    assert.equal(r.removeSecrets('abc and more'), 'abc and more');
    r.add('sk-6ch');
    assert.equal(r.removeSecrets('use sk-6ch here'), `use ${REDACTED} here`);
  });

  it('removeSecrets takes out the registered keys only, and works handed on as a function', () => {
    const r = new Redactor();
    r.add('sk-canary-123');
    const removeSecrets = r.removeSecrets;
    assert.equal(
      removeSecrets('token budget: key=value, Bearer of news, sk-canary-123'),
      `token budget: key=value, Bearer of news, ${REDACTED}`,
    );
  });

  it('catches credentials it was not told about, however they are spaced or spelled', () => {
    const { redact: scrub } = new Redactor();
    assert.equal(scrub('Authorization: Bearer   abc.def'), `Authorization: Bearer ${REDACTED}`);
    assert.equal(scrub('retry with token=abc123 later'), `retry with token=${REDACTED} later`);
    assert.equal(
      scrub('GET /x?accesstoken=abc&access_token=def'),
      `GET /x?accesstoken=${REDACTED}&access_token=${REDACTED}`,
    );
    assert.equal(scrub('{"access_token":"abc"}'), `{"access_token":"${REDACTED}"}`);
    assert.equal(scrub('{"token" :   "abc"}'), `{"token" :   "${REDACTED}"}`);
    assert.equal(scrub('{"secret":"abc"}'), `{"secret":"${REDACTED}"}`);
  });
});

describe('Redactor: credential-looking text in logs and messages, and mixed escapes', () => {
  const scrub = new Redactor().redact;

  it('scrubs authorization values, key=value pairs and JSON credential fields however they are spaced', () => {
    const cases: [string, string][] = [
      ['Authorization: Bearer  abc.123', 'Authorization: Bearer [redacted]'],
      ['failed with key=abc123 at start', 'failed with key=[redacted] at start'],
      ['GET /v1?accesstoken=abc123&x=1', 'GET /v1?accesstoken=[redacted]&x=1'],
      ['GET /v1?access_token=abc123', 'GET /v1?access_token=[redacted]'],
      ['GET /v1?access-token=abc123', 'GET /v1?access-token=[redacted]'],
      ['{"access_token": "abc123"}', '{"access_token": "[redacted]"}'],
      ['{"token" : "abc123"}', '{"token" : "[redacted]"}'],
      ['{"password":"abc123"}', '{"password":"[redacted]"}'],
      ['{"accesstoken":"abc123"}', '{"accesstoken":"[redacted]"}'],
      ['{"secret":  "abc123"}', '{"secret":  "[redacted]"}'],
      ['the key points: apikey', 'the key points: apikey'],
    ];
    for (const [text, shown] of cases) {
      assert.equal(scrub(text), shown, text);
    }
  });

  it('removes a key echoed with a quote or a backslash escaped beside other escaped characters', () => {
    const quoted = 'ab"cd-key-1';
    assert.equal(redact('echo: \\u0061b\\"cd-key-1.', quoted), `echo: ${REDACTED}.`);
    const slashed = 'ab\\cd-key-2';
    assert.equal(redact('echo: \\u0061b\\\\cd-key-2.', slashed), `echo: ${REDACTED}.`);
  });

  it('a long key is removed verbatim and escaped, and no other text is touched', () => {
    const long = `sk-${'x'.repeat(600)}`;
    assert.equal(redact(`undefined \\ ${long}`, long), `undefined \\ ${REDACTED}`);
    assert.equal(redact(`undefined \\ \\u0073k-${'x'.repeat(600)}`, long), `undefined \\ ${REDACTED}`);
  });

  it('no echo of a key survives in an answer full of other escapes, however its characters are escaped', () => {
    // JSON's decoding, as a reader of the answer would apply it (a backslash that starts no escape stays).
    const decode = (t: string) =>
      t.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_m, e: string) =>
        e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : JSON.parse(`"\\${e}"`),
      );
    // Upper case, digits and signs: a key cannot be spelled with the mark's own letters.
    const keyChar = fc.constantFrom(...'ABCKXYZ0129-_./"\\'.split(''));
    const escapeOf = (c: string) => fc.constantFrom(c, `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const ordinary = fc.constantFrom('text ', '\\n', '\\"', '\\t', '\\\\', '\\q', 'A', '\\u0041', ' ');
    fc.assert(
      fc.property(
        fc.array(keyChar, { minLength: 6, maxLength: 14 }).map((cs) => cs.join('')),
        fc.array(fc.constantFrom(0, 1, 2), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (key, kinds, seed) => {
          const pieces = kinds.map((kind, n) =>
            kind === 0
              ? fc.sample(ordinary, { numRuns: 3, seed: seed + n }).join('')
              : kind === 1
                ? key
                : [...key].map((c, i) => fc.sample(escapeOf(c), { numRuns: 1, seed: seed + n * 31 + i })[0]).join(''),
          );
          const out = redact(pieces.join(''), key);
          assert.ok(!decode(out).includes(key), `${JSON.stringify(pieces.join(''))} → ${JSON.stringify(out)}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('redact: escaped echoes a simple search would miss', () => {
  it('finds an escaped echo whose last backslash read as `\\/` until the key after it was removed', () => {
    // A key ending in a backslash, then the same key (starting with a slash) verbatim: at first the backslash
    // and the slash read as the escape `\/`; once the verbatim key is gone, the backslash ends an escaped echo.
    const key = '/AAAAA\\';
    const text = `/A\\u0041\\u0041\\u0041\\u0041\\${key}${key}text`;
    assert.equal(redact(text, key), `${REDACTED}${REDACTED}${REDACTED}text`);
  });

  it('finds a key whose beginning repeats inside it, right after a near miss', () => {
    // "sk-sk-sk/x" holds "sk-sk/x" from its fourth character: after "sk-sk" the search must not start over.
    assert.equal(redact('sk-sk\\/x and sk-sk-sk\\/x', 'sk-sk/x'), `${REDACTED} and sk-${REDACTED}`);
    assert.equal(redact('aabaab\\u0061ab\\/', 'aabaab/'), `aab${REDACTED}`);
    assert.equal(redact('\\u0061aaab\\/', 'aab/'), `\\u0061a${REDACTED}`);
  });

  it('leaves text that only comes close to a key as it is', () => {
    // "aababc" holds "aab" and "abc" but not "aabc".
    assert.equal(redact('aab\\u0061bc', 'aabc'), 'aab\\u0061bc');
  });

  it('finds a key right after a backslash that starts no escape (a Windows path)', () => {
    assert.equal(redact('C:\\sk-ab\\/cd\\x', 'sk-ab/cd'), `C:\\${REDACTED}\\x`);
  });

  it('marks two echoes back to back as two', () => {
    assert.equal(redact('\\u0073k/\\u0073k/', 'sk/'), `${REDACTED}${REDACTED}`);
  });

  it('property: no key is left in a JSON string however its characters are escaped, and other text is untouched', () => {
    // Keys over a small alphabet repeat their own beginnings often, the hard case for the matcher.
    const alphabet = ['a', 'b', 'c', '/'];
    /** One character as a JSON string may hold it: verbatim or escaped. */
    const written = (c: string, how: number) =>
      how === 0 ? c : how === 1 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c === '/' ? '\\/' : c;
    // A key starting with `/` would be found verbatim in an echo's `\/` and leave its backslash before the
    // mark: removed all the same, but the text is then no JSON string to read back.
    const keyArb = fc
      .tuple(fc.constantFrom('a', 'b', 'c'), fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 5 }))
      .map(([first, rest]) => first + rest.join(''));
    fc.assert(
      fc.property(
        keyArb,
        // The text: pieces of the key (so near misses are frequent) and other characters, each written
        // verbatim or escaped.
        fc.array(fc.oneof(fc.tuple(fc.nat(6), fc.nat(6)), fc.constantFrom(...alphabet, ' ', 'x')), { maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 60, maxLength: 60 }),
        (key, pieces, hows) => {
          const plain = pieces.map((p) => (typeof p === 'string' ? p : key.slice(p[0], p[0] + p[1]))).join('');
          const text = [...plain].map((c, i) => written(c, hows[i % hows.length])).join('');
          const out = redact(text, key);
          const decoded = (s: string) => JSON.parse(`"${s}"`) as string;
          assert.ok(!decoded(out).split(REDACTED).join(' ').includes(key), JSON.stringify({ key, text, out }));
          if (!decoded(text).includes(key)) {
            assert.equal(out, text);
          } else {
            assert.ok(out.includes(REDACTED));
          }
        },
      ),
      { seed: 6, numRuns: 2000 },
    );
  });

  it('an answer that echoes the key with escapes stays JSON once the key is removed', () => {
    // A key that starts with or holds a slash, echoed as JSON may write it: `\/`.
    for (const key of ['/sk-abc123', 'sk-ab/cd-99', 'sk-end/']) {
      const echoed = JSON.stringify({ error: `bad key ${key}.` }).replaceAll('/', '\\/');
      const out = redact(echoed, key);
      assert.deepEqual(JSON.parse(out), { error: `bad key ${REDACTED}.` }, out);
    }
    const keyChar = fc.constantFrom(...'ABCKXYZ0129-_./'.split(''));
    fc.assert(
      fc.property(
        fc.array(keyChar, { minLength: 6, maxLength: 14 }).map((cs) => cs.join('')),
        fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
        (key, escapeAt) => {
          // The key's characters as a JSON writer may give them: as they are, `\/`, or `\u00XX`.
          const written = [...key]
            .map((c, i) =>
              !escapeAt[i] ? c : c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
            )
            .join('');
          const out = redact(`{"message":"key ${written} refused\\n","key":"${written}"}`, key);
          const parsed = JSON.parse(out) as { message: string; key: string };
          assert.deepEqual(parsed, { message: `key ${REDACTED} refused\n`, key: REDACTED }, out);
        },
      ),
      { numRuns: 300 },
    );
  });
});
