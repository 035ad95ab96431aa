import * as assert from 'node:assert/strict';
import { normalizeModel } from '../../../src/api/models';
import type { ModelEntry } from '../../../src/api/types';
import { lifecycleWarning, modelsById, selectPayload } from '../../../src/cli/changedSince';
import { compareLists } from '../../../src/domain/registry/changes';

const m = (raw: Record<string, unknown>): ModelEntry => normalizeModel(raw) as ModelEntry;
const NOW = Date.UTC(2026, 10, 28);

describe('cli/changedSince: which payloads run, and the lifecycle warning', () => {
  const before = [m({ id: 'a', family: 'f', version: '1' }), m({ id: 'b', version: '1' }), m({ id: 'c' })];
  const after = [
    m({ id: 'c' }),
    m({ id: 'a', family: 'f', version: '2' }),
    m({ id: 'd', version: '1' }),
    m({ id: 'b', model_version: '1' }),
  ];
  const changes = compareLists(before, after);

  it('runs a payload with a changed model, naming the change; skips one whose models are all as they were', () => {
    assert.deepEqual(selectPayload({ models: ['a'] }, changes, NOW), { run: true, reason: 'a: version 1 → 2' });
    assert.deepEqual(selectPayload({ models: ['d', 'b'] }, changes, NOW), { run: true, reason: 'd: new' });
    assert.deepEqual(selectPayload({ models: ['b', 'c'] }, changes, NOW), { run: false, reason: 'b, c unchanged' });
    assert.deepEqual(selectPayload({ models: ['c'] }, changes, NOW), { run: false, reason: 'c unchanged' });
    assert.deepEqual(selectPayload({ unknown: 'it names no model' }, changes, NOW), {
      run: true,
      reason: 'it names no model: run to be safe',
    });
    const gone = compareLists(before, after.slice(1));
    assert.deepEqual(selectPayload({ models: ['c', 'a'] }, gone, NOW), {
      run: true,
      reason: 'c: gone; a: version 1 → 2',
    });
  });

  it('warns for a deprecated, retiring or retired model with the date and successor; not for others', () => {
    const listed = modelsById([
      m({ id: 'dep', deprecated: true }),
      m({ id: 'since', deprecation_date: '2026-03-01', replacement: 'new\u001b[31m' }),
      m({ id: 'retiring', lifecycle_status: 'deprecated', retirement_date: '2027-01-31', successor: 'next' }),
      m({ id: 'retired', sunset: '2026-01-31' }),
      m({ id: 'ga', lifecycle_status: 'generally-available' }),
      m({ id: 'plain' }),
    ]);
    assert.deepEqual(lifecycleWarning('dep', listed, NOW), { message: 'dep is deprecated', property: 'deprecated' });
    assert.deepEqual(lifecycleWarning('since', listed, NOW), {
      message: 'since is deprecated since 2026-03-01; its successor is new\ufffd[31m',
      property: 'deprecated since 2026-03-01; successor new\ufffd[31m',
    });
    assert.deepEqual(lifecycleWarning('retiring', listed, NOW), {
      message: 'retiring is deprecated and retires 2027-01-31; its successor is next',
      property: 'deprecated and retires 2027-01-31; successor next',
    });
    assert.deepEqual(lifecycleWarning('retired', listed, NOW), {
      message: 'retired is retired 2026-01-31',
      property: 'retired 2026-01-31',
    });
    assert.equal(lifecycleWarning('ga', listed, NOW), undefined);
    assert.equal(lifecycleWarning('plain', listed, NOW), undefined);
    assert.equal(lifecycleWarning('unlisted', listed, NOW), undefined);
  });
});
