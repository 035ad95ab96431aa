// The natural order's quick path (no collator) must agree with the plain definition over Intl.Collator, the
// orders must be total (antisymmetric, transitive, deterministic), and sortModels (bucketed by family) must
// equal sorting by compareModels.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ModelEntry } from '../../../src/api/types';
import {
  compareModels,
  compareVersions,
  familyOf,
  groupSorted,
  naturalCompare,
  sortModels,
} from '../../../src/domain/modelSorting';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const codeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The definition, written plainly: the `en` collation (numeric, base strength), then code units; for versions
 * the release part first, a pre-release tag (from the first `-` + letter) before no tag, then the tags.
 */
function reference(a: string, b: string, prerelease: boolean): number {
  if (a === b) {
    return 0;
  }
  if (!prerelease) {
    return collator.compare(a, b) || codeUnits(a, b);
  }
  const split = (v: string): [string, string | undefined] => {
    const i = v.search(/-\p{L}/u);
    return i < 0 ? [v, undefined] : [v.slice(0, i), v.slice(i + 1)];
  };
  const [ra, ta] = split(a);
  const [rb, tb] = split(b);
  const release = collator.compare(ra, rb);
  if (release !== 0) {
    return release;
  }
  if ((ta === undefined) !== (tb === undefined)) {
    return ta === undefined ? 1 : -1;
  }
  return collator.compare(ta ?? '', tb ?? '') || codeUnits(a, b);
}

const chars = fc.constantFrom(...'0012789aAbBeEzZ-._/: \u0001\tΣσςİıÄäéÉ\u0301\u200b'.split(''));
const str = fc.array(chars, { maxLength: 12 }).map((a) => a.join(''));
const near = fc.tuple(str, str, str).map(([prefix, x, y]) => [prefix + x, prefix + y] as const);

describe('natural order: quick path agrees with the definition', () => {
  it('naturalCompare and compareVersions on random strings, and on strings sharing a prefix', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(str, str), near), ([a, b]) => {
        assert.equal(
          naturalCompare(a, b),
          reference(a, b, false),
          `naturalCompare(${JSON.stringify(a)}, ${JSON.stringify(b)})`,
        );
        assert.equal(
          compareVersions(a, b),
          reference(a, b, true),
          `compareVersions(${JSON.stringify(a)}, ${JSON.stringify(b)})`,
        );
      }),
      { numRuns: 20000 },
    );
  });

  it('sortModels equals sorting by compareModels, and groupSorted splits it into one group per family', () => {
    const model = fc.record({
      id: str,
      family: fc.option(fc.constantFrom('aurora', 'Aurora', 'b2', 'b10', ' ', 'Other', 'Σ'), { nil: undefined }),
      version: fc.option(str, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(model, { maxLength: 40 }), (raw) => {
        const models: ModelEntry[] = raw.map((m) => ({ ...m, raw: m }));
        const sorted = sortModels(models);
        assert.deepEqual(sorted, [...models].sort(compareModels));
        const groups = groupSorted(sorted);
        assert.deepEqual(
          groups.flatMap((g) => g.models),
          sorted,
        );
        assert.ok(groups.every((g) => g.models.every((m) => familyOf(m) === g.family)));
        assert.equal(new Set(groups.map((g) => g.family)).size, groups.length);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('natural order: a total order', () => {
  const sign = (n: number): number => Math.sign(n);
  const orders = [
    ['naturalCompare', naturalCompare],
    ['compareVersions', compareVersions],
  ] as const;

  for (const [name, compare] of orders) {
    it(`${name} is antisymmetric, deterministic, and 0 only for equal strings`, () => {
      fc.assert(
        fc.property(fc.oneof(fc.tuple(str, str), near), ([a, b]) => {
          const ab = compare(a, b);
          assert.equal(sign(ab) + sign(compare(b, a)), 0);
          assert.equal(compare(a, b), ab);
          assert.equal(ab === 0, a === b);
        }),
        { numRuns: 5000 },
      );
    });

    it(`${name} is transitive`, () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.oneof(
              str,
              near.map(([a]) => a),
            ),
            { minLength: 3, maxLength: 12 },
          ),
          (xs) => {
            const sorted = [...xs].sort(compare);
            // Every pair of a sorted list is in order: a violation of transitivity would leave one out of order.
            for (let i = 0; i < sorted.length; i++) {
              for (let j = i + 1; j < sorted.length; j++) {
                assert.ok(
                  compare(sorted[i], sorted[j]) <= 0,
                  `${JSON.stringify(sorted[i])} before ${JSON.stringify(sorted[j])}`,
                );
              }
            }
          },
        ),
        { numRuns: 3000 },
      );
    });
  }

  it('sortModels is deterministic: any input order gives the same result', () => {
    const model = fc.record({
      id: str,
      family: fc.option(fc.constantFrom('émeraude', 'Emeraude', 'zeta', 'Other'), { nil: undefined }),
      version: fc.option(str, { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc
          .array(model, { maxLength: 30 })
          .chain((raw) =>
            fc.tuple(fc.constant(raw), fc.shuffledSubarray(raw, { minLength: raw.length, maxLength: raw.length })),
          ),
        ([raw, shuffled]) => {
          // Models equal in what is compared (shown family, id, version) keep their input order, so compare those.
          const key = (m: { id: string; family?: string; version?: string }): string =>
            JSON.stringify([familyOf(m), m.id, m.version ?? '']);
          const sortedKeys = (xs: typeof raw): string[] => sortModels(xs.map((m) => ({ ...m, raw: m }))).map(key);
          assert.deepEqual(sortedKeys(shuffled), sortedKeys(raw));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
