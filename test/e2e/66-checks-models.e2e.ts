// A person wants to know which of three models passes a payload's checks over its five-row dataset, in a
// 900×700 window with the sidebar open: Run Checks on Several Models from the palette, three models checked,
// and Results Across Models opens with a column per model and a row per dataset row — the one model the
// payload's check names passes, the others fail with their reason listed — with no sideways scrolling, and
// clean for axe-core in a light and a High Contrast theme. Picture: test-results/checks-models-900.png.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../harness/codeServer';
import { assertAccessible } from './a11y';
import { e2e } from './session';
import {
  connectService,
  hidePanel,
  moveMouseAway,
  openFileByName,
  openPalette,
  openViewContainer,
  pickQuickItem,
  quickInput,
  readActiveEditorText,
  screenshot,
  setColorTheme,
  setViewport,
  typeInQuickInput,
  waitForValue,
  webviewFrame,
} from './helpers';

interface GridView {
  models: string[];
  rows: string[];
  /** Each row's cells' first line ("passed", "failed", "not run"…), row by row. */
  cells: string[][];
  reasons: number;
  /** How far the page is wider than the webview, and cells wider than themselves (cut or scrolling). */
  over: number;
  cut: number;
  width: number;
}

describe('Checks on several models: results across models', () => {
  after(async () => {
    await setColorTheme(e2e.page, 'Default Light Modern').catch(() => undefined);
    await setViewport(e2e.page, 1280, 800).catch(() => undefined);
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
  });

  it('three models at 900×700 with the sidebar open: a column per model, no sideways scrolling, axe clean', async function () {
    // Service, key, 15 requests and a webview through the palette: slow on a busy machine.
    this.timeout(180_000);
    const page = e2e.page;
    const org = Object.keys(e2e.service.keys)[0];
    const models = ['aurora-2-mini', 'basalt-code-2.1', 'kestrel-reasoner-1.0.3'].filter((id) =>
      e2e.service.registry.models.some((m) => m.id === id && m.organization === org),
    );
    assert.equal(models.length, 3, 'three chat models of the organization in the demo registry');
    // The demo's models introduce themselves when they know no fact: a check only the first passes.
    const folder = path.join(e2e.dirs.workspace, 'checks-models');
    fs.mkdirSync(folder, { recursive: true });
    fs.copyFileSync(
      path.join(REPO_ROOT, 'test', 'fixtures', 'checks', 'capitals', 'cities.jsonl'),
      path.join(folder, 'cities.jsonl'),
    );
    fs.writeFileSync(
      path.join(folder, 'introductions.jsonc'),
      [
        '// POST /v1/chat',
        '// @each cities.jsonl',
        '// @expect status 200',
        '// @expect text contains "{{city}}"',
        `// @expect text contains "This is ${models[0]},"`,
        `{ "model": "${models[0]}", "messages": [{ "role": "user", "content": "Tell me one thing about {{city}}." }] }`,
        '',
      ].join('\n'),
    );

    await setViewport(page, 900, 700);
    await openViewContainer(page); // The sidebar stays open.
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await connectService(page, e2e.service.url, e2e.demoKey);
    await openFileByName(page, 'introductions.jsonc');
    await readActiveEditorText(page, { contains: '@each cities.jsonl' });

    const before = e2e.service.requests.length;
    await openPalette(page, 'Model Access: Run Checks on Several Models…');
    const prompt = await typeInQuickInput(page, models[0], { submit: false });
    assert.match(prompt, /Run checks on models: pick 2 to 6/);
    // The payload's own model starts checked; the others are checked by hand.
    for (const id of models) {
      await typeInQuickInput(page, id, { submit: false });
      if (id !== models[0]) {
        await pickQuickItem(page, id);
      }
      await quickInput(page)
        .locator('.monaco-list-row[aria-checked="true"]', { hasText: id })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
    }
    await quickInput(page).locator('input').press('Enter');

    const frame = await webviewFrame(page, '#grid', 90_000);
    // No named functions inside: the test runner's transpiler would wrap them in helpers the page does not have.
    const view = await waitForValue(
      () =>
        frame.evaluate((): GridView => ({
          models: Array.from(document.querySelectorAll('#grid thead th.model')).map((th) => th.textContent ?? ''),
          rows: Array.from(document.querySelectorAll('#grid tbody th[scope="row"]')).map((th) => th.textContent ?? ''),
          cells: Array.from(document.querySelectorAll('#grid tbody tr')).map((tr) =>
            Array.from(tr.querySelectorAll('td')).map((td) => td.getAttribute('data-state') ?? ''),
          ),
          reasons: document.querySelectorAll('.why li').length,
          over: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          cut: Array.from(
            document.querySelectorAll('#grid tbody th, #grid tbody td, #grid tfoot th, #grid tfoot td'),
          ).filter((c) => c.scrollWidth > c.clientWidth + 1).length,
          width: document.documentElement.clientWidth,
        })),
      (v) => v.models.length === 3 && v.rows.length === 5,
      'the grid of three models',
      60_000,
    );
    // In the picker's order (VS Code returns the checked items in list order), each model once.
    assert.deepEqual([...view.models].sort(), [...models].sort());
    assert.deepEqual(
      view.rows,
      ['Paris', 'Rome', 'Oslo', 'Lisbon', 'Vienna'].map((city) => `cities.jsonl: ${city}`),
    );
    const column = (id: string) => view.cells.map((r) => r[view.models.indexOf(id)]);
    assert.deepEqual(column(models[0]), Array(5).fill('passed'));
    assert.deepEqual(column(models[1]), Array(5).fill('failed'));
    assert.deepEqual(column(models[2]), Array(5).fill('failed'));
    assert.equal(view.reasons, 10, 'each failed cell says why under the grid');
    const sent = e2e.service.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/chat');
    assert.equal(sent.length, 15, 'five rows on three models');

    // The editor beside the open sidebar: the whole grid in it, nothing cut, nothing scrolling sideways (a
    // table with three models; narrower than 440 px each request would be a card, which must fit as well).
    assert.ok(view.width < 700, `the webview is the editor column beside the sidebar (${view.width} px)`);
    assert.ok(view.over <= 1, `no sideways scrolling at 900×700 (${view.over} px over)`);
    assert.equal(view.cut, 0, 'no cell is wider than its column');
    const save = frame.locator('button[data-action="saveCsv"]');
    const box = await save.boundingBox();
    assert.ok(box && box.x >= 0 && box.width > 0, 'Save as CSV is on screen');
    await assertAccessible(frame, 'Results Across Models at 900×700, light theme');
    await moveMouseAway(page);
    await screenshot(page, 'checks-models-900');

    await setColorTheme(page, 'Dark High Contrast');
    await assertAccessible(await webviewFrame(page, '#grid'), 'Results Across Models at 900×700, High Contrast');
    await setColorTheme(page, 'Default Light Modern');
  });
});
