import * as assert from 'node:assert/strict';
import { formatPrice, plainNumber, priceFor, readPrice, tokensPerUnit } from '../../../../src/domain/cost/prices';

const close = (actual: number | undefined, expected: number) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < expected * 1e-9 + 1e-18, `${actual} ≠ ${expected}`);

describe('cost: prices from registry entries and the setting', () => {
  it('reads OpenRouter pricing: per-token strings, cached input', () => {
    const p = readPrice({
      id: 'x',
      pricing: { prompt: '0.00000015', completion: '0.0000006', input_cache_read: '0.000000075' },
    });
    close(p?.inputPerToken, 0.15e-6);
    close(p?.outputPerToken, 0.6e-6);
    close(p?.cachedInputPerToken, 0.075e-6);
    assert.equal(p?.currency, 'USD');
    assert.equal(p?.source, 'registry');
    assert.equal(formatPrice(p), '0.15 / 0.60 USD per 1M tokens (input / output), cached input 0.075');
  });

  it('reads LiteLLM costs per token, on the entry or in model_info', () => {
    const top = readPrice({
      input_cost_per_token: 2.5e-6,
      output_cost_per_token: 1e-5,
      cache_read_input_token_cost: 1.25e-6,
    });
    close(top?.inputPerToken, 2.5e-6);
    close(top?.outputPerToken, 1e-5);
    close(top?.cachedInputPerToken, 1.25e-6);
    const nested = readPrice({
      model_name: 'x',
      model_info: { input_cost_per_token: '0.000001', output_cost_per_token: '0.000002' },
    });
    close(nested?.inputPerToken, 1e-6);
    close(nested?.outputPerToken, 2e-6);
  });

  it('skips tiers and batch prices, and never takes a cache write for the cached input price', () => {
    const p = readPrice({
      input_cost_per_token_above_128k_tokens: 9,
      input_cost_per_token: 1e-6,
      output_cost_per_token_batches: 9,
      output_cost_per_token: 2e-6,
      cache_creation_input_token_cost: 9,
    });
    close(p?.inputPerToken, 1e-6);
    close(p?.outputPerToken, 2e-6);
    assert.equal(p?.cachedInputPerToken, undefined);
  });

  it('reads per 1K and per 1M, from key names and from a unit field, numbers or strings', () => {
    close(readPrice({ input_price_per_1m: 0.15, output_price_per_1m: '0.60' })?.outputPerToken, 0.6e-6);
    close(readPrice({ input_cost_per_1k_tokens: '$0.5', output_cost_per_1k_tokens: 1.5 })?.inputPerToken, 0.5e-3);
    close(readPrice({ price_per_million_input_tokens: 3 })?.inputPerToken, 3e-6);
    const unit = readPrice({
      pricing: { input: 0.15, output: 0.6, cached_input: 0.075, unit: 'per 1M tokens', currency: 'usd' },
    });
    close(unit?.inputPerToken, 0.15e-6);
    close(unit?.cachedInputPerToken, 0.075e-6);
    assert.equal(unit?.currency, 'USD');
    close(readPrice({ price: { input: '0.001', output: '0.002', unit: '1K' } })?.outputPerToken, 2e-6);
    close(
      readPrice({ pricing: { input: { price: 0.2, unit: '1M tokens' }, output: { price: 0.8, unit: '1M tokens' } } })
        ?.outputPerToken,
      0.8e-6,
    );
    assert.equal(tokensPerUnit('token'), 1);
    assert.equal(tokensPerUnit('per 1000 tokens'), 1000);
    assert.equal(tokensPerUnit('1M'), 1e6);
    assert.equal(tokensPerUnit('per million tokens'), 1e6);
    assert.equal(tokensPerUnit('1K characters'), undefined);
    assert.equal(tokensPerUnit('image'), undefined);
    assert.equal(tokensPerUnit(''), undefined);
  });

  it('reads Azure-like meters with their units and currency', () => {
    const p = readPrice({
      id: 'gpt',
      prices: [
        { meterName: 'gpt-4o Input Tokens', retailPrice: 2.5, unitOfMeasure: '1M', currencyCode: 'EUR' },
        { meterName: 'gpt-4o Output Tokens', retailPrice: 10, unitOfMeasure: '1M', currencyCode: 'EUR' },
        { meterName: 'gpt-4o Cached Input Tokens', retailPrice: 1.25, unitOfMeasure: '1M', currencyCode: 'EUR' },
      ],
    });
    close(p?.inputPerToken, 2.5e-6);
    close(p?.outputPerToken, 10e-6);
    close(p?.cachedInputPerToken, 1.25e-6);
    assert.equal(p?.currency, 'EUR');
    assert.equal(formatPrice(p), '2.50 / 10.00 EUR per 1M tokens (input / output), cached input 1.25');
  });

  it('keeps unknown units and currencies as given, never converted', () => {
    const chars = readPrice({ input_cost_per_character: 1e-7, output_cost_per_character: 2e-7 });
    assert.equal(chars?.inputPerToken, undefined);
    assert.match(chars?.given ?? '', /input_cost_per_character 1e-7/);
    assert.match(formatPrice(chars), /^price as given: .*not known to be per token/);
    const noUnit = readPrice({ pricing: { input: 0.15, output: 0.6 } });
    assert.equal(noUnit?.inputPerToken, undefined, 'a price without a unit is not taken as per token or per 1M');
    assert.match(noUnit?.given ?? '', /input 0.15, output 0.6/);
    const images = readPrice({ pricing: { input: 1, unit: 'per image' } });
    assert.match(images?.given ?? '', /input 1 per image/);
    const credits = readPrice({ pricing: { prompt: '2', completion: '4', currency: 'credits' } });
    assert.equal(credits?.currency, 'credits');
    assert.equal(credits?.inputPerToken, 2);
  });

  it('gives no price for missing, negative, non-numeric or hostile values', () => {
    assert.equal(readPrice(undefined), undefined);
    assert.equal(readPrice('free'), undefined);
    assert.equal(readPrice({ id: 'x', context_window: 128000, max_input_tokens: 1000 }), undefined);
    // OpenRouter writes "-1" for a price that varies.
    assert.equal(readPrice({ pricing: { prompt: '-1', completion: '-1' } }), undefined);
    assert.equal(readPrice({ pricing: { prompt: 'NaN', completion: 'lots' } }), undefined);
    assert.equal(readPrice({ input_cost_per_token: Number.POSITIVE_INFINITY }), undefined);
    const long = readPrice({ pricing: { input: 1, unit: `per ${'x'.repeat(5000)}\n[link](command:evil)` } });
    assert.ok((long?.given?.length ?? 0) <= 160);
    assert.ok(!(long?.given ?? '').includes('\n'));
    assert.equal(formatPrice(undefined), 'no price known');
  });

  it('a free model is priced at zero because the registry says so', () => {
    const p = readPrice({ pricing: { prompt: '0', completion: '0' } });
    assert.equal(p?.inputPerToken, 0);
    assert.equal(formatPrice(p), '0.00 / 0.00 USD per 1M tokens (input / output)');
  });

  it('the setting overrides or fills the registry, per 1M tokens by default, by id or prefix*', () => {
    const entry = { pricing: { prompt: '0.000001', completion: '0.000002' } };
    const filled = priceFor('m', entry, { m: { output: 4 } });
    close(filled?.inputPerToken, 1e-6);
    close(filled?.outputPerToken, 4e-6);
    assert.equal(filled?.source, 'setting');
    assert.match(formatPrice(filled), /1.00 \/ 4.00 USD per 1M tokens \(input \/ output\) \(from modelAccess.prices\)/);
    const alone = priceFor('other', undefined, {
      'oth*': { input: 0.1, output: 0.2, unit: '1K', currency: 'EUR' },
      'o*': { input: 9 },
    });
    close(alone?.inputPerToken, 1e-4);
    assert.equal(alone?.currency, 'EUR');
    const currencies = priceFor('m', entry, { m: { output: 4, currency: 'EUR' } });
    assert.equal(currencies?.inputPerToken, undefined, 'prices in two currencies are never mixed');
    assert.equal(priceFor('m', entry, undefined)?.source, 'registry');
    assert.equal(priceFor('m', entry, { n: { input: 1 } })?.source, 'registry');
    assert.equal(priceFor('m', undefined, 'junk'), undefined);
    const litellm = priceFor('m', undefined, { m: { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } });
    close(litellm?.outputPerToken, 2e-6);
  });

  it('writes numbers without exponent', () => {
    assert.equal(plainNumber(0.000072), '0.000072');
    assert.equal(plainNumber(7.2e-10), '0.00000000072');
    assert.equal(plainNumber(0.6, 6, 2), '0.60');
    assert.equal(plainNumber(12345.678), '12345.7');
    assert.equal(plainNumber(0), '0');
  });
});
