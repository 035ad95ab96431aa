import * as assert from 'node:assert/strict';
import { asRecord, isRecord, nonBlank } from '../../../src/common/records';

describe('common/records', () => {
  it('takes only JSON objects as records', () => {
    assert.deepEqual([{}, { a: 1 }, [], null, undefined, 'x', 1, true].map(isRecord), [
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    const o = { a: 1 };
    assert.equal(asRecord(o), o);
    assert.equal(asRecord([o]), undefined);
    assert.equal(asRecord(null), undefined);
  });

  it('keeps a string with something in it, trimmed', () => {
    assert.equal(nonBlank('  a b  '), 'a b');
    assert.equal(nonBlank(' \n\t '), undefined);
    assert.equal(nonBlank(''), undefined);
    assert.equal(nonBlank(5), undefined);
  });
});
