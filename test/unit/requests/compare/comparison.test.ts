import * as assert from 'node:assert/strict';
import {
  COLUMN_TEXT_LIMIT,
  fitColumn,
  columnOf,
  COLUMN_MIN_PX,
  comparisonHtml,
  comparisonView,
  parseComparisonMessage,
  payloadFor,
  columnText,
  type ComparisonRun,
} from '../../../../src/requests/compare/core/comparison';
import { redactor } from '../../../../src/api/redact';
import { HOSTILE } from '../../../server';
import { bodyText, elements } from '../../helpers/html';

const run = (over: Partial<ComparisonRun>): ComparisonRun => ({
  model: 'aurora-2',
  startedAt: 1000,
  streaming: true,
  text: '',
  ...over,
});

describe('Compare models: the side-by-side view', () => {
  it('replaces only the model of the payload', () => {
    const payload = { model: 'a', input: 'hi', stream: true };
    assert.deepEqual(payloadFor(payload, 'b'), { model: 'b', input: 'hi', stream: true });
    assert.deepEqual(payload.model, 'a');
    assert.equal(payloadFor([1, 2], 'b'), undefined);
  });

  it('a column shows the answer text of Responses and Chat bodies, and the size of embeddings', () => {
    assert.equal(
      columnText({ output: [{ content: [{ type: 'output_text', text: 'Hello' }, { text: '!' }] }] }),
      'Hello!',
    );
    assert.equal(columnText({ output_text: 'direct' }), 'direct');
    assert.equal(columnText({ choices: [{ message: { content: 'Hi there' } }] }), 'Hi there');
    assert.equal(
      columnText({ data: [{ embedding: [0, 1, 2] }, { embedding: [3, 4, 5] }] }),
      '2 embeddings of 3 dimensions',
    );
    assert.equal(columnText({ data: [{ embedding: [0, 1] }] }), '1 embedding of 2 dimensions');
    assert.equal(columnText('plain'), 'plain', 'a JSON string body is its own text');
    assert.equal(columnText(undefined), undefined);
  });

  it('shows per model status, total time, time to first token and usage as the runs progress', () => {
    const waiting = columnOf(run({}), 1500);
    assert.equal(waiting.state, 'waiting');
    assert.equal(waiting.status, 'waiting for the answer…');
    assert.equal(waiting.time, '500 ms so far');
    assert.equal(waiting.firstToken, '…');

    const receiving = columnOf(run({ status: 200, firstTextAt: 1250, text: 'Hel' }), 3000);
    assert.equal(receiving.state, 'receiving');
    assert.equal(receiving.status, '200 · receiving…');
    assert.equal(receiving.firstToken, '250 ms');

    const done = columnOf(
      run({ status: 200, firstTextAt: 1250, endedAt: 3345, text: 'Hello', usage: { input: 3, output: 5, total: 8 } }),
      9999,
    );
    assert.deepEqual(
      { state: done.state, time: done.time, usage: done.usage, text: done.text },
      { state: 'done', time: '2.35 s', usage: '8 tokens (3 in, 5 out)', text: 'Hello' },
    );
    assert.equal(columnOf(run({ streaming: false, endedAt: 1100, status: 200 }), 0).firstToken, 'not streamed');
    assert.equal(columnOf(run({ endedAt: 1100, status: 200 }), 0).usage, 'tokens not reported');
    assert.equal(columnOf(run({ endedAt: 1100, status: 200, firstByteMs: 80 }), 0).firstByte, '80 ms');
    assert.equal(columnOf(run({}), 1100).cost, '…');
    assert.equal(
      columnOf(run({ endedAt: 1100, priced: { price: undefined, cost: undefined } }), 0).cost,
      'no price known',
    );
  });

  it('keeps errors and cancellations in their own column', () => {
    const view = comparisonView(
      '/v1/chat',
      [
        run({ model: 'a', status: 500, endedAt: 2000, error: 'The service failed (500).' }),
        run({ model: 'b', endedAt: 1500, cancelled: true, error: 'Cancelled.' }),
        run({ model: 'c' }),
      ],
      3000,
    );
    assert.equal(view.running, true);
    assert.deepEqual(
      view.columns.map((c) => [c.model, c.state, c.error]),
      [
        ['a', 'failed', 'The service failed (500).'],
        ['b', 'cancelled', 'Cancelled.'],
        ['c', 'waiting', ''],
      ],
    );
    assert.equal(comparisonView('/v1/chat', [run({ endedAt: 2000 })], 3000).running, false);
  });

  it('draws model names, answers and errors as text only, one column each', () => {
    const view = comparisonView(
      '/v1/responses',
      [
        run({ model: HOSTILE.script, text: HOSTILE.html, endedAt: 2000, status: 200 }),
        run({ model: HOSTILE.bidi, error: HOSTILE.commandLink, endedAt: 2000, status: 500 }),
      ],
      3000,
    );
    const html = comparisonHtml(view, 'n0nce', 'https://webview.test');
    const els = elements(html);
    assert.equal(els.filter((e) => e.tag === 'script').length, 1);
    assert.equal(els.filter((e) => e.tag === 'img' || e.tag === 'a').length, 0);
    assert.equal(els.filter((e) => e.tag === 'section').length, 2);
    const text = bodyText(html);
    assert.ok(text.includes('<script>alert(1)</script>') && text.includes('<img src=x onerror=alert(1)>'));
    assert.ok(text.includes('invoice⟨U+202E⟩txt.exe'));
    const script = els.find((e) => e.tag === 'script')?.text ?? '';
    assert.doesNotMatch(script, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('accepts only Cancel and Compare again from the page', () => {
    assert.equal(parseComparisonMessage({ action: 'cancel' }), 'cancel');
    assert.equal(parseComparisonMessage({ action: 'again' }), 'again');
    assert.equal(parseComparisonMessage({ action: 'send', url: 'x' }), undefined);
  });
});

describe('Compare models: a long answer is cut after the key is removed', () => {
  const key = 'sk-compare-canary-0123456789';
  const removeSecrets = redactor([key]);
  it('leaves no part of a key that straddles the cut', () => {
    for (const offset of [1, 5, key.length - 1]) {
      // The key starts `offset` characters before the last COLUMN_TEXT_LIMIT characters begin.
      const tail = 'y'.repeat(COLUMN_TEXT_LIMIT - (key.length - offset));
      const shown = fitColumn(`${'x'.repeat(100)}${key}${tail}`, removeSecrets);
      assert.equal(shown.length, COLUMN_TEXT_LIMIT + 1, 'cut to the limit, with the ellipsis');
      assert.ok(!shown.includes(key.slice(offset)), `no key fragment at offset ${offset}`);
    }
  });

  it('keeps a short answer whole, with the key removed', () => {
    assert.equal(fitColumn(`a ${key} b`, removeSecrets), 'a [redacted] b');
    const exact = 'e'.repeat(COLUMN_TEXT_LIMIT);
    assert.equal(fitColumn(exact, removeSecrets), exact);
  });

  it('the page reads as its title, state, buttons and one column per model with its facts, error and answer', () => {
    const view = comparisonView(
      '/v1/chat',
      [
        run({ model: 'a', status: 200, firstTextAt: 1100, endedAt: 1500, text: 'Hi', usage: { output: 2 } }),
        run({ model: 'b', error: 'boom', endedAt: 2000 }),
      ],
      5000,
    );
    const html = comparisonHtml(view, 'n0nce', 'https://webview.test');
    assert.equal(
      bodyText(html).replace(/\s+/g, ' ').trim(),
      'Compare models · POST /v1/chat Finished. Cancel Compare again ' +
        '1 of 2aStatus200 · doneTotal time500 msFirst byte–First token100 msTokens2 tokens outCost–Hi' +
        '2 of 2bStatusfailedTotal time1.00 sFirst byte–First tokenno textTokenstokens not reportedCost–boom',
    );
    const els = elements(html);
    assert.equal(els.find((e) => e.tag === 'title')?.text, 'Compare models');
    assert.equal(els.find((e) => e.attrs.id === 'cancel')?.attrs.disabled, '');
    assert.equal(els.find((e) => e.attrs.id === 'again')?.attrs.disabled, undefined);
    assert.equal(els.find((e) => e.attrs.id === 'summary')?.attrs['data-running'], 'Running…');
    assert.equal(els.find((e) => e.attrs.id === 'c1-error')?.text, 'boom');
    assert.equal(els.find((e) => e.attrs.id === 'c0-usage')?.text, '2 tokens out');
    assert.equal(els.find((e) => e.attrs.class === 'grid')?.attrs['data-columns'], '2');
    // Landmarks for screen readers: one main named by the title, one region per model named by its heading.
    const main = els.filter((e) => e.tag === 'main');
    assert.equal(main.length, 1);
    assert.equal(els.find((e) => e.attrs.id === main[0].attrs['aria-labelledby'])?.tag, 'h1');
    const regions = els.filter((e) => e.tag === 'section');
    assert.deepEqual(
      regions.map((r) => els.find((e) => e.attrs.id === r.attrs['aria-labelledby'])?.text),
      ['1 of 2a', '2 of 2b'],
    );
    assert.deepEqual(
      regions.map((r) => r.attrs['aria-busy']),
      ['false', 'false'],
    );
    // The state is a polite live region: "Running…" and "Finished." are read out when they change.
    const summary = els.find((e) => e.attrs.id === 'summary');
    assert.equal(summary?.attrs.role, 'status');
    assert.equal(summary?.attrs['aria-live'], 'polite');
    const running = elements(comparisonHtml(comparisonView('/v1/chat', [run({})], 5000), 'n', 'c'));
    assert.equal(running.find((e) => e.attrs.id === 'summary')?.text, 'Running…');
    assert.equal(running.find((e) => e.attrs.id === 'cancel')?.attrs.disabled, undefined);
    assert.equal(running.find((e) => e.attrs.id === 'again')?.attrs.disabled, '');
    // Nothing but the button's own attributes, in either state; the page swaps in "Finished." when the run ends.
    const attrNames = (list: typeof els, id: string) => Object.keys(list.find((e) => e.attrs.id === id)?.attrs ?? {});
    assert.deepEqual(attrNames(running, 'cancel'), ['type', 'id', 'data-action']);
    assert.deepEqual(attrNames(els, 'again'), ['type', 'id', 'class', 'data-action']);
    assert.equal(running.find((e) => e.attrs.id === 'summary')?.attrs['data-finished'], 'Finished.');
  });

  it('marks the fastest and the cheapest answer in words, once every run ended; an unknown cost marks no cheapest', () => {
    const usd = (amount: number) => ({
      price: { inputPerToken: 1e-6, currency: 'USD', source: 'registry' as const },
      cost: { amount, currency: 'USD' },
    });
    const runs = [
      run({ model: 'slow-cheap', status: 200, endedAt: 3000, priced: usd(0.0001) }),
      run({ model: 'fast-dear', status: 200, endedAt: 1500, priced: usd(0.002) }),
      run({ model: 'broken', error: 'boom', endedAt: 1100 }),
    ];
    const view = comparisonView('/v1/chat', runs, 5000);
    assert.deepEqual(
      view.columns.map((c) => c.marks),
      ['cheapest', 'fastest', ''],
    );
    assert.equal(view.best, 'Fastest: fast-dear. Cheapest: slow-cheap.');
    const els = elements(comparisonHtml(view, 'n', 'c'));
    assert.equal(els.find((e) => e.attrs.id === 'c0-marks')?.text, 'cheapest');
    assert.equal(
      els.find((e) => e.attrs.id === 'summary')?.text,
      'Finished. Fastest: fast-dear. Cheapest: slow-cheap.',
    );
    // Still running: nothing is marked yet.
    const running = comparisonView('/v1/chat', [runs[0], run({ model: 'x' })], 5000);
    assert.deepEqual(
      running.columns.map((c) => c.marks),
      ['', ''],
    );
    // One answer without a known cost: no cheapest (it might be), the fastest still marked.
    const unknown = comparisonView(
      '/v1/chat',
      [runs[0], run({ model: 'unpriced', status: 200, endedAt: 1200, priced: { price: undefined, cost: undefined } })],
      5000,
    );
    assert.deepEqual(
      unknown.columns.map((c) => c.marks),
      ['', 'fastest'],
    );
    // Two currencies are never compared.
    const eur = {
      price: { inputPerToken: 1e-6, currency: 'EUR', source: 'setting' as const },
      cost: { amount: 0.00001, currency: 'EUR' },
    };
    const mixed = comparisonView(
      '/v1/chat',
      [runs[0], run({ model: 'e', status: 200, endedAt: 4000, priced: eur })],
      5000,
    );
    assert.ok(!mixed.columns.some((c) => c.marks.includes('cheapest')));
  });

  it('a cancelled or finished run says so; times under a second in ms; usage without a total', () => {
    assert.equal(columnOf(run({ cancelled: true, endedAt: 1999 }), 0).status, 'cancelled');
    assert.equal(columnOf(run({ status: 200, endedAt: 2000 }), 0).status, '200 · done');
    assert.equal(columnOf(run({ endedAt: 1999 }), 0).time, '999 ms');
    assert.equal(columnOf(run({ endedAt: 2000 }), 0).time, '1.00 s');
    assert.equal(columnOf(run({ endedAt: 2000, usage: { input: 1 } }), 0).usage, '1 token in');
    assert.equal(columnOf(run({ endedAt: 2000, usage: { total: 0 } }), 0).usage, '0 tokens');
    const long = 'x'.repeat(200_000);
    assert.ok(columnOf(run({ text: `${long}end` }), 0).text.endsWith('end'));
    // A long answer fills its column to the limit, marked as cut.
    const shown = fitColumn(columnOf(run({ text: `${long}end` }), 0).text, (t) => t);
    assert.equal(shown.length, COLUMN_TEXT_LIMIT + 1);
    assert.ok(shown.startsWith('…x'));
    assert.ok(columnOf(run({ text: `${long}end` }), 0).text.length < 200_000);
  });

  it('a column shows text parts only, the first choice only, and no embeddings unless every entry is one', () => {
    assert.equal(
      columnText({
        output: [{ content: [{ text: 'a' }, { text: 7 }, 'b'] }, { content: 'no' }, null, { content: [{ text: 'c' }] }],
      }),
      'anoc',
    );
    assert.equal(
      columnText({
        choices: [{ message: { content: 'x' } }, { message: { content: 7 } }, null, { message: { content: 'y' } }],
      }),
      'x',
    );
    assert.equal(columnText({ data: [{ embedding: [1, 2] }, { embedding: [3, 4] }] }), '2 embeddings of 2 dimensions');
    assert.equal(columnText({ data: [{ embedding: [1] }, { other: 1 }] }), undefined);
    assert.equal(columnText({ data: [] }), '0 embeddings');
    assert.equal(columnText(null), undefined);
  });

  it('columns sit side by side whenever two of a readable width fit the tab (no fixed 600 px threshold)', () => {
    const html = comparisonHtml(comparisonView('/v1/chat', [run({}), run({})], 5000), 'n', 'c');
    const style = elements(html).find((e) => e.tag === 'style')?.text ?? '';
    assert.ok(
      style.includes(`grid-template-columns: repeat(auto-fit, minmax(min(100%, ${COLUMN_MIN_PX}px), 1fr))`),
      style,
    );
    // Two columns and the gap fit the ~500 px tab beside the payload at 1400×900 with the sidebar open.
    assert.ok(2 * COLUMN_MIN_PX + 12 <= 480, `${COLUMN_MIN_PX} px columns`);
  });
});
