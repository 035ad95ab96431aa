// What Run Checks on Several Models offers: the models that fit the payload's endpoint, its own one checked.
// Against the local service's registry (chat, embedding, speech and rerank models).
import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import { checkModelChoices } from '../../../src/checks/core/modelChoices';
import registry from '../../server/registry.json';

const models: ModelEntry[] = (registry.models as { id: string; family?: string }[]).map((raw) => ({
  id: raw.id,
  family: raw.family,
  raw,
}));
const ids = (ms: readonly ModelEntry[]) => ms.map((m) => m.id);

describe('checks: the models Run Checks on Several Models offers', () => {
  it('a chat payload: the chat models only, its own checked', () => {
    const text = '// POST /v1/chat\n// @expect status 200\n{ "model": "aurora-2", "messages": [] }';
    const c = checkModelChoices(text, models);
    assert.equal(c.endpoint, '/v1/chat');
    assert.ok(ids(c.models).includes('aurora-2'));
    assert.ok(ids(c.models).includes('meridian-4'));
    for (const other of ['cirrus-embed-2', 'vector-embed-small', 'tern-asr-3', 'tern-tts-2', 'orbit-rerank-2']) {
      assert.ok(!ids(c.models).includes(other), `${other} is not offered for chat`);
    }
    assert.deepEqual([...c.picked], ['aurora-2']);
  });

  it('an embeddings payload: the embedding models only', () => {
    const text = '// POST /v1/embeddings\n{ "model": "cirrus-embed-2", "input": "x" }';
    const c = checkModelChoices(text, models);
    assert.deepEqual(ids(c.models).sort(), [
      'cirrus-embed-1',
      'cirrus-embed-2',
      'cirrus-embed-2-large',
      'vector-embed-large',
      'vector-embed-small',
    ]);
    assert.deepEqual([...c.picked], ['cirrus-embed-2']);
  });

  it("the payload's own model is offered even when it does not fit the endpoint (it is what the file says)", () => {
    const c = checkModelChoices('// POST /v1/chat\n{ "model": "cirrus-embed-2", "messages": [] }', models);
    assert.ok(ids(c.models).includes('cirrus-embed-2'));
    assert.ok(!ids(c.models).includes('cirrus-embed-1'));
    assert.deepEqual([...c.picked], ['cirrus-embed-2']);
  });

  it('nothing checked for a model that is a variable, not listed, or a payload that is not JSON', () => {
    assert.deepEqual([...checkModelChoices('// POST /v1/chat\n{ "model": "{{model}}" }', models).picked], []);
    assert.deepEqual([...checkModelChoices('// POST /v1/chat\n{ "model": "nope" }', models).picked], []);
    const broken = checkModelChoices('// POST /v1/chat\n{ "model": "aurora-2", ', models);
    assert.deepEqual([...broken.picked], []);
    assert.ok(!ids(broken.models).includes('cirrus-embed-2'), 'still only what fits the endpoint');
  });

  it('no endpoint line: every model is offered', () => {
    const c = checkModelChoices('{ "model": "aurora-2" }', models);
    assert.equal(c.endpoint, undefined);
    assert.equal(c.models.length, models.length);
    assert.deepEqual([...c.picked], ['aurora-2']);
  });
});
