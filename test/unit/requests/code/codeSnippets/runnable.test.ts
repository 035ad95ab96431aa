// The snippets run: JavaScript with Node (the openai npm package and fetch) and bash with curl, against the
// local service, which must receive the payload's JSON value and the key from MODEL_ACCESS_API_KEY. Python
// packages cannot be installed here, so the Python snippets are compiled (`python3 -m py_compile`).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PostEndpoint } from '../../../../../src/api/types';
import { SNIPPET_TARGETS, snippetTarget } from '../../../../../src/requests/code/core/codeSnippets/targets';
import {
  secretHeaderVariable,
  snippetHeaders,
  type SnippetRequest,
} from '../../../../../src/requests/code/core/codeSnippets/request';
import { startServer, type RunningServer } from '../../../../server';
import { generateText, questionText } from '../../../../server/generation';

const root = path.join(__dirname, '..', '..', '..', '..', '..');
/** A prompt every shell and language would like to change: quotes, expansions, escapes, newlines, unicode. */
const HOSTILE = `It's "quoted" $HOME \${PATH} \`id\` %PATH% !x! ^& | < > \\ \\n\nnew line\ttab é 中文 😀 \u2019’’ @- --data`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: { PATH: process.env.PATH ?? '', ...env }, cwd, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function bodyFor(endpoint: PostEndpoint, model: string, stream: boolean): Record<string, unknown> {
  switch (endpoint) {
    case '/v1/chat':
      return {
        model,
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: HOSTILE },
        ],
        stream,
        custom_field: { nested: [1, 2.5, true, null, 'x'] },
      };
    case '/v1/embeddings':
      return { model, input: [HOSTILE, 'second'] };
    default:
      return { model, input: HOSTILE, stream, temperature: 0.2, custom_field: 'kept' };
  }
}

const CASES: { endpoint: PostEndpoint; stream: boolean }[] = [
  { endpoint: '/v1/responses', stream: false },
  { endpoint: '/v1/responses', stream: true },
  { endpoint: '/v1/chat', stream: false },
  { endpoint: '/v1/chat', stream: true },
  { endpoint: '/v1/embeddings', stream: false },
];

describe('requests: code snippets run against the service', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dir: string;
  let model: string;

  before(async () => {
    server = await startServer();
    dir = mkdtempSync(path.join(tmpdir(), 'model-access-snippets-'));
    // The snippets import 'openai' as an application would: from a node_modules beside them.
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    model = server.registry.models.find((m) => m.organization === 'acme')!.id;
  });

  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runners: Record<string, (file: string) => [string, string[]]> = {
    'js-openai': (file) => [process.execPath, [file]],
    'js-fetch': (file) => [process.execPath, [file]],
    'curl-bash': (file) => ['bash', [file]],
  };

  for (const targetId of Object.keys(runners)) {
    for (const { endpoint, stream } of CASES) {
      it(`${targetId}: POST ${endpoint}${stream ? ' (streamed)' : ''} reaches the service and prints the answer`, async () => {
        const target = snippetTarget(targetId)!;
        const body = bodyFor(endpoint, model, stream);
        const request: SnippetRequest = { serviceRoot: server.url, endpoint, body };
        const code = target.write(request);
        assert.ok(!code.includes(server.keys.acme), 'the key is not in the snippet');
        const file = path.join(
          dir,
          `${targetId}-${endpoint.slice(4)}-${stream}.${targetId === 'curl-bash' ? 'sh' : 'mjs'}`,
        );
        writeFileSync(file, code);
        const before = server.received(endpoint).length;
        const [cmd, args] = runners[targetId](file);
        const result = await run(cmd, args, { MODEL_ACCESS_API_KEY: server.keys.acme }, dir);
        assert.equal(result.code, 0, `${code}\n--- stderr:\n${result.stderr}\n--- stdout:\n${result.stdout}`);
        const received = server.received(endpoint);
        assert.equal(received.length, before + 1, 'one request');
        const last = received.at(-1)!;
        // The openai package asks for embeddings as base64 (and decodes them) unless the payload chose a format.
        const sdkAdds = targetId === 'js-openai' && endpoint === '/v1/embeddings' ? { encoding_format: 'base64' } : {};
        assert.deepEqual(last.json, { ...sdkAdds, ...body }, 'the service received the payload’s JSON value');
        assert.equal(last.status, 200);
        assert.ok(last.authorization && last.organization === 'acme', 'the key from MODEL_ACCESS_API_KEY was sent');
        assert.match(last.headers['content-type'] ?? '', /^application\/json/);
        if (targetId === 'js-openai' && endpoint === '/v1/embeddings') {
          // Each embedding: its index, its length and its first values.
          assert.match(result.stdout, /^0 \d+ \[/m, result.stdout);
          assert.match(result.stdout, /^1 \d+ \[/m, result.stdout);
        }
        if (targetId === 'js-openai' && endpoint === '/v1/responses' && stream) {
          assert.ok(result.stdout.endsWith('\n'), 'the streamed text ends its line');
        }
        if (endpoint !== '/v1/embeddings') {
          const expected = generateText(model, questionText(endpoint === '/v1/chat' ? body.messages : body.input));
          // A stream prints pieces (raw events or deltas); the first words of the answer are in one piece.
          const firstWords = expected.split(' ').slice(0, 2).join(' ');
          assert.ok(result.stdout.includes(stream ? firstWords.split(' ')[0] : firstWords), result.stdout);
          if (!stream && targetId !== 'curl-bash') {
            assert.ok(
              result.stdout.includes(JSON.stringify(expected).slice(1, -1)) || result.stdout.includes(expected),
            );
          }
        }
      });
    }
  }

  it('without a configured service, the bash and fetch snippets read the URL from MODEL_ACCESS_BASE_URL', async () => {
    for (const [targetId, ext, cmd] of [
      ['curl-bash', 'sh', 'bash'],
      ['js-fetch', 'mjs', process.execPath],
      ['js-openai', 'mjs', process.execPath],
    ]) {
      const body = bodyFor('/v1/chat', model, false);
      const code = snippetTarget(targetId)!.write({ endpoint: '/v1/chat', body });
      assert.ok(!code.includes(server.url));
      const file = path.join(dir, `env-${targetId}.${ext}`);
      writeFileSync(file, code);
      const result = await run(
        cmd,
        [file],
        { MODEL_ACCESS_API_KEY: server.keys.acme, MODEL_ACCESS_BASE_URL: server.url },
        dir,
      );
      assert.equal(result.code, 0, `${targetId}: ${result.stderr}`);
      assert.deepEqual(server.lastReceived('/v1/chat').json, body);
    }
  });

  it('a payload with "__proto__" keys reaches the service with them (an object literal would drop them)', async () => {
    const body = JSON.parse('{"input":"x","__proto__":{"polluted":true},"list":[{"__proto__":1}],"n":null}') as Record<
      string,
      unknown
    >;
    body.model = model;
    for (const targetId of ['js-fetch', 'js-openai']) {
      const code = snippetTarget(targetId)!.write({ serviceRoot: server.url, endpoint: '/v1/responses', body });
      assert.ok(code.includes('JSON.parse('), `${targetId} parses the value from JSON text`);
      const file = path.join(dir, `proto-${targetId}.mjs`);
      writeFileSync(file, code);
      const result = await run(process.execPath, [file], { MODEL_ACCESS_API_KEY: server.keys.acme }, dir);
      assert.equal(result.code, 0, `${targetId}: ${result.stderr}`);
      assert.deepEqual(server.lastReceived('/v1/responses').json, body);
    }
    // Without such a key, or with one only in an array's element that is not an object, the literal is written.
    const plain = snippetTarget('js-fetch')!.write({
      serviceRoot: server.url,
      endpoint: '/v1/responses',
      body: { model, list: ['__proto__', null, [1]] },
    });
    assert.ok(!plain.includes('JSON.parse('), plain);
  });

  it('without the key in the environment the service refuses the snippet’s request (nothing else supplies one)', async () => {
    const file = path.join(dir, 'nokey.mjs');
    writeFileSync(
      file,
      snippetTarget('js-fetch')!.write({
        serviceRoot: server.url,
        endpoint: '/v1/responses',
        body: bodyFor('/v1/responses', model, false),
      }),
    );
    const result = await run(process.execPath, [file], {}, dir);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /401/);
  });

  it('every Python snippet compiles (py_compile), for every endpoint, streamed or not, with and without a configured URL', async () => {
    const written = new Map<string, string>();
    for (const target of SNIPPET_TARGETS.filter((t) => t.language === 'python')) {
      for (const { endpoint, stream } of CASES) {
        for (const serviceRoot of [server.url, undefined]) {
          const code = target.write({ serviceRoot, endpoint, body: bodyFor(endpoint, model, stream) });
          const file = path.join(dir, `${target.id}-${endpoint.slice(4)}-${stream}-${serviceRoot ? 'url' : 'env'}.py`);
          writeFileSync(file, code);
          written.set(file, code);
        }
      }
    }
    // One interpreter compiles them all (one python3 start per file cost 20 s): it prints the files that fail.
    const compileAll =
      'import py_compile, sys\n' +
      'for f in sys.argv[1:]:\n' +
      '    try: py_compile.compile(f, doraise=True)\n' +
      '    except py_compile.PyCompileError as e: print(f + "\\0" + e.msg.replace("\\n", " "))\n';
    const result = await run('python3', ['-c', compileAll, ...written.keys()], {}, dir);
    assert.equal(result.code, 0, result.stderr);
    const failed = result.stdout.split('\n').filter(Boolean);
    assert.deepEqual(
      failed.map((line) => `${written.get(line.split('\0')[0])}\n${line.split('\0')[1]}`),
      [],
      'Python snippets that do not compile',
    );
    assert.ok(written.size >= 8, `${written.size} snippets compiled`);
  });

  describe('with the environment’s extra headers', () => {
    /** What a shell or language would like to change, in a value HTTP allows (visible ASCII and spaces). */
    const VALUE = `It's "q" $HOME \${PATH} \`id\` %PATH% !x! ^& | < > \\ end`;
    const SECRET = `s3cr3t-${Date.now()}`;
    const VARIABLE = secretHeaderVariable('X-Org-Token');
    const headers = snippetHeaders({ 'X-Project': VALUE }, ['X-Org-Token']);

    it('the bash and JavaScript snippets send each header: the plain one as written, the secret one from its variable', async () => {
      assert.equal(VARIABLE, 'MODEL_ACCESS_HEADER_X_ORG_TOKEN');
      for (const [targetId, ext, cmd] of [
        ['curl-bash', 'sh', 'bash'],
        ['js-fetch', 'mjs', process.execPath],
        ['js-openai', 'mjs', process.execPath],
      ]) {
        const body = bodyFor('/v1/chat', model, false);
        const code = snippetTarget(targetId)!.write({ serviceRoot: server.url, endpoint: '/v1/chat', body, headers });
        assert.ok(code.includes(VARIABLE), `${targetId} names the secret header’s variable`);
        const file = path.join(dir, `headers-${targetId}.${ext}`);
        writeFileSync(file, code);
        const result = await run(cmd, [file], { MODEL_ACCESS_API_KEY: server.keys.acme, [VARIABLE]: SECRET }, dir);
        assert.equal(result.code, 0, `${targetId}: ${result.stderr}\n${code}`);
        const last = server.lastReceived('/v1/chat');
        assert.equal(last.headers['x-project'], VALUE, `${targetId}: the plain header as written`);
        assert.equal(last.headers['x-org-token'], SECRET, `${targetId}: the secret header from its variable`);
      }
    });

    it('the Python snippets build the same headers (requests, httpx) and compile (openai)', async () => {
      for (const target of SNIPPET_TARGETS.filter((t) => t.language === 'python')) {
        const code = target.write({ serviceRoot: server.url, endpoint: '/v1/chat', body: {}, headers });
        const file = path.join(dir, `headers-${target.id}.py`);
        writeFileSync(file, code);
        assert.equal((await run('python3', ['-m', 'py_compile', file], {}, dir)).code, 0, code);
        const line = code.split('\n').find((l) => l.startsWith('headers = '));
        if (target.id === 'python-openai') {
          assert.match(code, /default_headers=\{"X-Project": .*os\.environ\["MODEL_ACCESS_HEADER_X_ORG_TOKEN"\]\}/);
          continue;
        }
        assert.ok(line, `${target.id} has a headers dict`);
        const check = path.join(dir, `headers-${target.id}-check.py`);
        writeFileSync(check, `import json, os\n${line}\nprint(json.dumps(headers))\n`);
        const result = await run('python3', [check], { MODEL_ACCESS_API_KEY: 'k', [VARIABLE]: SECRET }, dir);
        assert.deepEqual(JSON.parse(result.stdout), {
          Authorization: 'Bearer k',
          'X-Project': VALUE,
          'X-Org-Token': SECRET,
        });
      }
    });

    it('PowerShell reads the secret from $env:, cmd.exe from %…%, and cmd.exe leaves out a value it would change, saying so', () => {
      const request = { serviceRoot: server.url, endpoint: '/v1/chat' as const, body: {}, headers };
      const ps = snippetTarget('curl-powershell')!.write(request);
      assert.ok(ps.includes(`-H ('X-Org-Token: ' + $env:${VARIABLE})`), ps);
      assert.ok(ps.includes(`$env:${VARIABLE}; its value is not written here`), ps);
      const cmd = snippetTarget('curl-cmd')!.write(request);
      assert.ok(cmd.includes(`-H "X-Org-Token: %${VARIABLE}%"`), cmd);
      assert.ok(!cmd.includes(VALUE), 'the value cmd.exe would change is not written');
      assert.match(cmd, /REM The header X-Project holds characters cmd\.exe would change: it is left out/);
      const plain = snippetTarget('curl-cmd')!.write({
        ...request,
        headers: snippetHeaders({ 'X-Project': 'alpha-1' }, []),
      });
      assert.ok(plain.includes('-H "X-Project: alpha-1"'), plain);
      for (const code of [ps, cmd]) {
        assert.ok(!code.includes(SECRET), 'no secret value in any snippet');
      }
    });
  });
});
