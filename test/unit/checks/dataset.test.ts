// Dataset files of `// @each`: JSON Lines and CSV (quoted fields, line breaks inside quotes, CRLF), every row
// with the line it starts on, and every row that cannot be read named by file:line.
import * as assert from 'node:assert/strict';
import { datasetKind, readDataset, splitCsv } from '../../../src/domain/payload/dataset';

describe('checks/core/dataset', () => {
  it('knows JSON Lines and CSV by their extension', () => {
    assert.equal(datasetKind('a/cases.jsonl'), 'jsonl');
    assert.equal(datasetKind('cases.NDJSON'), 'jsonl');
    assert.equal(datasetKind('cases.Csv'), 'csv');
    assert.equal(datasetKind('cases.json'), undefined);
    assert.equal(datasetKind('csv'), undefined);
  });

  it('JSON Lines: one object per line, values as variables (strings as they are, others as JSON)', () => {
    const d = readDataset(
      '\uFEFF{"city": "Paris", "n": 2, "ok": true, "x": null, "o": {"a": [1]}}\r\n\n  \n{"city":"Rome"}\n',
      'c.jsonl',
    );
    assert.deepEqual(d.problems, []);
    assert.deepEqual(d.rows, [
      { line: 1, values: { city: 'Paris', n: '2', ok: 'true', x: 'null', o: '{"a":[1]}' } },
      { line: 4, values: { city: 'Rome' } },
    ]);
  });

  it('JSON Lines: a line that is not JSON, or not an object, is a problem at file:line; the others still run', () => {
    const d = readDataset('{"a":"1"}\n{"a": \n[1]\n"s"\n{"a":"2"}', 'cases.jsonl');
    assert.deepEqual(
      d.rows.map((r) => [r.line, r.values.a]),
      [
        [1, '1'],
        [5, '2'],
      ],
    );
    assert.equal(d.problems.length, 3);
    assert.equal(d.problems[0].line, 2);
    assert.match(d.problems[0].message, /^cases\.jsonl:2: not valid JSON \(.+\)$/);
    assert.deepEqual(d.problems[1], {
      line: 3,
      message: 'cases.jsonl:3: each line must be a JSON object such as {"city": "Paris"}',
    });
    assert.deepEqual(d.problems[2], {
      line: 4,
      message: 'cases.jsonl:4: each line must be a JSON object such as {"city": "Paris"}',
    });
    assert.match(readDataset('null', 'x.jsonl').problems[0].message, /must be a JSON object/);
  });

  it('CSV: a header, then rows; quoted fields hold commas, quotes and line breaks; CRLF and a BOM are fine', () => {
    const text = '\uFEFFcity, note\r\nParis,"a, b"\r\n"Rome","say ""hi"""\r\n"Oslo","two\nlines"\r\n\r\nBern,\n';
    const d = readDataset(text, 'cases.csv');
    assert.deepEqual(d.problems, []);
    assert.deepEqual(d.rows, [
      { line: 2, values: { city: 'Paris', note: 'a, b' } },
      { line: 3, values: { city: 'Rome', note: 'say "hi"' } },
      { line: 4, values: { city: 'Oslo', note: 'two\nlines' } },
      { line: 7, values: { city: 'Bern', note: '' } },
    ]);
  });

  it('CSV: the last row without a line break, an empty field at the end, a lone CR', () => {
    assert.deepEqual(readDataset('a,b\r1,\r2,3', 'x.csv').rows, [
      { line: 2, values: { a: '1', b: '' } },
      { line: 3, values: { a: '2', b: '3' } },
    ]);
    assert.deepEqual(splitCsv('a\n,\n'), {
      records: [
        { line: 1, fields: ['a'] },
        { line: 2, fields: ['', ''] },
      ],
    });
    assert.deepEqual(splitCsv('""'), { records: [{ line: 1, fields: [''] }] });
    assert.deepEqual(splitCsv('a"b"'), { records: [{ line: 1, fields: ['a"b"'] }] });
  });

  it('CSV: a row with the wrong number of fields is a problem at its line, the others run', () => {
    const d = readDataset('a,b\n1,2\n1,2,3\nx\n3,4', 'cases.csv');
    assert.deepEqual(
      d.rows.map((r) => r.line),
      [2, 5],
    );
    assert.deepEqual(d.problems, [
      {
        line: 3,
        message: 'cases.csv:3: 3 fields, but the header names 2 columns (a field holding a comma needs quotes)',
      },
      {
        line: 4,
        message: 'cases.csv:4: 1 fields, but the header names 2 columns (a field holding a comma needs quotes)',
      },
    ]);
  });

  it('CSV: an unclosed quote, an empty file, a header without a name or with a name twice', () => {
    const open = readDataset('a,b\n1,2\n3,"open\n4,5\n', 'q.csv');
    assert.deepEqual(open.rows, [{ line: 2, values: { a: '1', b: '2' } }]);
    assert.deepEqual(open.problems, [
      { line: 3, message: 'q.csv:3: a quoted field is never closed (a quote inside a field is written "")' },
    ]);
    assert.deepEqual(readDataset('"a', 'q.csv').problems, [
      { line: 1, message: 'q.csv:1: a quoted field is never closed (a quote inside a field is written "")' },
    ]);
    assert.deepEqual(readDataset('', 'e.csv'), {
      rows: [],
      problems: [{ line: 1, message: 'e.csv: the file is empty; the first row names the columns' }],
    });
    assert.deepEqual(
      readDataset('\n\n', 'e.csv').problems[0].message,
      'e.csv: the file is empty; the first row names the columns',
    );
    assert.deepEqual(readDataset('a,,c\n1,2,3', 'h.csv'), {
      rows: [],
      problems: [{ line: 1, message: 'h.csv:1: column 2 of the header has no name' }],
    });
    assert.deepEqual(readDataset('a,b,a\n1,2,3', 'h.csv'), {
      rows: [],
      problems: [{ line: 1, message: 'h.csv:1: the column a is named twice' }],
    });
  });
});
