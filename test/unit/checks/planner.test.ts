// Which requests a check run makes (rows × models, the row cap) and running them at a bounded concurrency
// that one signal cancels.
import * as assert from 'node:assert/strict';
import { median, planRuns, runLimited } from '../../../src/checks/core/planner';

const rows = [1, 2, 3].map((n) => ({ line: n, values: { n: String(n) } }));

describe('checks/core/planner', () => {
  it('plans one run without a dataset or models, rows × models with them, and caps rows', () => {
    assert.deepEqual(planRuns(undefined, [], 10), { runs: [{ row: undefined, model: undefined }], skippedRows: 0 });
    assert.deepEqual(planRuns(undefined, ['a', 'b'], 10).runs, [
      { row: undefined, model: 'a' },
      { row: undefined, model: 'b' },
    ]);
    const plan = planRuns(rows, ['a', 'b'], 2);
    assert.deepEqual(
      plan.runs.map((r) => [r.model, r.row?.line]),
      [
        ['a', 1],
        ['a', 2],
        ['b', 1],
        ['b', 2],
      ],
    );
    assert.equal(plan.skippedRows, 1);
    assert.equal(planRuns(rows, [], 3).skippedRows, 0);
    assert.equal(planRuns(rows, [], 0).runs.length, 1);
    assert.equal(planRuns(rows, [], 2.9).runs.length, 2);
    assert.deepEqual(planRuns([], [], 5), { runs: [], skippedRows: 0 });
  });

  it('runs at most `concurrency` at once and keeps results in order', async () => {
    let active = 0;
    let most = 0;
    const results = await runLimited([5, 1, 4, 2, 3, 1], 3, new AbortController().signal, async (n, i) => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, n * 3));
      active--;
      return `${i}:${n}`;
    });
    assert.deepEqual(results, ['0:5', '1:1', '2:4', '3:2', '4:3', '5:1']);
    assert.equal(most, 3);
    assert.deepEqual(await runLimited([], 4, new AbortController().signal, async () => 1), []);
    let one = 0;
    await runLimited([1, 2, 3], 0, new AbortController().signal, async () => {
      one++;
      assert.equal(one, 1);
      await new Promise((r) => setTimeout(r, 1));
      one--;
    });
  });

  it('starts nothing new once cancelled', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await runLimited([0, 1, 2, 3, 4, 5], 2, controller.signal, async (n) => {
      started.push(n);
      if (n === 2) {
        controller.abort();
      }
      await new Promise((r) => setTimeout(r, 2));
      return n;
    });
    assert.deepEqual(started, [0, 1, 2]);
    assert.deepEqual(results, [0, 1, 2, undefined, undefined, undefined]);
  });

  it('median', () => {
    assert.equal(median([]), undefined);
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });
});
