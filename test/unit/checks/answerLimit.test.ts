// Checks hold the limit Send holds (api/answerLimits.ts): an endless answer, streamed or not, stops at
// maxResponseBytes and fails its check saying so; the run goes on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../src/cli/check';
import { startServer, type RunningServer } from '../../server';

describe('checks: the answer size limit (an endless answer)', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let tmp: string;
  before(async () => {
    server = await startServer({ hostile: { endlessStream: true } });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-limit-'));
    const payload = (stream: boolean) =>
      `// POST /v1/chat\n// @expect status 200\n${JSON.stringify({ model: 'endless', stream, messages: [{ role: 'user', content: 'go' }] })}`;
    fs.writeFileSync(path.join(tmp, 'streamed.jsonc'), payload(true));
    fs.writeFileSync(path.join(tmp, 'body.jsonc'), payload(false));
  });
  after(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('model-access check: each endless answer fails "stopped at 1 MB", the connection is closed, the report written', async () => {
    const lines: string[] = [];
    const code = await main(['check', '.', '--max-response-mb', '1', '--junit', 'j.xml'], {
      env: { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys.hostile },
      cwd: tmp,
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    const printed = lines.join('\n');
    assert.equal(code, 1, printed);
    assert.equal((printed.match(/the answer was stopped at 1 MB \(the size limit/g) ?? []).length, 2, printed);
    const writes = server.hostile?.endlessWrites ?? [];
    assert.equal(writes.length, 2);
    // The server stopped writing once the client went away, a little past the limit (socket buffers).
    await Promise.all(
      writes.map(async (w) => {
        for (let i = 0; i < 100 && w.endedAt === undefined; i++) {
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(w.endedAt !== undefined, 'the endless answer is still being read');
        assert.ok(w.bytes < 16 * 1024 * 1024, `${w.bytes} bytes were read`);
      }),
    );
    assert.match(fs.readFileSync(path.join(tmp, 'j.xml'), 'utf8'), /stopped at 1 MB/);
  });
});
