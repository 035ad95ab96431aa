// Dataset files as people name and write them: a second extension, a stray byte-order mark or carriage
// return inside a value, blank lines between rows, a header whose first column has no name.
import * as assert from 'node:assert/strict';
import { datasetKind, readDataset } from '../../../src/domain/payload/dataset';

describe('checks/core/dataset: names and stray characters', () => {
  it('knows the kind by the last extension only', () => {
    assert.equal(datasetKind('cases.jsonl.csv'), 'csv');
    assert.equal(datasetKind('cases.csv.bak'), undefined);
    assert.equal(datasetKind('cases.ndjson.txt'), undefined);
    assert.deepEqual(readDataset('city\nParis\n', 'cases.jsonl.csv').rows, [{ line: 2, values: { city: 'Paris' } }]);
  });

  it('keeps a byte-order mark inside a value', () => {
    assert.deepEqual(readDataset('{"a": "x\uFEFFy"}\n', 'c.jsonl').rows, [{ line: 1, values: { a: 'x\uFEFFy' } }]);
  });

  it('a raw carriage return inside a JSON string is a problem at its line, not a value with the return dropped', () => {
    const d = readDataset('{"a": "x\ry"}\r\n{"a": "z"}\r\n', 'c.jsonl');
    assert.deepEqual(d.rows, [{ line: 2, values: { a: 'z' } }]);
    assert.equal(d.problems.length, 1);
    assert.match(d.problems[0].message, /^c\.jsonl:1: not valid JSON \(/);
  });

  it('CSV: blank lines between rows keep the line numbers of the rows after them', () => {
    const d = readDataset('a,b\n1,2\n\n3\n', 'c.csv');
    assert.deepEqual(d.rows, [{ line: 2, values: { a: '1', b: '2' } }]);
    assert.deepEqual(d.problems, [
      { line: 4, message: 'c.csv:4: 1 fields, but the header names 2 columns (a field holding a comma needs quotes)' },
    ]);
  });

  it('CSV: a header whose first column has no name is a problem', () => {
    assert.deepEqual(readDataset(',b\n1,2\n', 'c.csv'), {
      rows: [],
      problems: [{ line: 1, message: 'c.csv:1: column 1 of the header has no name' }],
    });
  });
});
