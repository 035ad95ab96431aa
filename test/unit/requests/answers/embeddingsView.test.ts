import * as assert from 'node:assert/strict';
import {
  cosine,
  embeddingInputs,
  embeddingsMarkdown,
  embeddingsSummary,
  countTitle,
  inputLabels,
  MAX_SIMILARITY_INPUTS,
  norm,
  shortLabel,
  similarityMatrix,
} from '../../../../src/requests/answers/core/embeddingsView';

describe('requests: embeddings a person can see', () => {
  it('norms and cosine similarity', () => {
    assert.equal(norm([3, 4]), 5);
    assert.equal(cosine([1, 0], [1, 0]), 1);
    assert.equal(cosine([1, 0], [0, 1]), 0);
    assert.equal(cosine([1, 0], [-1, 0]), -1);
    assert.ok(Number.isNaN(cosine([0, 0], [1, 0])), 'a vector without length');
    assert.ok(Number.isNaN(cosine([1], [1, 0])), 'different dimensions');
    assert.deepEqual(
      similarityMatrix([
        [1, 0],
        [0, 2],
      ]),
      [
        [1, 0],
        [0, 1],
      ],
    );
  });

  it('labels are the payload inputs, one line each, cut with an ellipsis', () => {
    assert.deepEqual(embeddingInputs({ input: 'one' }), ['one']);
    assert.deepEqual(embeddingInputs({ input: ['a', [1, 2]] }), ['a', 'input 2']);
    assert.equal(embeddingInputs({}), undefined);
    assert.equal(shortLabel(' a\nb '), 'a b');
    assert.equal(shortLabel('x'.repeat(40)), `${'x'.repeat(27)}…`);
  });

  it('says the count, dimensions, each norm and, for two inputs, their similarity in words', () => {
    const md = embeddingsMarkdown(
      [
        [1, 0, 0],
        [1, 1, 0],
      ],
      ['a | b', 'c'],
    );
    assert.match(md, /^## 2 vectors × 3 dimensions$/m);
    assert.match(md, /^\| 1 \| a \\\| b \| 1\.000 \|$/m, 'a label cannot add a column');
    assert.match(md, /^\| 2 \| c \| 1\.414 \|$/m);
    assert.match(md, /cosine similarity of 0\.707\./);
    assert.match(md, /^\| 2 c \| 0\.707 \| 1\.000 \|$/m);
    assert.match(embeddingsMarkdown([[1, 2]]), /^## 1 vector × 2 dimensions$/m);
    assert.doesNotMatch(embeddingsMarkdown([[1, 2]]), /Cosine similarity/);
    const many = Array.from({ length: MAX_SIMILARITY_INPUTS + 1 }, (_, i) => [i + 1, 1]);
    assert.match(embeddingsMarkdown(many), /drawn for 2 to 50 inputs/);
    assert.doesNotMatch(embeddingsMarkdown(many), /data:image/);
  });

  it('the count says when the dimensions differ, and labels number the inputs the payload did not name', () => {
    assert.equal(
      countTitle([
        [1, 2, 3],
        [1, 2, 3, 4],
      ]),
      '2 vectors × 3/4 dimensions',
    );
    assert.equal(countTitle([]), '0 vectors × 0 dimensions');
    assert.deepEqual(inputLabels([[1], [2], [3]], ['a']), ['a', 'input 2', 'input 3']);
    const md = embeddingsMarkdown([[1], [1]], ['a', 'b']);
    assert.match(md, /Open Answer Preview" draws this matrix as a heat map/);
    assert.doesNotMatch(md, /data:|!\[/, 'no image in the document');
  });

  it('the history line: count, dimensions, and the similarity of two', () => {
    assert.equal(
      embeddingsSummary([
        [1, 0],
        [0, 1],
      ]),
      '2 vectors × 2 dimensions · cosine similarity 0.000',
    );
    assert.equal(embeddingsSummary([[1, 0, 0]]), '1 vector × 3 dimensions');
  });
});
