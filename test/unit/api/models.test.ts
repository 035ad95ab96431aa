import * as assert from 'node:assert/strict';
import { extractList, extractSingle, httpUrl, normalizeModel } from '../../../src/api/models';

describe('api/models: normalizeModel', () => {
  it('reads the OpenAI-style entry of the local service', () => {
    const raw = {
      id: 'aurora-1',
      object: 'model',
      family: 'aurora',
      version: '1',
      model_card_url: 'https://cards.example/aurora-1',
      owned_by: 'acme',
    };
    assert.deepEqual(normalizeModel(raw), {
      id: 'aurora-1',
      family: 'aurora',
      version: '1',
      cardUrl: 'https://cards.example/aurora-1',
      raw,
    });
  });

  it('reads camelCase (Gemini/MLflow) names and prefers modelId over name', () => {
    const m = normalizeModel({
      name: 'models/x-1',
      modelId: 'x-1',
      modelFamily: 'x',
      modelVersion: 2,
      modelCardUrl: { url: 'http://cards/x-1' },
    });
    assert.equal(m?.id, 'x-1');
    assert.equal(m?.family, 'x');
    assert.equal(m?.version, '2');
    assert.equal(m?.cardUrl, 'http://cards/x-1');
  });

  it('reads Ollama, Hugging Face, MLflow and Anthropic shapes', () => {
    const ollama = normalizeModel({
      name: 'gemma3:latest',
      model: 'gemma3:latest',
      details: { family: 'gemma', families: ['gemma'] },
      tag: 'gemma3:latest',
    });
    assert.deepEqual([ollama?.id, ollama?.family, ollama?.version], ['gemma3:latest', 'gemma', 'latest']);
    const hf = normalizeModel({
      _id: '65f',
      id: 'org/name',
      pipeline_tag: 'text-generation',
      url: 'https://huggingface.co/org/name',
    });
    assert.deepEqual([hf?.id, hf?.family, hf?.cardUrl], ['org/name', undefined, 'https://huggingface.co/org/name']);
    const mlflow = normalizeModel({ name: 'fraud', latest_versions: [{ name: 'fraud', version: '3' }] });
    assert.deepEqual([mlflow?.id, mlflow?.version], ['fraud', '3']);
    const anthropic = normalizeModel({ type: 'model', id: 'claude-x', display_name: 'Claude X', line: 'claude' });
    assert.deepEqual([anthropic?.id, anthropic?.family], ['claude-x', 'claude']);
    const nested = normalizeModel({
      identifier: 'n',
      architecture: { name: 'llama' },
      revision: 'abc',
      links: { model_card: { href: 'https://c/n' } },
    });
    assert.deepEqual(
      [nested?.id, nested?.family, nested?.version, nested?.cardUrl],
      ['n', 'llama', 'abc', 'https://c/n'],
    );
  });

  it('does not use owned_by as a family', () => {
    assert.equal(normalizeModel({ id: 'gpt', owned_by: 'system' })?.family, undefined);
  });

  it('accepts numbers as ids and versions, trims blanks, skips entries without a usable id', () => {
    assert.equal(normalizeModel({ id: 42 })?.id, '42');
    assert.equal(normalizeModel({ id: '  x  ' })?.id, 'x');
    assert.equal(normalizeModel({ id: '   ', name: 'fallback' })?.id, 'fallback');
    for (const bad of [null, 1, 'x', [], {}, { id: '' }, { id: {} }, { id: NaN }, { id: [1] }, { family: 'f' }]) {
      assert.equal(normalizeModel(bad), undefined, JSON.stringify(bad));
    }
  });

  it('keeps card links only when they are absolute http(s) URLs', () => {
    for (const bad of [
      'javascript:alert(1)',
      'command:workbench.action.x',
      'file:///etc/passwd',
      'vscode://x',
      'data:text/html,x',
      '/relative',
      'https://',
      'https://a b',
      `https://x/${'a'.repeat(3000)}`,
      'https://"x"',
    ]) {
      assert.equal(httpUrl(bad), undefined, bad);
      assert.equal(normalizeModel({ id: 'x', model_card: bad })?.cardUrl, undefined, bad);
    }
    assert.equal(httpUrl('HTTPS://Example.com/a?b#c'), 'HTTPS://Example.com/a?b#c');
    // A bad early candidate does not hide a good later one.
    assert.equal(normalizeModel({ id: 'x', model_card: 'javascript:x', url: 'https://ok/x' })?.cardUrl, 'https://ok/x');
  });
});

describe('api/models: wrappers', () => {
  it('finds the list in a bare array or the first array wrapper', () => {
    const a = [{ id: 'a' }];
    assert.equal(extractList(a), a);
    for (const k of ['data', 'models', 'items', 'results', 'value', 'registered_models', 'entries']) {
      assert.equal(extractList({ [k]: a }), a, k);
    }
    assert.equal(extractList({ data: 'x', models: a }), a);
    assert.equal(extractList({ data: {} }), undefined);
    assert.equal(extractList('x'), undefined);
  });

  it('unwraps {model:{…}} and {data:{…}} but not an entry that has its own id', () => {
    assert.deepEqual(extractSingle({ model: { id: 'a' } }), { id: 'a' });
    assert.deepEqual(extractSingle({ data: { id: 'a' } }), { id: 'a' });
    const own = { id: 'b', data: { id: 'a' } };
    assert.equal(extractSingle(own), own);
    const ollama = { name: 'g', model: 'g:latest' };
    assert.equal(extractSingle(ollama), ollama);
  });
});

describe('api/models: card link check, fast path and regular expression agree', () => {
  it('on hand-picked and generated strings', async () => {
    const fc = (await import('fast-check')).default;
    const REGEX =
      /^https?:\/\/[^\s/?#@\\<>"'`\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+(?:[/?#][^\s\\<>"`\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]*)?$/i;
    const agree = (s: string): void => {
      const expected = s.length >= 8 && s.length <= 2048 && REGEX.test(s.trim()) ? s.trim() : undefined;
      assert.equal(httpUrl(s), expected, JSON.stringify(s));
    };
    [
      'https://a',
      'http://a/',
      'https:///x',
      'https://a@b/',
      "https://a'b/",
      'https://a/b@c',
      "https://a/'",
      'https://a?x',
      'https://#',
      'http://a b',
      ' https://a/x ',
      'https://a/\u202e',
      'https://é/',
    ].forEach(agree);
    fc.assert(
      fc.property(
        fc.tuple(
          fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', ''),
          fc.string({
            unit: fc.constantFrom('a', '/', '?', '#', '@', "'", '"', ' ', '\\', '\u202e', 'é', '\t', '.', ':'),
          }),
        ),
        ([scheme, rest]) => agree(scheme + rest),
      ),
      { seed: 7, numRuns: 5000 },
    );
  });
});
