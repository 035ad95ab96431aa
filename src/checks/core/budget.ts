/**
 * A bound on evaluating one expectation, so a hostile answer or schema cannot hold the extension host (or a CI
 * job) for minutes: schema validation counts the nodes it visits and watches the clock, and a regular
 * expression runs in a worker thread that is stopped when its time is spent (`/^(a+)+$/` on
 * `aaaa…b` backtracks for ever on the thread that runs it). Either failure is the expectation's, with the
 * reason. Pure; no `vscode` import.
 */
import { Worker } from 'node:worker_threads';
import { l10n } from '../../common/plainL10n';

/** Nodes a schema check may visit, and the milliseconds it and one regular expression may take. */
export const MAX_SCHEMA_VISITS = 200_000;
export const MAX_EVALUATION_MS = 2_000;

/** Thrown when an evaluation spent its budget; the message says which and how to fix it. */
export class BudgetSpent extends Error {}

/** Counts steps and checks the clock every 1,024 of them. */
export class StepBudget {
  private steps = 0;
  private readonly deadline: number;
  constructor(
    private readonly maxSteps = MAX_SCHEMA_VISITS,
    maxMs = MAX_EVALUATION_MS,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.deadline = clock() + maxMs;
  }

  step(): void {
    this.steps++;
    if (this.steps > this.maxSteps || ((this.steps & 1023) === 0 && this.clock() > this.deadline)) {
      throw new BudgetSpent(
        l10n.t(
          'the schema check was stopped after {0} steps or {1} s (a schema that refers to itself many ways, or a very large answer)',
          this.maxSteps,
          MAX_EVALUATION_MS / 1000,
        ),
      );
    }
  }
}

// The worker's code as text (`eval`), so it runs the same from the extension's bundles and the CLI's.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = new Int32Array(workerData);
Atomics.store(ready, 0, 1);
Atomics.notify(ready, 0);
parentPort.on('message', ({ source, flags, text, shared }) => {
  const cell = new Int32Array(shared);
  let result = 2;
  try {
    result = new RegExp(source, flags).test(text) ? 1 : 0;
  } catch {
    result = 3;
  }
  Atomics.store(cell, 0, result + 1);
  Atomics.notify(cell, 0);
});
`;

let worker: Worker | undefined;

/** How long a new worker may take to start, apart from a pattern's time (a busy CI machine takes seconds). */
const WORKER_START_MS = 30_000;

function regexWorker(): Worker {
  if (!worker) {
    const ready = new SharedArrayBuffer(4);
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: ready });
    worker.unref();
    worker.on('error', () => {
      worker = undefined;
    });
    // Started before the pattern's clock runs: its start-up must not count as the pattern's time.
    Atomics.wait(new Int32Array(ready), 0, 0, WORKER_START_MS);
  }
  return worker;
}

/**
 * `pattern.test(text)` in the worker, stopped after `maxMs`: true or false, or throws `BudgetSpent`. Waited
 * for synchronously, since expectations are evaluated synchronously; even a short text can make a pattern
 * backtrack for minutes, so every test goes to the worker (one message each way).
 */
export function testWithin(pattern: RegExp, text: string, maxMs = MAX_EVALUATION_MS): boolean {
  const shared = new SharedArrayBuffer(4);
  const cell = new Int32Array(shared);
  const w = regexWorker();
  w.postMessage({ source: pattern.source, flags: pattern.flags.replace(/[gy]/g, ''), text, shared });
  const waited = Atomics.wait(cell, 0, 0, maxMs);
  if (waited === 'timed-out') {
    // The worker is stuck in the pattern: stop it; the next test starts a new one.
    void w.terminate();
    worker = undefined;
    throw new BudgetSpent(
      l10n.t(
        'the pattern {0} was stopped after {1} s on this answer (it backtracks too much)',
        String(pattern),
        maxMs / 1000,
      ),
    );
  }
  const result = Atomics.load(cell, 0) - 1;
  if (result === 3) {
    throw new BudgetSpent(l10n.t('the pattern {0} cannot be run', String(pattern)));
  }
  return result === 1;
}
