// Reading model-access's own JUnit reports back and merging a sharded run's slices; reports of different
// runs, a missing shard or one twice are refused with the reason.
import * as assert from 'node:assert/strict';
import { junitXml, type JUnitSuite } from '../../../src/cli/junit';
import { mergeReports, parseReport, runFingerprint, xmlUnescape, type NamedReport } from '../../../src/cli/junitMerge';

const suites = (name: string, ...cases: JUnitSuite['cases']): JUnitSuite[] => [{ name, file: name, cases }];

function report(file: string, s: JUnitSuite[], run = 'r1', shard?: string): NamedReport {
  const parsed = parseReport(junitXml(s, (t) => t, { run, shard }));
  assert.ok(typeof parsed !== 'string', parsed as string);
  return { file, report: parsed };
}

describe('cli/junitMerge', () => {
  it('reads back what junitXml wrote: cases, times, failures, properties, the run and the shard', () => {
    const s: JUnitSuite[] = [
      {
        name: 'a & <b>.jsonc',
        file: 'a & <b>.jsonc',
        cases: [
          { name: 'rows.jsonl:1', time: 0.25 },
          {
            name: 'rows.jsonl:2',
            time: 1,
            failure: { message: 'The "text" is <different>', detail: 'a.jsonc:3\nexpected: x' },
            properties: [
              { name: 'flaky', value: 'true' },
              { name: 'attempts', value: '3 of 5' },
            ],
          },
        ],
      },
    ];
    const parsed = parseReport(junitXml(s, (t) => t, { run: 'abc', shard: '2/3' }));
    assert.deepEqual(parsed, { run: 'abc', shard: { index: 2, count: 3 }, suites: s });
    assert.deepEqual(parseReport(junitXml(s, (t) => t)), { run: undefined, shard: undefined, suites: s });
  });

  it('refuses a report that is not one of model-access check, or an unreadable shard', () => {
    assert.equal(
      parseReport('<testsuites name="pytest"></testsuites>'),
      'it is not a JUnit report of model-access check',
    );
    assert.equal(
      parseReport('<?xml version="1.0"?><html><body>not a report</body></html>'),
      'it is not a JUnit report of model-access check',
    );
    assert.equal(
      parseReport('<testsuites name="model-access check" model-access-shard="two"></testsuites>'),
      'its shard "two" cannot be read',
    );
  });

  it('unescapes the five entities and character references; a malformed one is an error, not a crash', () => {
    assert.equal(xmlUnescape('&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#65;&#x42;&#x1F600;'), `<a> & "b" 'c' AB😀`);
    assert.throws(() => xmlUnescape('&#99999999999;'), /is not a reference XML knows/);
    assert.throws(() => xmlUnescape('&#xD800;'), /names a character XML does not allow/);
    assert.throws(() => xmlUnescape('&constructor;'), /is not a reference XML knows/);
  });

  it('reads <error> (a timeout, the deadline) beside <failure>, and attributes named like Object members', () => {
    const s: JUnitSuite[] = suites('a.jsonc', {
      name: '__proto__',
      time: 2,
      error: { message: 'No answer within 2 s', detail: 'a.jsonc:2\nNo answer' },
    });
    assert.deepEqual(parseReport(junitXml(s, (t) => t, { run: 'r' })), { run: 'r', shard: undefined, suites: s });
  });

  it('merges shards: a file split by rows becomes one suite, cases in order, one count', () => {
    const merged = mergeReports([
      report('s2.xml', suites('a.jsonc', { name: 'rows.jsonl:2', time: 1 }), 'r1', '2/2'),
      report(
        's1.xml',
        [
          ...suites('a.jsonc', { name: 'rows.jsonl:10', time: 1 }, { name: 'rows.jsonl:1', time: 1 }),
          ...suites('b.jsonc', { name: 'b.jsonc', time: 1, failure: { message: 'm', detail: 'd' } }),
        ],
        'r1',
        '1/2',
      ),
    ]);
    assert.ok(typeof merged !== 'string', merged as string);
    assert.equal(merged.run, 'r1');
    assert.deepEqual(
      merged.suites.map((s) => [s.name, s.cases.map((c) => c.name)]),
      [
        ['a.jsonc', ['rows.jsonl:1', 'rows.jsonl:2', 'rows.jsonl:10']],
        ['b.jsonc', ['b.jsonc']],
      ],
    );
  });

  it("merges dataset rows named by their values in the file's order (their line property), not by name", () => {
    const row = (name: string, line: number) => ({
      name,
      time: 1,
      properties: [{ name: 'line', value: String(line) }],
    });
    const merged = mergeReports([
      report('s1.xml', suites('a.jsonc', row('rows.jsonl: Zurich', 2), row('rows.jsonl: Bern', 10)), 'r1', '1/2'),
      report('s2.xml', suites('a.jsonc', row('rows.jsonl: Oslo', 3)), 'r1', '2/2'),
    ]);
    assert.ok(typeof merged !== 'string', merged as string);
    assert.deepEqual(
      merged.suites[0].cases.map((c) => c.name),
      ['rows.jsonl: Zurich', 'rows.jsonl: Oslo', 'rows.jsonl: Bern'],
    );
  });

  it('says so for reports of different runs, a missing shard, a shard twice, a whole run among shards', () => {
    const a = suites('a.jsonc', { name: 'a', time: 0 });
    assert.equal(mergeReports([]), 'name the JUnit reports to merge');
    assert.match(
      mergeReports([report('x.xml', a, 'r1', '1/2'), report('y.xml', a, 'r2', '2/2')]) as string,
      /^x\.xml and y\.xml come from different runs/,
    );
    assert.equal(
      mergeReports([report('x.xml', a, 'r1', '1/3'), report('y.xml', a, 'r1', '3/3')]),
      'shard 2/3 missing: the merged report would leave tests out',
    );
    assert.equal(
      mergeReports([report('x.xml', a, 'r1', '1/3')]),
      'shards 2/3, 3/3 missing: the merged report would leave tests out',
    );
    assert.equal(
      mergeReports([report('x.xml', a, 'r1', '1/2'), report('y.xml', a, 'r1', '1/2')]),
      'x.xml and y.xml are both shard 1/2',
    );
    assert.equal(
      mergeReports([report('x.xml', a, 'r1', '1/2'), report('y.xml', a, 'r1', '2/3')]),
      'y.xml is a shard of 3, x.xml of 2: these are different runs',
    );
    assert.equal(
      mergeReports([report('x.xml', a, 'r1', '1/1'), report('y.xml', a, 'r1')]),
      'y.xml is a whole run, not a shard; merge the shards of one run',
    );
    const whole = mergeReports([report('x.xml', a, 'r1')]);
    assert.ok(typeof whole !== 'string');
  });

  it('the fingerprint depends on the payload set, models and repeats, not on their order', () => {
    const f = runFingerprint(['b', 'a'], ['m2', 'm1'], undefined);
    assert.equal(f, runFingerprint(['a', 'b'], ['m1', 'm2'], 1));
    assert.match(f, /^[0-9a-f]{16}$/);
    assert.notEqual(f, runFingerprint(['a'], ['m1', 'm2'], 1));
    assert.notEqual(f, runFingerprint(['a', 'b'], ['m1'], 1));
    assert.notEqual(f, runFingerprint(['a', 'b'], ['m1', 'm2'], 3));
  });
});
