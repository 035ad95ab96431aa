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

  const timedOut = (name: string) => ({
    name,
    time: 0.5,
    error: { message: 'No answer within 0.5 s (--timeout)', detail: 'a.jsonc:2\nNo answer within 0.5 s' },
  });
  const deadline = {
    name: 'model-access check',
    file: '',
    cases: [
      {
        name: 'run deadline',
        time: 0,
        error: { message: 'the run was stopped at its deadline (--run-timeout 1 s)', detail: 'stopped' },
      },
    ],
  };

  it('keeps errors: a timed-out test is counted, written to the merged report and never a pass (exit 1)', async () => {
    write('1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('r:1')] }], '1/2');
    write('2.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [timedOut('r:2'), timedOut('r:3')] }], '2/2');
    const r = await merge('*.xml', '--junit', 'out/all.xml');
    assert.equal(r.code, 1, r.out + r.err);
    assert.equal(
      r.out,
      [
        'model-access merge: 2 reports',
        '  ERROR  a.jsonc  1/3 passed, 2 errors',
        '        r:2: error: No answer within 0.5 s (--timeout)',
        '        r:3: error: No answer within 0.5 s (--timeout)',
        '',
        '1 passed, 0 failed, 2 errors',
        'JUnit report: out/all.xml',
      ].join('\n'),
    );
    assert.match(r.err, /2 tests did not run to the end/);
    const xml = fs.readFileSync(path.join(tmp, 'out/all.xml'), 'utf8');
    assert.match(xml, /<testsuites name="model-access check" tests="3" failures="0" errors="2"/);
    assert.equal(xml.match(/<error message="No answer within 0\.5 s \(--timeout\)">/g)?.length, 2);
    // The merged report merges again with the same result: nothing is lost on the way.
    const again = await merge('out/all.xml');
    assert.equal(again.code, 1);
    assert.match(again.out, /^1 passed, 0 failed, 2 errors$/m);
  });

  it("a shard stopped at the run's deadline makes the merge exit 2, as check did, with the reason", async () => {
    write('1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('r:1')] }], '1/2');
    write('2.xml', [deadline], '2/2');
    const r = await merge('*.xml', '--junit', 'all.xml');
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.out, /^ {2}ERROR {2}model-access check {2}1 error$/m);
    assert.match(r.out, /^ {8}run deadline: error: the run was stopped at its deadline \(--run-timeout 1 s\)$/m);
    assert.match(r.out, /^1 passed, 0 failed, 1 error$/m);
    assert.match(fs.readFileSync(path.join(tmp, 'all.xml'), 'utf8'), /errors="1"/);
  });

  describe('malformed reports fail clearly, in time linear in their size', () => {
    const good = () =>
      junitXml([{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('r:1'), fail('r:2')] }], (t) => t, { run: 'r' });
    const refused = async (text: string, message: RegExp) => {
      fs.writeFileSync(path.join(tmp, 'bad.xml'), text);
      const started = performance.now();
      const r = await merge('bad.xml', '--junit', 'all.xml');
      const ms = performance.now() - started;
      assert.equal(r.code, 2, r.out);
      assert.match(r.err, message);
      assert.doesNotMatch(r.err, /\n/, 'one line');
      assert.equal(fs.existsSync(path.join(tmp, 'all.xml')), false, 'no report from a malformed input');
      return ms;
    };

    it('bad character references, a bare &, unclosed and mismatched tags, a report cut short: the reason and the line', async () => {
      await refused(
        good().replace('name="r:1"', 'name="r&#x110000;"'),
        /^model-access merge: bad\.xml: it is not well-formed XML: the character reference &#x110000; names a character XML does not allow \(line 4\)$/,
      );
      await refused(
        good().replace('name="r:1"', 'name="&#0;"'),
        /&#0; names a character XML does not allow \(line 4\)/,
      );
      await refused(good().replace('name="r:1"', 'name="a & b"'), /"& b" is not a reference XML knows .* \(line 4\)/);
      await refused(good().replace('name="r:1"', 'name="&nbsp;"'), /"&nbsp;" is not a reference XML knows/);
      await refused(
        good().replace('</testsuite>', ''),
        /<\/testsuites> where <\/testsuite> \(opened on line 3\) was expected/,
      );
      const cut = good();
      await refused(
        cut.slice(0, cut.indexOf('</failure>')),
        /the file ends inside <failure> opened on line \d+ \(was the report cut short\?\)/,
      );
      await refused('<testsuites name="model-access check"', /the tag <testsuites is never closed by >/);
      await refused('not xml', /text "not xml" stands outside the root element \(line 1\)/);
      await refused('<!DOCTYPE x [<!ENTITY a "b">]><testsuites/>', /a <!DOCTYPE or other declaration/);
    });

    it('megabytes of unclosed tags, open quotes and bare ampersands are refused in time linear in their size', async function () {
      this.timeout(30_000);
      const head = '<?xml version="1.0"?>\n<testsuites name="model-access check">\n';
      const n = 200_000;
      // Each takes a few hundred ms here; the quadratic reading before took minutes. The margin is for a busy machine.
      const budget = 8000;
      const cases: [string, RegExp][] = [
        [head + '<testsuite name="a">'.repeat(n), /elements nested more than 32 deep, deeper than any JUnit report/],
        [
          head + '<testsuite name="a">\n' + '<testcase name="b"/>\n'.repeat(n),
          /the file ends inside <testsuite> opened on line 3/,
        ],
        [
          head + '<testsuite name="a">' + '<testcase name="b"><failure message="m">x'.repeat(n),
          /elements nested more than 32 deep/,
        ],
        [
          head + '<testsuites '.repeat(n),
          /the tag <testsuites holds "<testsuites <testsui" where an attribute, > or \/> belongs \(line 3\)/,
        ],
        [head + '<testsuite name="'.repeat(n), /the value of name in <testsuite> holds a raw </],
        [head + '&'.repeat(n * 10), /"&&&&&&&&&&&&" is not a reference XML knows/],
        [head + '&#'.repeat(n * 5) + ';', /is not a reference XML knows/],
        [head + '<!--'.repeat(n), /a comment <!-- is never closed/],
      ];
      for (const [text, message] of cases) {
        const ms = await refused(text, message);
        assert.ok(ms < budget, `${message}: ${ms.toFixed(0)} ms for ${text.length} characters`);
      }
    });

    it('a file larger than 64 MB is refused before it is read', async () => {
      write('1.xml', [{ name: 'a.jsonc', file: 'a.jsonc', cases: [pass('a')] }], '1/2');
      const big = path.join(tmp, '2.xml');
      fs.writeFileSync(big, '');
      fs.truncateSync(big, 65 * 1024 * 1024); // sparse: no disk used
      const r = await merge('*.xml');
      assert.equal(r.code, 2);
      assert.equal(
        r.err,
        'model-access merge: 2.xml: it is larger than 64 MB, more than any report of model-access check',
      );
    });
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
