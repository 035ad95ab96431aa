import * as assert from 'node:assert/strict';
import { costText, durationText, factsLine, timeText, tokensText } from '../../../src/domain/answerFacts';
import type { ModelPrice } from '../../../src/domain/cost/prices';

const price: ModelPrice = { inputPerToken: 0.15e-6, outputPerToken: 0.6e-6, currency: 'USD', source: 'registry' };

describe('what an answer cost, in words', () => {
  it('says the tokens in, out and in all, or which count the answer gave, or that it gave none', () => {
    assert.equal(tokensText({ input: 12, output: 30, total: 42 }), '42 tokens (12 in, 30 out)');
    assert.equal(tokensText({ input: 12, output: 30 }), '42 tokens (12 in, 30 out)');
    assert.equal(tokensText({ total: 7 }), '7 tokens');
    assert.equal(tokensText({ total: 1 }), '1 token');
    assert.equal(tokensText({ input: 12 }), '12 tokens in');
    assert.equal(tokensText({ output: 1 }), '1 token out');
    assert.equal(tokensText({ total: 0 }), '0 tokens');
    assert.equal(tokensText({}), 'tokens not reported');
    assert.equal(tokensText(undefined), 'tokens not reported');
  });

  it('times to the first and the last byte, in ms below a second and s above; a negative time is not shown', () => {
    assert.equal(timeText(120, 412), 'first byte 120 ms, last byte 412 ms');
    assert.equal(timeText(undefined, 2345), 'last byte 2.35 s');
    assert.equal(timeText(80, undefined), 'first byte 80 ms');
    assert.equal(timeText(-5, undefined), undefined);
    assert.equal(timeText(undefined, undefined), undefined);
    assert.equal(durationText(999.6), '1000 ms');
    assert.equal(durationText(1000), '1.00 s');
  });

  it('a cost is its amount and currency; no price says so instead of zero; no counts is "cost unknown"', () => {
    assert.equal(costText({ price, cost: { amount: 0.000072, currency: 'USD' } }), '0.000072 USD');
    assert.equal(costText({ price: undefined, cost: undefined }), 'no price known');
    assert.equal(costText({ price, cost: undefined }), 'cost unknown');
    assert.doesNotMatch(costText({ price: undefined, cost: undefined }), /\b0\b/);
  });

  it('one line: tokens, cost (once priced), time', () => {
    assert.equal(
      factsLine({
        usage: { input: 12, output: 30 },
        firstByteMs: 120,
        lastByteMs: 412,
        priced: { price, cost: { amount: 0.0000198, currency: 'USD' } },
      }),
      '42 tokens (12 in, 30 out) · 0.0000198 USD · first byte 120 ms, last byte 412 ms',
    );
    assert.equal(factsLine({ usage: undefined, lastByteMs: 5 }), 'tokens not reported · last byte 5 ms');
    assert.equal(
      factsLine({ usage: { total: 3 }, priced: { price: undefined, cost: undefined } }),
      '3 tokens · no price known',
    );
  });
});
