import * as assert from 'node:assert/strict';
import { extractList, extractSingle, httpUrl, normalizeInto, normalizeModel } from '../../../src/api/models';

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
    // One space on one side only: the fast path for clean values must not keep it.
    assert.deepEqual(
      [' x', 'x ']
        .map((id) => normalizeModel({ id, family: id, version: id }))
        .map((m) => [m?.id, m?.family, m?.version]),
      [
        ['x', 'x', 'x'],
        ['x', 'x', 'x'],
      ],
    );
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
  it('finds no list in a body that is null, text or a number', () => {
    for (const body of [null, 'data', 42, true]) {
      assert.equal(extractList(body), undefined, JSON.stringify(body));
    }
  });

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
      ' https://a/x',
      'https://a/x ',
      'https://a/<',
      'https://a/>',
      'https://a/\u007f',
      'https://a/\u202e',
      'https://é/',
    ].forEach(agree);
    fc.assert(
      fc.property(
        fc.tuple(
          fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', ''),
          fc.string({
            unit: fc.constantFrom(
              ...['a', '/', '?', '#', '@', "'", '"', ' ', '\\', '\u202e', 'é', '\t', '.', ':'],
              ...['<', '>', '`', '\u007f', '\u0080'],
            ),
          }),
        ),
        ([scheme, rest]) => agree(scheme + rest),
      ),
      { seed: 7, numRuns: 5000 },
    );
  });
});

describe('api/models: every field name of docs/service-shapes.md', () => {
  it('reads the id from each id field, in order of preference', () => {
    const keys = ['id', 'identifier', 'model_id', 'modelId', 'name', 'model', 'full_name', 'slug', 'key', '_id'];
    for (const [i, k] of keys.entries()) {
      assert.equal(normalizeModel({ [k]: `v-${k}` })?.id, `v-${k}`, k);
      // Every later name loses to this one.
      const later = Object.fromEntries(keys.slice(i + 1).map((l) => [l, `later-${l}`]));
      assert.equal(normalizeModel({ ...later, [k]: `v-${k}` })?.id, `v-${k}`, `${k} first`);
    }
    assert.equal(normalizeModel({ id: 12n })?.id, '12');
    assert.equal(normalizeModel({ id: Infinity, name: 'n' })?.id, 'n');
    assert.equal(normalizeModel({ id: true, name: 'n' })?.id, 'n');
  });

  it('reads the family from each family field, and from the first element of an array', () => {
    const keys = [
      'model_family',
      'modelFamily',
      'line',
      'series',
      'architecture',
      'base_model',
      'baseModelId',
      'model_type',
    ];
    for (const [i, k] of keys.entries()) {
      assert.equal(normalizeModel({ id: 'x', [k]: `f-${k}` })?.family, `f-${k}`, k);
      const later = Object.fromEntries(keys.slice(i + 1).map((l) => [l, `later-${l}`]));
      assert.equal(normalizeModel({ id: 'x', ...later, [k]: `f-${k}` })?.family, `f-${k}`, `${k} first`);
    }
    assert.equal(normalizeModel({ id: 'x', series: ['s1', 's2'] })?.family, 's1');
    assert.equal(normalizeModel({ id: 'x', line: '  ', series: 's' })?.family, 's');
    assert.equal(normalizeModel({ id: 'x', line: {}, series: 's' })?.family, 's');
  });

  it('reads a family given directly, nested in details or families, or as {name|id|value|version}', () => {
    const family = (m: Record<string, unknown>) => normalizeModel({ id: 'x', ...m })?.family;
    assert.equal(family({ family: '  padded ' }), 'padded');
    assert.equal(family({ family: ' ', line: 'l' }), 'l');
    assert.equal(family({ family: '', line: 'l' }), 'l');
    assert.equal(family({ family: 7 }), '7');
    assert.equal(family({ family: 'top', details: { family: 'nested' } }), 'top');
    assert.equal(family({ details: { family: 'd' }, line: 'l' }), 'd');
    assert.equal(family({ details: { families: ['df', 'x'] }, line: 'l' }), 'df');
    assert.equal(family({ families: ['top', 'x'], line: 'l' }), 'top');
    assert.equal(family({ details: { family: '' }, families: ['top'] }), 'top');
    assert.equal(family({ architecture: { id: 'a-id' } }), 'a-id');
    assert.equal(family({ architecture: { value: 'a-value' } }), 'a-value');
    assert.equal(family({ architecture: { version: 'a-version' } }), 'a-version');
    assert.equal(family({ architecture: { name: 'n', id: 'i' } }), 'n');
    assert.equal(family({ architecture: { name: ' ', id: 'i' } }), 'i');
    assert.equal(family({ architecture: [{ name: 'first' }] }), 'first');
    assert.equal(family({ owned_by: 'acme', publisher: 'p' }), undefined);
  });

  it('reads the version from each version field, latest_versions, or an Ollama tag', () => {
    const keys = ['version', 'model_version', 'modelVersion', 'version_id', 'versionId', 'version_num', 'revision'];
    for (const [i, k] of keys.entries()) {
      assert.equal(normalizeModel({ id: 'x', [k]: `r-${k}` })?.version, `r-${k}`, k);
      const later = Object.fromEntries(keys.slice(i + 1).map((l) => [l, `later-${l}`]));
      assert.equal(normalizeModel({ id: 'x', ...later, [k]: `r-${k}` })?.version, `r-${k}`, `${k} first`);
    }
    const version = (m: Record<string, unknown>) => normalizeModel({ id: 'x', ...m })?.version;
    assert.equal(version({ version: '', revision: 'r' }), 'r');
    assert.equal(version({ version: { name: 'v2' } }), 'v2');
    assert.equal(version({ latest_versions: [{ version: 4 }], tag: 'a:b' }), '4');
    assert.equal(version({ latest_versions: [], tag: 'a:b' }), 'b');
    assert.equal(version({ tag: 'plain' }), 'plain');
    assert.equal(version({ tag: 'registry:5000/m:q4' }), 'q4');
    assert.equal(version({ tag: 'm:' }), undefined);
    assert.equal(version({ tag: ':x' }), 'x');
    assert.equal(version({}), undefined);
  });

  it('reads the card link from each card field, then links, _links, and url/html_url/href last', () => {
    const keys = [
      'model_card_url',
      'modelCardUrl',
      'model_card',
      'modelCard',
      'card_url',
      'cardUrl',
      'documentation_url',
      'docs_url',
    ];
    const card = (m: Record<string, unknown>) => normalizeModel({ id: 'x', ...m })?.cardUrl;
    for (const [i, k] of keys.entries()) {
      assert.equal(card({ [k]: `https://c/${k}` }), `https://c/${k}`, k);
      const later = Object.fromEntries(keys.slice(i + 1).map((l) => [l, `https://later/${l}`]));
      assert.equal(card({ url: 'https://u', ...later, [k]: `https://c/${k}` }), `https://c/${k}`, `${k} first`);
    }
    assert.equal(card({ links: { card: 'https://c/links-card' }, url: 'https://u' }), 'https://c/links-card');
    assert.equal(card({ links: { model_card: 'https://c/mc', card: 'https://c/c' } }), 'https://c/mc');
    assert.equal(card({ _links: { card: { href: 'https://c/hal' } }, url: 'https://u' }), 'https://c/hal');
    assert.equal(card({ html_url: 'https://c/html' }), 'https://c/html');
    assert.equal(card({ href: 'https://c/href' }), 'https://c/href');
    assert.equal(card({ url: 'https://c/url', html_url: 'https://c/html', href: 'https://c/href' }), 'https://c/url');
    assert.equal(card({ url: 'mailto:x', html_url: 'https://c/html' }), 'https://c/html');
    assert.equal(card({ model_card: { href: 'https://c/obj-href' } }), 'https://c/obj-href');
    assert.equal(card({ model_card: { url: 'https://c/u', href: 'https://c/h' } }), 'https://c/u');
    assert.equal(card({ model_card: { url: 5, href: 'https://c/h' } }), 'https://c/h');
    assert.equal(card({ model_card: 42 }), undefined);
  });

  it('checks card links: length limits, padding, host, user info and quotes', () => {
    assert.equal(httpUrl('http://a'), 'http://a');
    assert.equal(httpUrl('http://'), undefined);
    assert.equal(httpUrl(`https://h/${'a'.repeat(2048 - 10)}`)?.length, 2048);
    assert.equal(httpUrl(`https://h/${'a'.repeat(2048 - 9)}`), undefined);
    assert.equal(httpUrl('  https://h/x\n'), 'https://h/x');
    assert.equal(httpUrl('https://h/x '), 'https://h/x');
    assert.equal(httpUrl('https://u@h/'), undefined);
    assert.equal(httpUrl("https://h'/"), undefined);
    assert.equal(httpUrl("https://h/it's"), "https://h/it's");
    assert.equal(httpUrl('https://h/a@b'), 'https://h/a@b');
    assert.equal(httpUrl('https:///path'), undefined);
    assert.equal(httpUrl('https://?q'), undefined);
    assert.equal(httpUrl('https://h/a`b'), undefined);
    assert.equal(httpUrl('https://h/a\\b'), undefined);
    assert.equal(httpUrl('https://h/<b>'), undefined);
    assert.equal(httpUrl('https://h/é'), 'https://h/é');
    assert.equal(httpUrl('Https://h/x'), 'Https://h/x');
    assert.equal(httpUrl({ href: 'https://h/x' }), 'https://h/x');
    assert.equal(httpUrl(['https://h/x']), undefined);
    assert.equal(httpUrl(null), undefined);
  });

  it('skips entries without an id and counts them', () => {
    const out: ReturnType<typeof normalizeModel>[] = [];
    assert.equal(normalizeInto([{ id: 'a' }, null, { name: ' ' }, { id: 'b' }], out as never[]), 2);
    assert.deepEqual(
      out.map((m) => m?.id),
      ['a', 'b'],
    );
  });

  it('unwraps {item:{…}} and {result:{…}}, and a one-element array', () => {
    assert.deepEqual(extractSingle({ item: { id: 'i' } }), { id: 'i' });
    assert.deepEqual(extractSingle({ result: { id: 'r' } }), { id: 'r' });
    assert.deepEqual(extractSingle({ model: 'name-only', data: { id: 'd' } }), {
      model: 'name-only',
      data: { id: 'd' },
    });
    assert.deepEqual(extractSingle({ status: 'x', data: { id: 'd' } }), { id: 'd' });
    assert.deepEqual(extractSingle([{ id: 'only' }]), { id: 'only' });
    const two = [{ id: 'a' }, { id: 'b' }];
    assert.equal(extractSingle(two), two);
    const bare = { status: 'x' };
    assert.equal(extractSingle(bare), bare);
    assert.equal(extractSingle('text'), 'text');
  });
});
