// `model-access references` against the local service (issue 45): a Python file naming a deprecated model, a
// YAML file naming a model the registry no longer lists and a TypeScript file naming a current one.
// `--fail-on deprecated --since last.json` fails and lists both with file:line; without --since only the
// deprecated one; never the current one. --json, --sarif (valid SARIF 2.1.0), --within, "did you mean",
// and the ways it cannot run (exit 2, nothing called unknown while the registry is unknown).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../server';
import { runCli } from '../helpers/cli';
import { sarifErrors } from '../helpers/sarifSchema';

const DAY = 86_400_000;

describe('cli: references against the local service', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let tmp: string;
  let env: Record<string, string>;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
    fs.writeFileSync(path.join(tmp, rel), text);
  };
  const lines = (text: string) => text.split('\n').filter((l) => /^[^\s:]+:\d+:\d+: /.test(l));

  beforeEach(async () => {
    server = await startServer();
    env = { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys.acme };
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-references-cli-'));
    write('app.py', 'from acme import client\n\nanswer = client.chat(model="basalt-code-2")\n');
    write('config/models.yaml', 'service:\n  model: tern-asr-3\n');
    write('src/client.ts', 'export const MODEL = "kestrel-reasoner-1";\n');
    // Ignored by git: never read.
    write('.gitignore', 'build/\n');
    write('build/old.py', 'model = "basalt-code-2"\n');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** The list saved before the registry moves on, then the registry's news: one model deprecated, one gone. */
  async function registryMovesOn(): Promise<void> {
    const saved = await runCli(['models', '--save', 'last.json'], env, tmp);
    assert.equal(saved.code, 0, saved.err);
    server.changeRegistry('acme', {
      remove: ['tern-asr-3'],
      update: {
        'basalt-code-2': {
          extra: { lifecycle_status: 'deprecated', deprecation_date: '2026-01-31', replacement: 'basalt-code-2.1' },
        },
      },
    });
  }

  it('--fail-on deprecated --since last.json exits 1 and lists the deprecated and the gone model with file:line, never the current one', async () => {
    await registryMovesOn();
    const ran = await runCli(['references', '--fail-on', 'deprecated', '--since', 'last.json'], env, tmp);
    assert.equal(ran.code, 1, ran.out + ran.err);
    assert.deepEqual(lines(ran.out), [
      'app.py:3:29: warning: Model basalt-code-2 is deprecated since 2026-01-31. Use basalt-code-2.1.',
      'config/models.yaml:2:10: error: Model tern-asr-3 is no longer in the registry.',
    ]);
    assert.ok(!ran.out.includes('kestrel-reasoner-1') && !ran.out.includes('client.ts'), ran.out);
    assert.match(
      ran.out,
      /3 references to the models of .* in 3 files \(1 deprecated, 1 gone, 1 current\); 3 files scanned, skipped: 1 ignored, 1 model-list/,
    );
    assert.match(ran.err, /2 references are deprecated or worse \(--fail-on deprecated\)/);
    assert.ok(!ran.out.includes(server.keys.acme) && !ran.err.includes(server.keys.acme));
  });

  it('--exclude leaves out files and folders (node_modules stays out)', async () => {
    await registryMovesOn();
    write('node_modules/pkg/index.js', 'module.exports = "basalt-code-2";\n');
    const ran = await runCli(
      ['references', '--fail-on', 'deprecated', '--since', 'last.json', '--exclude', 'config', '--exclude', '*.py'],
      env,
      tmp,
    );
    assert.equal(ran.code, 0, ran.out + ran.err);
    assert.deepEqual(lines(ran.out), []);
    assert.match(ran.out, /1 reference .* \(1 current\); 1 file scanned, skipped: 3 excluded, 1 ignored, 1 model-list/);
  });

  it('without --since: the deprecated one only (the gone id is just a string); the default --fail-on passes it', async () => {
    await registryMovesOn();
    const ran = await runCli(['references', '--fail-on', 'deprecated'], env, tmp);
    assert.equal(ran.code, 1, ran.out + ran.err);
    assert.deepEqual(lines(ran.out), [
      'app.py:3:29: warning: Model basalt-code-2 is deprecated since 2026-01-31. Use basalt-code-2.1.',
    ]);
    assert.ok(!ran.out.includes('tern-asr-3') && !ran.out.includes('kestrel-reasoner-1'), ran.out);
    const lenient = await runCli(['references'], env, tmp);
    assert.equal(lenient.code, 0, lenient.out + lenient.err);
    assert.deepEqual(lines(lenient.out), lines(ran.out));
    // --since with the default --fail-on (retired): the gone model fails the run.
    const gone = await runCli(['references', '.', '--since', 'last.json'], env, tmp);
    assert.equal(gone.code, 1, gone.out + gone.err);
    assert.match(gone.err, /1 reference is retired or worse/);
  });

  it('--json lists every reference, current ones too, with state, severity, successor and whether it fails', async () => {
    await registryMovesOn();
    const ran = await runCli(['references', '--json', '--since', 'last.json', '--fail-on', 'deprecated'], env, tmp);
    assert.equal(ran.code, 1, ran.err);
    const doc = JSON.parse(ran.out) as {
      format: string;
      failing: number;
      scanned: number;
      references: Record<string, unknown>[];
    };
    assert.equal(doc.format, 'model-access/references@1');
    assert.equal(doc.failing, 2);
    assert.equal(doc.scanned, 3);
    assert.deepEqual(doc.references, [
      {
        file: 'app.py',
        line: 3,
        column: 29,
        id: 'basalt-code-2',
        state: 'deprecated',
        severity: 'warning',
        message: 'Model basalt-code-2 is deprecated since 2026-01-31. Use basalt-code-2.1.',
        successor: 'basalt-code-2.1',
        date: '2026-01-31T00:00:00.000Z',
        fails: true,
      },
      {
        file: 'config/models.yaml',
        line: 2,
        column: 10,
        id: 'tern-asr-3',
        state: 'gone',
        severity: 'error',
        message: 'Model tern-asr-3 is no longer in the registry.',
        fails: true,
      },
      {
        file: 'src/client.ts',
        line: 1,
        column: 23,
        id: 'kestrel-reasoner-1',
        state: 'current',
        severity: 'none',
        message: 'Model kestrel-reasoner-1 is current.',
        fails: false,
      },
    ]);
  });

  it('--sarif writes a valid SARIF 2.1.0 log, one result per reference, the successor in the message', async () => {
    await registryMovesOn();
    const ran = await runCli(['references', '--sarif', 'out/refs.sarif', '--since', 'last.json'], env, tmp);
    assert.equal(ran.code, 1, ran.err);
    const log = JSON.parse(fs.readFileSync(path.join(tmp, 'out/refs.sarif'), 'utf8')) as {
      runs: {
        results: {
          ruleId: string;
          message: { text: string };
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    assert.deepEqual(sarifErrors(log), []);
    assert.deepEqual(
      log.runs[0].results.map((r) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri]),
      [
        ['model-access/deprecated', 'app.py'],
        ['model-access/gone', 'config/models.yaml'],
        ['model-access/current', 'src/client.ts'],
      ],
    );
    assert.match(log.runs[0].results[0].message.text, /Use basalt-code-2\.1\./);
    assert.ok(!fs.readFileSync(path.join(tmp, 'out/refs.sarif'), 'utf8').includes(server.keys.acme));
  });

  it('--within: a retiring model fails --fail-on retiring only within the days, and is an error from then on', async () => {
    const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
    server.changeRegistry('acme', {
      update: {
        'aurora-2': { extra: { retirement_date: day(30), replacement: 'aurora-10' } },
        'aurora-2-mini': { extra: { retirement_date: day(200) } },
      },
    });
    write('retiring.py', 'a = "aurora-2"\nb = "aurora-2-mini"\n');
    const ran = await runCli(['references', 'retiring.py', '--fail-on', 'retiring', '--within', '60'], env, tmp);
    assert.equal(ran.code, 1, ran.out + ran.err);
    const [soon, later] = lines(ran.out);
    assert.match(
      soon,
      /^retiring\.py:1:6: error: Model aurora-2 retires on \d{4}-\d\d-\d\d \(in 3\d days\)\. Use aurora-10\.$/,
    );
    assert.match(
      later,
      /^retiring\.py:2:6: warning: Model aurora-2-mini retires on \d{4}-\d\d-\d\d \(in 2\d\d days\)\.$/,
    );
    assert.match(ran.err, /1 reference is retiring or worse/);
    const none = await runCli(['references', 'retiring.py', '--fail-on', 'retiring', '--within', '10'], env, tmp);
    assert.equal(none.code, 0, none.out + none.err);
    const all = await runCli(['references', 'retiring.py', '--fail-on', 'retiring'], env, tmp);
    assert.equal(all.code, 1);
    assert.match(all.err, /2 references are retiring or worse/);
    assert.equal((await runCli(['references', 'retiring.py'], env, tmp)).code, 0);
  });

  it('"did you mean": an id one edit from a model is information, and fails only --fail-on unknown', async () => {
    write('typo.py', 'client.chat(model="kestrel-reasoner-2")\n');
    const ran = await runCli(['references', 'typo.py', '--fail-on', 'deprecated'], env, tmp);
    assert.equal(ran.code, 0, ran.out + ran.err);
    assert.deepEqual(lines(ran.out), [
      'typo.py:1:20: information: Model kestrel-reasoner-2 is not in the registry. Did you mean kestrel-reasoner-1?',
    ]);
    assert.equal((await runCli(['references', 'typo.py', '--fail-on', 'unknown'], env, tmp)).code, 1);
  });

  it('cannot run (exit 2): no service, a service that does not answer (nothing is called unknown), bad arguments, a bad --since', async () => {
    const noUrl = await runCli(['references'], { MODEL_ACCESS_API_KEY: 'k' }, tmp);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.err, /MODEL_ACCESS_BASE_URL is not set/);
    const noKey = await runCli(['references'], { MODEL_ACCESS_BASE_URL: server.url }, tmp);
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /MODEL_ACCESS_API_KEY is not set/);
    const url = server.url;
    await server.close();
    const down = await runCli(
      ['references', '--fail-on', 'unknown', '--timeout', '5'],
      { ...env, MODEL_ACCESS_BASE_URL: url },
      tmp,
    );
    assert.equal(down.code, 2, down.out + down.err);
    assert.match(down.err, /the models could not be listed/);
    assert.equal(down.out, '');
    server = await startServer();
    for (const [args, message] of [
      [['--fail-on', 'sometimes'], /--fail-on takes retired, retiring, deprecated, unknown/],
      [['--within', 'soon'], /--within needs a number of days/],
      [['--within', '-1'], /--within needs a number of days/],
      [['--timeout', '0'], /--timeout needs a number of seconds above 0/],
      [['--sarif'], /--sarif needs a value/],
      [['--frobnicate'], /unknown option --frobnicate/],
      [['missing-folder'], /missing-folder does not exist/],
      [['--since', 'nothing.json'], /the list nothing\.json could not be read/],
    ] as [string[], RegExp][]) {
      const ran = await runCli(['references', ...args], env, tmp);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.err}`);
      assert.match(ran.err, message);
    }
    write('not-a-list.json', '{"models": []}');
    const bad = await runCli(['references', '--since', 'not-a-list.json'], env, tmp);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /not-a-list\.json cannot be used with --since: it is not a model list/);
    assert.deepEqual(server.received('/v1/models', 'GET'), [], 'a bad --since stops before the service is asked');
    const help = await runCli(['references', '--help'], env, tmp);
    assert.equal(help.code, 0);
    assert.match(help.out, /Usage: model-access references \[paths…\]/);
    const top = await runCli(['--help'], env, tmp);
    assert.match(top.out, /model-access references/);
  });
});
