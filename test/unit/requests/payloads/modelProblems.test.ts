import * as assert from 'node:assert/strict';
import { normalizeModel } from '../../../../src/api/models';
import type { ModelEntry } from '../../../../src/api/types';
import { modelProblem } from '../../../../src/requests/payloads/core/modelProblems';

const m = (raw: Record<string, unknown>): ModelEntry => normalizeModel(raw) as ModelEntry;
const NOW = Date.UTC(2026, 10, 27);
const models = [
  m({ id: 'atlas-2', family: 'atlas', version: '2' }),
  m({ id: 'atlas-4', family: 'atlas', version: '4', created: 2 }),
  m({ id: 'atlas-5-preview', family: 'atlas', version: '5', lifecycle_status: 'deprecated' }),
  m({ id: 'lynx-1', family: 'lynx', version: '1', retirement_date: '2027-01-31', replacement: 'lynx-2' }),
  m({ id: 'lynx-2', family: 'lynx', version: '2' }),
  m({ id: 'old-1', family: 'old', version: '1', retirement_date: '2026-01-31' }),
];

describe('modelProblem', () => {
  it('says nothing about a listed model with no lifecycle news', () => {
    assert.equal(modelProblem('atlas-4', models, NOW), undefined);
  });

  it('an unlisted model: the closest id, then the newest of its family that is not going away', () => {
    const p = modelProblem('atlas-3', models, NOW);
    assert.equal(p?.code, 'unknownModel');
    assert.match(p?.message ?? '', /"atlas-3" is not one of your organization's models/);
    assert.deepEqual(
      p?.fixes.map((f) => [f.title, f.id]),
      [
        ['Did you mean atlas-2?', 'atlas-2'],
        ['Use atlas-4 (the newest atlas)', 'atlas-4'],
      ],
    );
  });

  it('offers nothing close for a name far from every id', () => {
    assert.deepEqual(modelProblem('completely-different-name', models, NOW)?.fixes, []);
  });

  it('a retiring model: the date and its successor as the fix', () => {
    const p = modelProblem('lynx-1', models, NOW);
    assert.equal(p?.code, 'retiringModel');
    assert.match(p?.message ?? '', /“lynx-1” is going away: retires 2027-01-31 · replaced by lynx-2\./);
    assert.deepEqual(p?.fixes, [{ title: 'Use lynx-2 (its successor)', id: 'lynx-2' }]);
  });

  it('a retirement date in the past says retired', () => {
    assert.match(modelProblem('old-1', models, NOW)?.message ?? '', /retired 2026-01-31/);
  });

  it('shows the value as text', () => {
    assert.doesNotMatch(modelProblem('[x](command:evil)', models, NOW)?.message ?? '', /\]\(/);
  });
});
