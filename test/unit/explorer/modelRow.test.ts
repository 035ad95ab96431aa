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

  it('lifecycle and capabilities in the description and the accessible name', () => {
    const model = m({
      id: 'a-1',
      family: 'a',
      version: '1',
      retirement_date: '2027-01-31',
      capabilities: { chat: true, vision: true },
      context_window: 128000,
    });
    const row = modelRow(model, { showFamily: false, now: NOW });
    assert.equal(row.description, '1 · retires 2027-01-31 · chat vision 128k');
    assert.equal(row.spoken, 'a-1, version 1, family a, retires 2027-01-31, chat vision 128k');
    assert.equal(row.stage, 'retiring');
  });

  it('the change since last seen, said once', () => {
    const before = [m({ id: 'a-1', family: 'a', version: '1' }), m({ id: 'b', version: '1' })];
    const after = [m({ id: 'a-1', family: 'a', version: '2', deprecated: true, replacement: 'a-3' })];
    const changes = compareLists(before, after);
    const updated = modelRow(after[0], { showFamily: false, now: NOW, change: changes.byId.get('a-1') });
    assert.equal(updated.description, '2 · version 1 → 2, now deprecated · replaced by a-3');
    assert.match(updated.spoken, /version 1 → 2, now deprecated · replaced by a-3$/);
    const gone = modelRow(before[1], { showFamily: false, now: NOW, change: changes.byId.get('b') });
    assert.equal(gone.description, '1 · gone');
    assert.match(gone.spoken, /, gone$/);
  });
});
