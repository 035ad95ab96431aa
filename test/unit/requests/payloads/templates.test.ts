import * as assert from 'node:assert/strict';
import { INPUT_PLACEHOLDER, starterPayload } from '../../../../src/requests/payloads/core/templates';

describe('requests: starter payloads', () => {
  it('fill the chosen model into the OpenAI shape of each endpoint', () => {
    const chat = JSON.parse(starterPayload('/v1/chat', 'aurora-2'));
    assert.equal(chat.model, 'aurora-2');
    assert.equal(chat.messages.at(-1).content, INPUT_PLACEHOLDER);
    assert.equal(JSON.parse(starterPayload('/v1/responses', 'x')).input, INPUT_PLACEHOLDER);
    assert.deepEqual(JSON.parse(starterPayload('/v1/embeddings', 'e')).input, [INPUT_PLACEHOLDER]);
  });

  it('use the template from settings, keeping a fixed model', () => {
    const t = {
      '/v1/chat': { model: '', messages: [], temperature: 0 },
      '/v1/responses': { model: 'pinned', input: 'hi' },
    };
    assert.deepEqual(JSON.parse(starterPayload('/v1/chat', 'a', t)), { model: 'a', messages: [], temperature: 0 });
    assert.equal(JSON.parse(starterPayload('/v1/responses', 'a', t)).model, 'pinned');
    // A template without a model field gets the chosen model too.
    assert.deepEqual(JSON.parse(starterPayload('/v1/chat', 'a', { '/v1/chat': { messages: [] } })), {
      messages: [],
      model: 'a',
    });
    assert.equal(JSON.parse(starterPayload('/v1/embeddings', 'a', { '/v1/embeddings': 'not an object' })).model, 'a');
  });
});
