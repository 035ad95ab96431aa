// Pure helpers of the models explorer: ordering, grouping, filtering, text and link safety, failures.
import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../src/api/types';
import { describeFailure } from '../../src/common/failure';
import { modelFromArg } from '../../src/explorer/core/args';
import { checkCardLink, rawCardLink } from '../../src/explorer/core/linkSafety';
import {
  compareVersions,
  filterModels,
  groupSorted,
  naturalCompare,
  OTHER_FAMILY,
  sortModels,
} from '../../src/explorer/core/sorting';
import { Redactor } from '../../src/api/redact';
import { isLoopbackHost, originOf, validateBaseUrl } from '../../src/api/baseUrl';
import { resolveProxy } from '../../src/api/proxy';
import { displayText } from '../../src/common/text';

const m = (id: string, family?: string, version?: string, cardUrl?: string): ModelEntry => ({
  id,
  family,
  version,
  cardUrl,
  raw: { id },
});

describe('natural order', () => {
  it('compares digit runs as numbers', () => {
    const ids = ['aurora-10', 'aurora-2', 'aurora-1.5', 'aurora-1', 'aurora-2-mini'];
    assert.deepEqual([...ids].sort(naturalCompare), [
      'aurora-1',
      'aurora-1.5',
      'aurora-2',
      'aurora-2-mini',
      'aurora-10',
    ]);
  });

  it('orders versions naturally, pre-releases before their release', () => {
    const versions = ['1.10', '1.9', '2', '1.0.0', '1.0.0-rc1', '1.0.0-beta', '10', '2024-11-20', '2024-05-13'];
    assert.deepEqual([...versions].sort(compareVersions), [
      '1.0.0-beta',
      '1.0.0-rc1',
      '1.0.0',
      '1.9',
      '1.10',
      '2',
      '10',
      '2024-05-13',
      '2024-11-20',
    ]);
  });

  it('is case-insensitive, total and antisymmetric', () => {
    assert.ok(naturalCompare('Beta', 'alpha') > 0);
    assert.ok(naturalCompare('a', 'A') !== 0);
    assert.equal(Math.sign(naturalCompare('a', 'A')), -Math.sign(naturalCompare('A', 'a')));
    assert.equal(naturalCompare('x', 'x'), 0);
    assert.ok(naturalCompare('v007', 'v7') !== 0, 'leading zeros still break ties deterministically');
  });

  it('sorts accented letters among their base letters', () => {
    assert.deepEqual(['zeta-1', 'Émeraude-1', 'eagle-1', 'ezra-1'].sort(naturalCompare), [
      'eagle-1',
      'Émeraude-1',
      'ezra-1',
      'zeta-1',
    ]);
    assert.ok(naturalCompare('Émeraude-1', 'zeta-1') < 0);
    // Equal under the collation: next to each other, in a fixed order.
    const sorted = ['zeta', 'émeraude', 'ezra', 'emeraude', 'Emeraude', 'eagle'].sort(naturalCompare);
    assert.deepEqual(sorted.slice(1, 4).sort(), ['Emeraude', 'emeraude', 'émeraude']);
    assert.deepEqual([sorted[0], sorted[4], sorted[5]], ['eagle', 'ezra', 'zeta']);
  });

  it('is case-insensitive for letters and numeric for digit runs', () => {
    assert.deepEqual(['Model-B', 'model-a', 'MODEL-C'].sort(naturalCompare), ['model-a', 'Model-B', 'MODEL-C']);
    assert.ok(naturalCompare('model-2', 'model-10') < 0);
    assert.ok(naturalCompare('Model-2', 'model-10') < 0);
  });

  it('puts a pre-release before its release, also with accents or capitals in the tag', () => {
    assert.ok(compareVersions('1.0.0-rc1', '1.0.0') < 0);
    assert.ok(compareVersions('1.0.0-RC1', '1.0.0') < 0);
    assert.ok(compareVersions('1.0.0-rc2', '1.0.0-rc10') < 0);
    assert.ok(compareVersions('1.0.0-Été', '1.0.0-zeta') < 0);
    assert.ok(compareVersions('1.0.0', '1.0.1-beta') < 0);
  });

  it('handles digit runs longer than any number type', () => {
    assert.ok(naturalCompare('m-99999999999999999999999', 'm-100000000000000000000000') < 0);
  });
});

describe('sorting and grouping models', () => {
  const models = [
    m('zeta-2', 'zeta', '2'),
    m('aurora-10', 'aurora', '10'),
    m('loner'),
    m('aurora-2', 'aurora', '2'),
    m('Borealis', 'borealis', '1'),
    m('blank', '  '),
  ];

  it('sorts by family, then id, then version, with models without a family last', () => {
    assert.deepEqual(
      sortModels(models).map((x) => x.id),
      ['aurora-2', 'aurora-10', 'Borealis', 'zeta-2', 'blank', 'loner'],
    );
  });

  it('groups by family with "Other" last and counts', () => {
    const groups = groupSorted(sortModels(models));
    assert.deepEqual(
      groups.map((g) => [g.family, g.models.length]),
      [
        ['aurora', 2],
        ['borealis', 1],
        ['zeta', 1],
        [OTHER_FAMILY, 2],
      ],
    );
  });

  it('filters on every word over id, family and version', () => {
    assert.deepEqual(
      filterModels(models, 'AURORA 10').map((x) => x.id),
      ['aurora-10'],
    );
    assert.deepEqual(filterModels(models, '  ').length, models.length);
    assert.deepEqual(filterModels(models, 'nothing-like-this'), []);
  });

  it('keeps duplicates (the view makes their ids unique)', () => {
    assert.equal(sortModels([m('a'), m('a')]).length, 2);
  });
});

describe('Model Card link safety', () => {
  it('accepts absolute http and https links', () => {
    assert.deepEqual(checkCardLink('https://cards.example/acme/aurora-1'), {
      ok: true,
      url: 'https://cards.example/acme/aurora-1',
    });
    assert.equal(checkCardLink('http://cards.example/x?y=1#z').ok, true);
  });

  for (const link of [
    'command:workbench.action.terminal.new',
    'command:modelAccess.setApiKey?%5B%22x%22%5D',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'vscode://ms-vscode.remote-server/x',
    'vscode-insiders://x',
    'data:text/html,<script>alert(1)</script>',
    'ftp://cards.example/x',
    '//cards.example/x',
    '/relative/card',
    'https:cards.example',
    'https://user:pass@cards.example/x',
    'https://cards.example/a b',
    'https://cards.example/\u202egnp.exe',
    ' \n ',
    `https://cards.example/${'a'.repeat(5000)}`,
  ]) {
    it(`refuses ${JSON.stringify(link.slice(0, 60))}`, () => {
      const check = checkCardLink(link);
      assert.equal(check.ok, false);
      assert.ok(!check.ok && check.reason.length > 0);
    });
  }

  it('refuses non-strings', () => {
    assert.equal(checkCardLink(undefined).ok, false);
    assert.equal(checkCardLink(42).ok, false);
  });

  it('finds the card link in a raw entry to explain a refusal', () => {
    assert.equal(rawCardLink({ id: 'x', model_card_url: 'command:evil' }), 'command:evil');
    assert.equal(rawCardLink({ id: 'x', url: 'file:///x' }), 'file:///x');
    assert.equal(rawCardLink(['x']), undefined);
  });
});

describe('display text', () => {
  it('neutralises control, bidi and zero-width characters and truncates', () => {
    assert.equal(displayText('a\u0000b\nc'), 'a\ufffdb c');
    assert.equal(displayText('evil\u202Egnp.exe\u200b'), 'evilgnp.exe');
    const long = displayText('x'.repeat(10_000), 50);
    assert.equal(long.length, 50);
    assert.ok(long.endsWith('…'));
    assert.equal(displayText(undefined), '');
  });
});

describe('redaction', () => {
  it('removes registered secrets in plain, URL-encoded and JSON-escaped forms', () => {
    const r = new Redactor();
    const key = 'sk-canary/12+34"5';
    r.add(key);
    const text = `key ${key} url ?k=${encodeURIComponent(key)} json ${JSON.stringify(key)}`;
    const out = r.redact(text);
    assert.ok(!out.includes(key));
    assert.ok(!out.includes(encodeURIComponent(key)));
    assert.ok(!out.includes(JSON.stringify(key).slice(1, -1)));
  });

  it('removes bearer tokens and key-like parameters it was not told about', () => {
    const r = new Redactor();
    assert.equal(r.redact('Authorization: Bearer abc.def-123'), 'Authorization: Bearer [redacted]');
    assert.equal(r.redact('GET /x?api_key=abc123&y=1'), 'GET /x?api_key=[redacted]&y=1');
    assert.equal(r.redact('{"api_key": "zzz"}'), '{"api_key": "[redacted]"}');
  });
});

describe('service URL', () => {
  it('validates base URLs', () => {
    assert.equal(validateBaseUrl('https://models.example.com/api'), undefined);
    assert.equal(validateBaseUrl('http://127.0.0.1:8123'), undefined);
    assert.equal(validateBaseUrl('http://localhost:8123'), undefined);
    assert.ok(validateBaseUrl('http://models.example.com'));
    assert.equal(validateBaseUrl('http://models.example.com', true), undefined);
    assert.ok(validateBaseUrl('ftp://models.example.com'));
    assert.ok(validateBaseUrl('models.example.com'));
    assert.ok(validateBaseUrl('https://u:p@models.example.com'));
    assert.ok(validateBaseUrl('https://models.example.com/?x=1'));
    assert.ok(validateBaseUrl(''));
  });

  it('keys by origin: scheme, host and port', () => {
    assert.equal(originOf('https://Models.Example.com/api/v1'), 'https://models.example.com');
    assert.equal(originOf('http://127.0.0.1:8123/x'), 'http://127.0.0.1:8123');
    assert.notEqual(originOf('http://127.0.0.1:8123'), originOf('http://127.0.0.1:8124'));
    assert.equal(originOf('command:x'), undefined);
    assert.ok(isLoopbackHost('[::1]'));
    assert.ok(!isLoopbackHost('127.example.com'));
  });

  it('resolves the proxy from the setting, else the environment by scheme', () => {
    assert.equal(resolveProxy('https://h', { env: {} }), undefined);
    assert.equal(
      resolveProxy('https://h', { setting: 'http://p:1', env: { HTTPS_PROXY: 'http://e:2' } })?.url,
      'http://p:1',
    );
    assert.equal(resolveProxy('https://h', { env: { https_proxy: 'http://e:2' } })?.url, 'http://e:2');
    assert.equal(resolveProxy('http://h', { env: { HTTPS_PROXY: 'http://e:2' } })?.url, undefined);
    assert.deepEqual(resolveProxy('https://h', { noProxySetting: ['a'], env: { NO_PROXY: 'b, a' } })?.noProxy, [
      'a',
      'b',
    ]);
    assert.equal(resolveProxy('https://h', { strictSSL: false, env: {} })?.strictSSL, false);
  });
});

describe('failures as text', () => {
  it('401 asks for a new key', () => {
    const f = describeFailure({ kind: 'unauthorized', status: 401, message: 'invalid key', requestId: 'req_1' });
    assert.equal(f.message, 'The API key was rejected.');
    assert.equal(f.action, 'setApiKey');
    assert.match(f.detail, /req_1/);
  });

  it('network failures name the host and reason and offer Retry', () => {
    const f = describeFailure({ kind: 'network', message: 'connect ECONNREFUSED' }, '127.0.0.1:9');
    assert.equal(f.message, 'Cannot reach 127.0.0.1:9: connect ECONNREFUSED');
    assert.equal(f.action, 'retry');
    const g = describeFailure({
      kind: 'network',
      host: 'http://127.0.0.1:9',
      message: 'Could not connect to http://127.0.0.1:9: connection refused.',
    });
    assert.equal(g.message, 'Could not connect to http://127.0.0.1:9: connection refused.');
  });

  it('other statuses carry status, server message and request id', () => {
    const f = describeFailure({
      kind: 'http',
      status: 500,
      statusText: 'Internal Server Error',
      message: 'The server answered 500 Internal Server Error: upstream exploded (request id req_9)',
      serverMessage: 'upstream exploded',
      requestId: 'req_9',
    });
    assert.equal(f.message, 'The service answered 500 Internal Server Error: upstream exploded (request id req_9)');
    assert.equal(f.requestId, 'req_9');
    assert.equal(
      describeFailure({ kind: 'http', status: 502, message: 'The server answered 502 Bad Gateway' }).message,
      'The service answered 502',
    );
  });

  it('never passes control characters or huge messages through', () => {
    const f = describeFailure(new Error(`a\u0000\u202e${'x'.repeat(1000)}`));
    assert.ok(f.message.length <= 300);
    assert.ok(!/[\u0000\u202e]/.test(f.message));
  });
});

describe('command arguments', () => {
  const known = [m('a', 'f', '1')];
  it('accepts a tree node, an entry or an id', () => {
    assert.equal(modelFromArg({ model: known[0] }), known[0]);
    assert.equal(modelFromArg(known[0]), known[0]);
    assert.equal(modelFromArg('a', known), known[0]);
    assert.deepEqual(modelFromArg('zz', known), { id: 'zz', raw: undefined });
    assert.equal(modelFromArg(undefined), undefined);
    assert.equal(modelFromArg({}), undefined);
  });
});
