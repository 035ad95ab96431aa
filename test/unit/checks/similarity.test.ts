// Cosine similarity and the score as shown.
import * as assert from 'node:assert/strict';
import { cosine, embeddingsRequest, formatScore } from '../../../src/checks/core/similarity';

describe('checks/core/similarity', () => {
  it('cosine: 1 for one direction, 0 for orthogonal, -1 opposite, scale-free', () => {
    assert.equal(cosine([1, 0], [3, 0]), 1);
    assert.equal(cosine([1, 0], [0, 2]), 0);
    assert.equal(cosine([1, 1], [-1, -1]), -1);
    assert.ok(Math.abs((cosine([1, 2, 3], [2, 3, 4]) as number) - 0.9925833339709303) < 1e-12);
  });

  it('refuses vectors of different lengths, empty or zero ones', () => {
    assert.equal(cosine([1], [1, 2]), 'the embeddings have different lengths (1 and 2)');
    assert.equal(cosine([], []), 'the embeddings have different lengths (0 and 0)');
    assert.equal(cosine([0, 0], [1, 1]), 'an embedding is all zeros or not numbers');
    assert.equal(cosine([1, 1], [0, 0]), 'an embedding is all zeros or not numbers');
    assert.equal(cosine([NaN, 1], [1, 1]), 'an embedding is all zeros or not numbers');
  });

  it('never shows 1.00 for a score below 1, and clamps rounding past 1', () => {
    assert.equal(formatScore(0.999), '0.99');
    assert.equal(formatScore(1), '1.00');
    assert.equal(formatScore(0.8), '0.80');
    assert.equal(cosine([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]), 1);
  });

  it('embeds the answer and the reference in one request, answer first', () => {
    assert.deepEqual(embeddingsRequest('m', 'a', 'r'), { model: 'm', input: ['a', 'r'] });
  });
});
