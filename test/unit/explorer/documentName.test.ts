import * as assert from 'node:assert/strict';
import { modelDocumentName, modelDocumentQuery } from '../../../src/explorer/core/documentName';

describe('explorer/core/documentName', () => {
  it('names a model’s document by its id, and by its environment too when a row named one', () => {
    assert.equal(modelDocumentName('aurora-2', undefined, 'model'), 'aurora-2');
    assert.equal(modelDocumentName('aurora-2', 'Beta', 'model'), 'aurora-2 · Beta');
    assert.notEqual(modelDocumentName('aurora-2', 'Alpha', 'model'), modelDocumentName('aurora-2', 'Beta', 'model'));
    assert.equal(modelDocumentQuery('aurora-2', undefined), 'id=aurora-2');
    assert.equal(modelDocumentQuery('a/b', 'Team B'), 'id=a%2Fb&environment=Team+B');
  });

  it('keeps the name one line and one path segment, cut to length, with a fallback for nothing printable', () => {
    assert.equal(modelDocumentName('org/model\\v1', 'eu/west', 'model'), 'org∕model∕v1 · eu∕west');
    assert.equal(modelDocumentName('two\nlines', undefined, 'model'), 'two lines');
    assert.equal(modelDocumentName('\u200b', 'Beta', 'model'), 'model · Beta');
    assert.ok(modelDocumentName('x'.repeat(500), 'e'.repeat(100), 'model', 100).length < 160);
  });
});
