// Reports are written safely (issue 44, item 9), against the local service: `--junit` (check and merge) and
// `models --save` replace a symbolic link planted at the report's name instead of writing through it, and
// nothing an answer, a registry or a failure says reaches stdout, stderr or JUnit as a line a CI runner reads
// as its own command (GitHub's `::add-mask::`, `::error::` at a line start, `##[…]` and Azure's `##vso[…]`
// anywhere in a line).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inertCiCommands } from '../../../src/common/controlChars';
import { startServer, type RunningServer, type ServerOptions } from '../../server';
import { runCli } from '../helpers/cli';

const REGISTRY = path.resolve(__dirname, '../../server/registry.json');

const cli = runCli;

/** The lines of `text` that GitHub Actions or Azure Pipelines would run as a command of theirs. */
function runnerCommands(text: string): string[] {
  return text.split('\n').filter((l) => l.trimStart().startsWith('::') || /##(vso)?\[/i.test(l));
}

/** An answer written to forge CI commands: a mask, an annotation, a group, the legacy and Azure forms. */
const FORGING = [
  '::add-mask::everything',
  '  ::error title=Deploy::the build is broken',
  '\t::stop-commands::abc',
  'Fine. ##[error]forged ##vso[task.setvariable variable=x]1',
].join('\n');

describe('cli: report files are written safely', function () {
  this.timeout(30_000);
  let server: RunningServer | undefined;
  let tmp: string;
  const start = async (options: ServerOptions) => (server = await startServer(options));
  const env = (s: RunningServer) => ({ MODEL_ACCESS_BASE_URL: s.url, MODEL_ACCESS_API_KEY: s.keys.acme });
  const payload = (name: string, expect: string) =>
    fs.writeFileSync(
      path.join(tmp, name),
      `// POST /v1/chat\n${expect}\n{ "model": "aurora-1", "messages": [{ "role": "user", "content": "Hi" }] }\n`,
    );

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-report-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('--junit of check and merge replaces a symbolic link planted at the name; the file it pointed at is untouched', async () => {
    const s = await start({});
    payload('ok.jsonc', '// @expect status 200');
    const victim = path.join(tmp, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.mkdirSync(path.join(tmp, 'reports'));
    fs.symlinkSync(victim, path.join(tmp, 'reports', 'checks.xml'));
    const r = await cli(['check', 'ok.jsonc', '--junit', 'reports/checks.xml'], env(s), tmp);
    assert.equal(r.code, 0, r.out + r.err);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me', 'the report was written through the link');
    const written = path.join(tmp, 'reports', 'checks.xml');
    assert.ok(fs.lstatSync(written).isFile(), 'the link is still there');
    assert.match(fs.readFileSync(written, 'utf8'), /<testsuites name="model-access check" tests="1" failures="0"/);
    fs.symlinkSync(victim, path.join(tmp, 'all.xml'));
    const merged = await cli(['merge', 'reports/checks.xml', '--junit', 'all.xml'], {}, tmp);
    assert.equal(merged.code, 0, merged.out + merged.err);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.ok(fs.lstatSync(path.join(tmp, 'all.xml')).isFile());
    fs.symlinkSync(victim, path.join(tmp, 'models.json'));
    const saved = await cli(['models', '--save', 'models.json'], env(s), tmp);
    assert.equal(saved.code, 0, saved.out + saved.err);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.ok(fs.lstatSync(path.join(tmp, 'models.json')).isFile());
    assert.deepEqual(
      fs.readdirSync(tmp).filter((f) => f.endsWith('.tmp')),
      [],
      'a temporary file was left behind',
    );
  });

  it('a report that cannot be renamed into place (a folder by that name) fails with the reason and leaves no temporary file', async () => {
    const s = await start({});
    payload('ok.jsonc', '// @expect status 200');
    fs.mkdirSync(path.join(tmp, 'checks.xml'));
    const r = await cli(['check', 'ok.jsonc', '--junit', 'checks.xml'], env(s), tmp);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /^model-access check: the JUnit report could not be written to checks\.xml: /m);
    assert.deepEqual(fs.readdirSync(tmp).sort(), ['checks.xml', 'ok.jsonc']);
  });

  it('an answer that forges CI commands reaches stdout, stderr and JUnit as text no runner runs, and still says what it said', async () => {
    const s = await start({ grading: { chatScript: [FORGING] } });
    payload('forged.jsonc', '// @expect text contains "London"\n// @expect text == "London"');
    const r = await cli(['check', 'forged.jsonc', '--junit', 'checks.xml'], env(s), tmp);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /add-mask::everything/, 'the answer is shown');
    assert.deepEqual(runnerCommands(r.out), []);
    assert.deepEqual(runnerCommands(r.err), []);
    const xml = fs.readFileSync(path.join(tmp, 'checks.xml'), 'utf8');
    assert.match(xml, /add-mask::everything/);
    assert.deepEqual(runnerCommands(xml), []);
    // merge reads it back and prints and writes nothing a runner runs either.
    const merged = await cli(['merge', 'checks.xml', '--junit', 'all.xml'], {}, tmp);
    assert.equal(merged.code, 1);
    assert.deepEqual(runnerCommands(merged.out + merged.err), []);
    assert.deepEqual(runnerCommands(fs.readFileSync(path.join(tmp, 'all.xml'), 'utf8')), []);
  });

  it('model ids from the registry never start a line of `models` as a command; --json keeps the id exact', async () => {
    const registry = JSON.parse(fs.readFileSync(REGISTRY, 'utf8')) as {
      models: { id: string; organization: string }[];
    };
    const acme = registry.models.find((m) => m.organization === 'acme')!;
    registry.models.push({ ...acme, id: '::error title=Registry::forged' }, { ...acme, id: 'x##[warning]forged' });
    const s = await start({ registry: registry as unknown as ServerOptions['registry'] });
    const table = await cli(['models'], env(s), tmp);
    assert.equal(table.code, 0, table.out + table.err);
    assert.match(table.out, /error title=Registry::forged/);
    assert.deepEqual(runnerCommands(table.out), []);
    const json = await cli(['models', '--json'], env(s), tmp);
    assert.equal(json.code, 0, json.out + json.err);
    assert.deepEqual(runnerCommands(json.out), []);
    const ids = (JSON.parse(json.out) as { models: { id: string }[] }).models.map((m) => m.id);
    assert.ok(ids.includes('x##[warning]forged') && ids.includes('::error title=Registry::forged'), ids.join(', '));
  });

  it('inertCiCommands: only what a runner reads is touched, in linear time', () => {
    assert.equal(inertCiCommands('a::b c::d'), 'a::b c::d');
    assert.equal(
      inertCiCommands('::a\n  ::b\nc ##[d] ##VSO[e]'),
      '\u00b7::a\n  \u00b7::b\nc #\u00b7#[d] #\u00b7#VSO[e]',
    );
    const many = '\n'.repeat(500_000) + ' '.repeat(500_000) + ':';
    const started = performance.now();
    assert.equal(inertCiCommands(many), many);
    assert.ok(performance.now() - started < 500);
  });
});
