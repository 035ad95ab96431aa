import * as assert from 'node:assert/strict';
import { normalizeModel } from '../../../src/api/models';
import type { ModelEntry } from '../../../src/api/types';
import { MODEL_LIST_FORMAT, modelListDocument, readModelList, terminalSafeJson } from '../../../src/cli/modelList';
import { modelTable } from '../../../src/cli/models';
import { changeCount, compareLists } from '../../../src/domain/registry/changes';

const m = (raw: Record<string, unknown>): ModelEntry => normalizeModel(raw) as ModelEntry;
const NOW = Date.UTC(2026, 10, 28, 1, 0, 0);
const LIST = [
  m({
    id: 'atlas-3',
    family: 'atlas',
    version: '3',
    lifecycle_status: 'deprecated',
    retires_at: 1801353600,
    successor: 'atlas-4',
  }),
  // Another dialect: `model_version`, the family from `owned_by`-less metadata.
  m({ id: 'atlas-4', family: 'atlas', model_version: '4' }),
  m({ id: 'solo' }),
];

describe('cli/modelList: the saved model list', () => {
  it('writes id, family, version, lifecycle (ISO dates, the stage on the day) and the entry as sent', () => {
    const doc = modelListDocument(LIST, 'https://svc.example/api', NOW);
    assert.equal(doc.format, MODEL_LIST_FORMAT);
    assert.equal(doc.savedAt, '2026-11-28T01:00:00.000Z');
    assert.equal(doc.count, 3);
    assert.deepEqual(doc.models[0].lifecycle, {
      stage: 'retiring',
      status: 'deprecated',
      deprecated: true,
      deprecatedAt: undefined,
      retiresAt: '2027-01-31T00:00:00.000Z',
      successor: 'atlas-4',
    });
    assert.equal(doc.models[1].version, '4');
    assert.deepEqual(doc.models[1].entry, { id: 'atlas-4', family: 'atlas', model_version: '4' });
    assert.equal(doc.models[2].lifecycle, undefined);
  });

  it('reads back as the very models (no change when compared with the list it was written from)', () => {
    const text = terminalSafeJson(modelListDocument(LIST, 'https://svc.example/api', NOW));
    const back = readModelList(text);
    assert.ok(back.ok);
    assert.equal(back.service, 'https://svc.example/api');
    assert.equal(back.savedAt, NOW);
    assert.deepEqual(back.models, LIST);
    assert.equal(changeCount(compareLists(back.models, LIST)), 0);
  });

  it('the entry decides, not the readable fields: an edited version there is noticed as an edit of the entry only', () => {
    const doc = modelListDocument(LIST, 's', NOW);
    doc.models[0].version = '99';
    const back = readModelList(JSON.stringify(doc));
    assert.ok(back.ok);
    assert.equal(back.models[0].version, '3');
  });

  it('a file that is not such a list is a problem in words, never an exception', () => {
    const good = modelListDocument(LIST, 's', NOW);
    const cases: [string, RegExp][] = [
      ['', /not JSON/],
      ['{"format":', /not JSON/],
      ['[]', /not a model list written by model-access models --save/],
      [JSON.stringify({ ...good, format: 'other@2' }), /not a model list/],
      [JSON.stringify({ ...good, savedAt: 'yesterday' }), /service, savedAt or models field/],
      [JSON.stringify({ ...good, models: {} }), /service, savedAt or models field/],
      [JSON.stringify({ ...good, count: 4 }), /its count is 4 and it holds 3/],
      [JSON.stringify({ ...good, models: [good.models[0], { id: 'x' }, good.models[2]] }), /model 2 has no entry/],
      [JSON.stringify({ ...good, models: [good.models[0], { id: 'x', entry: 42 }, good.models[2]] }), /no model id/],
      [
        JSON.stringify({ ...good, models: [{ ...good.models[0], id: 'other' }, good.models[1], good.models[2]] }),
        /model 1 says id "other"/,
      ],
    ];
    for (const [text, problem] of cases) {
      const r = readModelList(text);
      assert.ok(!r.ok, text);
      assert.match(r.problem, problem, text);
    }
  });

  it('JSON for a terminal: control, bidi and zero-width characters escaped, the value unchanged', () => {
    const value = { id: 'a\u001b[2Kb\u202ec\u0085d\u2028e\u200bf' };
    const text = terminalSafeJson(value);
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u202e]/);
    assert.deepEqual(JSON.parse(text), value);
  });

  it('the table pads columns to the widest cell and shows registry text as display text', () => {
    const rows = modelTable([...LIST, m({ id: 'evil\u001b[31m', family: 'x' })], NOW);
    assert.deepEqual(rows.slice(0, 4), [
      'ID         FAMILY  VERSION  LIFECYCLE',
      'atlas-3    atlas   3        retires 2027-01-31',
      'atlas-4    atlas   4',
      'solo',
    ]);
    assert.equal(rows[4], 'evil\ufffd[31m  x');
  });
});
