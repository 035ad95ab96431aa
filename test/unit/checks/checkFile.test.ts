// The check lines of a payload: where each expectation is (line and column, for diagnostics and failures),
// what cannot be read, and the dataset line.
import * as assert from 'node:assert/strict';
import { hasChecks, readCheckLines } from '../../../src/checks/core/checkFile';

describe('checks/core/checkFile', () => {
  it('finds whole-line // @expect comments with their line and column', () => {
    const text =
      '// POST /v1/chat\r\n//   @expect status 200\n  // @EXPECT text contains "Paris"\n{"model": "m"} // @expect time < 1s\n';
    const lines = readCheckLines(text);
    assert.deepEqual(
      lines.expectations.map((e) => [e.line, e.column, e.source, e.expectation?.kind]),
      [
        [1, 13, 'status 200', 'status'],
        [2, 13, 'text contains "Paris"', 'text'],
      ],
    );
    assert.equal(text.split('\n')[1].slice(13), 'status 200');
    assert.equal(text.split('\n')[2].slice(13), 'text contains "Paris"');
    assert.equal(lines.each, undefined);
    assert.deepEqual(lines.problems, []);
  });

  it('keeps a line that cannot be read, with the reason', () => {
    const lines = readCheckLines('\uFEFF// @expect nonsense here\n// @expectation status 1\n');
    assert.equal(lines.expectations.length, 1);
    assert.equal(lines.expectations[0].expectation, undefined);
    assert.match(lines.expectations[0].problem ?? '', /^"nonsense here" is not an expectation/);
  });

  it('reads @each with a .jsonl, .ndjson or .csv file (quoted or not); a second one is a problem', () => {
    assert.deepEqual(readCheckLines('// @each cases.jsonl').each, { line: 0, column: 9, file: 'cases.jsonl' });
    assert.deepEqual(readCheckLines('// @each "my cases.csv"').each?.file, 'my cases.csv');
    assert.equal(readCheckLines('// @each a.ndjson').each?.problem, undefined);
    assert.equal(readCheckLines('// @each').each?.problem, '@each needs a dataset file, as in: // @each cases.jsonl');
    assert.equal(
      readCheckLines('// @each cases.json').each?.problem,
      '@each reads .jsonl or .csv files, not cases.json',
    );
    const two = readCheckLines('// @each a.jsonl\n// @each b.jsonl');
    assert.equal(two.each?.file, 'a.jsonl');
    assert.deepEqual(two.problems, [
      { line: 1, message: 'A payload runs over one dataset; this second @each is not read' },
    ]);
  });

  it('knows a payload with checks', () => {
    assert.equal(hasChecks('// POST /v1/chat\n// @expect status 200\n{}'), true);
    assert.equal(hasChecks('// POST /v1/chat\n  //@expect x\n{}'), true);
    assert.equal(hasChecks('// POST /v1/chat\n{"a": "// @expect"}'), false);
    assert.equal(hasChecks('// @expectations'), false);
  });
});
