// The built command line (dist/cli.js, as CI runs it) with a catastrophic regular expression: `/(a+)+$/` on an
// answer holding a long run of "a" followed by "!" backtracks for hours on the thread that runs it. The bundle
// must run it in the time-limited worker (src/checks/core/budget.ts) like the sources do: the check fails with
// the reason, the other checks of the run still run, the JUnit file is written, and the run ends within seconds
// (issue 35, item 7).
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../server';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/cli.js');

describe('cli: a catastrophic regular expression in the bundled command line (dist/cli.js)', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let tmp: string;

  before(async () => {
    execFileSync(process.execPath, ['esbuild.js', '--cli'], { cwd: ROOT, stdio: 'ignore' });
    server = await startServer();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-regex-cli-'));
    const payload = (expect: string, content: string) =>
      `// POST /v1/chat\n// @expect ${expect}\n${JSON.stringify({ model: 'aurora-2', messages: [{ role: 'user', content }] })}`;
    // The demo model quotes the prompt in its answer: "… You asked: "aaaa…a!"."
    fs.writeFileSync(path.join(tmp, 'catastrophic.jsonc'), payload('text matches /(a+)+$/', `${'a'.repeat(40)}!`));
    fs.writeFileSync(path.join(tmp, 'plain.jsonc'), payload('text matches /paris/i', 'What is the capital of France?'));
  });
  after(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('fails only that check, with the reason, and the run ends within its deadline with a JUnit file', async () => {
    const started = Date.now();
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI, 'check', '.', '--junit', 'report.xml', '--run-timeout', '60'],
        {
          cwd: tmp,
          env: { PATH: process.env.PATH, MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys.acme },
          encoding: 'utf8',
          timeout: 90_000,
        },
        (_e, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    const ms = Date.now() - started;
    const all = `${r.stdout}\n${r.stderr}`;
    // The check's own budget is 2 s; the whole run, with the build warm, takes a few seconds more.
    assert.ok(ms < 30_000, `the run took ${ms} ms\n${all}`);
    assert.equal(r.code, 1, all);
    assert.match(
      r.stdout,
      /FAIL {2}catastrophic\.jsonc .*\n.*line 2 {2}text matches \/\(a\+\)\+\$\/\n.*could not be evaluated: the pattern \/\(a\+\)\+\$\/ was stopped after 2 s on this answer \(it backtracks too much\)/,
    );
    // Every pattern goes to the worker: a pass here shows the worker runs in the bundle (a worker that failed to
    // start would leave every pattern "stopped after 2 s").
    assert.match(r.stdout, /PASS {2}plain\.jsonc/);
    const xml = fs.readFileSync(path.join(tmp, 'report.xml'), 'utf8');
    assert.match(xml, /was stopped after 2 s on this answer/);
    assert.match(xml, /tests="2"/);
  });
});
