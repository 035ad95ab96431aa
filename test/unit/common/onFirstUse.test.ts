import * as assert from 'node:assert/strict';
import { onFirstUse } from '../../../src/common/onFirstUse';

describe('common/onFirstUse', () => {
  it('loads nothing until asked, then once, and hands every caller the same value', () => {
    let loads = 0;
    const feature = onFirstUse(() => ({ n: ++loads }));
    assert.equal(feature.loaded, undefined);
    assert.equal(loads, 0);
    const first = feature();
    assert.equal(feature(), first);
    assert.equal(feature.loaded, first);
    assert.equal(loads, 1);
  });

  it('tries again after a load that failed, and keeps a value that is undefined', () => {
    let calls = 0;
    const flaky = onFirstUse(() => {
      if (++calls === 1) {
        throw new Error('not yet');
      }
      return 'ready';
    });
    assert.throws(() => flaky(), /not yet/);
    assert.equal(flaky(), 'ready');
    let nothing = 0;
    const empty = onFirstUse(() => void nothing++);
    empty();
    empty();
    assert.equal(nothing, 1);
  });
});
