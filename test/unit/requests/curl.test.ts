import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { curlCommand, shellQuote } from '../../../src/requests/core/curl';

describe('requests: cURL export', () => {
  it('names the key as $MODEL_ACCESS_API_KEY and quotes the body for the shell', () => {
    const body = JSON.stringify({ model: "it's", input: 'a "b" $HOME `x`' });
    const cmd = curlCommand({ url: 'http://127.0.0.1:1/v1/chat' }, body);
    assert.match(cmd, /Authorization: Bearer \$MODEL_ACCESS_API_KEY/);
    assert.match(cmd.split('\n')[0], /^# POSIX shell/);
    // The shell gives back exactly the body: nothing expanded, nothing lost.
    const echoed = execFileSync('sh', ['-c', `printf %s ${shellQuote(body)}`]).toString();
    assert.equal(echoed, body);
  });

  it('without a configured service, the URL expands from $MODEL_ACCESS_BASE_URL in the shell', () => {
    const cmd = curlCommand({ baseUrlVariable: 'MODEL_ACCESS_BASE_URL', path: '/v1/chat' }, '{}');
    // Run the command with `curl` replaced by a function that prints its arguments, one per line.
    const script = `curl() { printf '%s\\n' "$@"; }\n${cmd}`;
    const out = execFileSync('sh', ['-c', script], {
      env: { ...process.env, MODEL_ACCESS_BASE_URL: 'https://gw.example/api', MODEL_ACCESS_API_KEY: 'k' },
    }).toString();
    assert.ok(out.split('\n').includes('https://gw.example/api/v1/chat'), out);
  });
});
