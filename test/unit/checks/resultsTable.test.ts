// The tables a check run shows and saves: the column names, the per-model pass rate and median time (rows
// that got no answer have no time; rows that could not run belong to no model), text alignment, and CSV
// cells that a spreadsheet would take for formulas.
import * as assert from 'node:assert/strict';
import type { RowResult } from '../../../src/checks/core/fileRun';
import { modelTable, resultsTable, tableAsCsv, tableAsText, wrapWords } from '../../../src/checks/core/resultsTable';

function runRow(model: string | undefined, status: number | undefined, elapsedMs: number, passed: boolean): RowResult {
  return {
    kind: 'run',
    label: `${model ?? ''}:${elapsedMs}`,
    result: {
      run: { model },
      observed: { status, elapsedMs, streamed: false, failure: status === undefined ? 'down' : undefined },
      results: [{ line: 2, source: 'status 200', outcome: passed ? { passed } : { passed, message: 'no' } }],
      passed,
    },
  };
}

describe('checks/core/resultsTable', () => {
  it('names the columns of the results table', () => {
    assert.deepEqual(resultsTable([]).columns, [
      'row',
      'result',
      'status',
      'time',
      'tokens',
      'first failed expectation',
    ]);
  });

  it('per model: the pass rate, and the median time of the requests that got an answer', () => {
    const problem: RowResult = {
      kind: 'problem',
      label: 'd.csv (line 9)',
      row: { line: 9, name: 'd.csv (line 9)' },
      line: 1,
      message: 'd.csv:9: bad',
    };
    const table = modelTable([
      problem,
      runRow('a', 200, 100, true),
      runRow('a', undefined, 5, false),
      runRow('a', 200, 300, false),
      runRow('a', 200, 700, true),
      runRow('b', undefined, 5, false),
    ]);
    assert.deepEqual(table.rows, [
      ['a', '2/4', '50%', '300ms'],
      ['b', '0/1', '0%', ''],
    ]);
  });

  it('in the order the models were asked for, whichever answered first', () => {
    const rows = [runRow('c', 200, 5, true), runRow('a', 200, 9, true), runRow('b', 200, 7, false)];
    assert.deepEqual(
      modelTable(rows, ['a', 'b', 'c', 'never-answered']).rows.map((r) => r[0]),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      modelTable(rows).rows.map((r) => r[0]),
      ['c', 'a', 'b'],
    );
  });

  it('a run without a model is listed under an empty name', () => {
    assert.deepEqual(modelTable([runRow(undefined, 200, 10, true)]).rows, [['', '1/1', '100%', '10ms']]);
  });

  it('aligns a row whose first cell is empty', () => {
    assert.equal(tableAsText({ columns: ['a', 'b'], rows: [['', 'x']] }), 'a  b\n-  -\n   x');
  });

  it('Test Results: the failed expectation goes under its row, wrapped at spaces, so no line breaks mid-word', () => {
    const message =
      'line 4: The answer\'s text does not contain "London". It begins: "The capital of France is Paris."';
    const text = tableAsText(
      {
        note: true,
        columns: ['row', 'result', 'status', 'first failed expectation'],
        rows: [
          ['cities.jsonl:1', 'passed', '200', ''],
          ['cities.jsonl:2', 'failed', '200', message],
        ],
      },
      40,
    );
    assert.equal(
      text,
      [
        'row             result  status',
        '--------------  ------  ------',
        'cities.jsonl:1  passed  200',
        'cities.jsonl:2  failed  200',
        "    line 4: The answer's text does not",
        '    contain "London". It begins: "The',
        '    capital of France is Paris."',
      ].join('\n'),
    );
    assert.ok(text.split('\n').every((l) => l.length <= 40));
    // The saved CSV keeps every column.
    assert.match(tableAsCsv(resultsTable([])), /first failed expectation/);
  });

  it('wraps words at the width, and cuts only a word longer than a line', () => {
    assert.deepEqual(wrapWords('aa bb cc', 5), ['aa bb', 'cc']);
    assert.deepEqual(wrapWords('abcdefghij k', 4), ['abcd', 'efgh', 'ij k']);
    assert.deepEqual(wrapWords('', 4), []);
  });

  it('CSV: only a leading =, +, - or @ is defused; model names with a dash stay as they are', () => {
    assert.equal(
      tableAsCsv({
        columns: ['model', 'note'],
        rows: [
          ['aurora-1', 'a=b'],
          ['@x', '+1'],
        ],
      }),
      `model,note\r\naurora-1,a=b\r\n'@x,'+1\r\n`,
    );
  });
});
