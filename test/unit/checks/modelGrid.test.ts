// The grid of Run Checks on Several Models: a row per request (the payload, or each dataset row in line
// order), the models in the order they were asked for, a cell per model that says passed or failed (and why),
// the graders' score and the time, "not run" where no request reached it, and a summary per model; the same
// grid saved as CSV.
import * as assert from 'node:assert/strict';
import type { RowResult } from '../../../src/checks/core/fileRun';
import { gridAsTable, modelGrid, rowsByModel, summaryText } from '../../../src/checks/core/modelGrid';
import { tableAsCsv } from '../../../src/checks/core/resultsTable';

interface Run {
  model: string;
  line?: number;
  noAnswer?: boolean;
  ms?: number;
  fail?: string;
  score?: number;
  attempt?: number;
}

/** A dataset row's name as core/rowNames gives it (its first value); line 2 sorts after 10 by name. */
const CITIES: Record<number, string> = { 1: 'Paris', 2: 'Rome', 5: 'Bern', 10: 'Lyon' };
const rowOf = (line: number | undefined) =>
  line === undefined ? undefined : { line, name: `cities.jsonl: ${CITIES[line] ?? line}` };

function run({ model, line, noAnswer, ms = 100, fail, score, attempt }: Run): RowResult {
  const status = noAnswer ? undefined : 200;
  const results = [
    {
      line: 3,
      source: 'text contains "Paris"',
      outcome: fail === undefined ? { passed: true } : { passed: false, message: fail },
    },
  ];
  if (score !== undefined) {
    results.push({
      line: 4,
      source: 'similar "Paris is the capital." >= 0.8',
      outcome: { passed: score >= 0.8, score, reason: `cosine ${score}` } as never,
    });
  }
  return {
    kind: 'run',
    label: [model, rowOf(line)?.name].filter(Boolean).join(' · '),
    row: rowOf(line),
    result: {
      run: { model, row: line === undefined ? undefined : { line, values: {} }, attempt } as never,
      observed: {
        status,
        elapsedMs: ms,
        streamed: false,
        failure: status === undefined ? 'the service did not answer' : undefined,
      },
      results,
      passed: fail === undefined,
    },
  };
}

describe('checks/core/modelGrid', () => {
  it('keeps the models in the order they were asked for, whatever order the answers came in', () => {
    const grid = modelGrid({
      payload: 'paris.jsonc',
      models: ['zeta-2', 'aurora-1', 'mira-3'],
      rows: [run({ model: 'mira-3' }), run({ model: 'aurora-1' }), run({ model: 'zeta-2', ms: 1500 })],
    });
    assert.deepEqual(grid.models, ['zeta-2', 'aurora-1', 'mira-3']);
    assert.deepEqual(
      grid.summary.map((s) => s.model),
      ['zeta-2', 'aurora-1', 'mira-3'],
    );
    assert.equal(grid.rows.length, 1);
    assert.equal(grid.rows[0].label, 'paris.jsonc');
    assert.deepEqual(
      grid.rows[0].cells.map((c) => [c.text, c.timeMs]),
      [
        ['passed', 1500],
        ['passed', 100],
        ['passed', 100],
      ],
    );
  });

  it('a failed cell says failed, and why: the line and message of its first failed expectation', () => {
    const grid = modelGrid({
      payload: 'paris.jsonc',
      models: ['a', 'b'],
      rows: [run({ model: 'a' }), run({ model: 'b', fail: 'The answer\'s text does not contain "Paris".' })],
    });
    const [passed, failed] = grid.rows[0].cells;
    assert.equal(passed.state, 'passed');
    assert.equal(passed.why, undefined);
    assert.deepEqual([failed.state, failed.text], ['failed', 'failed']);
    assert.equal(failed.why, 'line 4: The answer\'s text does not contain "Paris".');
  });

  it('a request with no answer says "no answer" and no time; a cell nothing reached says "not run"', () => {
    const grid = modelGrid({
      payload: 'cities.jsonc',
      dataset: 'cities.jsonl',
      models: ['a', 'b', 'c'],
      rows: [
        run({ model: 'a', line: 1 }),
        run({ model: 'b', line: 1, noAnswer: true, fail: 'No answer: the service did not answer' }),
      ],
    });
    assert.deepEqual(
      grid.rows[0].cells.map((c) => [c.state, c.text, c.timeMs]),
      [
        ['passed', 'passed', 100],
        ['noAnswer', 'no answer', undefined],
        ['notRun', 'not run', undefined],
      ],
    );
    assert.deepEqual(
      grid.summary.map((s) => [s.passed, s.ran, s.rate, s.medianMs]),
      [
        [1, 1, 100, 100],
        [0, 1, 0, undefined],
        [0, 0, undefined, undefined],
      ],
    );
    assert.equal(summaryText(grid.summary[2]), 'not run');
  });

  it('dataset rows by their names in line order (2 before 10, not by name), a row that could not be read is "not run" with its problem', () => {
    const grid = modelGrid({
      payload: 'cities.jsonc',
      dataset: 'cities.jsonl',
      models: ['a', 'b'],
      rows: [
        run({ model: 'a', line: 10 }),
        run({ model: 'b', line: 2, ms: 300 }),
        {
          kind: 'problem',
          label: 'cities.jsonl (line 5)',
          row: { line: 5, name: 'cities.jsonl (line 5)' },
          line: 1,
          message: 'cities.jsonl:5: not JSON',
        },
        run({ model: 'a', line: 2, fail: 'no' }),
        run({ model: 'b', line: 10 }),
      ],
    });
    assert.deepEqual(
      grid.rows.map((r) => r.label),
      ['cities.jsonl: Rome', 'cities.jsonl (line 5)', 'cities.jsonl: Lyon'],
    );
    assert.deepEqual(
      grid.rows[1].cells.map((c) => [c.text, c.why]),
      [
        ['not run', 'cities.jsonl:5: not JSON'],
        ['not run', 'cities.jsonl:5: not JSON'],
      ],
    );
    assert.deepEqual(
      grid.summary.map((s) => summaryText(s)),
      ['1 of 2 passed · 50%', '2 of 2 passed · 100%'],
    );
  });

  it("shows the graders' lowest score, and names each in its title", () => {
    const grid = modelGrid({
      payload: 'p.jsonc',
      models: ['a', 'b'],
      rows: [run({ model: 'a', score: 0.9134 }), run({ model: 'b', score: 0.42 })],
    });
    const [a, b] = grid.rows[0].cells;
    assert.equal(a.score, 0.9134);
    assert.equal(a.scores, 'similar 0.91');
    assert.deepEqual([b.state, b.score], ['failed', 0.42]);
    assert.match(b.why ?? '', /^line 5: /);
  });

  it('repeated requests: "3 of 5 passed", passed against the pass rate, the median time of the attempts', () => {
    const attempts = (model: string, fails: number) =>
      [1, 2, 3, 4, 5].map((attempt) =>
        run({ model, attempt, ms: attempt * 100, fail: attempt <= fails ? 'flaky' : undefined }),
      );
    const strict = modelGrid({
      payload: 'p.jsonc',
      models: ['a', 'b'],
      rows: [...attempts('a', 2), ...attempts('b', 0)],
    });
    assert.deepEqual(
      strict.rows[0].cells.map((c) => [c.state, c.text, c.timeMs]),
      [
        ['failed', '3 of 5 passed', 300],
        ['passed', '5 of 5 passed', 300],
      ],
    );
    assert.equal(strict.rows[0].cells[0].why, 'line 4: flaky');
    const lenient = modelGrid({ payload: 'p.jsonc', models: ['a'], rows: attempts('a', 2), passRate: 0.6 });
    assert.deepEqual([lenient.rows[0].cells[0].state, lenient.rows[0].cells[0].why], ['passed', undefined]);
  });

  it('repeated graded requests: each grader averaged over the attempts, the cell shows the lowest', () => {
    const judged = (score: number, attempt: number): RowResult => {
      const row = run({ model: 'a', attempt, score });
      if (row.kind === 'run') {
        row.result.results.push({ line: 5, source: 'judge "names Paris"', outcome: { passed: true, score: 1 } });
      }
      return row;
    };
    const grid = modelGrid({
      payload: 'p.jsonc',
      models: ['a'],
      rows: [judged(0.9, 1), judged(0.7, 2)],
      passRate: 0.5,
    });
    const cell = grid.rows[0].cells[0];
    assert.equal(cell.scores, 'similar 0.8, judge 1');
    assert.ok(Math.abs((cell.score ?? 0) - 0.8) < 1e-9, String(cell.score));
    assert.deepEqual([cell.state, cell.text], ['passed', '1 of 2 passed']);
  });

  it('a run that was cancelled before any answer: the payload row says "not run" for every model', () => {
    const grid = modelGrid({ payload: 'paris.jsonc', models: ['a', 'b'], rows: [] });
    assert.deepEqual(
      grid.rows.map((r) => [r.label, ...r.cells.map((c) => c.text)]),
      [['paris.jsonc', 'not run', 'not run']],
    );
    assert.deepEqual(gridAsTable(grid).rows.at(-1), ['all rows', 'not run', '', '', '', 'not run', '', '', '']);
  });

  it('leaves out requests of models not asked for, and names a model asked twice once', () => {
    const grid = modelGrid({
      payload: 'p.jsonc',
      models: ['a', 'a', 'b'],
      rows: [run({ model: 'a' }), run({ model: 'elsewhere', fail: 'x' })],
    });
    assert.deepEqual(grid.models, ['a', 'b']);
    assert.deepEqual(
      grid.rows[0].cells.map((c) => c.text),
      ['passed', 'not run'],
    );
  });

  it('saves as CSV: result, score, time and failure per model, and a last row that sums each model up', () => {
    const grid = modelGrid({
      payload: 'p.jsonc',
      models: ['a', 'b'],
      rows: [run({ model: 'a', ms: 1200, score: 0.9 }), run({ model: 'b', fail: '=HYPERLINK("x"), no' })],
    });
    assert.equal(
      tableAsCsv(gridAsTable(grid)),
      [
        'row,a,a score,a time,a failure,b,b score,b time,b failure',
        'p.jsonc,passed,0.9,1.2s,,failed,,100ms,"line 4: =HYPERLINK(""x""), no"',
        'all rows,1/1 (100%),,1.2s,,0/1 (0%),,100ms,',
        '',
      ].join('\r\n'),
    );
  });

  it("groups each model's requests for its own result in Test Explorer, in the order asked", () => {
    const rows = [run({ model: 'b', line: 1 }), run({ model: 'a', line: 1 }), run({ model: 'b', line: 2 })];
    const grouped = rowsByModel(rows, ['a', 'b', 'c']);
    assert.deepEqual([...grouped.keys()], ['a', 'b', 'c']);
    assert.deepEqual(
      grouped.get('b')?.map((r) => r.label),
      ['b · cities.jsonl: Paris', 'b · cities.jsonl: Rome'],
    );
    assert.deepEqual(grouped.get('c'), []);
  });
});
