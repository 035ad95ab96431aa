// The CLI's file patterns and its JUnit XML.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expandPatterns, globToRegExp } from '../../../src/cli/glob';
import { junitXml, xmlEscape } from '../../../src/cli/junit';

describe('cli/glob and cli/junit', () => {
  it('globs: *, ?, **/ (none or any folders), trailing **, {a,b}, literal dots', () => {
    const re = (p: string) => globToRegExp(p);
    assert.ok(re('*.jsonc').test('a.jsonc'));
    assert.ok(!re('*.jsonc').test('d/a.jsonc'));
    assert.ok(!re('*.jsonc').test('axjsonc'));
    assert.ok(re('**/*.jsonc').test('a.jsonc'));
    assert.ok(re('**/*.jsonc').test('d/e/a.jsonc'));
    assert.ok(re('a/**').test('a/b/c'));
    assert.ok(re('?.json').test('a.json'));
    assert.ok(!re('?.json').test('ab.json'));
    assert.ok(re('*.{json,jsonc}').test('a.json') && re('*.{json,jsonc}').test('a.jsonc'));
    assert.ok(!re('*.{json,jsonc}').test('a.jsonl'));
    assert.ok(re('a,b}').test('a,b}'));
  });

  it('expands files, folders and patterns; skips node_modules and dot folders; reports what matched nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-glob-'));
    try {
      for (const f of [
        'checks/a.jsonc',
        'checks/sub/b.json',
        'checks/c.txt',
        'checks/node_modules/x.jsonc',
        'checks/.git/y.jsonc',
      ]) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), '');
      }
      const rel = (files: string[]) => files.map((f) => path.relative(dir, f).split(path.sep).join('/'));
      assert.deepEqual(rel(expandPatterns(['checks'], dir).files), ['checks/a.jsonc', 'checks/sub/b.json']);
      assert.deepEqual(rel(expandPatterns(['checks/**/*.jsonc'], dir).files), ['checks/a.jsonc']);
      assert.deepEqual(rel(expandPatterns(['**/*.json'], dir).files), ['checks/sub/b.json']);
      assert.deepEqual(rel(expandPatterns(['checks/c.txt', 'checks/c.txt'], dir).files), ['checks/c.txt']);
      assert.deepEqual(expandPatterns(['nope/*.jsonc', 'missing.jsonc'], dir), {
        files: [],
        unmatched: ['nope/*.jsonc', 'missing.jsonc'],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('JUnit: counts, times, a failure with message and detail, everything escaped', () => {
    const xml = junitXml(
      [
        {
          name: 'a<b>.jsonc',
          file: 'dir/a<b>.jsonc',
          cases: [
            { name: 'ok', time: 0.25 },
            { name: 'row "1"', time: 1, failure: { message: "it's & <bad>", detail: 'line 2\nexpected: x\u0001' } },
          ],
        },
      ],
      (t) => t,
    );
    assert.match(
      xml,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="model-access check" tests="2" failures="1" errors="0" time="1\.250">/,
    );
    assert.match(
      xml,
      /<testsuite name="a&lt;b&gt;\.jsonc" file="dir\/a&lt;b&gt;\.jsonc" tests="2" failures="1" errors="0" time="1\.250">/,
    );
    assert.match(
      xml,
      /<testcase classname="a&lt;b&gt;\.jsonc" name="ok" file="dir\/a&lt;b&gt;\.jsonc" time="0\.250"\/>/,
    );
    assert.match(xml, /<failure message="it&apos;s &amp; &lt;bad&gt;">line 2\nexpected: x\u2401<\/failure>/);
    assert.match(xml, /name="row &quot;1&quot;"/);
    assert.equal(xmlEscape('\u0000\t\n\r\uFFFF'), '\uFFFD\t\n\r\uFFFD');
    assert.match(
      junitXml([], (t) => t),
      /tests="0" failures="0" errors="0" time="0\.000">\n<\/testsuites>\n$/,
    );
  });

  it('JUnit: each field is redacted before it is escaped (a secret holding & < > " \' is found), controls made visible', () => {
    const secret = `pa"ss&w<rd>'s`;
    const redact = (t: string) => t.split(secret).join('[redacted]');
    const xml = junitXml(
      [
        {
          name: `suite ${secret}`,
          file: `f${secret}.jsonc`,
          cases: [
            {
              name: `row ${secret}`,
              time: 0,
              failure: { message: `m ${secret}`, detail: `d ${secret}\nactual: \u001b[2K\rPASS\u009b` },
            },
            { name: 'slow', time: 0, error: { message: `deadline ${secret}`, detail: 'stopped' } },
          ],
        },
      ],
      redact,
    );
    for (const form of [secret, 'pa&quot;ss&amp;w&lt;rd&gt;&apos;s', 'pa"ss', 'w&lt;rd&gt;']) {
      assert.ok(!xml.includes(form), `the secret is in the report as ${form}`);
    }
    assert.equal((xml.match(/\[redacted\]/g) ?? []).length, 10);
    assert.match(xml, /actual: \u241b\[2K\u240dPASS&lt;U\+009B&gt;/);
    assert.doesNotMatch(xml, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    assert.match(xml, /<error message="deadline \[redacted\]">stopped<\/error>/);
    assert.match(xml, /tests="2" failures="1" errors="1"/);
  });
});
