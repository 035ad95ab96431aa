import * as assert from 'node:assert/strict';
import {
  capabilitiesText,
  capabilityList,
  hasCapability,
  readCapabilities,
  shortTokens,
} from '../../../../src/domain/registry/capabilities';

describe('readCapabilities: every documented shape', () => {
  const cases: [string, unknown, string[], number | undefined][] = [
    [
      'flags {chat, embeddings, vision, tools, reasoning} + context_window',
      {
        capabilities: { chat: true, embeddings: false, vision: true, tools: true, reasoning: false },
        context_window: 128000,
      },
      ['chat', 'vision', 'tools'],
      128000,
    ],
    [
      'Azure OpenAI chat_completion / embeddings',
      { capabilities: { chat_completion: false, embeddings: true } },
      ['embeddings'],
      undefined,
    ],
    [
      'GitHub: supports {tool_calls, vision}, type, limits',
      {
        capabilities: {
          type: 'chat',
          supports: { tool_calls: true, vision: true },
          limits: { max_context_window_tokens: 64000 },
        },
      },
      ['chat', 'vision', 'tools'],
      64000,
    ],
    [
      'Ollama list',
      { capabilities: ['completion', 'vision', 'tools', 'thinking'] },
      ['chat', 'vision', 'tools', 'reasoning'],
      undefined,
    ],
    ['Ollama embedding', { capabilities: ['embedding'] }, ['embeddings'], undefined],
    [
      'OpenRouter modalities, parameters, context_length',
      {
        architecture: { input_modalities: ['text', 'image'] },
        supported_parameters: ['tools', 'reasoning', 'temperature'],
        context_length: 200000,
      },
      ['vision', 'tools', 'reasoning'],
      200000,
    ],
    [
      'LiteLLM supports_* under model_info, max_input_tokens',
      {
        model_info: {
          mode: 'chat',
          supports_vision: true,
          supports_function_calling: true,
          supports_reasoning: false,
          max_input_tokens: 8192,
        },
      },
      ['vision', 'tools'],
      8192,
    ],
    [
      'Gemini methods, inputTokenLimit',
      { supportedGenerationMethods: ['generateContent'], inputTokenLimit: 1048576 },
      ['chat'],
      1048576,
    ],
    ['vLLM max_model_len', { max_model_len: 32768, type: 'chat' }, ['chat'], 32768],
    ['context "128k"', { context_window: '128k' }, [], 128000],
  ];
  for (const [name, raw, list, context] of cases) {
    it(name, () => {
      const c = readCapabilities(raw);
      assert.deepEqual(capabilityList(c), list);
      assert.equal(c?.contextWindow, context);
    });
  }

  it('says nothing when the entry says nothing (unknown is not false)', () => {
    assert.equal(readCapabilities({ id: 'a', version: '1' }), undefined);
    assert.equal(readCapabilities({ capabilities: { vision: false } })?.vision, false);
    assert.equal(readCapabilities({ capabilities: { vision: false } })?.tools, undefined);
  });

  it('reads as words and filters by capability', () => {
    assert.equal(
      capabilitiesText(readCapabilities({ capabilities: { chat: true, vision: true }, context_window: 131072 })),
      'chat, vision · 128k context',
    );
    assert.equal(shortTokens(1_000_000), '1M');
    assert.equal(shortTokens(8191), '8191');
    assert.ok(hasCapability({ capabilities: ['vision'] }, 'vision'));
    assert.ok(!hasCapability({ capabilities: ['tools'] }, 'vision'));
  });
});
