import * as assert from 'node:assert/strict';
import { megabytes, positive } from '../../../src/common/settingValues';

describe('common/settingValues', () => {
  it('reads a whole number of at least 1, rounding down, and falls back on anything else', () => {
    assert.equal(positive(1, 9), 1);
    assert.equal(positive(7.9, 9), 7);
    for (const bad of [0.99, 0, -3, NaN, Infinity, '5', null, undefined]) {
      assert.equal(positive(bad, 9), 9, String(bad));
    }
  });

  it('reads megabytes (fractions allowed) as whole bytes, and falls back on zero, negatives and non-numbers', () => {
    assert.equal(megabytes(1, 32), 1024 * 1024);
    assert.equal(megabytes(0.5, 32), 512 * 1024);
    assert.equal(megabytes(0.0000001, 32), 0);
    for (const bad of [0, -1, NaN, Infinity, '8', undefined]) {
      assert.equal(megabytes(bad, 32), 32 * 1024 * 1024, String(bad));
    }
  });
});
