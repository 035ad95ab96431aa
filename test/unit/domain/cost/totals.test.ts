import * as assert from 'node:assert/strict';
import { formatTally, UsageTotals } from '../../../../src/domain/cost/totals';

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const D1 = Date.UTC(2026, 10, 28, 12);
const D2 = Date.UTC(2026, 10, 29, 12);

describe('cost: usage totals', () => {
  it('sums requests, tokens and cost by model, environment and day', () => {
    const t = new UsageTotals(day);
    t.add({
      model: 'a',
      environment: 'prod',
      usage: { input: 10, output: 5, total: 15 },
      cost: { amount: 0.001, currency: 'USD' },
      at: D1,
    });
    t.add({
      model: 'a',
      environment: 'prod',
      usage: { input: 1, output: 1 },
      cost: { amount: 0.002, currency: 'USD' },
      at: D2,
    });
    t.add({ model: 'b', environment: 'dev', usage: { input: 3, output: 4 }, at: D2 });
    t.add({ model: 'b', environment: 'dev', at: D2 });
    const all = t.summary();
    assert.equal(all.requests, 4);
    assert.equal(all.totalTokens, 24);
    assert.equal(all.unknownTokens, 1);
    assert.equal(all.unknownCost, 2);
    assert.ok(Math.abs(all.cost.USD - 0.003) < 1e-12);
    assert.equal(t.summary({ day: '2026-11-29' }).requests, 3);
    assert.deepEqual(t.days(), ['2026-11-28', '2026-11-29']);
    assert.deepEqual(
      t.by('model').map((g) => [g.name, g.tally.requests]),
      [
        ['a', 2],
        ['b', 2],
      ],
    );
    assert.equal(t.by('environment', { day: '2026-11-29' }).find((g) => g.name === 'dev')?.tally.requests, 2);
    assert.equal(
      formatTally(t.summary()),
      '4 requests, 24 tokens (14 in, 10 out; 1 without counts), 0.003 USD (and 2 requests of unknown cost)',
    );
  });

  it('never adds currencies together, and says when nothing was priced', () => {
    const t = new UsageTotals(day);
    t.add({ model: 'a', environment: 'e', usage: { total: 3 }, cost: { amount: 1, currency: 'EUR' }, at: D1 });
    t.add({ model: 'a', environment: 'e', usage: { total: 3 }, cost: { amount: 2, currency: 'USD' }, at: D1 });
    assert.equal(formatTally(t.summary()), '2 requests, 6 tokens (0 in, 0 out), 1 EUR + 2 USD');
    const unknown = new UsageTotals(day);
    unknown.add({ model: 'a', environment: 'e', at: D1 });
    assert.equal(formatTally(unknown.summary()), '1 request, tokens unknown, cost unknown');
  });

  it('survives JSON, and drops stored rows that are not counts', () => {
    const t = new UsageTotals(day);
    t.add({
      model: 'a',
      environment: 'e',
      usage: { input: 2, output: 3 },
      cost: { amount: 0.5, currency: 'USD' },
      at: D1,
    });
    const back = UsageTotals.from(JSON.parse(JSON.stringify(t)), day);
    assert.deepEqual(back.list(), t.list());
    const hostile = UsageTotals.from(
      {
        rows: [
          {
            day: 'today',
            model: 'a',
            environment: 'e',
            requests: 1,
            inputTokens: 0,
            outputTokens: 0,
            totalTokens: 0,
            unknownTokens: 0,
            unknownCost: 0,
          },
          {
            day: '2026-11-29',
            model: 'a',
            environment: 'e',
            requests: -1,
            inputTokens: 0,
            outputTokens: 0,
            totalTokens: 0,
            unknownTokens: 0,
            unknownCost: 0,
          },
          {
            day: '2026-11-29',
            model: 'a',
            environment: 'e',
            requests: 2,
            inputTokens: 1,
            outputTokens: 1,
            totalTokens: 2,
            unknownTokens: 0,
            unknownCost: 0,
            cost: { USD: -3, EUR: 0.1 },
          },
          'x',
        ],
      },
      day,
    );
    assert.equal(hostile.list().length, 1);
    assert.deepEqual(hostile.summary().cost, { EUR: 0.1 });
    assert.equal(UsageTotals.from(null).list().length, 0);
    t.dropBefore('2026-11-29');
    assert.equal(t.list().length, 0);
  });
});
