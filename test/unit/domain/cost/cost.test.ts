import * as assert from 'node:assert/strict';
import { costOf, formatCost } from '../../../../src/domain/cost/cost';
import type { ModelPrice } from '../../../../src/domain/cost/prices';
import { readUsage } from '../../../../src/domain/answer';

const price: ModelPrice = { inputPerToken: 0.15e-6, outputPerToken: 0.6e-6, currency: 'USD', source: 'registry' };

describe('cost: what an answer cost', () => {
  it('prices input and output tokens', () => {
    const cost = costOf({ input: 240, output: 60, total: 300 }, price);
    assert.equal(cost?.currency, 'USD');
    assert.ok(Math.abs((cost?.amount ?? 0) - 0.000072) < 1e-12);
    assert.equal(formatCost(cost), '0.000072 USD');
  });

  it('prices cached input at its own price, else at the input price', () => {
    const cached = { ...price, cachedInputPerToken: 0.075e-6 };
    const usage = readUsage({
      prompt_tokens: 1000,
      completion_tokens: 0,
      prompt_tokens_details: { cached_tokens: 400 },
    });
    assert.ok(Math.abs((costOf(usage, cached)?.amount ?? 0) - (600 * 0.15e-6 + 400 * 0.075e-6)) < 1e-15);
    assert.ok(Math.abs((costOf(usage, price)?.amount ?? 0) - 1000 * 0.15e-6) < 1e-15);
  });

  it('derives the output from the total and the input, and nothing else', () => {
    assert.ok(
      Math.abs((costOf({ input: 100, total: 150 }, price)?.amount ?? 0) - (100 * 0.15e-6 + 50 * 0.6e-6)) < 1e-15,
    );
    assert.equal(costOf({ total: 150 }, price), undefined);
    assert.equal(costOf({ input: 200, total: 150 }, price), undefined);
  });

  it('is unknown, never zero, when usage or price is missing or partial', () => {
    assert.equal(costOf(undefined, price), undefined);
    assert.equal(costOf({ input: 10, output: 5 }, undefined), undefined);
    assert.equal(costOf({ input: 10 }, price), undefined);
    assert.equal(
      costOf({ input: 10, output: 5 }, { inputPerToken: 1e-6, currency: 'USD', source: 'registry' }),
      undefined,
    );
    assert.equal(
      costOf({ input: 10, output: 5 }, { currency: 'USD', source: 'registry', given: 'input 1 per image' }),
      undefined,
    );
    assert.equal(formatCost(undefined), 'cost unknown');
    // An embeddings answer: no output tokens to price.
    const embeddings = costOf(readUsage({ prompt_tokens: 8, total_tokens: 8 }), {
      inputPerToken: 1e-7,
      currency: 'USD',
      source: 'registry',
    });
    assert.ok(Math.abs((embeddings?.amount ?? 0) - 8e-7) < 1e-18);
    assert.equal(formatCost(embeddings), '0.0000008 USD');
  });

  it('keeps the price currency, and a free model costs a known zero', () => {
    assert.equal(
      formatCost(
        costOf(
          { input: 1, output: 1 },
          { inputPerToken: 2, outputPerToken: 3, currency: 'credits', source: 'setting' },
        ),
      ),
      '5 credits',
    );
    assert.equal(
      formatCost(
        costOf({ input: 5, output: 5 }, { inputPerToken: 0, outputPerToken: 0, currency: 'USD', source: 'registry' }),
      ),
      '0 USD',
    );
  });
});
