// `cost` and `total cost` expectations: read, written back, judged against the local service's answers and the
// demo registry's prices; an unknown price, usage or currency never passes; --max-cost's stop leaves requests
// not run, never passed.
import * as assert from 'node:assert/strict';
import type { ModelService } from '../../../src/api/types';
import { describeExpectation, FORMS, parseExpectation } from '../../../src/checks/core/expectations';
import { costOutcome, totalCostOutcome } from '../../../src/checks/core/costOutcome';
import { evaluate } from '../../../src/checks/core/evaluate';
import { firstFailure, runCheckFile, type FileRunDeps } from '../../../src/checks/core/fileRun';
import { priceFor, type ModelPrice } from '../../../src/domain/cost/prices';
import { loadRegistry } from '../../server/registry';
import { startServer, type RunningServer } from '../../server';
import { clientFor } from '../helpers/api';
import { variables } from '../helpers/checks';

const USD: ModelPrice = { inputPerToken: 0.15e-6, outputPerToken: 0.6e-6, currency: 'USD', source: 'registry' };
const registry = loadRegistry();
const demoPrice = (model: string) => priceFor(model, registry.models.find((m) => m.id === model)?.extra, undefined);

describe('checks: cost expectations', () => {
  it('reads cost and total cost, with an optional currency, and writes them back', () => {
    const cost = parseExpectation('cost <= 0.01');
    assert.deepEqual(cost, { ok: true, expectation: { kind: 'cost', op: '<=', value: 0.01 } });
    const total = parseExpectation('total cost < 0.5 eur');
    assert.deepEqual(total, { ok: true, expectation: { kind: 'totalCost', op: '<', value: 0.5, currency: 'EUR' } });
    assert.equal(total.ok && describeExpectation(total.expectation), 'total cost < 0.5 EUR');
    assert.ok(FORMS.includes('cost <= 0.01') && FORMS.includes('total cost <= 0.50'));
    for (const bad of ['cost', 'cost 0.01', 'cost <= cheap', 'cost <= -1', 'total cost', 'total tokens < 3']) {
      const r = parseExpectation(bad);
      assert.equal(r.ok, false, bad);
    }
    assert.match((parseExpectation('cost <= cheap') as { message: string }).message, /cost needs an amount/);
  });

  it('fails as a sentence naming the cost; passes within the limit', () => {
    const e = parseExpectation('cost <= 0.00001');
    assert.ok(e.ok && e.expectation.kind === 'cost');
    const usage = { input: 240, output: 60, total: 300 };
    const outcome = costOutcome(e.expectation, usage, { model: 'aurora-2-mini', price: USD });
    assert.equal(outcome.passed, false);
    assert.equal(outcome.message, 'cost 0.000072 USD, more than 0.00001');
    assert.equal(outcome.actual, '0.000072 USD');
    const loose = parseExpectation('cost <= 0.01');
    assert.ok(loose.ok && loose.expectation.kind === 'cost');
    assert.equal(costOutcome(loose.expectation, usage, { model: 'm', price: USD }).passed, true);
  });

  it('cannot be judged, never passes, without a price, a per-token price, usage, a model or the same currency', () => {
    const e = parseExpectation('cost <= 100');
    assert.ok(e.ok && e.expectation.kind === 'cost');
    const usage = { input: 1, output: 1 };
    const cases: Array<[Parameters<typeof costOutcome>[2], typeof usage | undefined, RegExp]> = [
      [{ model: 'halo-guard-1' }, usage, /^cannot be judged: no price for model halo-guard-1$/],
      [undefined, usage, /cannot be judged: the payload names no model/],
      [
        { model: 'm', price: { currency: 'USD', source: 'registry', given: 'input 1 per image' } },
        usage,
        /not per token/,
      ],
      [{ model: 'm', price: USD }, undefined, /cannot be judged: the answer reports no token usage/],
      [{ model: 'm', price: { ...USD, currency: 'EUR' } }, usage, undefined as unknown as RegExp],
    ];
    for (const [pricing, u, message] of cases.slice(0, 4)) {
      const outcome = costOutcome(e.expectation, u, pricing);
      assert.equal(outcome.passed, false);
      assert.match(outcome.message ?? '', message);
    }
    // No currency written: the price's own; a currency written that differs: never converted.
    assert.equal(costOutcome(e.expectation, usage, cases[4][0]).passed, true);
    const usd = parseExpectation('cost <= 100 USD');
    assert.ok(usd.ok && usd.expectation.kind === 'cost');
    assert.match(costOutcome(usd.expectation, usage, cases[4][0]).message ?? '', /in EUR and the limit in USD/);
    // Through evaluate: a request that got no answer says so first.
    assert.match(
      evaluate(e.expectation, { elapsedMs: 0, streamed: false, failure: 'refused' }, () => ({ ok: false, message: '' }))
        .message ?? '',
      /^No answer/,
    );
  });

  it('total cost: summed, unknown when one cost is, never mixed currencies', () => {
    const e = parseExpectation('total cost <= 0.0001');
    assert.ok(e.ok && e.expectation.kind === 'totalCost');
    const c = (amount: number, currency = 'USD') => ({ amount, currency });
    assert.equal(totalCostOutcome(e.expectation, [c(0.00004), c(0.00004)]).passed, true);
    assert.equal(
      totalCostOutcome(e.expectation, [c(0.00006), c(0.00006)]).message,
      'total cost 0.00012 USD, more than 0.0001',
    );
    assert.match(
      totalCostOutcome(e.expectation, [c(0), 'no price for model x']).message ?? '',
      /cannot be judged: the cost of 1 of 2 requests is unknown: no price for model x/,
    );
    assert.match(totalCostOutcome(e.expectation, [c(0), c(0, 'EUR')]).message ?? '', /several currencies/);
    assert.match(totalCostOutcome(e.expectation, []).message ?? '', /cannot be judged/);
  });
});

describe('checks: cost against the local service', function () {
  this.timeout(20_000);
  let server: RunningServer;
  let client: ModelService;
  before(async () => {
    server = await startServer();
    client = clientFor(server.url, server.keys.acme).client;
  });
  after(async () => {
    await client.dispose();
    await server.close();
  });

  const deps = (over: Partial<FileRunDeps> = {}, files: Record<string, string> = {}): FileRunDeps => ({
    target: async () => ({ client, variables }),
    readText: (f) => files[f],
    concurrency: 1,
    maxRows: 100,
    signal: new AbortController().signal,
    priceOf: demoPrice,
    ...over,
  });

  const payload = (model: string, ...lines: string[]) =>
    ['// POST /v1/chat', ...lines, `{ "model": "${model}", "messages": [{ "role": "user", "content": "Hi" }] }`].join(
      '\n',
    );

  it('a check with cost <= 0.00001 on a priced model fails naming the cost; a generous limit passes', async () => {
    const r = await runCheckFile(payload('aurora-2', '// @expect cost <= 0.00001', '// @expect cost <= 1'), deps());
    const row = r.rows[0];
    assert.equal(row.kind, 'run');
    const failure = firstFailure(row);
    assert.match(failure?.message ?? '', /^cost 0\.0\d+ USD, more than 0\.00001$/);
    assert.equal(row.kind === 'run' && row.result.results[1].outcome.passed, true);
    assert.ok(row.kind === 'run' && typeof row.result.cost === 'object' && row.result.cost.amount > 0);
    assert.ok(row.kind === 'run' && (row.result.observed.firstByteMs ?? -1) >= 0);
    assert.equal(row.kind === 'run' && row.result.observed.rateLimits?.limitRequests, 600);
  });

  it('a model without a price fails as cannot be judged; a streamed answer without usage too', async () => {
    const r = await runCheckFile(payload('halo-guard-1', '// @expect cost <= 1'), deps({ priceOf: demoPrice }));
    assert.equal(firstFailure(r.rows[0])?.message, 'cannot be judged: no price for model halo-guard-1');
    const streamed = [
      '// POST /v1/chat',
      '// @expect cost <= 1',
      '{ "model": "aurora-2", "stream": true, "messages": [{ "role": "user", "content": "Hi" }] }',
    ].join('\n');
    const s = await runCheckFile(streamed, deps());
    assert.match(firstFailure(s.rows[0])?.message ?? '', /cannot be judged: the answer reports no token usage/);
  });

  it('total cost over a dataset run, per model; a run stopped before the end leaves requests not run', async () => {
    const files = { 'cases.jsonl': '{"q":"a"}\n{"q":"b"}\n{"q":"c"}\n' };
    const text = [
      '// POST /v1/chat',
      '// @each cases.jsonl',
      '// @expect total cost <= 0.0000001',
      '// @expect total cost <= 1',
      '{ "model": "aurora-2-mini", "messages": [{ "role": "user", "content": "{{q}}" }] }',
    ].join('\n');
    const r = await runCheckFile(text, deps({}, files));
    assert.equal(r.rows.length, 3);
    assert.ok(
      r.rows.every((row) => firstFailure(row) === undefined),
      'total cost is not judged per request',
    );
    assert.equal(r.totals?.length, 2);
    assert.match(r.totals?.[0].outcome.message ?? '', /^total cost 0\.\d+ USD, more than 0\.0000001$/);
    assert.equal(r.totals?.[1].outcome.passed, true);

    let started = 0;
    const stopped = await runCheckFile(text, deps({ mayStart: () => started++ < 1 }, files));
    assert.equal(stopped.rows.length, 1);
    assert.equal(stopped.notRun?.length, 2);
    assert.ok(
      stopped.totals?.every((t) => !t.outcome.passed && /2 of 3 requests did not run/.test(t.outcome.message ?? '')),
    );
  });
});
