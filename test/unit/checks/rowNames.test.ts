import * as assert from 'node:assert/strict';
import { readDataset } from '../../../src/domain/payload/dataset';
import { firstValues, rowNames } from '../../../src/checks/core/rowNames';

const row = (line: number, values: Record<string, string>) => ({ line, values });

describe('checks/core/rowNames', () => {
  it('names a CSV row by its first values, the dataset first, in the file order of the fields', () => {
    const data = readDataset('a,b,c,d\n2,3,5,x\n7,11,13,y\n', 'sums.csv');
    assert.deepEqual(
      [...rowNames('sums.csv', data.rows, data.problems)],
      [
        [2, 'sums.csv: 2, 3, 5'],
        [3, 'sums.csv: 7, 11, 13'],
      ],
    );
  });

  it('rows that start alike carry their line, so every name of a dataset is unique', () => {
    const names = rowNames('q.jsonl', [
      row(1, { q: 'Paris', a: '1', b: '2', c: 'first' }),
      row(2, { q: 'Oslo' }),
      row(3, { q: 'Paris', a: '1', b: '2', c: 'second' }),
      row(4, { q: 'Paris', a: '1' }),
    ]);
    assert.deepEqual(
      [...names.values()],
      ['q.jsonl: Paris, 1, 2 (line 1)', 'q.jsonl: Oslo', 'q.jsonl: Paris, 1, 2 (line 3)', 'q.jsonl: Paris, 1'],
    );
    // A value that reads like a made-unique name cannot take another row's name either.
    const tricky = rowNames('q.jsonl', [row(1, { q: 'a' }), row(2, { q: 'a' }), row(5, { q: 'a (line 1)' })]);
    assert.equal(new Set(tricky.values()).size, 3);
    assert.deepEqual([...tricky.values()], ['q.jsonl: a (line 1)', 'q.jsonl: a (line 2)', 'q.jsonl (line 5)']);
  });

  it('a row that cannot be read, or has only empty values, is named by its line', () => {
    const data = readDataset('{"q": "Rome"}\nnot json\n{"q": "  "}\n', 'q.jsonl');
    assert.deepEqual(
      [...rowNames('q.jsonl', data.rows, data.problems)].sort(([a], [b]) => a - b),
      [
        [1, 'q.jsonl: Rome'],
        [2, 'q.jsonl (line 2)'],
        [3, 'q.jsonl (line 3)'],
      ],
    );
  });

  it('values are cleaned through the display function and shortened past 40 characters', () => {
    assert.equal(firstValues(row(1, { a: 'x'.repeat(60) })), `${'x'.repeat(39)}…`);
    assert.equal(firstValues(row(1, { a: 'two\nlines', b: '[go](command:evil)' })), 'two lines, [go] (command:evil)');
    assert.equal(firstValues(row(1, { a: '\u202eevil', b: '$(zap)' })), 'evil, $\u2060(zap)');
    assert.equal(firstValues(row(1, { a: ' padded ', b: '' })), 'padded, ');
    const [name] = rowNames('d\u202e.csv', [row(2, { a: 'v' })]).values();
    assert.equal(name, 'd.csv: v');
  });
});
