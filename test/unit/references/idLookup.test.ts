// The id set and its "did you mean" index (issue 45): exact ids, every kind of single edit, never two edits,
// the same answer as a brute-force search over random ids, and a cost that does not grow with the ids.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeIdLookup, MAX_NEAREST_LENGTH, nearestCost, oneEditApart } from '../../../src/references/core/idLookup';

describe('references: oneEditApart', () => {
  const cases: [string, string, boolean][] = [
    ['aurora-2', 'aurora-3', true],
    ['aurora-2', 'aurora-22', true],
    ['aurora-22', 'aurora-2', true],
    ['aurora-2', 'aurora2', true],
    ['aurora-2', 'xaurora-2', true],
    ['aurora-2', 'auorra-2', true],
    ['ab', 'ba', true],
    ['aurora-2', 'aurora-2', false],
    ['aurora-2', 'aurora-345', false],
    ['aurora-2', 'aurxra-3', false],
    ['abc', 'bca', false],
    ['abcd', 'badc', false],
    ['abcd', 'acbe', false],
    ['abc', 'ab', true],
    ['abc', 'abdd', false],
    ['abc', 'axbd', false],
    ['', 'a', true],
    ['', '', false],
    ['ab', 'ab', false],
    ['abc', 'acb', true],
    ['abc', 'bac', true],
    ['abcd', 'abdc', true],
  ];
  for (const [a, b, expected] of cases) {
    it(`${JSON.stringify(a)} and ${JSON.stringify(b)}: ${expected}`, () => {
      assert.equal(oneEditApart(a, b), expected);
      assert.equal(oneEditApart(b, a), expected);
    });
  }
});

/** Damerau (optimal string alignment) distance: the reference the index is compared with. */
function distance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([i]);
  }
  for (let j = 0; j <= b.length; j++) {
    d[0][j] = j;
  }
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

describe('references: makeIdLookup', () => {
  // Built in each test, not when the file loads: mutation testing only sees what a test runs.
  let ids: ReturnType<typeof makeIdLookup>;
  beforeEach(() => {
    ids = makeIdLookup(['aurora-2', 'aurora-10', 'basalt-code-2', 'kestrel-reasoner-1', 'aurora-2', '', 'gpt']);
  });

  it('holds each id once, drops empty strings, and finds only exact ids', () => {
    assert.equal(ids.size, 5);
    assert.equal(ids.has('aurora-2'), true);
    assert.equal(ids.has('basalt-code-2'), true);
    assert.equal(ids.has('aurora-2 '), false);
    assert.equal(ids.has('Aurora-2'), false);
    assert.equal(ids.has(''), false);
    assert.equal(ids.has('aurora'), false);
  });

  it('names the id one substitution, insertion, deletion or swap away', () => {
    assert.equal(ids.nearest('aurora-3'), 'aurora-2');
    assert.equal(ids.nearest('aurora-2x'), 'aurora-2');
    assert.equal(ids.nearest('aurora-20'), 'aurora-10');
    assert.equal(ids.nearest('aurora-1'), 'aurora-10');
    assert.equal(ids.nearest('aurora2'), 'aurora-2');
    assert.equal(ids.nearest('auorra-2'), 'aurora-2');
    assert.equal(ids.nearest('basalt-cdoe-2'), 'basalt-code-2');
    assert.equal(ids.nearest('kestrel-reasoner-2'), 'kestrel-reasoner-1');
    assert.equal(ids.nearest('xkestrel-reasoner-1'), 'kestrel-reasoner-1');
    assert.equal(ids.nearest('kestrel-reasoner-1x'), 'kestrel-reasoner-1');
    assert.equal(ids.nearest('gpu'), 'gpt');
    assert.equal(ids.nearest('gp'), 'gpt');
  });

  it('names nothing two edits away, nothing for an id itself alone, and nothing for an empty or far longer text', () => {
    assert.equal(ids.nearest('aurora-345'), undefined);
    assert.equal(ids.nearest('basalt-code'), undefined);
    assert.equal(ids.nearest('kestrel-reasoner'), undefined);
    assert.equal(ids.nearest(''), undefined);
    assert.equal(ids.nearest('x'.repeat(200)), undefined);
    assert.equal(makeIdLookup(['solo-1']).nearest('solo-1'), undefined);
    assert.equal(makeIdLookup([]).nearest('solo-1'), undefined);
  });

  it('an id that is one edit from two ids gets the first of them in code-unit order, whatever the order of the list', () => {
    assert.equal(makeIdLookup(['model-b', 'model-a']).nearest('model-c'), 'model-a');
    assert.equal(makeIdLookup(['model-a', 'model-b']).nearest('model-c'), 'model-a');
    assert.equal(makeIdLookup(['model-1', 'model-12']).nearest('model-2'), 'model-1');
  });

  it('only strings count as ids; ids longer than 128 characters are found exactly, and the index skips them', () => {
    const mixed = makeIdLookup([
      'm-1',
      7 as unknown as string,
      null as unknown as string,
      `m-${'z'.repeat(200)}`,
      'm-2',
    ]);
    assert.equal(mixed.size, 3);
    assert.equal(mixed.has('7'), false);
    assert.equal(mixed.nearest('m-3'), 'm-1');
    assert.equal(mixed.nearest(`m-${'z'.repeat(199)}`), undefined);
    // Doubled characters: each deletion variant once, and still found.
    const doubled = makeIdLookup(['zzzz', 'aabbcc']);
    assert.equal(doubled.nearest('zzz'), 'zzzz');
    assert.equal(doubled.nearest('zzzzz'), 'zzzz');
    assert.equal(doubled.nearest('abbcc'), 'aabbcc');
    assert.equal(doubled.nearest('aabbc'), 'aabbcc');
    assert.equal(doubled.nearest('aabcc'), 'aabbcc');
  });

  it('runs of one character, regex specials, {{…}} and non-ASCII ids are found like any other', () => {
    const odd = makeIdLookup(['aaaa-1', 'a.b*c?', '{{model}}', 'modèle-2', '模型-3']);
    assert.equal(odd.nearest('aaa-1'), 'aaaa-1');
    assert.equal(odd.nearest('aaaaa-1'), 'aaaa-1');
    assert.equal(odd.nearest('a.b*c'), 'a.b*c?');
    assert.equal(odd.nearest('axb*c?'), 'a.b*c?');
    assert.equal(odd.nearest('{{model}'), '{{model}}');
    assert.equal(odd.nearest('{{modl}}'), '{{model}}');
    assert.equal(odd.nearest('modele-2'), 'modèle-2');
    assert.equal(odd.nearest('模型-4'), '模型-3');
  });

  it('long ids: exact up to any length, "did you mean" up to MAX_NEAREST_LENGTH', () => {
    const long = `m-${'x'.repeat(MAX_NEAREST_LENGTH - 3)}`;
    const tooLong = `m-${'y'.repeat(MAX_NEAREST_LENGTH)}`;
    const l = makeIdLookup([long, tooLong]);
    assert.equal(l.has(tooLong), true);
    assert.equal(l.nearest(`${long}z`), long);
    assert.equal(l.nearest(`${long.slice(0, -1)}`), long);
    assert.equal(l.nearest(`${tooLong}z`), undefined);
  });

  it('the first or last characters of a long candidate filter it, never a true neighbour (edits at both ends)', () => {
    const lengths = makeIdLookup(['abcdefgh-1', `abcdefgh-${'x'.repeat(40)}`]);
    assert.equal(lengths.nearest('abcdefgh-12'), 'abcdefgh-1');
    assert.equal(lengths.nearest('abcdefgh-'), 'abcdefgh-1');
    assert.equal(lengths.nearest('abcdefgh-2'), 'abcdefgh-1');
    assert.equal(lengths.nearest(`abcdefgh-${'x'.repeat(39)}`), `abcdefgh-${'x'.repeat(40)}`);
    assert.equal(lengths.nearest(`abcdefgh-${'x'.repeat(41)}`), `abcdefgh-${'x'.repeat(40)}`);
    assert.equal(lengths.nearest(`abcdefgh-${'x'.repeat(40)}y`), `abcdefgh-${'x'.repeat(40)}`);
    const l = makeIdLookup(['abcdefgh', 'zyxwvutsrq']);
    assert.equal(l.nearest('Xbcdefgh'), 'abcdefgh');
    assert.equal(l.nearest('abcdefgX'), 'abcdefgh');
    assert.equal(l.nearest('bacdefgh'), 'abcdefgh');
    assert.equal(l.nearest('abcdefhg'), 'abcdefgh');
    assert.equal(l.nearest('Xabcdefgh'), 'abcdefgh');
    assert.equal(l.nearest('abcdefghX'), 'abcdefgh');
    assert.equal(l.nearest('bcdefgh'), 'abcdefgh');
    assert.equal(l.nearest('abcdefg'), 'abcdefgh');
    assert.equal(l.nearest('yxwvutsrq'), 'zyxwvutsrq');
    assert.equal(l.nearest('Xbcdefgy'), undefined);
  });

  it('costs a few searches and comparisons per candidate, not one per id; the filters skip the rest', () => {
    const list = Array.from({ length: 2000 }, (_, i) => `vendor-${i % 13}/model-${i}`);
    const lookup = makeIdLookup(list);
    assert.deepEqual(nearestCost(lookup), { searches: 0, comparisons: 0 });
    const n = 'vendor-3/model-16x'.length;
    assert.equal(lookup.nearest('vendor-3/model-16x'), 'vendor-3/model-16');
    // The candidate itself once, then the id-less-a-character and both-less-a-character searches per position.
    assert.deepEqual(nearestCost(lookup)?.searches, 1 + 2 * n);
    assert.ok((nearestCost(lookup)?.comparisons ?? 0) <= 4, JSON.stringify(nearestCost(lookup)));
    // Neither an unlike first or last three characters, nor a length no id has, costs a search.
    const before = nearestCost(lookup)?.searches;
    assert.equal(lookup.nearest('xyz-nothing-like-it'), undefined);
    assert.equal(lookup.nearest('a'), undefined);
    assert.equal(lookup.nearest('v'.repeat(40)), undefined);
    // Same last characters as ids, but no id of a length one edit away.
    assert.equal(lookup.nearest('label-1234'), undefined);
    assert.equal(lookup.nearest(`x${'y'.repeat(30)}-1234`), undefined);
    assert.equal(nearestCost(lookup)?.searches, before);
    assert.equal(nearestCost({ has: () => false, nearest: () => undefined, size: 0 }), undefined);
  });

  it('gives the same answer as a brute-force search over random ids (200 generated registries)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', '1'), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 1, maxLength: 25 }),
        fc.array(word, { maxLength: 20 }),
        (list, probes) => {
          const lookup = makeIdLookup(list);
          for (const probe of [...probes, ...list.map((s) => `${s}a`), ...list.map((s) => s.slice(1))]) {
            const expected =
              probe === '' ? undefined : list.filter((id) => id !== probe && distance(id, probe) === 1).sort()[0];
            assert.equal(lookup.nearest(probe), expected, `${JSON.stringify(probe)} in ${JSON.stringify(list)}`);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('100,000 models: built in seconds, and "did you mean" costs about as much as with 100 ids', function () {
    this.timeout(60_000);
    const many = Array.from({ length: 100_000 }, (_, i) => `vendor-${i % 97}/model-${i}-v${i % 7}`);
    const started = performance.now();
    const big = makeIdLookup(many);
    const built = performance.now() - started;
    const small = makeIdLookup(many.slice(0, 100));
    assert.equal(big.size, 100_000);
    assert.ok(built < 10_000, `built in ${built} ms`);
    assert.equal(big.nearest('vendor-12/model-99999-v4'), undefined);
    assert.equal(big.nearest(`${many[54_321]}x`), many[54_321]);
    const probes = Array.from({ length: 2000 }, (_, i) => `vendor-${i % 97}/model-${i}-w${i % 7}`);
    const time = (l: typeof big) => {
      const t = performance.now();
      for (const p of probes) {
        l.nearest(p);
      }
      return performance.now() - t;
    };
    // The fastest of three runs each: a busy machine or a collection slows one run, not all three.
    const fastest = (l: typeof big) => Math.min(time(l), time(l), time(l));
    const [s, b] = [fastest(small), fastest(big)];
    // A loop over the ids would be ~1,000 times slower with 100,000 of them; a lookup is a few times at most.
    assert.ok(b < s * 20 + 50, `100 ids: ${s.toFixed(1)} ms, 100,000 ids: ${b.toFixed(1)} ms for 2,000 look-ups`);
  });
});
