// Repeats and flakiness: reading @repeat and @pass-rate, tallying attempts, and what counts as flaky.
import * as assert from 'node:assert/strict';
import { groupAttempts, judgeAttempts, MAX_REPEAT, parsePassRate, parseRepeat } from '../../../src/checks/core/repeats';

describe('checks/core/repeats', () => {
  it('reads @repeat from 1 to the cap, and refuses anything else', () => {
    assert.deepEqual(parseRepeat(' 5 '), { ok: true, count: 5 });
    assert.deepEqual(parseRepeat('1'), { ok: true, count: 1 });
    assert.deepEqual(parseRepeat(String(MAX_REPEAT)), { ok: true, count: 100 });
    for (const bad of ['0', '101', '-1', '2.5', 'five', '', '1e2']) {
      const r = parseRepeat(bad);
      assert.ok(!r.ok, bad);
      assert.equal(r.message, `@repeat needs a whole number from 1 to 100, not "${bad.trim()}"`);
    }
  });

  it('reads @pass-rate as a share or a percentage above 0 and at most 1', () => {
    assert.deepEqual(parsePassRate('0.8'), { ok: true, rate: 0.8 });
    assert.deepEqual(parsePassRate('.5'), { ok: true, rate: 0.5 });
    assert.deepEqual(parsePassRate('80%'), { ok: true, rate: 0.8 });
    assert.deepEqual(parsePassRate('100%'), { ok: true, rate: 1 });
    assert.deepEqual(parsePassRate('1'), { ok: true, rate: 1 });
    assert.deepEqual(parsePassRate(' 85.5% '), { ok: true, rate: 0.855 });
    assert.deepEqual(parsePassRate('.75'), { ok: true, rate: 0.75 });
    assert.deepEqual(parsePassRate('0.125'), { ok: true, rate: 0.125 });
    assert.deepEqual(parsePassRate('00.5'), { ok: true, rate: 0.5 });
    assert.deepEqual(parsePassRate('12.25%'), { ok: true, rate: 0.1225 });
    for (const bad of [
      '0',
      '0%',
      '1.2',
      '120%',
      'most',
      '',
      '-0.5',
      'x80%',
      '80%%',
      '1e-1',
      '0.8x',
      '.5.5',
      '8.a%',
      '0.5e-1',
      '+.5',
      '.5e-1',
    ]) {
      const r = parsePassRate(bad);
      assert.ok(!r.ok, bad);
      assert.equal(r.message, `@pass-rate needs a share above 0 and at most 1 (0.8 or 80%), not "${bad}"`);
    }
  });

  it('judges attempts against the pass rate as counts: 4 of 5 meets 0.8, 3 of 5 does not', () => {
    assert.deepEqual(judgeAttempts({ passed: 4, total: 5 }, 0.8), { passed: true, flaky: true, tally: '4 of 5' });
    assert.deepEqual(judgeAttempts({ passed: 3, total: 5 }, 0.8), { passed: false, flaky: true, tally: '3 of 5' });
    assert.deepEqual(judgeAttempts({ passed: 5, total: 5 }, 1), { passed: true, flaky: false, tally: '5 of 5' });
    assert.deepEqual(judgeAttempts({ passed: 0, total: 5 }, 0.2), { passed: false, flaky: false, tally: '0 of 5' });
    assert.deepEqual(judgeAttempts({ passed: 1, total: 1 }, 1), { passed: true, flaky: false, tally: undefined });
    assert.deepEqual(judgeAttempts({ passed: 0, total: 1 }, 1), { passed: false, flaky: false, tally: undefined });
    assert.equal(judgeAttempts({ passed: 0, total: 0 }, 0.5).passed, false);
    // 0.7 × 10 is 7.000000000000001 in floating point: 7 of 10 still meets it.
    assert.equal(judgeAttempts({ passed: 7, total: 10 }, 0.7).passed, true);
    assert.equal(judgeAttempts({ passed: 6, total: 10 }, 0.7).passed, false);
    assert.equal(judgeAttempts({ passed: 2, total: 3 }, 0.6).passed, true);
    assert.equal(judgeAttempts({ passed: 1, total: 3 }, 0.34).passed, false);
  });

  it('groups attempts by test in first-seen order, counting passes', () => {
    const items = [
      { k: 'b', ok: true },
      { k: 'a', ok: false },
      { k: 'b', ok: false },
      { k: 'b', ok: true },
    ];
    const groups = groupAttempts(
      items,
      (i) => i.k,
      (i) => i.ok,
    );
    assert.deepEqual([...groups.keys()], ['b', 'a']);
    assert.deepEqual(groups.get('b'), { items: [items[0], items[2], items[3]], passed: 2, total: 3 });
    assert.deepEqual(groups.get('a'), { items: [items[1]], passed: 0, total: 1 });
  });
});
