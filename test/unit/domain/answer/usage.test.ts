import * as assert from 'node:assert/strict';
import { usageOf } from '../../../../src/domain/answer';

describe('answer reader: token usage', () => {
  it('reads token usage from Responses, a response.completed event, Chat Completions and Gemini', () => {
    assert.deepEqual(usageOf({ usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } }), {
      input: 5,
      output: 7,
      total: 12,
    });
    assert.deepEqual(
      usageOf({ type: 'response.completed', response: { usage: { input_tokens: 1, output_tokens: 2 } } }),
      { input: 1, output: 2, total: undefined },
    );
    assert.deepEqual(usageOf({ usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }), {
      input: 3,
      output: 4,
      total: 7,
    });
    assert.deepEqual(usageOf({ usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 } }), {
      input: 2,
      output: 3,
      total: 5,
    });
    assert.equal(usageOf({ usage: { input_tokens: 'many' } }), undefined);
    assert.equal(usageOf(undefined), undefined);
  });

  it('reads only counts that are whole and not negative', () => {
    assert.deepEqual(usageOf({ usage: { input_tokens: 0, output_tokens: -1, total_tokens: '3' } }), {
      input: 0,
      output: undefined,
      total: undefined,
    });
    assert.equal(usageOf({ usage: { input_tokens: Number.NaN } }), undefined);
    assert.equal(usageOf({ usage: { input_tokens: Number.POSITIVE_INFINITY } }), undefined);
    assert.deepEqual(usageOf({ usage: { total_tokens: 4 } }), { input: undefined, output: undefined, total: 4 });
    assert.deepEqual(usageOf({ usage: { completion_tokens: 4 } }), { input: undefined, output: 4, total: undefined });
    assert.equal(usageOf({ usage: 'lots' }), undefined);
    assert.equal(usageOf('x'), undefined);
    assert.equal(usageOf({ response: 'x' }), undefined);
  });
});
