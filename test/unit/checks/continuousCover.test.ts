import * as assert from 'node:assert/strict';
import { coveredParts, covers, type CoverItem } from '../../../src/checks/core/continuousCover';

describe('checks/continuousCover: what a continuous run re-runs of a payload whose model changed', () => {
  const folder: CoverItem = { id: 'folder:/w/a' };
  const other: CoverItem = { id: 'folder:/w/b' };
  const payload: CoverItem = { id: 'file:///w/a/p.jsonc', parent: folder };
  const row1: CoverItem = { id: 'file:///w/a/p.jsonc#row:1', parent: payload };
  const row2: CoverItem = { id: 'file:///w/a/p.jsonc#row:2', parent: payload };
  const rows = [row1, row2];

  it('all tests, its folder or the payload itself: the whole payload', () => {
    assert.deepEqual(coveredParts({}, payload, rows), [payload]);
    assert.deepEqual(coveredParts({ include: [folder] }, payload, rows), [payload]);
    assert.deepEqual(coveredParts({ include: [other, payload] }, payload, rows), [payload]);
  });

  it('another folder: nothing; excluded (itself or its folder): nothing', () => {
    assert.deepEqual(coveredParts({ include: [other] }, payload, rows), []);
    assert.deepEqual(coveredParts({ exclude: [payload] }, payload, rows), []);
    assert.deepEqual(coveredParts({ include: [folder], exclude: [folder] }, payload, rows), []);
  });

  it('single rows named: only those rows, less the excluded ones', () => {
    assert.deepEqual(coveredParts({ include: [row2] }, payload, rows), [row2]);
    assert.deepEqual(coveredParts({ include: [row1, row2], exclude: [row1] }, payload, rows), [row2]);
    assert.equal(covers({ include: [payload], exclude: [row1] }, row2), true);
    assert.equal(covers({ include: [payload], exclude: [row1] }, row1), false);
  });
});
