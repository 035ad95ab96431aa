// The comparison over random registries: an unchanged or permuted list gives nothing, a list with repeats or
// other field spellings gives nothing, and a single edit (add, remove, version, family, lifecycle) is found
// exactly once, as the one change it is.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeModel } from '../../../../src/api/models';
import type { ModelEntry } from '../../../../src/api/types';
import { changeCount, compareLists, prepareList } from '../../../../src/domain/registry/changes';

type Raw = Record<string, unknown>;

const entry = fc.record({
  family: fc.constantFrom('atlas', 'aurora', 'lynx', ''),
  version: fc.constantFrom('1', '2', '2.5', '10', '2024-11-20'),
  deprecated: fc.boolean(),
  retires: fc.option(fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }), { nil: undefined }),
});

/** Unique ids, each with a random entry. */
const registry = fc
  .uniqueArray(
    fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() === s && s.length > 0),
    {
      maxLength: 40,
    },
  )
  .chain((ids) => fc.tuple(fc.constant(ids), fc.array(entry, { minLength: ids.length, maxLength: ids.length })))
  .map(([ids, entries]) =>
    ids.map((id, i): Raw => {
      const e = entries[i];
      const raw: Raw = { id, version: e.version };
      if (e.family) {
        raw.family = e.family;
      }
      if (e.deprecated) {
        raw.lifecycle_status = 'deprecated';
      }
      if (e.retires !== undefined) {
        raw.retirement_date = new Date(e.retires * 1000).toISOString();
      }
      return raw;
    }),
  );

function models(raws: readonly Raw[]): ModelEntry[] {
  return raws.map((r) => normalizeModel(r) as ModelEntry);
}

/** The same entry under other field names, the date as epoch seconds. */
function respelled(r: Raw): Raw {
  const out: Raw = { model_id: r.id, model_version: r.version };
  if (r.family !== undefined) {
    out.model_family = r.family;
  }
  if (r.lifecycle_status !== undefined) {
    out.lifecycle = { status: r.lifecycle_status };
  }
  if (typeof r.retirement_date === 'string') {
    out.sunset_at = Date.parse(r.retirement_date) / 1000;
  }
  return out;
}

describe('compareLists (property)', () => {
  it('finds nothing between a list and itself, a permutation of it, or it with repeats and respelled fields', () => {
    fc.assert(
      fc.property(registry, fc.infiniteStream(fc.nat()), (raws, randoms) => {
        const before = models(raws);
        assert.equal(changeCount(compareLists(before, models(raws))), 0);
        const shuffled = [...raws].sort(() => (randoms.next().value % 3) - 1);
        const repeated = [...shuffled, ...shuffled.slice(0, 3).map((r) => ({ ...r, version: 'not the first' }))];
        assert.equal(changeCount(compareLists(before, models(repeated))), 0);
        assert.equal(changeCount(compareLists(before, models(raws.map(respelled)))), 0);
        // Repeats in the earlier list too: its first occurrence is the model, on both sides.
        const earlierRepeated = models([...raws, ...raws.slice(0, 3).map((r) => ({ ...r, version: 'a repeat' }))]);
        assert.equal(changeCount(compareLists(earlierRepeated, models(repeated))), 0);
      }),
    );
  });

  it('finds a single edit exactly', () => {
    const edit = fc.constantFrom('add', 'remove', 'version', 'family', 'deprecate');
    fc.assert(
      fc.property(
        registry.filter((r) => r.length > 0),
        edit,
        fc.nat(),
        (raws, kind, at) => {
          const i = at % raws.length;
          const target = raws[i];
          let after: Raw[];
          switch (kind) {
            case 'add':
              // Added twice (a repeat): still one model added.
              after = [
                ...raws,
                { id: `${String(target.id)}\u0001new`, family: 'atlas', version: '9' },
                { id: `${String(target.id)}\u0001new`, family: 'lynx', version: '10' },
              ];
              break;
            case 'remove':
              after = raws.filter((_, j) => j !== i);
              break;
            case 'version':
              after = raws.map((r, j) => (j === i ? { ...r, version: `${String(r.version)}.1` } : r));
              break;
            case 'family':
              after = raws.map((r, j) => (j === i ? { ...r, family: `${String(r.family ?? '')}-moved` } : r));
              break;
            default:
              after = raws.map((r, j) =>
                j === i
                  ? { ...r, lifecycle_status: r.lifecycle_status ? 'retired' : 'deprecated', replacement: 'x' }
                  : r,
              );
          }
          const changes = compareLists(models(raws), models(after));
          assert.equal(changeCount(changes), 1, kind);
          const [change] = [...changes.byId.values()];
          const expected = kind === 'add' ? 'added' : kind === 'remove' ? 'gone' : 'updated';
          assert.equal(change.kind, expected);
          if (kind !== 'add') {
            assert.equal(change.id, target.id);
          }
          if (expected === 'updated') {
            assert.deepEqual(change.update, {
              version: kind === 'version',
              family: kind === 'family',
              lifecycle: kind === 'deprecate',
            });
          }
        },
      ),
    );
  });

  it('finds the same changes against a list prepared once as against the list itself, refresh after refresh', () => {
    fc.assert(
      fc.property(registry, fc.array(registry, { minLength: 1, maxLength: 4 }), (raws, laters) => {
        const before = models(raws);
        const prepared = prepareList(before);
        for (const later of laters) {
          // A later list shares some ids with the earlier one and brings its own.
          const after = models([...raws.slice(0, Math.floor(raws.length / 2)), ...later]);
          const fromPrepared = compareLists(prepared, after);
          const fromList = compareLists(before, after);
          assert.deepEqual([...fromPrepared.byId.entries()], [...fromList.byId.entries()]);
          assert.deepEqual(fromPrepared.familiesWithNewMembers, fromList.familiesWithNewMembers);
        }
      }),
    );
  });
});
