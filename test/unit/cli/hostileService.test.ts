// End to end: the built command line (dist/cli.js, as CI runs it) against hostile local services — a service
// echoing the key and a {{$env}} secret (JSON-escaped, split across deltas), an endless stream, a service that
// drips a byte every second, control characters in answers and file names, and a second environment on another
// port. The key reaches only its origin, the run ends within its deadline with a JUnit file, no secret is in
// stdout, stderr or the report in any encoding, and no raw control character is printed (issue 35).
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../server';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/cli.js');
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/** A service that answers the probe, then drips one byte of a stream a second, for ever; it records each key. */
async function dripService(): Promise<{ url: string; keys: string[]; close: () => Promise<void> }> {
  const keys: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    keys.push(String(req.headers.authorization ?? ''));
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
      return;
    }
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write(':'), 1000);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: async () => {
      timers.forEach(clearInterval);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function forms(secret: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    secret
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;'),
  ];
}

describe('cli: model-access check against hostile local services (dist/cli.js)', function () {
  this.timeout(120_000);
  let home: RunningServer;
  let other: RunningServer;
  let drip: Awaited<ReturnType<typeof dripService>>;
  let tmp: string;
  const canary = `pa"ss&w<rd>'${Date.now()}`;
  const dripKey = 'ma-drip-key-5e6f7a8b9c';

  before(async () => {
    execFileSync(process.execPath, ['esbuild.js', '--cli'], { cwd: ROOT, stdio: 'ignore' });
    home = await startServer({ hostile: { answers: true, endlessStream: true } });
    other = await startServer();
    drip = await dripService();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-hostile-cli-'));
    fs.writeFileSync(
      path.join(tmp, 'settings.json'),
      JSON.stringify({
        'modelAccess.environments': [
          { name: 'other', baseUrl: other.url },
          { name: 'drip', baseUrl: drip.url },
        ],
      }),
    );
    const payload = (lines: string[], body: unknown) =>
      `// POST /v1/chat\n${lines.join('\n')}\n${JSON.stringify(body)}`;
    const chat = (content: string, extra: Record<string, unknown> = {}) => ({
      model: 'aurora-1',
      messages: [{ role: 'user', content }],
      ...extra,
    });
    fs.writeFileSync(
      path.join(tmp, 'echo.jsonc'),
      payload(['// @expect text contains "nowhere"'], chat('{{$env CANARY}}')),
    );
    fs.writeFileSync(
      path.join(tmp, 'echo-stream.jsonc'),
      payload(['// @expect text contains "nowhere"'], chat('{{$env CANARY}}', { stream: true })),
    );
    fs.writeFileSync(
      path.join(tmp, 'endless.jsonc'),
      payload(['// @expect status 200'], {
        model: 'endless',
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
      }),
    );
    fs.writeFileSync(
      path.join(tmp, 'drip.jsonc'),
      payload(['// @env drip', '// @expect status 200'], chat('hi', { stream: true })),
    );
    fs.writeFileSync(path.join(tmp, 'other.jsonc'), payload(['// @env other', '// @expect status 200'], chat('hi')));
    fs.writeFileSync(
      path.join(tmp, 'evil\u001b[2K\r  PASS.jsonc'),
      payload(
        ['// @expect text contains "nowhere"'],
        chat('\u001b]52;c;aGk=\u0007\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007\r::error::forged'),
      ),
    );
  });
  after(async () => {
    await home.close();
    await other.close();
    await drip.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, 'check', '.', '--environments', 'settings.json', ...args],
        {
          cwd: tmp,
          env: {
            PATH: process.env.PATH,
            MODEL_ACCESS_BASE_URL: home.url,
            MODEL_ACCESS_API_KEY: home.keys.hostile,
            MODEL_ACCESS_API_KEY_DRIP: dripKey,
            CANARY: canary,
          },
          encoding: 'utf8',
          timeout: 100_000,
        },
        (_e, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr, ms: Date.now() - started }),
      );
    });
  }

  it('keys, limits, deadlines, redaction and control characters hold together', async () => {
    const r = await run(['--junit', 'report.xml', '--timeout', '3', '--max-response-mb', '1']);
    const xml = fs.readFileSync(path.join(tmp, 'report.xml'), 'utf8');
    const all = `${r.stdout}\n${r.stderr}\n${xml}`;
    // The other environment has no key of its own: nothing reached it, and the run says it could not run it.
    assert.equal(r.code, 2, all);
    assert.equal(other.received().length, 0);
    assert.match(
      r.stdout,
      /FAIL {2}other\.jsonc:2 {2}the environment other .* is not the service of MODEL_ACCESS_API_KEY/,
    );
    // The drip service saw only its own key; the home service's requests all carried the home key (accepted).
    assert.ok(drip.keys.length > 0 && drip.keys.every((k) => k === `Bearer ${dripKey}`), drip.keys.join(','));
    assert.ok(home.received('/v1/chat', 'POST').every((q) => q.organization === 'hostile'));
    // Limits: the endless stream stopped at 1 MB, the drip at 3 s; as an error in JUnit.
    assert.match(r.stdout, /stopped at 1 MB/);
    assert.match(r.stdout, /the request was stopped after 3 s/);
    assert.match(xml, /<error message="No answer: the request was stopped after 3 s/);
    assert.ok(r.ms < 60_000, `the run took ${r.ms} ms`);
    // No secret in any encoding, no raw control character.
    for (const secret of [home.keys.hostile, canary, dripKey]) {
      for (const form of forms(secret)) {
        assert.ok(!all.includes(form), `a secret is in the output as ${form}`);
      }
    }
    assert.doesNotMatch(`${r.stdout}${r.stderr}`.replace(/\n/g, ''), RAW_CONTROL);
    assert.doesNotMatch(xml.replace(/\n/g, ''), RAW_CONTROL);
    assert.match(r.stdout, /evil\u241b\[2K\u240d {2}PASS\.jsonc/);
  });

  it('the run deadline: a drip with a long request timeout is stopped by --run-timeout, the report written', async () => {
    const r = await run(['--junit', 'deadline.xml', '--timeout', '600', '--run-timeout', '4', 'drip.jsonc']);
    const xml = fs.readFileSync(path.join(tmp, 'deadline.xml'), 'utf8');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(r.ms < 30_000, `the run took ${r.ms} ms`);
    assert.match(r.stderr, /the run was stopped at its deadline \(--run-timeout 4 s\)/);
    assert.match(xml, /<error message="the run was stopped at its deadline/);
  });
});
