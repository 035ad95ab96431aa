// Check lines in files as editors save them (CRLF, a byte-order mark) and @each names that are not quite a
// dataset file: the expectation reads as written, the dataset line says what it cannot read.
import * as assert from 'node:assert/strict';
import { readCheckLines } from '../../../src/checks/core/checkFile';

describe('checks/core/checkFile: line endings and dataset names', () => {
  it('reads expectations of a file with CRLF line endings', () => {
    const lines = readCheckLines('// POST /v1/chat\r\n// @expect status 200\r\n// @each cases.csv\r\n{}\r\n');
    assert.deepEqual(
      lines.expectations.map((e) => [e.source, e.expectation, e.problem]),
      [['status 200', { kind: 'status', op: '==', value: 200 }, undefined]],
    );
    assert.deepEqual(lines.each, { line: 2, column: 9, file: 'cases.csv' });
  });

  it('keeps a byte-order mark inside an expectation', () => {
    const [e] = readCheckLines('// @expect text contains "a\uFEFFb"\n').expectations;
    assert.deepEqual(e.expectation, { kind: 'text', op: 'contains', value: 'a\uFEFFb' });
  });

  it('reads an @each name with quotes inside it as written', () => {
    assert.equal(readCheckLines('// @each "cases".csv\n').each?.file, '"cases".csv');
    assert.equal(
      readCheckLines('// @each x"cases.csv"\n').each?.problem,
      '@each reads .jsonl or .csv files, not x"cases.csv"',
    );
  });

  it('refuses a dataset whose name only contains .csv', () => {
    assert.equal(
      readCheckLines('// @each cases.csv.bak\n').each?.problem,
      '@each reads .jsonl or .csv files, not cases.csv.bak',
    );
  });
});
