// The Results Across Models page as a person (and a screen reader) reads it: a real table with a caption,
// column headers per model in the order asked, a row header per request, each cell's result, score and time,
// why a cell failed (its title, and the list under the table), the per-model summary, the Save as CSV
// button; service text shown as text only; and a style that fits the editor beside the sidebar at 900 px.
import * as assert from 'node:assert/strict';
import type { RowResult } from '../../../src/checks/core/fileRun';
import { modelGrid, type ModelGrid } from '../../../src/checks/core/modelGrid';
import { GRID_STYLE, modelGridHtml, parseGridMessage, stackedStyle } from '../../../src/checks/core/modelGridPage';
import { bodyText, elements, type ParsedElement } from '../helpers/html';

function run(model: string, line: number, passed: boolean, ms: number, score?: number): RowResult {
  return {
    kind: 'run',
    label: `${model} · cities.jsonl: ${line === 1 ? 'Paris' : 'Rome'}`,
    row: { line, name: `cities.jsonl: ${line === 1 ? 'Paris' : 'Rome'}` },
    result: {
      run: { model, row: { line, values: {} } } as never,
      observed: {
        status: 200,
        elapsedMs: ms,
        streamed: false,
        ...(model === 'aurora-2' ? { answer: { text: 'Paris', usage: { input: 10, output: 5 } } } : {}),
      },
      results: [
        {
          line: 2,
          source: 'judge "names Paris"',
          outcome: passed
            ? { passed, score }
            : { passed, score, message: 'The judge says no: it names <b>Lyon</b> instead.' },
        },
      ],
      passed,
    },
  };
}

const grid = (): ModelGrid =>
  modelGrid({
    payload: 'cities.jsonc',
    dataset: 'cities.jsonl',
    models: ['aurora-2', 'mira-1', 'zeta-3'],
    rows: [
      run('aurora-2', 1, true, 120, 1),
      run('mira-1', 1, false, 1500, 0),
      run('zeta-3', 1, true, 90),
      run('aurora-2', 2, true, 100),
      run('zeta-3', 2, true, 80),
    ],
  });

const render = (g: ModelGrid = grid()) => elements(modelGridHtml(g, 'n0nce', 'https://webview.test'));

/** Each cell of `kind` (`cell`, `summary`) as [what it says, the model it names for the narrow layout]. */
const cellsOf = (els: ParsedElement[], kind: string) =>
  els.flatMap((e, i) => {
    if (e.tag !== 'td' || !e.attrs.class?.split(' ').includes(kind)) {
      return [];
    }
    const after = els.slice(i + 1);
    const model = after.find((x) => x.attrs.class === 'cell-model');
    return [{ td: e, text: after.find((x) => x.attrs.class === 'lines')?.text ?? '', model }];
  });

describe('checks/core/modelGridPage', () => {
  it('a table with a caption, a column header per model in the order asked, a row header per request', () => {
    const els = render();
    const main = els.filter((e) => e.tag === 'main');
    assert.equal(main.length, 1);
    assert.equal(els.find((e) => e.tag === 'h1')?.text, 'Results Across Models');
    assert.equal(
      els.find((e) => e.tag === 'caption')?.text,
      'cities.jsonc on 3 models: each cell says passed or failed, the score of its graders, the time, the tokens and the cost.',
    );
    assert.deepEqual(
      els.filter((e) => e.tag === 'th' && e.attrs.scope === 'col').map((e) => e.text),
      ['Request', 'aurora-2', 'mira-1', 'zeta-3'],
    );
    assert.deepEqual(
      els.filter((e) => e.tag === 'th' && e.attrs.scope === 'row').map((e) => e.text),
      ['cities.jsonl: Paris', 'cities.jsonl: Rome', 'All requests'],
    );
  });

  it("each cell: passed or failed, the score, the time; a failed cell's title says why; a missing one says not run", () => {
    const cells = cellsOf(render(), 'cell');
    assert.deepEqual(
      cells.map((c) => c.text),
      [
        '✓ passedscore 1120ms15 tokens (10 in, 5 out)',
        '✗ failedscore 01.5stokens not reported',
        '✓ passed90mstokens not reported',
        '✓ passed100ms15 tokens (10 in, 5 out)',
        '– not run',
        '✓ passed80mstokens not reported',
      ],
    );
    assert.equal(cells[1].td.attrs['data-state'], 'failed');
    assert.equal(cells[1].td.attrs.title, 'line 3: The judge says no: it names <b>Lyon</b> instead.');
    assert.equal(cells[0].td.attrs.title, undefined);
    // The narrow layout names each cell's model; screen readers have the column header already.
    assert.deepEqual(
      cells.map((c) => [c.model?.text, c.model?.attrs['aria-hidden']]),
      ['aurora-2', 'mira-1', 'zeta-3', 'aurora-2', 'mira-1', 'zeta-3'].map((m) => [m, 'true']),
    );
    // The marks are for the eye; the words say the same to a screen reader.
    assert.ok(
      render()
        .filter((e) => e.tag === 'span' && e.attrs.class === 'mark')
        .every((m) => m.attrs['aria-hidden']),
    );
  });

  it('the footer sums each model up, and the reasons are listed under the table for the keyboard', () => {
    const els = render();
    assert.deepEqual(
      cellsOf(els, 'summary').map((c) => c.text),
      [
        '2 of 2 passed · 100%median 110ms30 tokens (20 in, 10 out)',
        '0 of 1 passed · 0%median 1.5stokens not reported',
        '2 of 2 passed · 100%median 85mstokens not reported',
      ],
    );
    // Priced (the extension's meter): each cell and each model's sum say the cost; no price is said, never zero.
    const priced = modelGrid({
      payload: 'p.jsonc',
      dataset: 'cities.jsonl',
      models: ['aurora-2', 'mira-1'],
      rows: [run('aurora-2', 1, true, 100), run('mira-1', 1, true, 100)],
      pricedOf: (row) =>
        row.kind === 'run' && row.result.run.model === 'aurora-2'
          ? {
              price: { inputPerToken: 1e-6, currency: 'USD', source: 'registry' },
              cost: { amount: 0.00001, currency: 'USD' },
            }
          : { price: undefined, cost: undefined },
    });
    assert.deepEqual(
      priced.rows[0].cells.map((c) => c.usage),
      ['15 tokens (10 in, 5 out) · 0.00001 USD', 'tokens not reported · no price known'],
    );
    assert.deepEqual(
      priced.summary.map((s) => s.usage),
      ['15 tokens (10 in, 5 out) · 0.00001 USD', 'tokens not reported · no price known'],
    );
    assert.deepEqual(
      els.filter((e) => e.tag === 'li').map((e) => e.text),
      ['cities.jsonl: Paris · mira-1: line 3: The judge says no: it names <b>Lyon</b> instead.'],
    );
    const all = modelGrid({ payload: 'p.jsonc', models: ['a', 'b'], rows: [] });
    assert.ok(!elements(modelGridHtml(all, 'n', 's')).some((e) => e.tag === 'h2'), 'no list when nothing failed');
  });

  it('names one model in the singular', () => {
    const one = modelGrid({ payload: 'p.jsonc', models: ['a'], rows: [] });
    assert.equal(
      elements(modelGridHtml(one, 'n', 's')).find((e) => e.tag === 'caption')?.text,
      'p.jsonc on 1 model: each cell says passed or failed, the score of its graders, the time, the tokens and the cost.',
    );
  });

  it('narrower than a readable column per model, each request is a card (and the table keeps its roles)', () => {
    // Three models: a table in the editor beside the sidebar at 900 px (about 550 px); six: cards there.
    const below = (models: number) => Number(/@media \(max-width: (\d+)px\)/.exec(stackedStyle(models))?.[1]);
    assert.ok(below(3) < 550 && below(6) > 550, `${below(3)} / ${below(6)}`);
    assert.ok(below(2) < below(3));
    assert.match(stackedStyle(3), /table\.grid tr \{[^}]*border/);
    assert.match(modelGridHtml(grid(), 'n', 's'), new RegExp(`max-width: ${below(3)}px`));
    const roles = render()
      .filter((e) => ['table', 'tr', 'th', 'td'].includes(e.tag))
      .map((e) => `${e.tag}:${e.attrs.role}`);
    assert.deepEqual([...new Set(roles)].sort(), [
      'table:table',
      'td:cell',
      'th:columnheader',
      'th:rowheader',
      'tr:row',
    ]);
  });

  it('Save as CSV is a button that posts its action; anything else the page could post is ignored', () => {
    const button = render().filter((e) => e.tag === 'button');
    assert.deepEqual(
      button.map((b) => [b.text, b.attrs['data-action'], b.attrs.type]),
      [['Save as CSV…', 'saveCsv', 'button']],
    );
    assert.equal(parseGridMessage({ action: 'saveCsv' }), 'saveCsv');
    for (const other of [{ action: 'openLink' }, { action: 1 }, 'saveCsv', null, undefined]) {
      assert.equal(parseGridMessage(other), undefined);
    }
  });

  it("another feature's button (Switch N references) comes first, as text, and posts its own action", () => {
    const html = modelGridHtml(grid(), 'n', 's', 'Switch 2 references to <b>aurora-2</b>');
    const buttons = elements(html).filter((e) => e.tag === 'button');
    assert.deepEqual(
      buttons.map((b) => [b.text, b.attrs['data-action'], b.attrs.class]),
      [
        ['Switch 2 references to <b>aurora-2</b>', 'followUp', 'primary'],
        ['Save as CSV…', 'saveCsv', 'secondary'],
      ],
    );
    assert.ok(!elements(html).some((e) => e.tag === 'b'), 'its text is escaped');
    assert.equal(parseGridMessage({ action: 'followUp' }), 'followUp');
  });

  it('model ids and failures from the service are text: no element, no link, no script of theirs', () => {
    const hostile = '<img src=x onerror=alert(1)>[run](command:workbench.action.terminal.new)';
    const g = modelGrid({
      payload: 'p.jsonc',
      models: [hostile, 'b'],
      rows: [
        {
          kind: 'run',
          label: hostile,
          result: {
            run: { model: hostile },
            observed: { status: 200, elapsedMs: 5, streamed: false },
            results: [
              { line: 1, source: 'status 200', outcome: { passed: false, message: `<a href="x">${hostile}</a>` } },
            ],
            passed: false,
          },
        },
      ],
    });
    const html = modelGridHtml(g, 'n0nce', 'https://webview.test');
    const els = elements(html);
    assert.ok(!els.some((e) => ['img', 'a'].includes(e.tag)), 'no image or link made of service text');
    assert.equal(els.filter((e) => e.tag === 'script').length, 1, 'only the page script');
    assert.ok(bodyText(html).includes(hostile));
  });

  it('fits the editor beside the sidebar at 900 px: no fixed width anywhere, cells wrap, ids break anywhere', () => {
    // The shared style has `th { white-space: nowrap; width: 1% }` (fact tables): the grid overrides both.
    assert.match(GRID_STYLE, /table\.grid \{[^}]*table-layout: fixed;[^}]*width: 100%/);
    assert.match(
      GRID_STYLE,
      /table\.grid th, table\.grid td \{[^}]*width: auto;[^}]*white-space: normal;[^}]*overflow-wrap: anywhere/,
    );
    assert.ok(!/nowrap/.test(GRID_STYLE), 'nothing refuses to wrap');
    // Widths only as shares of the page: a length (px, em, ch…) could be wider than a 550 px column.
    const widths = [...(GRID_STYLE + stackedStyle(6)).matchAll(/(?:^|[\s;{])((?:min-|max-)?width):\s*([^;}]+)/g)].map(
      (m) => [m[1], m[2].trim()],
    );
    assert.ok(widths.length > 0);
    for (const [property, value] of widths) {
      // 1px: the column headers kept for screen readers while the narrow layout hides them.
      assert.match(value, /^(\d+%|auto|1px|0)$/, `${property}: ${value}`);
    }
    assert.ok(
      widths.filter(([p]) => p === 'width').every(([, v]) => v === 'auto' || parseInt(v, 10) <= 100),
      'no share above the page',
    );
  });
});
