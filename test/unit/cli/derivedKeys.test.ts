// End to end: the built command line (dist/cli.js) against the local service echoing the key in derived forms
// (test/server hostile piece `derivedKeys`: base64 at each alignment, hex, HTML references, split by zero-width
// characters and NUL). No form of the key is in stdout, stderr, the JUnit report or the cache files (issue 44).
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recoverable, startServer, type RunningServer } from '../../server';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/cli.js');

describe('cli: no derived form of the key in what model-access check writes (dist/cli.js)', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let tmp: string;

  before(async () => {
    execFileSync(process.execPath, ['esbuild.js', '--cli'], { cwd: ROOT, stdio: 'ignore' });
    server = await startServer({ hostile: { answers: true, derivedKeys: true } });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-derived-cli-'));
    const payload = (stream: boolean) =>
      `// POST /v1/chat\n// @expect text contains "nowhere"\n${JSON.stringify({
        model: 'plain-1',
        stream,
        messages: [{ role: 'user', content: 'hi' }],
      })}`;
    fs.writeFileSync(path.join(tmp, 'echo.jsonc'), payload(false));
    fs.writeFileSync(path.join(tmp, 'echo-stream.jsonc'), payload(true));
  });
  after(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, 'check', '.', ...args],
        {
          cwd: tmp,
          env: {
            PATH: process.env.PATH,
            MODEL_ACCESS_BASE_URL: server.url,
            MODEL_ACCESS_API_KEY: server.keys.hostile,
          },
          encoding: 'utf8',
          timeout: 100_000,
        },
        (_e, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
  }

  function cacheFiles(dir: string): string[] {
    if (!fs.existsSync(dir)) {
      return [];
    }
    return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((name) => {
      const file = path.join(dir, name);
      return fs.statSync(file).isFile() ? [fs.readFileSync(file, 'utf8')] : [];
    });
  }

  it('stdout, stderr, the JUnit report and the cache hold none of base64, hex, HTML or split forms', async () => {
    const key = server.keys.hostile;
    for (const attempt of ['first', 'from the cache']) {
      const r = await run(['--junit', 'report.xml', '--cache-dir', 'cache', '--cache']);
      const xml = fs.readFileSync(path.join(tmp, 'report.xml'), 'utf8');
      const cache = cacheFiles(path.join(tmp, 'cache'));
      // The answers did reach the output (so the test reads what was echoed): both checks fail quoting them.
      assert.equal(r.code, 1, `${attempt}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /base64-1 /, attempt);
      assert.match(xml, /split-200b /, attempt);
      assert.ok(cache.length > 0, `${attempt}: the answers were cached`);
      const outputs = { stdout: r.stdout, stderr: r.stderr, junit: xml, cache: cache.join('\n') };
      for (const [where, text] of Object.entries(outputs)) {
        const found = recoverable(text);
        // The key, or any 12 characters of it in a row, is nowhere to be recovered.
        for (let i = 0; i + 12 <= key.length; i++) {
          assert.ok(!found.includes(key.slice(i, i + 12)), `${attempt}: ${where} holds ${key.slice(i, i + 12)}`);
        }
      }
    }
  });
});
