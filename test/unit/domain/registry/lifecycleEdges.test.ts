// The edges of the lifecycle reader the model-reference diagnostics rest on (issue 45): every date form at
// its boundaries, the successor and status words as registries really write them, field by field, and the
// comparison of lifecycle fields at depth. Each case is one a registry sends or one the reader must refuse.
import * as assert from 'node:assert/strict';
import {
  isGoingAway,
  isLifecycleField,
  lifecycleKey,
  lifecycleLabel,
  lifecycleSentence,
  lifecycleStage,
  mayHaveLifecycle,
  readDate,
  readLifecycle,
  sameLifecycleFields,
} from '../../../../src/domain/registry/lifecycle';

const NOW = Date.UTC(2026, 10, 27);
/** A reading without its absent fields, to compare as a whole. */
const read = (raw: unknown) => {
  const l = readLifecycle(raw);
  return l && Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined));
};
const JAN31 = Date.UTC(2027, 0, 31);

describe('readDate: boundaries and refusals', () => {
  it('epoch numbers: 0 and below are no date; below 10^11 seconds, from it milliseconds', () => {
    assert.equal(readDate(0), undefined);
    assert.equal(readDate(1), 1000);
    assert.equal(readDate(1e11 - 1), (1e11 - 1) * 1000);
    assert.equal(readDate(1e11), 1e11);
    assert.equal(readDate(Infinity), undefined);
  });

  it('digits in a string: 9 to 13, with a fraction; white space around is ignored', () => {
    assert.equal(readDate(' 1801353600 '), JAN31);
    assert.equal(readDate('1801353600.5'), JAN31 + 500);
    assert.equal(readDate('1801353600.25'), JAN31 + 250);
    assert.equal(readDate('1801353600000'), JAN31);
    assert.equal(readDate('1801353600.'), undefined);
    assert.equal(readDate('x1801353600'), undefined);
  });

  it('compact dates are exactly eight digits', () => {
    assert.equal(readDate('20270131'), JAN31);
    assert.equal(readDate(' 20270131 '), JAN31);
    assert.equal(readDate('x20270131'), undefined);
    assert.equal(readDate('20270131x'), undefined);
  });

  it('ISO forms: a space or a T before the time, a month alone, an offset, fractions of a second', () => {
    assert.equal(readDate('2027-01-31T00:00:00Z'), JAN31);
    assert.equal(readDate('2027-01-31 06:00:00+06:00'), JAN31);
    assert.equal(readDate('  2027-01-31  '), JAN31);
    assert.equal(readDate('2027-01-31T00:00:00.123456789Z'), JAN31 + 123);
    assert.equal(readDate('2027-01'), Date.UTC(2027, 0, 1));
    assert.equal(readDate('2027-01T00:00Z'), Date.UTC(2027, 0, 1));
  });

  it('refuses text that only starts or ends like a date', () => {
    assert.equal(readDate('x2027-01-31'), undefined);
    assert.equal(readDate('2027-01-31x'), undefined);
    assert.equal(readDate('2027-1-31'), undefined);
    assert.equal(readDate('27-01-31'), undefined);
    assert.equal(readDate('2027-13-45'), undefined);
    assert.equal(readDate(''), undefined);
    assert.equal(readDate(true), undefined);
    assert.equal(readDate(null), undefined);
    assert.equal(readDate(undefined), undefined);
  });

  it('an object holding the date under date, at or value, in that order', () => {
    assert.equal(readDate({ date: '2027-01-31' }), JAN31);
    assert.equal(readDate({ at: '2027-01-31' }), JAN31);
    assert.equal(readDate({ value: 1801353600 }), JAN31);
    assert.equal(readDate({ date: 'soon', at: '2027-01-31', value: 1 }), JAN31);
    assert.equal(readDate({ at: 'soon', value: '2027-01-31' }), JAN31);
    assert.equal(readDate({ when: '2027-01-31' }), undefined);
    assert.equal(readDate([JAN31]), undefined);
  });
});

describe('readLifecycle: field by field', () => {
  it('a successor is trimmed; an empty one is no successor and the next key is read', () => {
    assert.equal(readLifecycle({ deprecated: true, replacement: '  atlas-4 ' })?.successor, 'atlas-4');
    assert.equal(readLifecycle({ deprecated: true, replacement: '   ' })?.successor, undefined);
    assert.equal(readLifecycle({ deprecated: true, replacement: '', successor: 'atlas-5' })?.successor, 'atlas-5');
    assert.equal(readLifecycle({ deprecated: true, replacement: {}, successor: 'atlas-5' })?.successor, 'atlas-5');
    assert.equal(readLifecycle({ deprecated: true, replacement: null, successor: 'atlas-5' })?.successor, 'atlas-5');
    assert.equal(readLifecycle({ deprecated: true, replacement: 7 })?.successor, undefined);
    assert.equal(readLifecycle({ deprecated: true, replacement: { model: { name: ' m-2 ' } } })?.successor, 'm-2');
  });

  it('a status word is lower-cased, its spaces and underscores one dash; a blank one is none', () => {
    assert.equal(readLifecycle({ lifecycle_status: ' Generally__Available ' })?.status, 'generally-available');
    assert.equal(readLifecycle({ lifecycle_status: 'Public  Preview' })?.status, 'public-preview');
    assert.equal(readLifecycle({ lifecycle_status: '   ', retirement_date: '2027-01-31' })?.status, undefined);
    assert.equal(readLifecycle({ lifecycle_status: '   ' }), undefined);
    assert.equal(readLifecycle({ lifecycle: { state: 'Deprecated' } })?.status, 'deprecated');
    assert.equal(readLifecycle({ lifecycle: { stage: 'beta' } })?.status, 'beta');
    assert.equal(readLifecycle({ lifecycle_status: 3, lifecycleStatus: 'retired' })?.status, 'retired');
  });

  it('deprecated: true, "true", " YES " say so; other words, false and null do not', () => {
    assert.equal(readLifecycle({ deprecated: ' YES ' })?.deprecated, true);
    assert.equal(readLifecycle({ deprecated: 'True' })?.deprecated, true);
    assert.equal(readLifecycle({ deprecated: 'untrue' }), undefined);
    assert.equal(readLifecycle({ deprecated: 'yesterday' }), undefined);
    assert.equal(readLifecycle({ deprecated: 'no' }), undefined);
    assert.equal(readLifecycle({ deprecated: null }), undefined);
    assert.equal(readLifecycle({ deprecated: 0 }), undefined);
    assert.deepEqual(read({ deprecated: 1801353600 }), { deprecated: true, deprecatedAt: JAN31 });
  });

  it('deprecation as a date, as an object with date and replacement, or Azure inference/fine_tune', () => {
    assert.deepEqual(read({ deprecation: '2027-01-31' }), { deprecated: true, deprecatedAt: JAN31 });
    assert.deepEqual(read({ deprecation: { date: '2027-01-31', replacement: 'm-2' } }), {
      deprecated: true,
      deprecatedAt: JAN31,
      successor: 'm-2',
    });
    assert.deepEqual(read({ deprecation: { retirement_date: '2027-01-31' } }), {
      deprecated: false,
      retiresAt: JAN31,
    });
    assert.deepEqual(read({ deprecation: { deprecation_date: '2027-01-31' } }), {
      deprecated: true,
      deprecatedAt: JAN31,
    });
    assert.equal(readLifecycle({ deprecation: null }), undefined);
    assert.equal(readLifecycle({ deprecation: 'later' }), undefined);
    // The deprecation object's successor comes first, then the entry's own, then the lifecycle object's.
    assert.equal(
      readLifecycle({ replacement: 'a', deprecation: { replacement: 'b' }, lifecycle: { replacement: 'c' } })
        ?.successor,
      'b',
    );
    assert.equal(readLifecycle({ replacement: 'a', lifecycle: { replacement: 'c' } })?.successor, 'a');
    assert.equal(readLifecycle({ deprecated: true, lifecycle: { replacement: 'c' } })?.successor, 'c');
  });

  it('a retired or deprecated status word makes it deprecated; a preview or unknown word does not', () => {
    assert.equal(readLifecycle({ lifecycle_status: 'retired' })?.deprecated, true);
    assert.equal(readLifecycle({ lifecycle_status: 'legacy' })?.deprecated, true);
    assert.equal(readLifecycle({ lifecycle_status: 'preview' })?.deprecated, false);
    assert.equal(readLifecycle({ lifecycle_status: 'frozen' })?.deprecated, false);
  });

  it('only its own kind of input: strings, arrays and null say nothing', () => {
    assert.equal(readLifecycle(null), undefined);
    assert.equal(readLifecycle(['deprecated']), undefined);
    assert.equal(readLifecycle({ model_info: {} }), undefined);
    assert.deepEqual(read({ model_info: { deprecated: true } }), { deprecated: true });
  });
});

describe('isLifecycleField and mayHaveLifecycle', () => {
  it('the fields a lifecycle is read from, not model_info (which holds everything)', () => {
    for (const f of ['retirement_date', 'replacement', 'deprecation', 'deprecated', 'lifecycle', 'sunset', 'eol']) {
      assert.equal(isLifecycleField(f), true, f);
    }
    for (const f of ['model_info', 'id', 'family', 'version', 'created']) {
      assert.equal(isLifecycleField(f), false, f);
    }
  });

  it('an entry with any such field may have one; one without, or no object, has none', () => {
    assert.equal(mayHaveLifecycle({ id: 'a', sunset: 1 }), true);
    assert.equal(mayHaveLifecycle({ id: 'a', model_info: {} }), true);
    assert.equal(mayHaveLifecycle({ id: 'a', version: '1' }), false);
    assert.equal(mayHaveLifecycle({}), false);
    assert.equal(mayHaveLifecycle('deprecated'), false);
    assert.equal(mayHaveLifecycle(null), false);
    assert.equal(mayHaveLifecycle(['deprecated']), false);
  });
});

describe('lifecycleStage, isGoingAway and the words at their edges', () => {
  it('retires exactly now: retired; a millisecond later: retiring', () => {
    assert.equal(lifecycleStage({ deprecated: false, retiresAt: NOW }, NOW), 'retired');
    assert.equal(lifecycleStage({ deprecated: false, retiresAt: NOW + 1 }, NOW), 'retiring');
    assert.equal(lifecycleStage({ deprecated: true, status: 'sunset' }, NOW), 'retired');
    assert.equal(lifecycleStage({ deprecated: false, status: 'ga' }, NOW), 'active');
    assert.equal(lifecycleStage({ deprecated: false, status: 'beta' }, NOW), 'preview');
    assert.equal(lifecycleStage({ deprecated: false }, NOW), undefined);
    assert.equal(lifecycleStage(undefined, NOW), undefined);
  });

  it('going away: deprecated, retiring and retired; not preview, active or unknown', () => {
    assert.equal(isGoingAway({ deprecated: true }, NOW), true);
    assert.equal(isGoingAway({ deprecated: false, retiresAt: NOW + 1 }, NOW), true);
    assert.equal(isGoingAway({ deprecated: false, retiresAt: NOW }, NOW), true);
    assert.equal(isGoingAway({ deprecated: false, status: 'preview' }, NOW), false);
    assert.equal(isGoingAway({ deprecated: false, status: 'active' }, NOW), false);
    assert.equal(isGoingAway(undefined, NOW), false);
  });

  it('labels: retired with and without a date, deprecated from a date ahead, since today, an unknown word', () => {
    assert.equal(lifecycleLabel({ deprecated: true, status: 'retired' }, NOW), 'retired');
    assert.equal(lifecycleLabel({ deprecated: true, deprecatedAt: NOW }, NOW), 'deprecated since 2026-11-27');
    assert.equal(lifecycleLabel({ deprecated: true, deprecatedAt: NOW + 1 }, NOW), 'deprecated from 2026-11-27');
    assert.equal(lifecycleLabel({ deprecated: true, deprecatedAt: JAN31 }, NOW), 'deprecated from 2027-01-31');
    assert.equal(lifecycleLabel({ deprecated: false, status: 'frozen' }, NOW), 'frozen');
    assert.equal(lifecycleLabel({ deprecated: false }, NOW), '');
    assert.equal(lifecycleLabel(undefined, NOW), '');
    assert.equal(lifecycleLabel({ deprecated: false, status: 'x'.repeat(60) }, NOW).length, 40);
  });

  it('sentences: the label, a status word that adds something, the successor, joined by " · "', () => {
    assert.equal(lifecycleSentence(undefined, NOW), '');
    assert.equal(lifecycleSentence({ deprecated: false, status: 'active' }, NOW), '');
    assert.equal(
      lifecycleSentence({ deprecated: true, status: 'legacy', retiresAt: JAN31, successor: 'm-2' }, NOW),
      'retires 2027-01-31 · status “legacy” · replaced by m-2',
    );
    assert.equal(lifecycleSentence({ deprecated: true, status: 'deprecated' }, NOW), 'deprecated');
    assert.equal(lifecycleSentence({ deprecated: false, status: 'frozen' }, NOW), 'frozen');
    assert.equal(lifecycleSentence({ deprecated: false, successor: 'm-2' }, NOW), 'replaced by m-2');
    assert.equal(lifecycleSentence({ deprecated: false, status: 'ga', successor: 'm-2' }, NOW), 'replaced by m-2');
  });

  it('keys: every field counts, an absent one differs from an empty one only where it can', () => {
    assert.equal(lifecycleKey(undefined), '');
    const full = { status: 's', deprecated: true, deprecatedAt: 1, retiresAt: 2, successor: 'x' };
    assert.equal(lifecycleKey(full), 's\u00001\u00001\u00002\u0000x');
    assert.equal(lifecycleKey({ deprecated: false }), '\u00000\u0000\u0000\u0000');
    for (const [k, v] of Object.entries({
      status: 't',
      deprecated: false,
      deprecatedAt: 3,
      retiresAt: 4,
      successor: 'y',
    })) {
      assert.notEqual(lifecycleKey({ ...full, [k]: v }), lifecycleKey(full), k);
    }
  });
});

describe('sameLifecycleFields at depth', () => {
  /** A value nested `levels` objects deep. */
  const nested = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { x: nested(levels - 1, leaf) });

  it('nested objects and arrays compare by value', () => {
    const a = { lifecycle: { status: 'x', windows: [{ from: 1 }, { from: 2 }] } };
    assert.equal(sameLifecycleFields(a, structuredClone(a)), true);
    assert.equal(sameLifecycleFields(a, { lifecycle: { status: 'x', windows: [{ from: 1 }, { from: 3 }] } }), false);
    assert.equal(sameLifecycleFields(a, { lifecycle: { status: 'x', windows: [{ from: 1 }] } }), false);
    assert.equal(
      sameLifecycleFields(a, { lifecycle: { status: 'x', windows: { 0: { from: 1 }, 1: { from: 2 } } } }),
      false,
    );
    assert.equal(sameLifecycleFields({ sunset: { 0: 1 } }, { sunset: [1] }), false);
    assert.equal(sameLifecycleFields({ sunset: [1, 2] }, { sunset: [2, 1] }), false);
    assert.equal(sameLifecycleFields({ sunset: [1, 2] }, { sunset: [1, 3] }), false);
    assert.equal(sameLifecycleFields({ lifecycle: { a: 1 } }, { lifecycle: { a: 1, b: 2 } }), false);
    assert.equal(sameLifecycleFields({ lifecycle: { a: 1, b: 2 } }, { lifecycle: { a: 1 } }), false);
    assert.equal(sameLifecycleFields({ lifecycle: { a: 1 } }, { lifecycle: { b: 1 } }), false);
    assert.equal(sameLifecycleFields({ lifecycle: null }, { lifecycle: {} }), false);
    assert.equal(sameLifecycleFields({ lifecycle: {} }, { lifecycle: null }), false);
    assert.equal(sameLifecycleFields({ lifecycle: 1 }, { lifecycle: '1' }), false);
  });

  it('past nine levels values count as different (a bounded walk), up to it as equal', () => {
    const array = (levels: number): unknown => (levels === 0 ? 1 : [array(levels - 1)]);
    assert.equal(sameLifecycleFields({ lifecycle: nested(9, 1) }, { lifecycle: nested(9, 1) }), true);
    assert.equal(sameLifecycleFields({ lifecycle: nested(10, 1) }, { lifecycle: nested(10, 1) }), false);
    assert.equal(sameLifecycleFields({ sunset: array(9) }, { sunset: array(9) }), true);
    assert.equal(sameLifecycleFields({ sunset: array(10) }, { sunset: array(10) }), false);
  });

  it('non-objects: equal when neither has a lifecycle, whatever they are', () => {
    assert.equal(sameLifecycleFields(null, undefined), true);
    assert.equal(sameLifecycleFields('a', 'b'), true);
    assert.equal(sameLifecycleFields('a', { id: 'x' }), true);
    assert.equal(sameLifecycleFields({ sunset: 1 }, 'a'), false);
    assert.equal(sameLifecycleFields(null, { sunset: 1 }), false);
    const same = { sunset: 1 };
    assert.equal(sameLifecycleFields(same, same), true);
  });
});
