// The natural order's quick path (no splitting) must agree with the plain chunk-by-chunk definition, and
// sortModels (bucketed by family) with sorting by compareModels.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ModelEntry } from '../../src/api/types';
import { compareModels, compareVersions, groupByFamily, groupSorted, naturalCompare, sortModels } from '../../src/models/sorting';

/** The definition, written plainly: digit runs as numbers, text runs lower-cased, then the fallbacks. */
function reference(a: string, b: string, prerelease: boolean): number {
  if (a === b) {
    return 0;
  }
  const ca = a.match(/(\d+)|(\D+)/g) ?? [];
  const cb = b.match(/(\d+)|(\D+)/g) ?? [];
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    const x = ca[i];
    const y = cb[i];
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    let c: number;
    if (dx && dy) {
      const sx = x.replace(/^0+(?=\d)/, '');
      const sy = y.replace(/^0+(?=\d)/, '');
      c = sx.length !== sy.length ? (sx.length < sy.length ? -1 : 1) : sx < sy ? -1 : sx > sy ? 1 : 0;
    } else if (dx !== dy) {
      c = dx ? -1 : 1;
    } else {
      const lx = x.toLowerCase();
      const ly = y.toLowerCase();
      c = lx < ly ? -1 : lx > ly ? 1 : 0;
    }
    if (c !== 0) {
      return c;
    }
  }
  if (ca.length !== cb.length) {
    const aLonger = ca.length > cb.length;
    const rest = aLonger ? ca[n] : cb[n];
    const longerFirst = prerelease && /^-[a-z]/i.test(rest);
    return aLonger === longerFirst ? -1 : 1;
  }
  return a < b ? -1 : 1;
}

const chars = fc.constantFrom(...'0012789aAbBzZ-._/: ΣσςİıÄä\u200b'.split(''));
const str = fc.array(chars, { maxLength: 12 }).map((a) => a.join(''));
const near = fc.tuple(str, str, str).map(([prefix, x, y]) => [prefix + x, prefix + y] as const);

describe('natural order: quick path agrees with the definition', () => {
  it('naturalCompare and compareVersions on random strings, and on strings sharing a prefix', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(str, str), near), ([a, b]) => {
        assert.equal(naturalCompare(a, b), reference(a, b, false), `naturalCompare(${JSON.stringify(a)}, ${JSON.stringify(b)})`);
        assert.equal(compareVersions(a, b), reference(a, b, true), `compareVersions(${JSON.stringify(a)}, ${JSON.stringify(b)})`);
      }),
      { numRuns: 20000 },
    );
  });

  it('sortModels equals sorting by compareModels, and groupSorted equals groupByFamily', () => {
    const model = fc.record({ id: str, family: fc.option(fc.constantFrom('aurora', 'Aurora', 'b2', 'b10', ' ', 'Other', 'Σ'), { nil: undefined }), version: fc.option(str, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(model, { maxLength: 40 }), (raw) => {
        const models: ModelEntry[] = raw.map((m) => ({ ...m, raw: m }));
        const sorted = sortModels(models);
        assert.deepEqual(sorted, [...models].sort(compareModels));
        assert.deepEqual(groupSorted(sorted), groupByFamily(models));
      }),
      { numRuns: 3000 },
    );
  });
});
