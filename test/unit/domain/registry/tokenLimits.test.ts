import * as assert from 'node:assert/strict';
import { tokenLimits } from '../../../../src/chat/core/modelInfo';
import { readCapabilities } from '../../../../src/domain/registry/capabilities';
import { statedTokenLimits } from '../../../../src/domain/registry/tokenLimits';

describe('domain/registry/tokenLimits: the one reader of a model entry’s token limits', () => {
  it('finds each limit in the places real registries use, the entry itself first', () => {
    assert.deepEqual(statedTokenLimits({ context_window: 128000, limits: { context_window: 4096 } }), {
      context: 128000,
    });
    // GitHub Models: capabilities.limits; LiteLLM: model_info; OpenRouter: top_provider; Ollama: details.
    assert.deepEqual(statedTokenLimits({ capabilities: { limits: { max_context_window_tokens: 64000 } } }), {
      context: 64000,
    });
    assert.deepEqual(statedTokenLimits({ model_info: { max_input_tokens: 30000, max_output_tokens: 2000 } }), {
      input: 30000,
      completion: 2000,
    });
    assert.deepEqual(statedTokenLimits({ top_provider: { context_length: '200k', max_completion_tokens: 8192 } }), {
      context: 200000,
      completion: 8192,
    });
    assert.deepEqual(statedTokenLimits({ details: { num_ctx: '1M' } }), { context: 1_000_000 });
  });

  it('states nothing it was not told: no limits, bad values and non-objects give {}', () => {
    for (const raw of [
      undefined,
      null,
      'x',
      [],
      {},
      { context_window: -1 },
      { context_window: 'lots' },
      { limits: 5 },
    ]) {
      assert.deepEqual(statedTokenLimits(raw), {}, JSON.stringify(raw));
    }
  });

  it('the Models view and the chat provider read the same entry the same way', () => {
    const entry = { id: 'm', token_limits: { max_input_tokens: '16k', max_output_tokens: 1024 } };
    assert.equal(readCapabilities(entry)?.contextWindow, 16000, 'the row shows the input limit as the window');
    assert.deepEqual(tokenLimits(entry), { maxInputTokens: 16000, maxOutputTokens: 1024 });
  });
});
