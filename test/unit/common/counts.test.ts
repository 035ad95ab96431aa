import * as assert from 'node:assert/strict';
import { modelCount } from '../../../src/common/counts';

describe('counted nouns (common/counts)', () => {
  it('modelCount() says 1 model, 2 models, 0 models', () => {
    assert.equal(modelCount(1), '1 model');
    assert.equal(modelCount(2), '2 models');
    assert.equal(modelCount(0), '0 models');
  });
});
