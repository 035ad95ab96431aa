import * as assert from 'node:assert/strict';
import { UsageTotals } from '../../../src/domain/cost/totals';
import { usageRows, type UsageRow } from '../../../src/setup/core/usageRows';

const day = (at: number) => (at < 100 ? '2026-11-28' : '2026-11-29');

function flat(rows: readonly UsageRow[], depth = 0): string[] {
  return rows.flatMap((r) => [`${'  '.repeat(depth)}${r.label}: ${r.description}`, ...flat(r.children, depth + 1)]);
}

describe('the Usage view', () => {
  it('is empty until something is counted (its welcome text says why)', () => {
    assert.deepEqual(usageRows(new UsageTotals(day), new UsageTotals(day), '2026-11-29'), []);
  });

  it('shows the window, today and earlier days, by model and (with several) by environment, unknowns said', () => {
    const session = new UsageTotals(day);
    const days = new UsageTotals(day);
    const events = [
      {
        model: 'aurora-2',
        environment: 'prod',
        usage: { input: 10, output: 5 },
        cost: { amount: 0.001, currency: 'USD' },
        at: 200,
      },
      { model: 'nimbus', environment: 'staging', usage: undefined, cost: undefined, at: 300 },
    ];
    for (const e of events) {
      session.add(e);
      days.add(e);
    }
    days.add({ model: 'aurora-2', environment: 'prod', usage: { total: 7 }, cost: undefined, at: 50 });
    const rows = usageRows(session, days, '2026-11-29');
    assert.deepEqual(
      rows.map((r) => r.label),
      ['Since this window opened', 'Today', 'Earlier days'],
    );
    const text = flat(rows).join('\n');
    assert.match(
      text,
      /^Since this window opened: 2 requests, 15 tokens \(10 in, 5 out; 1 without counts\), 0\.001 USD \(and 1 request/m,
    );
    assert.match(text, /^ {2}Model aurora-2: 1 request, 15 tokens \(10 in, 5 out\), 0\.001 USD$/m);
    assert.match(text, /^ {2}Model nimbus: 1 request, tokens unknown, cost unknown$/m);
    assert.match(text, /^ {2}Environment staging: /m);
    assert.match(text, /^Earlier days: 1 request$/m);
    assert.match(text, /^ {2}2026-11-28: 1 request, 7 tokens/m);
    // Each row says its label and tally to a screen reader.
    assert.ok(rows[0].tooltip.startsWith('Since this window opened: 2 requests'));
  });

  it('a model name from the service is shown as text, cut to a line', () => {
    const t = new UsageTotals(day);
    t.add({ model: '[x](command:evil)\n'.repeat(20), environment: '', at: 200 });
    const [session] = usageRows(t, new UsageTotals(day), '2026-11-29');
    const label = session.children[0].label;
    assert.doesNotMatch(label, /\n/);
    assert.ok(label.length < 100);
  });
});
