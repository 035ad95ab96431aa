import * as assert from 'node:assert/strict';
import {
  isGoingAway,
  lifecycleKey,
  lifecycleLabel,
  lifecycleSentence,
  lifecycleStage,
  readDate,
  readLifecycle,
  sameLifecycleFields,
} from '../../../../src/domain/registry/lifecycle';

const NOW = Date.UTC(2026, 10, 27);
const JAN31 = Date.UTC(2027, 0, 31);
const JAN31_S = JAN31 / 1000;

describe('readLifecycle: every documented shape', () => {
  const cases: [string, unknown, Partial<ReturnType<typeof readLifecycle> & object>][] = [
    [
      'Azure lifecycle_status',
      { lifecycle_status: 'generally-available' },
      { status: 'generally-available', deprecated: false },
    ],
    [
      'Azure deprecation.inference / fine_tune (epoch seconds)',
      { lifecycle_status: 'deprecating', deprecation: { inference: JAN31_S, fine_tune: Date.UTC(2026, 5, 1) / 1000 } },
      { status: 'deprecating', deprecated: true, retiresAt: JAN31, deprecatedAt: Date.UTC(2026, 5, 1) },
    ],
    ['deprecated: true', { deprecated: true }, { deprecated: true }],
    ['deprecated: "true"', { deprecated: 'true' }, { deprecated: true }],
    ['deprecated as a date', { deprecated: '2026-03-01' }, { deprecated: true, deprecatedAt: Date.UTC(2026, 2, 1) }],
    [
      'deprecation_date',
      { deprecation_date: '2026-03-01T00:00:00Z' },
      { deprecated: true, deprecatedAt: Date.UTC(2026, 2, 1) },
    ],
    ['retirement_date', { retirement_date: '2027-01-31' }, { retiresAt: JAN31 }],
    ['retires_at epoch seconds', { retires_at: JAN31_S }, { retiresAt: JAN31 }],
    ['retires_at epoch milliseconds', { retires_at: JAN31 }, { retiresAt: JAN31 }],
    ['retires_at digits in a string', { retires_at: String(JAN31_S) }, { retiresAt: JAN31 }],
    ['sunset', { sunset: '2027-01-31 00:00:00+00:00' }, { retiresAt: JAN31 }],
    ['sunset_at', { sunset_at: '2027-01-31T01:00:00+01:00' }, { retiresAt: JAN31 }],
    ['end_of_life compact date', { end_of_life: '20270131' }, { retiresAt: JAN31 }],
    ['replacement', { deprecated: true, replacement: 'atlas-4' }, { successor: 'atlas-4' }],
    ['replacement_model object', { deprecated: true, replacement_model: { id: 'atlas-4' } }, { successor: 'atlas-4' }],
    ['successor', { deprecated: true, successor: 'atlas-4' }, { successor: 'atlas-4' }],
    ['superseded_by', { superseded_by: { name: 'atlas-4' } }, { successor: 'atlas-4' }],
    [
      'a lifecycle object',
      { lifecycle: { status: 'Deprecated', retirement_date: '2027-01-31', replacement: 'atlas-4' } },
      { status: 'deprecated', deprecated: true, retiresAt: JAN31, successor: 'atlas-4' },
    ],
    ['LiteLLM model_info', { model_info: { deprecation_date: '2026-03-01' } }, { deprecatedAt: Date.UTC(2026, 2, 1) }],
  ];
  for (const [name, raw, expected] of cases) {
    it(name, () => {
      const l = readLifecycle(raw);
      assert.ok(l, 'read');
      for (const [k, v] of Object.entries(expected)) {
        assert.deepEqual((l as unknown as Record<string, unknown>)[k], v, k);
      }
    });
  }

  it('says nothing for an entry without lifecycle, or with values that are not dates', () => {
    assert.equal(readLifecycle({ id: 'a', version: '1' }), undefined);
    assert.equal(readLifecycle({ deprecated: false }), undefined);
    assert.equal(readLifecycle({ retirement_date: 'soon' }), undefined);
    assert.equal(readLifecycle('not an object'), undefined);
  });

  it('reads dates in any ISO form or epoch seconds', () => {
    assert.equal(readDate('2027-01-31'), JAN31);
    assert.equal(readDate('2027-01'), Date.UTC(2027, 0, 1));
    assert.equal(readDate(JAN31_S), JAN31);
    assert.equal(readDate('January 31'), undefined);
    assert.equal(readDate(-1), undefined);
    assert.equal(readDate(Number.NaN), undefined);
  });
});

describe('lifecycle stage and words', () => {
  it('a retirement date in the past says retired, in the future retiring', () => {
    const past = readLifecycle({ retirement_date: '2026-01-31' });
    const future = readLifecycle({ retirement_date: '2027-01-31' });
    assert.equal(lifecycleStage(past, NOW), 'retired');
    assert.equal(lifecycleLabel(past, NOW), 'retired 2026-01-31');
    assert.equal(lifecycleStage(future, NOW), 'retiring');
    assert.equal(lifecycleLabel(future, NOW), 'retires 2027-01-31');
    assert.ok(isGoingAway(future, NOW));
  });

  it('deprecated, preview and active', () => {
    assert.equal(lifecycleLabel(readLifecycle({ deprecated: true }), NOW), 'deprecated');
    assert.equal(lifecycleLabel(readLifecycle({ deprecation_date: '2026-03-01' }), NOW), 'deprecated since 2026-03-01');
    assert.equal(lifecycleLabel(readLifecycle({ lifecycle_status: 'preview' }), NOW), 'preview');
    assert.equal(lifecycleLabel(readLifecycle({ lifecycle_status: 'generally-available' }), NOW), '');
    assert.ok(!isGoingAway(readLifecycle({ lifecycle_status: 'generally-available' }), NOW));
  });

  it('shows an unknown status as text, through the display function', () => {
    const l = readLifecycle({ lifecycle_status: 'Frozen [x](command:evil) $(alert)' });
    assert.equal(lifecycleStage(l, NOW), undefined);
    const label = lifecycleLabel(l, NOW);
    assert.doesNotMatch(label, /\]\(|\$\(/);
    assert.match(lifecycleSentence(l, NOW), /frozen/);
  });

  it('the same lifecycle under another spelling has the same key', () => {
    const a = readLifecycle({ lifecycle_status: 'deprecated', retirement_date: '2027-01-31', replacement: 'b' });
    const b = readLifecycle({ lifecycle: { status: 'DEPRECATED' }, sunset_at: JAN31_S, successor: { id: 'b' } });
    assert.equal(lifecycleKey(a), lifecycleKey(b));
    assert.notEqual(lifecycleKey(a), lifecycleKey(readLifecycle({ lifecycle_status: 'deprecated' })));
  });
});

describe('sameLifecycleFields', () => {
  it('is true only when the entries carry the same lifecycle fields with equal values', () => {
    const a = {
      id: 'x',
      version: '1',
      lifecycle_status: 'deprecated',
      deprecation: { inference: 1801353600, replacement: 'y' },
    };
    assert.equal(sameLifecycleFields(a, JSON.parse(JSON.stringify(a))), true);
    assert.equal(
      sameLifecycleFields(a, { ...a, version: '2', description: 'other' }),
      true,
      'other fields do not count',
    );
    assert.equal(sameLifecycleFields({ id: 'x' }, { id: 'x', created: 1 }), true, 'no lifecycle on either side');
    assert.equal(sameLifecycleFields(a, { ...a, lifecycle_status: 'retired' }), false);
    assert.equal(sameLifecycleFields(a, { ...a, deprecation: { inference: 1801353601, replacement: 'y' } }), false);
    assert.equal(sameLifecycleFields(a, { ...a, deprecation: { inference: 1801353600 } }), false);
    assert.equal(sameLifecycleFields(a, { ...a, successor: 'y' }), false, 'a lifecycle field added');
    assert.equal(sameLifecycleFields({ ...a, successor: 'y' }, a), false, 'a lifecycle field dropped');
    assert.equal(sameLifecycleFields({ id: 'x', sunset: [1, 2] }, { id: 'x', sunset: [1, 2] }), true);
    assert.equal(sameLifecycleFields({ id: 'x', sunset: [1, 2] }, { id: 'x', sunset: [1] }), false);
    assert.equal(sameLifecycleFields('x', 'x'), true);
    assert.equal(sameLifecycleFields(null, { deprecated: true }), false);
  });

  it('different fields that read the same are not "the same fields" (the reading then decides)', () => {
    const a = { lifecycle_status: 'deprecated', retirement_date: '2027-01-31' };
    const b = { lifecycle: { status: 'Deprecated' }, sunset_at: 1801353600 };
    assert.equal(sameLifecycleFields(a, b), false);
    assert.equal(lifecycleKey(readLifecycle(a)), lifecycleKey(readLifecycle(b)));
  });
});
