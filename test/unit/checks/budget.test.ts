// The budget of one expectation: a schema check stopped by its clock as well as its step count, with the
// limits in the message a person reads; a regular expression run in the worker answers as on the thread
// (flags kept, a global pattern the same on every test) and is stopped after its time.
import * as assert from 'node:assert/strict';
import { MAX_EVALUATION_MS, StepBudget, testWithin } from '../../../src/checks/core/budget';

describe('checks/core/budget', function () {
  this.timeout(30_000);
  it('a schema check is stopped by the clock once its time is spent, checked every 1,024 steps', () => {
    let now = 0;
    const b = new StepBudget(1_000_000, 50, () => now);
    for (let i = 0; i < 5000; i++) {
      b.step();
    }
    now = 50; // exactly at the deadline: not past it yet
    for (let i = 0; i < 1024; i++) {
      b.step();
    }
    now = 51;
    let steps = 0;
    assert.throws(
      () => {
        for (;;) {
          b.step();
          steps++;
        }
      },
      {
        message: `the schema check was stopped after 1000000 steps or ${MAX_EVALUATION_MS / 1000} s (a schema that refers to itself many ways, or a very large answer)`,
      },
    );
    // The clock is read on the next multiple of 1,024 steps, not on every step.
    assert.ok(steps < 1024, `${steps} steps after the deadline`);
    assert.equal(MAX_EVALUATION_MS / 1000, 2);
  });

  it('without a clock past the deadline, only the step count stops it', () => {
    const b = new StepBudget(5000, 10, () => 0);
    for (let i = 0; i < 5000; i++) {
      b.step();
    }
    assert.throws(() => b.step(), /stopped after 5000 steps or 2 s/);
  });

  it('a pattern in the worker: its flags kept, a global one the same every time, a stuck one stopped after its time', () => {
    assert.equal(testWithin(/PARIS/i, 'Paris'), true);
    assert.equal(testWithin(/PARIS/, 'Paris'), false);
    assert.equal(testWithin(/^b$/m, 'a\nb'), true);
    const global = /a/g;
    assert.equal(testWithin(global, 'a'), true);
    assert.equal(testWithin(global, 'a'), true);
    assert.equal(testWithin(/a/y, 'ba'), true);
    const started = Date.now();
    assert.throws(() => testWithin(/^(a+)+$/, `${'a'.repeat(40)}!`, 200), {
      message: 'the pattern /^(a+)+$/ was stopped after 0.2 s on this answer (it backtracks too much)',
    });
    assert.ok(Date.now() - started < 5000);
    assert.equal(testWithin(/^a+!$/, 'aa!'), true);
  });

  it("a new worker's start-up does not count as the pattern's time", () => {
    // A stuck pattern ends the worker; the next pattern starts a new one, with a budget below its start-up.
    assert.throws(() => testWithin(/^(a+)+$/, `${'a'.repeat(40)}!`, 50), /was stopped after 0\.05 s/);
    // 25 ms: a worker takes longer than that to start (70–100 ms on a busy 2-core machine, 20+ on a quiet
    // one), and far less to answer once it runs.
    assert.equal(testWithin(/^a$/, 'a', 25), true);
  });
});
