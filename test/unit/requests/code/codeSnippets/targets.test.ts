// What a person reads of Copy as Code before and at the top of a snippet: the language picker's entries, the
// opening comment lines, and where a snippet stops writing a value as a literal.
import * as assert from 'node:assert/strict';
import { pythonLiteral } from '../../../../../src/requests/code/core/codeSnippets/python';
import { jsLiteral } from '../../../../../src/requests/code/core/codeSnippets/javascript';
import {
  isStreaming,
  secretHeaderVariable,
  tooDeepForLiteral,
} from '../../../../../src/requests/code/core/codeSnippets/request';
import { SNIPPET_TARGETS, snippetTarget } from '../../../../../src/requests/code/core/codeSnippets/targets';

/** `levels` arrays and objects inside each other. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) {
    v = i % 2 ? { v } : [v];
  }
  return v;
}

describe('requests: Copy as Code targets', () => {
  it('the language picker lists each target by language and tool', () => {
    assert.deepEqual(
      SNIPPET_TARGETS.map((t) => [t.id, t.label, t.description, t.language]),
      [
        ['curl-bash', 'cURL (bash, zsh)', 'POSIX shell', 'shellscript'],
        ['curl-powershell', 'cURL (PowerShell)', 'curl.exe', 'powershell'],
        ['curl-cmd', 'cURL (cmd.exe)', 'curl.exe', 'bat'],
        ['python-openai', 'Python: openai', 'OpenAI(base_url=…)', 'python'],
        ['python-httpx', 'Python: httpx', 'plain HTTP', 'python'],
        ['python-requests', 'Python: requests', 'plain HTTP', 'python'],
        ['js-openai', 'JavaScript: openai', 'new OpenAI({ baseURL })', 'javascript'],
        ['js-fetch', 'JavaScript: fetch', 'Node 20+', 'javascript'],
      ],
    );
    assert.equal(snippetTarget('js-fetch')?.id, 'js-fetch');
    assert.equal(snippetTarget('ruby'), undefined);
    assert.equal(snippetTarget(undefined), undefined);
  });

  it('a snippet opens with what it runs on and where the key and, without a configured service, the URL come from', () => {
    const body = { model: 'm', input: 'x' };
    const withUrl = snippetTarget('curl-bash')!.write({ serviceRoot: 'https://h', endpoint: '/v1/responses', body });
    assert.equal(
      withUrl.split('\n')[0],
      '# bash, zsh (POSIX shell). Set MODEL_ACCESS_API_KEY first; the key is not written here.',
    );
    assert.ok(!withUrl.includes('The service URL is read from'));
    const withoutUrl = snippetTarget('curl-bash')!.write({ endpoint: '/v1/responses', body });
    assert.deepEqual(withoutUrl.split('\n').slice(0, 2), [
      '# bash, zsh (POSIX shell). Set MODEL_ACCESS_API_KEY first; the key is not written here.',
      '# The service URL is read from $MODEL_ACCESS_BASE_URL.',
    ]);
    // PowerShell says what it runs on in a line of its own: the key line names the variable as PowerShell does.
    const ps = snippetTarget('curl-powershell')!.write({ serviceRoot: 'https://h', endpoint: '/v1/responses', body });
    assert.equal(ps.split('\n')[1], '# Set $env:MODEL_ACCESS_API_KEY first; the key is not written here.');
  });

  it('values nested up to 32 levels are written as literals, deeper ones parsed from JSON text', () => {
    assert.equal(tooDeepForLiteral(nested(32)), false);
    assert.equal(tooDeepForLiteral(nested(33)), true);
    assert.equal(tooDeepForLiteral({ a: 1, b: [nested(32)] }), true);
    assert.equal(tooDeepForLiteral('text'), false);
    assert.equal(tooDeepForLiteral(null), false);
    assert.doesNotMatch(pythonLiteral(nested(32)), /json\.loads/);
    assert.match(pythonLiteral(nested(33)), /^json\.loads\(/);
    assert.doesNotMatch(jsLiteral(nested(32)), /JSON\.parse/);
    assert.match(jsLiteral(nested(33)), /^JSON\.parse\(/);
  });

  it('a secret header’s variable is named after it, any run of other characters one underscore', () => {
    assert.equal(secretHeaderVariable('X-Org-Token'), 'MODEL_ACCESS_HEADER_X_ORG_TOKEN');
    assert.equal(secretHeaderVariable('x--org..token'), 'MODEL_ACCESS_HEADER_X_ORG_TOKEN');
  });

  it('a snippet streams only when the payload asks for it', () => {
    const streams = (body: unknown) => isStreaming({ endpoint: '/v1/chat', body });
    assert.equal(streams({ stream: true }), true);
    for (const body of [{ stream: false }, { stream: 'true' }, {}, null, [true], 'stream']) {
      assert.equal(streams(body), false, JSON.stringify(body));
    }
    assert.match(snippetTarget('curl-bash')!.write({ endpoint: '/v1/chat', body: { stream: true } }), /curl -N -sS/);
    assert.match(snippetTarget('curl-bash')!.write({ endpoint: '/v1/chat', body: { stream: false } }), /curl -sS/);
  });
});
