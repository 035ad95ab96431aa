// The verdict on a reference (issue 45): retired or gone is an error; deprecated or retiring a warning with
// its date and successor, an error once retirement is within warnDays; a near miss "did you mean"; registry
// text shown through the display function.
import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import { DEFAULT_WARN_DAYS, judgeReference } from '../../../src/references/core/referenceState';
import type { ModelReference } from '../../../src/references/core/types';

const NOW = Date.UTC(2026, 10, 29);
const DAY = 86_400_000;
const ref = (id: string, extra: Partial<ModelReference> = {}): ModelReference => ({
  id,
  line: 3,
  character: 7,
  length: id.length,
  listed: true,
  ...extra,
});
const entry = (id: string, raw: Record<string, unknown>): ModelEntry => ({ id, raw: { id, ...raw } });
const options = { now: NOW, warnDays: DEFAULT_WARN_DAYS };

describe('references: judgeReference', () => {
  it('the default window is 90 days', () => assert.equal(DEFAULT_WARN_DAYS, 90));

  it('a current model: no diagnostic', () => {
    const v = judgeReference(ref('aurora-2'), entry('aurora-2', {}), options);
    assert.deepEqual(v, { state: 'current', severity: 'none', message: 'Model aurora-2 is current.' });
    const ga = judgeReference(ref('aurora-2'), entry('aurora-2', { lifecycle_status: 'generally-available' }), options);
    assert.equal(ga.state, 'current');
  });

  it('a preview model: no diagnostic', () => {
    const v = judgeReference(ref('m-1'), entry('m-1', { lifecycle_status: 'preview' }), options);
    assert.deepEqual(v, { state: 'preview', severity: 'none', message: 'Model m-1 is in preview.' });
  });

  it('retired (a past date, or a retired status): an error naming the date and the successor', () => {
    const at = Date.UTC(2026, 0, 31);
    const v = judgeReference(ref('m-1'), entry('m-1', { retirement_date: '2026-01-31', replacement: 'm-2' }), options);
    assert.deepEqual(v, {
      state: 'retired',
      severity: 'error',
      message: 'Model m-1 retired on 2026-01-31. Use m-2.',
      successor: 'm-2',
      date: at,
    });
    const status = judgeReference(ref('m-1'), entry('m-1', { lifecycle_status: 'retired' }), options);
    assert.deepEqual(status, { state: 'retired', severity: 'error', message: 'Model m-1 is retired.' });
  });

  it('retiring: a warning with the date, the days left and the successor; an error once within warnDays', () => {
    const far = judgeReference(
      ref('m-1'),
      entry('m-1', { retirement_date: '2027-06-30', replacement: 'm-2' }),
      options,
    );
    assert.deepEqual(far, {
      state: 'retiring',
      severity: 'warning',
      message: 'Model m-1 retires on 2027-06-30 (in 213 days). Use m-2.',
      successor: 'm-2',
      date: Date.UTC(2027, 5, 30),
    });
    const at = (days: number) => ({ retires_at: (NOW + days * DAY) / 1000 });
    assert.equal(judgeReference(ref('m-1'), entry('m-1', at(91)), options).severity, 'warning');
    assert.equal(judgeReference(ref('m-1'), entry('m-1', at(90)), options).severity, 'error');
    assert.equal(judgeReference(ref('m-1'), entry('m-1', at(1)), options).severity, 'error');
    assert.equal(judgeReference(ref('m-1'), entry('m-1', at(30)), { ...options, warnDays: 29 }).severity, 'warning');
    assert.equal(judgeReference(ref('m-1'), entry('m-1', at(30)), { ...options, warnDays: 30 }).severity, 'error');
    const soon = judgeReference(ref('m-1'), entry('m-1', at(10)), options);
    assert.equal(
      soon.message,
      `Model m-1 retires on ${new Date(NOW + 10 * DAY).toISOString().slice(0, 10)} (in 10 days).`,
    );
    assert.equal(soon.successor, undefined);
    assert.equal('successor' in soon, false);
  });

  it('deprecated: a warning, with the deprecation date (since, or from a date ahead) and the successor', () => {
    const since = judgeReference(
      ref('m-1'),
      entry('m-1', { lifecycle_status: 'deprecated', deprecation_date: '2026-01-31', replacement: 'm-2' }),
      options,
    );
    assert.deepEqual(since, {
      state: 'deprecated',
      severity: 'warning',
      message: 'Model m-1 is deprecated since 2026-01-31. Use m-2.',
      successor: 'm-2',
      date: Date.UTC(2026, 0, 31),
    });
    const ahead = judgeReference(ref('m-1'), entry('m-1', { deprecation_date: '2027-01-31' }), options);
    assert.equal(ahead.message, 'Model m-1 is deprecated from 2027-01-31.');
    assert.equal(ahead.severity, 'warning');
    const today = judgeReference(ref('m-1'), entry('m-1', { deprecation_date: NOW }), options);
    assert.equal(today.message, `Model m-1 is deprecated since 2026-11-29.`);
    const plain = judgeReference(ref('m-1'), entry('m-1', { deprecated: true }), options);
    assert.deepEqual(plain, { state: 'deprecated', severity: 'warning', message: 'Model m-1 is deprecated.' });
  });

  it('gone: an id a saved list named and the registry no longer lists is an error', () => {
    const v = judgeReference(ref('old-1'), undefined, { ...options, goneIds: new Set(['old-1']) });
    assert.deepEqual(v, { state: 'gone', severity: 'error', message: 'Model old-1 is no longer in the registry.' });
  });

  it('unknown: information "did you mean" for a near miss; nothing for an id with no neighbour', () => {
    const near = judgeReference(ref('aurora-3', { listed: false, nearest: 'aurora-2' }), undefined, options);
    assert.deepEqual(near, {
      state: 'unknown',
      severity: 'information',
      message: 'Model aurora-3 is not in the registry. Did you mean aurora-2?',
    });
    const none = judgeReference(ref('aurora-3'), undefined, { ...options, goneIds: new Set(['x']) });
    assert.equal(none.severity, 'none');
    assert.equal(none.state, 'unknown');
    // A listed reference with a near id but no entry is not a near miss.
    assert.equal(judgeReference(ref('a-1', { nearest: 'a-2' }), undefined, options).severity, 'none');
  });

  it('registry text is data: a successor or id that would be a link, an icon or a second line is neutralised', () => {
    const hostile = '[click](command:workbench.action.openSettings)\n$(alert)';
    const v = judgeReference(ref('m-1'), entry('m-1', { deprecated: true, replacement: hostile }), options);
    assert.equal(v.successor, hostile, 'the successor itself stays literal, for an edit');
    assert.ok(!v.message.includes(']('), v.message);
    assert.ok(!v.message.includes('\n'), v.message);
    assert.ok(!v.message.includes('$('), v.message);
    const long = `m-${'x'.repeat(300)}-{{secret}}`;
    const shown = judgeReference(ref(long, { listed: false, nearest: long.slice(1) }), undefined, options).message;
    assert.ok(shown.includes('{{secret}}'), 'the end of a long id is kept');
    assert.ok(shown.length < 250, shown);
  });
});
