// The Python snippets, run: python3 executes each one with stand-ins for the openai, requests and httpx
// packages (fakePython/, which print how they were called), so what the snippet would send — URL, headers,
// JSON value, the SDK's keyword arguments and extra_body — is checked without the packages or a network.
// pythonLiteral is checked the same way: Python reads back every JSON value it writes.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PostEndpoint } from '../../../../../src/api/types';
import { pythonLiteral } from '../../../../../src/requests/code/core/codeSnippets/python';
import { snippetHeaders, type SnippetRequest } from '../../../../../src/requests/code/core/codeSnippets/request';
import { snippetTarget } from '../../../../../src/requests/code/core/codeSnippets/targets';

const FAKES = path.join(__dirname, 'fakePython');
const KEY = 'ma-test-key';
const ROOT = 'https://models.example.com/api';

/** Values that take every branch of the literal writer: nesting, empties, every scalar, awkward text. */
const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1.5e-7,
  12345678901234,
  '',
  'It\'s "quoted" \\ \n\t é 中文 😀 \u2028',
  [],
  {},
  [[], {}, [1, [2, [3]]], { a: { b: { c: [] } } }],
  { 'key with "quotes"': [null, true, 'x'], '': 0, nested: { list: [{}, []] } },
];

/** Deeper than snippets write as literals: the value is parsed from JSON text instead. */
function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) {
    v = i % 2 ? { level: v } : [v];
  }
  return v;
}

function run(
  file: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      [file],
      {
        env: { PATH: process.env.PATH ?? '', PYTHONPATH: FAKES, PYTHONDONTWRITEBYTECODE: '1', ...env },
        cwd,
        timeout: 30_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout, err: stderr }),
    );
  });
}

describe('requests: Python snippets, run with stand-ins for their packages', function () {
  this.timeout(60_000);
  let dir: string;
  let n = 0;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'model-access-python-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function python(code: string, env: Record<string, string> = {}): Promise<string> {
    const file = path.join(dir, `snippet-${n++}.py`);
    writeFileSync(file, code);
    const r = await run(file, { MODEL_ACCESS_API_KEY: KEY, ...env }, dir);
    assert.equal(r.code, 0, `${code}\n--- stderr:\n${r.err}`);
    return r.out;
  }

  /** The one call the snippet made to a stand-in, and what the snippet printed after it. */
  async function callOf(target: string, request: SnippetRequest, env: Record<string, string> = {}) {
    const out = await python(snippetTarget(target)!.write(request), env);
    const calls = out.split('\n').filter((l) => l.startsWith('CALL '));
    assert.equal(calls.length, 1, out);
    const printed = out
      .split('\n')
      .filter((l) => !l.startsWith('CALL '))
      .join('\n');
    return { ...(JSON.parse(calls[0].slice(5)) as Record<string, unknown>), printed } as Record<string, unknown> & {
      printed: string;
    };
  }

  it('pythonLiteral: Python reads back every value it writes, nested or not, and a too-deep one from JSON', async () => {
    const values = [...VALUES, deep(40), { outer: deep(31) }];
    const code = [
      'import json',
      `values = [${values.map((v) => pythonLiteral(v)).join(', ')}]`,
      'print(json.dumps(values))',
    ];
    assert.deepEqual(JSON.parse(await python(code.join('\n'))), values);
    assert.match(pythonLiteral(deep(40)), /^json\.loads\(/);
    assert.doesNotMatch(pythonLiteral(deep(20)), /json\.loads/);
  });

  it('pythonLiteral: one entry per line, indented four spaces a level, as a person would write it', () => {
    assert.equal(
      pythonLiteral({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false, n: null }),
      [
        '{',
        '    "model": "m",',
        '    "messages": [',
        '        {',
        '            "role": "user",',
        '            "content": "hi",',
        '        },',
        '    ],',
        '    "stream": False,',
        '    "n": None,',
        '}',
      ].join('\n'),
    );
    assert.equal(pythonLiteral([]), '[]');
    assert.equal(pythonLiteral({}), '{}');
    assert.equal(pythonLiteral(Number.NaN), 'None');
    assert.equal(pythonLiteral(undefined), 'None');
  });

  for (const target of ['python-requests', 'python-httpx']) {
    for (const [endpoint, stream] of [
      ['/v1/chat', false],
      ['/v1/chat', true],
      ['/v1/embeddings', false],
    ] as [PostEndpoint, boolean][]) {
      it(`${target}: POST ${endpoint}${stream ? ' (streamed)' : ''} sends the URL, the key, the headers and the JSON value`, async () => {
        const body = { model: 'aurora-2', stream, input: VALUES, extra: { deep: deep(40) } };
        const headers = snippetHeaders({ 'X-Project': 'alpha' }, ['X-Org-Token']);
        const call = await callOf(
          target,
          { serviceRoot: ROOT, endpoint, body, headers },
          { MODEL_ACCESS_HEADER_X_ORG_TOKEN: 'secret' },
        );
        const how = target === 'python-requests' ? 'requests.post' : stream ? 'httpx.stream POST' : 'httpx.post';
        assert.equal(call.call, how);
        assert.equal(call.url, `${ROOT}${endpoint}`);
        assert.deepEqual(call.headers, {
          Authorization: `Bearer ${KEY}`,
          'X-Project': 'alpha',
          'X-Org-Token': 'secret',
        });
        assert.deepEqual(call.json, body);
        assert.equal(call.timeout, 120);
        assert.equal(call.stream, target === 'python-requests' && stream ? true : undefined);
        // The answer's status is checked, then its lines (streamed) or its JSON are printed.
        assert.equal(
          call.printed,
          stream
            ? `STATUS_CHECKED\nLINES decode_unicode=${target === 'python-requests' ? 'True' : 'False'}\nLINE1\n`
            : "STATUS_CHECKED\n{'answer': 1}\n",
        );
      });
    }
  }

  it('without a configured service, the URL is read from MODEL_ACCESS_BASE_URL', async () => {
    for (const target of ['python-requests', 'python-httpx']) {
      const call = await callOf(
        target,
        { endpoint: '/v1/chat', body: { model: 'm' } },
        { MODEL_ACCESS_BASE_URL: 'http://127.0.0.1:9/x' },
      );
      assert.equal(call.url, 'http://127.0.0.1:9/x/v1/chat');
    }
    const call = await callOf(
      'python-openai',
      { endpoint: '/v1/chat', body: { model: 'm' } },
      { MODEL_ACCESS_BASE_URL: 'http://h' },
    );
    assert.equal((call.client as { base_url: string }).base_url, 'http://h/v1');
  });

  it('python-openai: known parameters become keyword arguments, the rest goes in extra_body', async () => {
    const body = {
      model: 'aurora-2',
      input: 'Hello',
      temperature: 0.2,
      custom_field: { kept: [1, null] },
      'not an identifier': true,
    };
    const call = await callOf('python-openai', { serviceRoot: ROOT, endpoint: '/v1/responses', body });
    assert.equal(call.call, 'responses.create');
    assert.equal(call.printed, 'OUTPUT_TEXT\n', 'the answer’s text is printed');
    assert.deepEqual(call.client, { base_url: `${ROOT}/v1`, api_key: KEY, default_headers: null });
    assert.deepEqual(call.kwargs, {
      model: 'aurora-2',
      input: 'Hello',
      temperature: 0.2,
      extra_body: { custom_field: { kept: [1, null] }, 'not an identifier': true },
    });
    // A value too deep for a literal is parsed from JSON text: the snippet imports json for it.
    const deepInput = await callOf('python-openai', {
      serviceRoot: ROOT,
      endpoint: '/v1/responses',
      body: { model: 'm', input: deep(40) },
    });
    assert.deepEqual(deepInput.kwargs, { model: 'm', input: deep(40) });
    const plain = await callOf('python-openai', {
      serviceRoot: ROOT,
      endpoint: '/v1/embeddings',
      body: { model: 'e', input: ['a', 'b'], dimensions: 8 },
    });
    assert.equal(plain.call, 'embeddings.create');
    assert.deepEqual(plain.kwargs, { model: 'e', input: ['a', 'b'], dimensions: 8 });
    assert.equal(plain.printed, '0 5 [0.5, 1.5, 2.5, 3.5]\n', 'each embedding: index, length, first values');
  });

  it('python-openai: streamed responses, and chat (no SDK method) through the client’s own POST', async () => {
    const streamed = await callOf('python-openai', {
      serviceRoot: ROOT,
      endpoint: '/v1/responses',
      body: { model: 'm', input: 'x', stream: true },
    });
    assert.deepEqual(streamed.kwargs, { model: 'm', input: 'x', stream: true });
    assert.equal(streamed.printed, 'DELTA\n', 'the text deltas, then a line break; other events are not printed');
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false };
    const chat = await callOf('python-openai', { serviceRoot: ROOT, endpoint: '/v1/chat', body });
    assert.deepEqual(
      { call: chat.call, path: chat.path, body: chat.body, stream: chat.stream },
      { call: 'post', path: '/chat', body, stream: false },
    );
    assert.equal(chat.printed, 'ANSWER\n');
    const chatStream = await callOf('python-openai', {
      serviceRoot: ROOT,
      endpoint: '/v1/chat',
      body: { ...body, stream: true },
    });
    assert.deepEqual(
      { stream: chatStream.stream, stream_cls: chatStream.stream_cls },
      { stream: true, stream_cls: true },
    );
    assert.equal(chatStream.printed, 'EVENT\nEVENT\n', 'every event of the stream');
    // Chat has no SDK method even with an `input` field; a body that is not an object goes through POST too.
    const chatWithInput = await callOf('python-openai', {
      serviceRoot: ROOT,
      endpoint: '/v1/chat',
      body: { model: 'm', input: 'x' },
    });
    assert.equal(chatWithInput.call, 'post');
    for (const odd of ['just text', 42, ['model', 'input']]) {
      const call = await callOf('python-openai', { serviceRoot: ROOT, endpoint: '/v1/responses', body: odd });
      assert.deepEqual({ call: call.call, body: call.body }, { call: 'post', body: odd }, JSON.stringify(odd));
    }
    // A responses payload without input is not the shape the method expects: the generic POST sends it whole.
    const odd = await callOf('python-openai', { serviceRoot: ROOT, endpoint: '/v1/responses', body: { model: 'm' } });
    assert.deepEqual(
      { call: odd.call, path: odd.path, body: odd.body },
      { call: 'post', path: '/responses', body: { model: 'm' } },
    );
  });

  it('python-openai: the environment’s headers as default_headers, the secret one from its variable', async () => {
    const call = await callOf(
      'python-openai',
      {
        serviceRoot: ROOT,
        endpoint: '/v1/embeddings',
        body: { model: 'e', input: 'a' },
        headers: snippetHeaders({ 'X-Project': 'alpha' }, ['X-Org-Token']),
      },
      { MODEL_ACCESS_HEADER_X_ORG_TOKEN: 'secret' },
    );
    assert.deepEqual((call.client as { default_headers: unknown }).default_headers, {
      'X-Project': 'alpha',
      'X-Org-Token': 'secret',
    });
  });
});
