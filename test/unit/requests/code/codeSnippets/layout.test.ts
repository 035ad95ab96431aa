// The whole text of the snippets this machine cannot run (PowerShell, cmd.exe) and of one it can, as a
// person pastes them: every line, its continuation character and its order. Written out here by hand from
// what each shell needs; the runnable ones are also run (runnable.test.ts, python.test.ts).
import * as assert from 'node:assert/strict';
import { snippetHeaders } from '../../../../../src/requests/code/core/codeSnippets/request';
import { snippetTarget } from '../../../../../src/requests/code/core/codeSnippets/targets';

const request = {
  serviceRoot: 'https://models.example.com/api',
  endpoint: '/v1/chat' as const,
  body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true },
  headers: snippetHeaders({ 'X-Project': 'alpha 1' }, ['X-Org-Token']),
};

const write = (id: string, r: Parameters<NonNullable<ReturnType<typeof snippetTarget>>['write']>[0] = request) =>
  snippetTarget(id)!.write(r);

describe('requests: snippet layout, line by line', () => {
  it('PowerShell: the body piped to curl.exe, backtick continuations, the secret header from $env:', () => {
    assert.equal(
      write('curl-powershell'),
      [
        '# PowerShell (Windows PowerShell 5.1 or PowerShell 7; on macOS and Linux write curl for curl.exe).',
        '# Set $env:MODEL_ACCESS_API_KEY first; the key is not written here.',
        '# The secret header X-Org-Token is read from $env:MODEL_ACCESS_HEADER_X_ORG_TOKEN; its value is not written here.',
        `$body = '{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}'`,
        "$body | curl.exe -N -sS -X POST 'https://models.example.com/api/v1/chat' `",
        '  -H "Authorization: Bearer $env:MODEL_ACCESS_API_KEY" `',
        "  -H 'Content-Type: application/json' `",
        "  -H 'X-Project: alpha 1' `",
        "  -H ('X-Org-Token: ' + $env:MODEL_ACCESS_HEADER_X_ORG_TOKEN) `",
        "  --data-binary '@-'",
      ].join('\n'),
    );
  });

  it('PowerShell without a configured service reads the URL from $env:MODEL_ACCESS_BASE_URL', () => {
    const ps = write('curl-powershell', { endpoint: '/v1/chat', body: {} });
    assert.equal(ps.split('\n')[2], '# The service URL is read from $env:MODEL_ACCESS_BASE_URL.');
    assert.ok(ps.includes('curl.exe -sS -X POST "$env:MODEL_ACCESS_BASE_URL/v1/chat" `'), ps);
  });

  it('cmd.exe: caret continuations, %…% variables, quotes escaped for curl.exe', () => {
    assert.equal(
      write('curl-cmd'),
      [
        'REM cmd.exe. Set MODEL_ACCESS_API_KEY first; the key is not written here.',
        'REM The secret header X-Org-Token is read from MODEL_ACCESS_HEADER_X_ORG_TOKEN; its value is not written here.',
        'curl.exe -N -sS -X POST "https://models.example.com/api/v1/chat" ^',
        '  -H "Authorization: Bearer %MODEL_ACCESS_API_KEY%" ^',
        '  -H "Content-Type: application/json" ^',
        '  -H "X-Project: alpha 1" ^',
        '  -H "X-Org-Token: %MODEL_ACCESS_HEADER_X_ORG_TOKEN%" ^',
        '  --data-binary "{\\"model\\":\\"m\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"hi\\"}],\\"stream\\":true}"',
      ].join('\n'),
    );
  });

  it('cmd.exe: a URL or header value it would change is left to a variable or out, each said in a REM line', () => {
    assert.equal(
      write('curl-cmd', {
        serviceRoot: 'https://models.example.com/a%20b',
        endpoint: '/v1/embeddings',
        body: { model: 'e', input: 'x' },
        headers: snippetHeaders({ 'X-Bad': 'a"b', 'X-Good': 'ok' }, []),
      }),
      [
        'REM cmd.exe. Set MODEL_ACCESS_API_KEY first; the key is not written here.',
        'REM This service URL holds characters cmd.exe would change: set MODEL_ACCESS_BASE_URL to it first.',
        'REM The header X-Bad holds characters cmd.exe would change: it is left out; add it by hand.',
        'curl.exe -sS -X POST "%MODEL_ACCESS_BASE_URL%/v1/embeddings" ^',
        '  -H "Authorization: Bearer %MODEL_ACCESS_API_KEY%" ^',
        '  -H "Content-Type: application/json" ^',
        '  -H "X-Good: ok" ^',
        '  --data-binary "{\\"model\\":\\"e\\",\\"input\\":\\"x\\"}"',
      ].join('\n'),
    );
    // No service configured at all: the URL is read from the variable without a line saying cmd would change it.
    const unset = write('curl-cmd', { endpoint: '/v1/embeddings', body: {} });
    assert.ok(unset.includes('REM The service URL is read from MODEL_ACCESS_BASE_URL.'), unset);
    assert.ok(!unset.includes('would change'), unset);
  });

  it('bash: backslash continuations, one header a line', () => {
    assert.equal(
      write('curl-bash', { ...request, headers: snippetHeaders({ 'X-Project': 'alpha 1' }, []) }),
      [
        '# bash, zsh (POSIX shell). Set MODEL_ACCESS_API_KEY first; the key is not written here.',
        "curl -N -sS -X POST 'https://models.example.com/api/v1/chat' \\",
        '  -H "Authorization: Bearer $MODEL_ACCESS_API_KEY" \\',
        "  -H 'Content-Type: application/json' \\",
        "  -H 'X-Project: alpha 1' \\",
        `  --data-binary '{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}'`,
      ].join('\n'),
    );
  });

  it('fetch: the body as an indented literal inside JSON.stringify, the headers in the object', () => {
    const lines = write('js-fetch').split('\n');
    assert.deepEqual(lines.slice(2, 20), [
      'const response = await fetch("https://models.example.com/api/v1/chat", {',
      "  method: 'POST',",
      '  headers: {',
      '    Authorization: `Bearer ${process.env.MODEL_ACCESS_API_KEY}`,',
      "    'Content-Type': 'application/json',",
      '    "X-Project": "alpha 1",',
      '    "X-Org-Token": process.env.MODEL_ACCESS_HEADER_X_ORG_TOKEN,',
      '  },',
      '  body: JSON.stringify({',
      '    "model": "m",',
      '    "messages": [',
      '      {',
      '        "role": "user",',
      '        "content": "hi"',
      '      }',
      '    ],',
      '    "stream": true',
      '  }),',
    ]);
    assert.equal(
      lines[0],
      '// Node 20+ ES module (.mjs) with fetch. Set MODEL_ACCESS_API_KEY first; the key is not written here.',
    );
  });

  it('the openai packages: what they run on, and /v1/chat through the client’s own POST with the path after /v1', () => {
    const js = write('js-openai', { serviceRoot: 'https://h/v1x', endpoint: '/v1/chat', body: { stream: false } });
    assert.equal(
      js.split('\n')[0],
      '// Node 20+ ES module (.mjs) with the openai package (npm install openai). Set MODEL_ACCESS_API_KEY first; the key is not written here.',
    );
    assert.ok(js.includes('await client.post("/chat", { body });'), js);
    const responses = write('js-openai', { serviceRoot: 'https://h', endpoint: '/v1/responses', body: { input: 'x' } });
    assert.ok(responses.includes('const response = await client.responses.create({'), responses);
    assert.ok(!responses.includes('client.post('), responses);
    const streamed = write('js-openai', { serviceRoot: 'https://h', endpoint: '/v1/chat', body: { stream: true } });
    assert.ok(streamed.includes('await client.post("/chat", { body, stream: true });'), streamed);
    const py = write('python-openai', { serviceRoot: 'https://h', endpoint: '/v1/chat', body: {} });
    assert.equal(
      py.split('\n')[0],
      '# Python 3 with the openai package (pip install openai). Set MODEL_ACCESS_API_KEY first; the key is not written here.',
    );
    for (const [id, tool] of [
      ['python-httpx', 'httpx (pip install httpx)'],
      ['python-requests', 'requests (pip install requests)'],
    ]) {
      assert.equal(
        write(id).split('\n')[0],
        `# Python 3 with ${tool}. Set MODEL_ACCESS_API_KEY first; the key is not written here.`,
      );
    }
  });
});
