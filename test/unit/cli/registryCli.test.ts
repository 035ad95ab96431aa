// The command line follows the registry (issue 38), against the local service whose registry changes:
// `model-access models --save` writes a list that reads back as the same models, `check --changed-since` runs
// exactly the payloads whose models changed since that list (added, gone, new version, lifecycle news) and
// says why for each, a check on a deprecated model warns (with date and successor) and says so in JUnit, and
// a missing or damaged list stops the run with a clear message.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MODEL_LIST_FORMAT, readModelList } from '../../../src/cli/modelList';
import { startServer, type RunningServer } from '../../server';
import { runCli, type Ran } from '../helpers/cli';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/cli.js');

const cli = runCli;

const payload = (model: string, extra: string[] = []) =>
  `// POST /v1/chat\n${extra.join('\n')}${extra.length ? '\n' : ''}// @expect status 200\n${JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'hi' }],
  })}\n`;

describe('cli: models --save and check --changed-since against a changing registry', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let tmp: string;
  let env: Record<string, string>;
  const postedModels = () =>
    server
      .received('/v1/chat', 'POST')
      .map((q) => String(q.json?.model))
      .sort();

  beforeEach(async () => {
    server = await startServer();
    env = { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys.acme };
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-registry-cli-'));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(tmp, name), text);
    write('version.jsonc', payload('aurora-2'));
    write('lifecycle.jsonc', payload('basalt-code-2'));
    write('gone.jsonc', payload('lynx-vision-1'));
    write('unchanged.jsonc', payload('kestrel-reasoner-1'));
    write('also-unchanged.jsonc', payload('aurora-2-mini'));
    write('added.jsonc', payload('acme-nova-1'));
    // A dataset whose rows name two models: it runs because one of them changed.
    write('each.jsonc', payload('{{model}}', ['// @each models.jsonl']));
    write('models.jsonl', '{"model":"tern-tts-2"}\n{"model":"aurora-2"}\n');
    write('each-unchanged.jsonc', payload('{{model}}', ['// @each same.jsonl']));
    write('same.jsonl', '{"model":"tern-tts-2"}\n{"model":"tern-asr-3"}\n');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('models lists id, family, version and lifecycle; --save writes a list that reads back as the same models, and --json prints it', async () => {
    const listed = await cli(['models'], env, tmp);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^25 models at http:\/\/127\.0\.0\.1:\d+$/m);
    assert.match(listed.out, /^ {2}ID +FAMILY +VERSION +LIFECYCLE$/m);
    assert.match(listed.out, /^ {2}aurora-1 +aurora +1 +retires 2027-01-31$/m);
    assert.match(listed.out, /^ {2}aurora-2 +aurora +2$/m);

    const saved = await cli(['models', '--save', 'lists/acme.json'], env, tmp);
    assert.equal(saved.code, 0, saved.err);
    assert.match(saved.out, /^Saved 25 models to lists\/acme\.json$/m);
    const text = fs.readFileSync(path.join(tmp, 'lists/acme.json'), 'utf8');
    const doc = JSON.parse(text) as {
      format: string;
      service: string;
      count: number;
      models: Record<string, unknown>[];
    };
    assert.equal(doc.format, MODEL_LIST_FORMAT);
    assert.equal(doc.service, server.url);
    assert.equal(doc.count, 25);
    const aurora1 = doc.models.find((m) => m.id === 'aurora-1');
    assert.deepEqual(
      { family: aurora1?.family, version: aurora1?.version, lifecycle: aurora1?.lifecycle },
      {
        family: 'aurora',
        version: '1',
        lifecycle: {
          stage: 'retiring',
          status: 'deprecated',
          deprecated: true,
          deprecatedAt: '2026-06-30T00:00:00.000Z',
          retiresAt: '2027-01-31T00:00:00.000Z',
          successor: 'aurora-2',
        },
      },
    );
    assert.deepEqual(doc.models.find((m) => m.id === 'aurora-2')?.lifecycle, {
      stage: 'active',
      status: 'generally-available',
      deprecated: false,
    });
    // Read back: the same models, in the service's order, with the same entries.
    const back = readModelList(text);
    assert.ok(back.ok);
    const served = server.registry.models.filter((m) => m.organization === 'acme');
    assert.deepEqual(
      back.models.map((m) => [m.id, m.family, m.version]),
      served.map((m) => [m.id, m.family, m.version]),
    );
    const json = await cli(['models', '--json'], env, tmp);
    assert.equal(json.code, 0, json.err);
    const printed = JSON.parse(json.out) as { models: unknown[]; savedAt: string };
    assert.deepEqual(printed.models, doc.models);
    assert.ok(!text.includes(server.keys.acme) && !json.out.includes(server.keys.acme));
    // Nothing changed since: nothing runs, and the run says so.
    const none = await cli(['check', '--changed-since', 'lists/acme.json', '.'], env, tmp);
    assert.equal(none.code, 0, none.out + none.err);
    assert.match(none.out, /0 new, 0 updated, 0 gone/);
    assert.match(none.out, /No payload uses a model that changed: nothing to run\./);
    assert.deepEqual(postedModels(), []);
  });

  it('--changed-since runs exactly the payloads whose models changed (new version, lifecycle news, gone, added), and says why', async () => {
    assert.equal((await cli(['models', '--save', 'before.json'], env, tmp)).code, 0);
    server.changeRegistry('acme', {
      remove: ['lynx-vision-1'],
      add: [
        {
          id: 'acme-nova-1',
          family: 'nova',
          version: '1',
          organization: 'acme',
          model_card_url: 'https://cards.example/acme/nova-1',
          created: 1767225600,
        },
      ],
      update: {
        'aurora-2': { version: '3' },
        'basalt-code-2': {
          extra: { lifecycle_status: 'deprecated', retirement_date: '2099-01-31', replacement: 'basalt-code-2.1' },
        },
      },
    });
    const junit = path.join(tmp, 'report.xml');
    const r = await cli(['check', '--changed-since', 'before.json', '--junit', junit, '.'], env, tmp);
    assert.match(r.out, /^Changed since before\.json \(saved \d{4}-\d\d-\d\d\): 1 new, 2 updated, 1 gone$/m);
    assert.match(r.out, /^ {2}run {3}added\.jsonc {2}\(acme-nova-1: new\)$/m);
    assert.match(r.out, /^ {2}run {3}gone\.jsonc {2}\(lynx-vision-1: gone\)$/m);
    assert.match(r.out, /^ {2}run {3}version\.jsonc {2}\(aurora-2: version 2 → 3\)$/m);
    assert.match(r.out, /^ {2}run {3}each\.jsonc {2}\(aurora-2: version 2 → 3\)$/m);
    assert.match(
      r.out,
      /^ {2}run {3}lifecycle\.jsonc {2}\(basalt-code-2: now retires 2099-01-31 · status “deprecated” · replaced by basalt-code-2\.1\)$/m,
    );
    assert.match(r.out, /^ {2}skip {2}unchanged\.jsonc {2}\(kestrel-reasoner-1 unchanged\)$/m);
    assert.match(r.out, /^ {2}skip {2}also-unchanged\.jsonc {2}\(aurora-2-mini unchanged\)$/m);
    assert.match(r.out, /^ {2}skip {2}each-unchanged\.jsonc {2}\(tern-tts-2, tern-asr-3 unchanged\)$/m);
    // Only those payloads' requests reached the service: the dataset's both rows, one request each other.
    assert.deepEqual(postedModels(), [
      'acme-nova-1',
      'aurora-2',
      'aurora-2',
      'basalt-code-2',
      'lynx-vision-1',
      'tern-tts-2',
    ]);
    assert.match(r.out, /^model-access check: 5 payload files$/m);
    // The gone model fails its check (that is the news); the others pass.
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^ {2}FAIL {2}gone\.jsonc/m);
    assert.match(r.out, /^ {2}PASS {2}lifecycle\.jsonc/m);
    // The check on the now deprecated model warns, with the date and the successor, and JUnit says it too.
    assert.match(
      r.out,
      /^ {8}warning: basalt-code-2 is deprecated and retires 2099-01-31; its successor is basalt-code-2\.1$/m,
    );
    const xml = fs.readFileSync(junit, 'utf8');
    assert.match(
      xml,
      /<property name="model-lifecycle" value="basalt-code-2: deprecated and retires 2099-01-31; successor basalt-code-2\.1"\/>/,
    );
    assert.doesNotMatch(xml, /unchanged\.jsonc/);
  });

  it('--model: the run models decide (all payloads run when one changed, none when none did)', async () => {
    assert.equal((await cli(['models', '--save', 'before.json'], env, tmp)).code, 0);
    server.changeRegistry('acme', { update: { 'aurora-2': { version: '3' } } });
    const none = await cli(
      ['check', '--changed-since', 'before.json', '--model', 'tern-tts-2', 'unchanged.jsonc'],
      env,
      tmp,
    );
    assert.equal(none.code, 0, none.out + none.err);
    assert.match(none.out, /skip {2}unchanged\.jsonc {2}\(tern-tts-2 unchanged\)/);
    const some = await cli(
      ['check', '--changed-since', 'before.json', '--model', 'tern-tts-2', '--model', 'aurora-2', 'unchanged.jsonc'],
      env,
      tmp,
    );
    assert.equal(some.code, 0, some.out + some.err);
    assert.match(some.out, /run {3}unchanged\.jsonc {2}\(aurora-2: version 2 → 3\)/);
    assert.deepEqual(postedModels(), ['aurora-2', 'tern-tts-2']);
  });

  it('a missing, damaged or other service’s list stops the run (exit 2) before any request, saying what to do', async () => {
    const missing = await cli(['check', '--changed-since', 'nowhere.json', '.'], env, tmp);
    assert.equal(missing.code, 2);
    assert.match(
      missing.err,
      /the saved model list nowhere\.json cannot be read \(no such file\); write it with model-access models --save nowhere\.json/,
    );
    fs.writeFileSync(path.join(tmp, 'cut.json'), '{"format":"model-access/models@1","service":"x","models":[');
    const damaged = await cli(['check', '--changed-since', 'cut.json', '.'], env, tmp);
    assert.equal(damaged.code, 2);
    assert.match(damaged.err, /the saved model list cut\.json cannot be used: it is not JSON/);
    assert.equal((await cli(['models', '--save', 'list.json'], env, tmp)).code, 0);
    const doc = JSON.parse(fs.readFileSync(path.join(tmp, 'list.json'), 'utf8')) as {
      models: unknown[];
      count: number;
    };
    doc.models.pop();
    fs.writeFileSync(path.join(tmp, 'short.json'), JSON.stringify(doc));
    const short = await cli(['check', '--changed-since', 'short.json', '.'], env, tmp);
    assert.equal(short.code, 2);
    assert.match(short.err, /its count is 25 and it holds 24/);
    const other = await startServer();
    try {
      const elsewhere = await cli(
        ['check', '--changed-since', 'list.json', '.'],
        { MODEL_ACCESS_BASE_URL: other.url, MODEL_ACCESS_API_KEY: other.keys.acme },
        tmp,
      );
      assert.equal(elsewhere.code, 2);
      assert.match(elsewhere.err, /list\.json lists the models of http:\/\/127\.0\.0\.1:\d+, and this run goes to/);
    } finally {
      await other.close();
    }
    assert.deepEqual(postedModels(), []);
  });

  it('check --help and models --help describe the new options; a refused key or no key is a clear exit 2', async () => {
    const help = await cli(['check', '--help'], env, tmp);
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, /--changed-since FILE {2}run only the payloads whose model changed/);
    const modelsHelp = await cli(['models', '--help'], env, tmp);
    assert.equal(modelsHelp.code, 0);
    assert.match(modelsHelp.out, /--save FILE/);
    const refused = await cli(['models'], { ...env, MODEL_ACCESS_API_KEY: 'ma-wrong-key-123456' }, tmp);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /refused the API key \(HTTP 401\)/);
    assert.ok(!refused.err.includes('ma-wrong-key-123456'));
    const noKey = await cli(['models'], { MODEL_ACCESS_BASE_URL: server.url }, tmp);
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /MODEL_ACCESS_API_KEY is not set/);
  });

  it('dist/cli.js: models --save, then check --changed-since, as a scheduled CI job runs them; no stack trace on a bad list', async () => {
    execFileSync(process.execPath, ['esbuild.js', '--cli'], { cwd: ROOT, stdio: 'ignore' });
    const run = (args: string[]) =>
      new Promise<Ran>((resolve) => {
        execFile(
          process.execPath,
          [CLI, ...args],
          { cwd: tmp, env: { ...process.env, ...env } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, out: stdout, err: stderr }),
        );
      });
    const saved = await run(['models', '--save', 'models.json']);
    assert.equal(saved.code, 0, saved.err);
    server.changeRegistry('acme', { update: { 'kestrel-reasoner-1': { version: '2' } } });
    const checked = await run(['check', '--changed-since', 'models.json', 'unchanged.jsonc', 'version.jsonc']);
    assert.equal(checked.code, 0, checked.out + checked.err);
    assert.match(checked.out, /run {3}unchanged\.jsonc {2}\(kestrel-reasoner-1: version 1 → 2\)/);
    assert.match(checked.out, /skip {2}version\.jsonc {2}\(aurora-2 unchanged\)/);
    fs.writeFileSync(path.join(tmp, 'models.json'), '[]');
    const bad = await run(['check', '--changed-since', 'models.json', '.']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /cannot be used: it is not a model list written by model-access models --save/);
    assert.doesNotMatch(bad.err, /\n\s+at /);
  });
});
