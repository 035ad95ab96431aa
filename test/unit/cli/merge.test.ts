// `model-access merge` as a CI job runs it: what it prints, the report it writes and its exit code, for shards
// that passed, failed or were flaky, and every way the reports cannot be merged (exit 2 with the reason).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { junitXml, type JUnitSuite } from '../../../src/cli/junit';
import { mergeMain, MERGE_USAGE } from '../../../src/cli/merge';
import { parseReport } from '../../../src/cli/junitMerge';

describe('cli/merge: model-access merge', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-merge-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (name: string, suites: JUnitSuite[], shard?: string, run = 'run-1') => {
    fs.mkdirSync(path.dirname(path.join(tmp, name)), { recursive: true });
    fs.writeFileSync(
      path.join(tmp, name),
      junitXml(suites, (t) => t, { run, shard }),
    );
  };
  async function merge(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await mergeMain(args, { cwd: tmp, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const pass = (name: string) => ({ name, time: 0.5 });
  const fail = (name: string) => ({ name, time: 1, failure: { message: 'The answer differs', detail: 'line 3' } });
  const flaky = (name: string) => ({ ...pass(name), properties: [{ name: 'flaky', value: 'true' }] });

  it('merges the shards into one report with one count; exit 0 when all passed', async () => {
    write('shards/1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('rows.jsonl:1')] }], '1/2');
    write(
      'shards/2.xml',
      [
        { name: 'a.jsonc', file: 'a.jsonc', cases: [pass('rows.jsonl:2')] },
        { name: 'b.jsonc', file: 'b.jsonc', cases: [flaky('b.jsonc')] },
      ],
      '2/2',
    );
    const r = await merge('shards/*.xml', '--junit', 'out/all.xml');
    assert.equal(r.code, 0, r.err);
    assert.equal(
      r.out,
      [
        'model-access merge: 2 reports',
        '  PASS  a.jsonc  2/2 passed',
        '  PASS  b.jsonc',
        '',
        '3 passed, 0 failed, 1 flaky',
        'JUnit report: out/all.xml',
      ].join('\n'),
    );
    const merged = parseReport(fs.readFileSync(path.join(tmp, 'out/all.xml'), 'utf8'));
    assert.ok(typeof merged !== 'string', String(merged));
    assert.equal(merged.run, 'run-1');
    assert.equal(merged.shard, undefined);
    assert.deepEqual(
      merged.suites.map((s) => [s.name, s.cases.map((c) => c.name)]),
      [
        ['a.jsonc', ['rows.jsonl:1', 'rows.jsonl:2']],
        ['b.jsonc', ['b.jsonc']],
      ],
    );
    // Run again with the output among the inputs' glob: the merged report is not read as a shard.
    const again = await merge('shards/*.xml', 'out/*.xml', '--junit', 'out/all.xml');
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /^model-access merge: 2 reports$/m);
  });

  it('exit 1 when a test of a shard failed, and FAIL on its file; no report without --junit', async () => {
    write('1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('r:1'), fail('r:2')] }], '1/1');
    const r = await merge('1.xml');
    assert.equal(r.code, 1);
    assert.equal(
      r.out,
      ['model-access merge: 1 report', '  FAIL  a.jsonc  1/2 passed', '', '1 passed, 1 failed'].join('\n'),
    );
    assert.deepEqual(fs.readdirSync(tmp), ['1.xml']);
  });

  it('exit 2 with the reason: reports of different runs, a report that is not ours, a name that matches nothing', async () => {
    write('1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('a')] }], '1/2', 'run-1');
    write('2.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('b')] }], '2/2', 'run-2');
    const different = await merge('1.xml', '2.xml');
    assert.equal(different.code, 2);
    assert.match(different.err, /^model-access merge: 1\.xml and 2\.xml come from different runs/);
    fs.writeFileSync(path.join(tmp, 'pytest.xml'), '<testsuites name="pytest"></testsuites>');
    const foreign = await merge('pytest.xml');
    assert.equal(foreign.code, 2);
    assert.equal(foreign.err, 'model-access merge: pytest.xml: it is not a JUnit report of model-access check');
    const none = await merge('missing/*.xml');
    assert.equal(none.code, 2);
    assert.equal(
      none.err,
      'model-access merge: no file matches missing/*.xml\nmodel-access merge: name the JUnit reports to merge',
    );
  });

  it('exit 2 when the merged report cannot be written, saying where', async () => {
    write('1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('a')] }]);
    fs.writeFileSync(path.join(tmp, 'blocked'), 'a file, not a folder');
    const r = await merge('1.xml', '--junit', 'blocked/all.xml');
    assert.equal(r.code, 2);
    assert.match(r.err, /^model-access merge: the report could not be written to blocked\/all\.xml: /);
  });

  it('the options: --help prints the usage, an unknown option and --junit without a file are refused', async () => {
    const help = await merge('--help');
    assert.equal(help.code, 0);
    assert.equal(help.out, MERGE_USAGE.join('\n'));
    assert.deepEqual(await merge('-h'), help);
    const unknown = await merge('a.xml', '--out', 'b.xml');
    assert.equal(unknown.code, 2);
    assert.equal(unknown.err, 'model-access merge: unknown option --out. Run model-access merge --help.');
    const bare = await merge('a.xml', '--junit');
    assert.equal(bare.code, 2);
    assert.equal(bare.err, 'model-access merge: --junit needs a file name');
  });
});
