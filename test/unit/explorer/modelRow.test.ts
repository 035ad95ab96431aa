import * as assert from 'node:assert/strict';
import { normalizeModel } from '../../../src/api/models';
import type { ModelEntry } from '../../../src/api/types';
import { compareLists } from '../../../src/domain/registry/changes';
import { modelRow } from '../../../src/explorer/core/modelRow';

const m = (raw: Record<string, unknown>): ModelEntry => normalizeModel(raw) as ModelEntry;
const NOW = Date.UTC(2026, 10, 27);

describe('modelRow', () => {
  it('a plain row: the version, and the family in the flat list', () => {
    const model = m({ id: 'a-1', family: 'a', version: '1' });
    assert.equal(modelRow(model, { showFamily: false, now: NOW }).description, '1');
    const flat = modelRow(model, { showFamily: true, now: NOW });
    assert.equal(flat.description, '1 · a');
    assert.equal(flat.spoken, 'a-1, version 1, family a');
  });

  it('the lifecycle first in the description (a narrow sidebar cuts the rest), capabilities last', () => {
    const model = m({
      id: 'a-1',
      family: 'a',
      version: '1',
      retirement_date: '2027-01-31',
      capabilities: { chat: true, vision: true },
      context_window: 128000,
    });
    const row = modelRow(model, { showFamily: false, now: NOW });
    assert.equal(row.description, 'retires 2027-01-31 · 1 · chat vision 128k');
    assert.equal(row.spoken, 'a-1, retires 2027-01-31, version 1, family a, chat vision 128k');
    assert.equal(row.stage, 'retiring');
  });

  it('how many places in the workspace name the model, after the lifecycle and before the version', () => {
    const model = m({ id: 'a-1', family: 'a', version: '1', retirement_date: '2027-01-31' });
    const row = modelRow(model, { showFamily: false, now: NOW, uses: 3 });
    assert.equal(row.description, 'retires 2027-01-31 · used in 3 places · 1');
    assert.equal(row.spoken, 'a-1, retires 2027-01-31, used in 3 places, version 1, family a');
    assert.equal(
      modelRow(model, { showFamily: false, now: NOW, uses: 1 }).description,
      'retires 2027-01-31 · used in 1 place · 1',
    );
    assert.equal(modelRow(model, { showFamily: false, now: NOW, uses: 0 }).description, 'retires 2027-01-31 · 1');
  });

  it('the change since last seen, said once', () => {
    const before = [m({ id: 'a-1', family: 'a', version: '1' }), m({ id: 'b', version: '1' })];
    const after = [m({ id: 'a-1', family: 'a', version: '2', deprecated: true, replacement: 'a-3' })];
    const changes = compareLists(before, after);
    const updated = modelRow(after[0], { showFamily: false, now: NOW, change: changes.byId.get('a-1') });
    assert.equal(updated.description, 'version 1 → 2, now deprecated · replaced by a-3 · 2');
    assert.equal(updated.spoken, 'a-1, version 1 → 2, now deprecated · replaced by a-3, version 2, family a');
    const gone = modelRow(before[1], { showFamily: false, now: NOW, change: changes.byId.get('b') });
    assert.equal(gone.description, 'gone · 1');
    assert.equal(gone.spoken, 'b, gone, version 1');
  });

  it('the accessible name says deprecated, the retirement date and the successor', () => {
    const retiring = m({
      id: 'aurora-1',
      family: 'aurora',
      version: '1',
      lifecycle_status: 'deprecated',
      deprecation_date: '2026-06-30',
      retirement_date: '2027-01-31',
      replacement: 'aurora-2',
    });
    const row = modelRow(retiring, { showFamily: false, now: NOW });
    assert.equal(row.description, 'retires 2027-01-31 · 1');
    assert.equal(
      row.spoken,
      'aurora-1, deprecated, retires 2027-01-31, replaced by aurora-2, version 1, family aurora',
    );
    const deprecated = modelRow(m({ id: 'b-1', version: '1', deprecated: true, successor: 'b-2' }), {
      showFamily: false,
      now: NOW,
    });
    assert.equal(deprecated.description, 'deprecated · 1');
    assert.equal(deprecated.spoken, 'b-1, deprecated, replaced by b-2, version 1');
    const retired = modelRow(m({ id: 'c-1', retirement_date: '2026-01-31' }), { showFamily: false, now: NOW });
    assert.equal(retired.spoken, 'c-1, retired 2026-01-31');
  });
});
