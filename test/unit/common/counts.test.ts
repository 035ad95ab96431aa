import * as assert from 'node:assert/strict';
import { characterCount, modelCount, moreCharactersNotShown } from '../../../src/common/counts';

describe('counted nouns (common/counts)', () => {
  it('modelCount() says 1 model, 2 models, 0 models', () => {
    assert.equal(modelCount(1), '1 model');
    assert.equal(modelCount(2), '2 models');
    assert.equal(modelCount(0), '0 models');
  });

  it('characterCount() and moreCharactersNotShown() say 1 in the singular, other numbers in the plural', () => {
    assert.equal(characterCount(1), '1 character');
    assert.equal(characterCount(2), '2 characters');
    assert.equal(characterCount(0), '0 characters');
    assert.equal(moreCharactersNotShown(1), '(1 more character not shown)');
    assert.equal(moreCharactersNotShown(1500), '(1500 more characters not shown)');
  });
});
