// Chat provider: which catalog models are offered and how each is described (limits, capabilities, tooltip).
import { readManifest } from '../../harness/manifest';
import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import { ChatVendor } from '../../../src/ids';
import { canChat, chatModelId, chatSelection } from '../../../src/domain/chatModels';
import {
  chatModelInfo,
  chatModels,
  DEFAULT_LIMITS,
  inEnvironment,
  supportsImages,
  supportsTools,
  tokenLimits,
} from '../../../src/chat/core/modelInfo';

const m = (id: string, family?: string, version?: string, raw: Record<string, unknown> = {}): ModelEntry => ({
  id,
  family,
  version,
  cardUrl: `https://cards.example/${id}`,
  raw: { id, ...raw },
});

describe('chat: which models can chat', () => {
  it('offers every model whose entry says nothing, except embeddings, rerankers and speech by name', () => {
    const chat = [
      'aurora-2',
      'acme/sable-7b:q4_k_m',
      'lynx-vision-1',
      'halo-guard-1',
      'basalt-code-2',
      'globex/research preview:0.9',
      'embedded-assistant',
    ];
    const notChat = [
      'cirrus-embed-1',
      'vector-embed-small',
      'orbit-rerank-2',
      'tern-asr-3',
      'tern-tts-2',
      'text-embedding-3-small',
      'whisper-1',
    ];
    for (const id of chat) {
      assert.equal(canChat(m(id)), true, id);
    }
    for (const id of notChat) {
      assert.equal(canChat(m(id)), false, id);
    }
    assert.equal(canChat(m('x-1', 'embeddings')), false, 'the family counts too');
  });

  it('believes what the entry declares over the name', () => {
    assert.equal(
      canChat(m('cirrus-embed-chat', 'cirrus', '1', { capabilities: { chat_completion: true, embeddings: false } })),
      true,
    );
    assert.equal(
      canChat(m('aurora', 'aurora', '1', { capabilities: { chat_completion: false, embeddings: true } })),
      false,
    );
    assert.equal(canChat(m('aurora', 'aurora', '1', { capabilities: { embeddings: true } })), false);
    assert.equal(canChat(m('gemma3', undefined, undefined, { capabilities: ['completion', 'tools'] })), true);
    assert.equal(canChat(m('nomic', undefined, undefined, { capabilities: ['embedding'] })), false);
    assert.equal(
      canChat(
        m('models/gemini', undefined, undefined, { supportedGenerationMethods: ['generateContent', 'countTokens'] }),
      ),
      true,
    );
    assert.equal(
      canChat(m('models/text-embedding-004', undefined, undefined, { supportedGenerationMethods: ['embedContent'] })),
      false,
    );
    assert.equal(canChat(m('org/bert', undefined, undefined, { pipeline_tag: 'feature-extraction' })), false);
    assert.equal(canChat(m('org/llama', undefined, undefined, { pipeline_tag: 'text-generation' })), true);
    assert.equal(canChat(m('thing', undefined, undefined, { type: 'embedding' })), false);
    assert.equal(canChat(m('thing-embed', undefined, undefined, { task: 'chat' })), true);
    assert.equal(
      canChat(m('vision', undefined, undefined, { capabilities: { vision: true, audio_input: true } })),
      true,
    );
  });

  it('narrows by family names and id patterns when modelAccess.chat.models is set', () => {
    const select = chatSelection(['Aurora', 'acme/sable-*', 'basalt-code-?', 'cirrus-embed-1']);
    const ids = [
      m('aurora-2', 'aurora'),
      m('acme/sable-7b:fp16', 'sable'),
      m('basalt-code-2', 'basalt'),
      m('basalt-code-12', 'basalt'),
      m('lynx-1', 'lynx'),
      m('cirrus-embed-1', 'cirrus'),
    ]
      .filter(select)
      .map((e) => e.id);
    assert.deepEqual(
      ids,
      ['aurora-2', 'acme/sable-7b:fp16', 'basalt-code-2', 'cirrus-embed-1'],
      'an explicit pattern may pick a non-chat model',
    );
    assert.equal(chatSelection(['a.b'])(m('axb')), false, 'dots are literal');
    assert.equal(
      chatSelection([' ', ''])(m('cirrus-embed-1')),
      false,
      'blank items mean no selection: the default applies',
    );
  });

  it('keeps catalog order and drops duplicate ids', () => {
    const infos = chatModels([m('b-1', 'b'), m('a-embed', 'a'), m('a-1', 'a'), m('b-1', 'b')], []);
    assert.deepEqual(
      infos.map((i) => i.id),
      ['b-1', 'a-1'],
    );
  });

  it('reads every way an entry says it chats or not: flags, a type, a capability list, generation methods, a task', () => {
    const declared = (raw: Record<string, unknown>, id = 'neutral-name') => canChat(m(id, undefined, undefined, raw));
    for (const flag of ['chat', 'chat_completion', 'chatCompletion', 'completion', 'completions']) {
      assert.equal(declared({ capabilities: { [flag]: true } }, 'x-embed'), true, flag);
      assert.equal(declared({ capabilities: { [flag]: false } }), false, flag);
    }
    assert.equal(declared({ capabilities: { type: 'chat' } }, 'x-embed'), true);
    assert.equal(declared({ capabilities: { type: ['Embeddings'] } }), false);
    assert.equal(declared({ capabilities: { embeddings: false, streaming: true } }, 'x-rerank'), false, 'by name');
    assert.equal(declared({ capabilities: { embeddings: false, streaming: true } }), true, 'by name');
    assert.equal(declared({ capabilities: { Embeddings: true, streaming: true } }), false);
    assert.equal(declared({ capabilities: { moderation: 'yes' } }), true, 'only true flags count');
    assert.equal(declared({ capabilities: ['insert', 'chat'] }, 'x-embed'), true);
    assert.equal(declared({ capabilities: ['insert', 'rerank'] }), false);
    assert.equal(declared({ capabilities: ['insert'] }), true, 'a list that says neither: by name');
    assert.equal(declared({ capabilities: ['insert'] }, 'x-embed'), false, 'a list that says neither: by name');
    assert.equal(declared({ supported_generation_methods: ['embedContent'] }), false);
    assert.equal(declared({ supportedGenerationMethods: [] }, 'x-embed'), false, 'an empty list says nothing');
    for (const key of ['task', 'pipeline_tag', 'mode', 'model_type', 'type', 'kind']) {
      assert.equal(declared({ [key]: 'chat' }, 'x-embed'), true, key);
      assert.equal(declared({ [key]: 'embedding' }), false, key);
    }
    assert.equal(declared({ mode: 'image_generation' }), false);
    assert.equal(declared({ capabilities: 'embeddings' }), true, 'capabilities as one string say nothing: by name');
    assert.equal(canChat({ id: 'aurora', raw: undefined }), true, 'an entry without a body: by name');
    assert.equal(canChat({ id: 'x-embed', raw: null }), false, 'an entry without a body: by name');
    assert.deepEqual(tokenLimits(undefined, { maxInputTokens: 1, maxOutputTokens: 2 }), {
      maxInputTokens: 1,
      maxOutputTokens: 2,
    });
    assert.equal(supportsTools(undefined), false);
    assert.equal(supportsImages(null), false);
    assert.equal(declared({ type: 'model' }, 'x-tts'), false, 'a type that says neither: by name');
  });

  it('reads token counts written as numeric strings or with k/M, as the Models view shows them', () => {
    const defaults = { maxInputTokens: 1000, maxOutputTokens: 200 };
    assert.deepEqual(tokenLimits({ max_input_tokens: ' 4096 ', max_output_tokens: 100.7 }, defaults), {
      maxInputTokens: 4096,
      maxOutputTokens: 100,
    });
    // The same reading as the row's "8k": one reader of the registry's limits (domain/registry/tokenLimits.ts).
    assert.deepEqual(tokenLimits({ max_input_tokens: '8k', max_output_tokens: '0.5k' }, defaults), {
      maxInputTokens: 8000,
      maxOutputTokens: 500,
    });
    for (const bad of ['x4096', '4096x', '4 096', '1e3', '0x10', '0', 0, Number.POSITIVE_INFINITY]) {
      assert.deepEqual(tokenLimits({ max_input_tokens: bad }, defaults), defaults, String(bad));
    }
    assert.deepEqual(tokenLimits({ context_window: 8000, max_output_tokens: 8000 }, defaults), {
      maxInputTokens: 1,
      maxOutputTokens: 8000,
    });
    assert.deepEqual(tokenLimits({ max_input_tokens: 5000, context_window: 8000, max_output_tokens: 9000 }, defaults), {
      maxInputTokens: 5000,
      maxOutputTokens: 8000,
    });
  });

  it('recognises every key and list word for tools and images, and only whole words', () => {
    for (const key of [
      'tool_calling',
      'toolCalling',
      'tools',
      'function_calling',
      'functionCalling',
      'supports_tools',
      'supports_function_calling',
      'tool_calls',
    ]) {
      assert.equal(supportsTools({ capabilities: { [key]: true } }), true, key);
      assert.equal(supportsTools({ [key]: true }), true, key);
    }
    for (const word of ['tools', 'tool_calling', 'function_calling', 'tool_choice']) {
      assert.equal(supportsTools({ supported_parameters: [word] }), true, word);
    }
    assert.equal(supportsTools({ supported_parameters: ['tools_beta', 'no_tools', 7] }), false);
    assert.equal(supportsTools({ capabilities: { tool_calling: 'yes' } }), false);
    for (const key of ['vision', 'image_input', 'imageInput', 'supports_vision', 'supports_image_input', 'images']) {
      assert.equal(supportsImages({ capabilities: { supports: { [key]: true } } }), true, key);
    }
    assert.equal(supportsImages({ input_modalities: ['TEXT', 'Image'] }), true);
    assert.equal(supportsImages({ input_modalities: ['image_generation', 'no-image', 'vision2'] }), false);
    assert.equal(supportsImages('not an entry'), false);
  });

  it('a selection of blank items offers every model that can chat; patterns are trimmed, globbed and literal otherwise', () => {
    const blank = chatSelection(['  ', '']);
    assert.equal(blank(m('aurora-2')), true);
    assert.equal(blank(m('aurora-embed')), false);
    const select = chatSelection([' aurora.1 ', 'Lynx-?', 'x+(y)']);
    assert.equal(select(m('aurora.1')), true);
    assert.equal(select(m('auroraX1')), false, 'a dot is a dot');
    assert.equal(select(m('lynx-7')), true);
    assert.equal(select(m('lynx-77')), false);
    assert.equal(select(m('x+(y)')), true);
    assert.equal(select(m('xx(y)')), false);
  });

  it('shows the version as the model detail', () => {
    assert.equal(chatModelInfo(m('aurora-2', 'aurora', '2.1')).detail, 'v2.1');
    assert.equal(chatModelInfo(m('aurora-2', 'aurora')).detail, undefined);
  });
});

describe('chat: model information', () => {
  it('takes id, name, family and version from the registry, and a tooltip with family, version and card', () => {
    const info = chatModelInfo(m('aurora-2-mini', 'aurora', '2'));
    assert.equal(info.id, 'aurora-2-mini');
    assert.equal(info.name, 'aurora-2-mini');
    assert.equal(info.family, 'aurora');
    assert.equal(info.version, '2');
    assert.equal(info.tooltip, 'aurora · version 2 · https://cards.example/aurora-2-mini');
    assert.deepEqual(info.capabilities, { toolCalling: false, imageInput: false });
    assert.equal(info.maxInputTokens, DEFAULT_LIMITS.maxInputTokens);
    assert.equal(info.maxOutputTokens, DEFAULT_LIMITS.maxOutputTokens);
  });

  it('falls back to the id as family and an empty version', () => {
    const info = chatModelInfo({ id: 'lonely', raw: {} });
    assert.equal(info.family, 'lonely');
    assert.equal(info.version, '');
    assert.equal(info.tooltip, 'no family · no version');
  });

  it('reads token limits from the entry, else the defaults given', () => {
    const defaults = { maxInputTokens: 1000, maxOutputTokens: 200 };
    assert.deepEqual(tokenLimits({}, defaults), defaults);
    assert.deepEqual(tokenLimits({ max_input_tokens: 120000, max_output_tokens: 8000 }, defaults), {
      maxInputTokens: 120000,
      maxOutputTokens: 8000,
    });
    assert.deepEqual(tokenLimits({ inputTokenLimit: 1048576, outputTokenLimit: 8192 }, defaults), {
      maxInputTokens: 1048576,
      maxOutputTokens: 8192,
    });
    assert.deepEqual(tokenLimits({ input_token_limit: '32000' }, defaults), {
      maxInputTokens: 32000,
      maxOutputTokens: 200,
    });
    // A context window alone: the output budget comes out of it.
    assert.deepEqual(tokenLimits({ context_window: 128000, max_output_tokens: 16384 }, defaults), {
      maxInputTokens: 111616,
      maxOutputTokens: 16384,
    });
    assert.deepEqual(tokenLimits({ context_length: 8192 }, { maxInputTokens: 1000, maxOutputTokens: 4096 }), {
      maxInputTokens: 6144,
      maxOutputTokens: 2048,
    });
    assert.deepEqual(tokenLimits({ context_window: 100, max_output_tokens: 500 }, defaults), {
      maxInputTokens: 1,
      maxOutputTokens: 100,
    });
    // Nested shapes.
    assert.deepEqual(
      tokenLimits({ capabilities: { limits: { max_prompt_tokens: 64000, max_output_tokens: 4096 } } }, defaults),
      { maxInputTokens: 64000, maxOutputTokens: 4096 },
    );
    assert.deepEqual(
      tokenLimits({ top_provider: { context_length: 200000, max_completion_tokens: 32000 } }, defaults),
      { maxInputTokens: 168000, maxOutputTokens: 32000 },
    );
    assert.deepEqual(tokenLimits({ limits: { context_window: 4000 } }, { maxInputTokens: 1, maxOutputTokens: 512 }), {
      maxInputTokens: 3488,
      maxOutputTokens: 512,
    });
    // Nonsense is ignored.
    assert.deepEqual(
      tokenLimits({ context_window: -5, max_output_tokens: 'lots', max_input_tokens: null }, defaults),
      defaults,
    );
    assert.deepEqual(tokenLimits('not an object', defaults), defaults);
  });

  it('advertises tools and images only when the entry does', () => {
    assert.equal(supportsTools({ capabilities: { tool_calling: true } }), true);
    assert.equal(supportsTools({ capabilities: { supports: { tool_calls: true } } }), true);
    assert.equal(supportsTools({ supports_function_calling: true }), true);
    assert.equal(supportsTools({ capabilities: ['completion', 'tools'] }), true);
    assert.equal(supportsTools({ supported_parameters: ['temperature', 'tools'] }), true);
    assert.equal(supportsTools({ capabilities: { tool_calling: false } }), false);
    assert.equal(supportsTools({}), false);
    assert.equal(supportsImages({ capabilities: { vision: true } }), true);
    assert.equal(supportsImages({ architecture: { input_modalities: ['text', 'image'] } }), true);
    assert.equal(supportsImages({ capabilities: ['completion', 'vision'] }), true);
    assert.equal(supportsImages({ id: 'lynx-vision-1' }), false, 'a name is not a promise');
    const info = chatModelInfo(m('k', 'k', '1', { capabilities: { tool_calling: true, vision: true } }));
    assert.deepEqual(info.capabilities, { toolCalling: true, imageInput: true });
  });
});

describe('chat: models of several environments', () => {
  it('prefix the id with the environment (same model twice stays two ids) and name it first in the detail', () => {
    const entry: ModelEntry = { id: 'acme/aurora-2', family: 'aurora', version: '2', raw: {} };
    const beta = inEnvironment(chatModelInfo(entry), 'Beta EU');
    const prod = inEnvironment(chatModelInfo(entry), 'Production');
    assert.equal(beta.id, 'Beta EU/acme/aurora-2');
    assert.notEqual(beta.id, prod.id);
    assert.equal(beta.detail, 'Beta EU · v2');
    assert.equal(beta.name, 'acme/aurora-2');
    // The hover names the environment before what it says of the model.
    assert.equal(beta.tooltip, `Beta EU · ${chatModelInfo(entry).tooltip}`);
    assert.ok(chatModelInfo(entry).tooltip);
    assert.equal(inEnvironment(chatModelInfo({ id: 'm', raw: {} }), 'Prod').detail, 'Prod');
    // A hostile environment name reaches the picker as display text only.
    assert.ok(!inEnvironment(chatModelInfo(entry), '[x](command:evil)').detail?.includes('](command:'));
  });
  it('chatModelId names the id chat offers: Model Details copies the same one the provider lists', () => {
    const entry: ModelEntry = { id: 'acme/aurora-2', raw: {} };
    assert.equal(chatModelId(entry.id, 'Beta EU'), inEnvironment(chatModelInfo(entry), 'Beta EU').id);
    assert.equal(chatModelId(entry.id), chatModelInfo(entry).id, 'one environment offered: the id as it is');
  });
});

describe('chat: manifest', () => {
  it('contributes the vendor registered in code, with a display name', () => {
    const manifest = readManifest() as {
      contributes: { languageModelChatProviders?: Array<{ vendor: string; displayName: string }> };
    };
    const providers = manifest.contributes.languageModelChatProviders ?? [];
    assert.deepEqual(providers, [{ vendor: ChatVendor, displayName: 'Model Access' }]);
  });
});
