// Which models suit which endpoint, as New Request and Compare's pickers list them: read from what the
// registry says of a model (capabilities, type, task, generation methods), else from its id and family.
import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import { declaredKind, kindFor, modelKind, suitsEndpoint } from '../../../src/domain/modelKind';
import registry from '../../server/registry.json';

const m = (id: string, family?: string, raw: unknown = {}): ModelEntry => ({ id, family, raw });

describe('model kinds', () => {
  it('reads the kind the entry declares, in the shapes registries use', () => {
    assert.equal(declaredKind({ capabilities: { chat_completion: true, embeddings: false } }), 'chat');
    assert.equal(declaredKind({ capabilities: { chat_completion: false, embeddings: true } }), 'embedding');
    assert.equal(declaredKind({ capabilities: { chat_completion: false } }), 'other');
    assert.equal(declaredKind({ capabilities: { embeddings: true } }), 'embedding');
    assert.equal(declaredKind({ capabilities: { tts: true } }), 'other');
    assert.equal(declaredKind({ capabilities: { type: 'embeddings' } }), 'embedding');
    assert.equal(declaredKind({ capabilities: { type: 'chat' } }), 'chat');
    assert.equal(declaredKind({ capabilities: ['completion', 'tools'] }), 'chat');
    assert.equal(declaredKind({ capabilities: ['embedding'] }), 'embedding');
    assert.equal(declaredKind({ supportedGenerationMethods: ['embedContent'] }), 'embedding');
    assert.equal(declaredKind({ supportedGenerationMethods: ['generateContent', 'countTokens'] }), 'chat');
    assert.equal(declaredKind({ supportedGenerationMethods: ['countTokens'] }), 'other');
    assert.equal(declaredKind({ pipeline_tag: 'feature-extraction' }), 'embedding');
    assert.equal(declaredKind({ pipeline_tag: 'sentence-similarity' }), 'embedding');
    assert.equal(declaredKind({ task: 'automatic-speech-recognition' }), 'other');
    assert.equal(declaredKind({ type: 'text-generation' }), 'chat');
    assert.equal(declaredKind({ object: 'model' }), undefined);
    assert.equal(declaredKind('x'), undefined);
  });

  it('what an entry declares wins over its name; a silent entry is placed by its id and family', () => {
    assert.equal(modelKind(m('cirrus-embed-chat', 'cirrus', { capabilities: { chat: true } })), 'chat');
    assert.equal(modelKind(m('aurora-2', 'aurora', { type: 'embedding' })), 'embedding');
    assert.equal(modelKind(m('cirrus-embed-2-large', 'cirrus')), 'embedding');
    assert.equal(modelKind(m('x-1', 'embeddings')), 'embedding');
    assert.equal(modelKind(m('tern-tts-2', 'tern')), 'other');
    assert.equal(modelKind(m('orbit-rerank-1', 'orbit')), 'other');
    assert.equal(modelKind(m('embedded-systems-coder', 'coder')), 'chat', 'a word that merely starts with embed');
    assert.equal(modelKind(m('aurora-2', 'aurora')), 'chat');
  });

  it('Responses and Chat take chat models; Embeddings takes embedding models', () => {
    assert.equal(kindFor('/v1/chat'), 'chat');
    assert.equal(kindFor('/v1/responses'), 'chat');
    assert.equal(kindFor('/v1/embeddings'), 'embedding');
    const demo = (registry.models as { id: string; family: string; organization: string }[])
      .filter((r) => r.organization === 'acme')
      .map((r) => m(r.id, r.family));
    const forEmbeddings = demo.filter((e) => suitsEndpoint(e, '/v1/embeddings')).map((e) => e.id);
    assert.deepEqual(forEmbeddings, ['cirrus-embed-1', 'cirrus-embed-2', 'cirrus-embed-2-large']);
    const forChat = demo.filter((e) => suitsEndpoint(e, '/v1/chat')).map((e) => e.id);
    assert.ok(forChat.includes('aurora-2') && forChat.includes('basalt-code-2.1'));
    for (const id of ['cirrus-embed-1', 'tern-asr-3', 'tern-tts-2']) {
      assert.ok(!forChat.includes(id), id);
    }
  });
});
