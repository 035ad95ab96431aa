// A person keeps payloads that check their answers in the workspace: three with // @expect lines (one made to
// fail: it expects "London" where the service answers about France) and one over a five-row dataset. Test
// Explorer lists them under their folders; Run All Tests passes the right ones, shows the failure at its
// expectation line with expected and actual, and runs the dataset's five rows as children.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../harness/codeServer';
import { startServer } from '../server';
import { e2e } from './session';
import {
  connectService,
  openFileByName,
  openPalette,
  openViewContainer,
  readActiveEditorText,
  screenshot,
  waitForValue,
  type TreeRow,
} from './helpers';

const TESTING = 'workbench.view.extension.test';

/** The rows of Test Explorer (alone in its container, its pane has no header to find it by; few rows: no scrolling). */
async function testRows(): Promise<TreeRow[]> {
  // The tree's list, not the filter's (an editor with lists of its own once it is typed into).
  const list = e2e.page.locator(`[id="${TESTING}"] .monaco-list[role="tree"]`).first();
  await list.waitFor({ state: 'attached', timeout: 15_000 });
  return list.locator('.monaco-list-row').evaluateAll((els) =>
    els.map((el) => ({
      index: Number(el.getAttribute('data-index') ?? '-1'),
      level: Number(el.getAttribute('aria-level') ?? '1'),
      // "paris.jsonc (Passed), in 20ms": the label, the state and the duration.
      label: (el.getAttribute('aria-label') ?? '').replace(/ \(.*$/, ''),
      description: '',
      expanded: el.hasAttribute('aria-expanded') ? el.getAttribute('aria-expanded') === 'true' : undefined,
      ariaLabel: el.getAttribute('aria-label') ?? '',
    })),
  );
}

/** Expands every collapsed row of Test Explorer (folders, payloads), one click at a time. */
async function expandAll(): Promise<TreeRow[]> {
  for (let round = 0; round < 6; round++) {
    const rows = await testRows();
    const closed = rows.find((r) => r.expanded === false);
    if (!closed) {
      return rows;
    }
    const row = e2e.page
      .locator(`[id="${TESTING}"] .monaco-list-row[aria-label="${closed.ariaLabel.replace(/"/g, '\\"')}"]`)
      .first();
    await row.locator('.monaco-tl-twistie').click();
    await e2e.page.waitForTimeout(300);
  }
  return testRows();
}

describe('Checks in Test Explorer', () => {
  before(() => {
    fs.cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'checks'), path.join(e2e.dirs.workspace, 'checks'), {
      recursive: true,
    });
  });

  after(async () => {
    await openPalette(e2e.page, 'View: Close All Editor Groups').catch(() => undefined);
  });

  it('lists the payloads, Run All passes the right ones, the failure is at its line, the dataset has five children', async function () {
    this.timeout(240_000);
    const page = e2e.page;
    await openViewContainer(page);
    await openPalette(page, 'View: Close All Editor Groups');
    await connectService(page, e2e.service.url, e2e.demoKey);

    // The failing payload is open, so the failure's message shows in the editor at its line.
    await openFileByName(page, 'london.jsonc');
    await openViewContainer(page, 'Testing', TESTING);
    const listed = await waitForValue(
      async () => (await expandAll()).map((r) => r.label),
      (labels) =>
        ['paris.jsonc', 'london.jsonc', 'cities.jsonc', 'vectors.jsonc', 'cities.jsonl: Vienna'].every((l) =>
          labels.includes(l),
        ),
      'the payloads in Test Explorer',
    );
    assert.ok(listed.includes('checks/capitals') && listed.includes('checks/embeddings'), listed.join(', '));

    await openPalette(page, 'Test: Run All Tests');
    const rows = await waitForValue(
      async () => expandAll(),
      (all) => all.filter((r) => /\((Passed|Failed)\), in \d/.test(r.ariaLabel)).length >= 11,
      'every test run',
    );
    const state = (label: string) => rows.find((r) => r.label === label)?.ariaLabel ?? '';
    for (const passed of ['paris.jsonc', 'vectors.jsonc', 'cities.jsonc']) {
      assert.match(state(passed), /^\S+ \(Passed\), in \d+(\.\d+)?m?s$/, passed);
    }
    assert.match(state('london.jsonc'), /^london\.jsonc \(Failed\), in \d/);
    // Dataset rows are named by their first value (not `cities.jsonl:5`), in the file's order.
    const children = rows.filter((r) => r.label.startsWith('cities.jsonl'));
    assert.deepEqual(
      children.map((r) => r.label),
      ['Paris', 'Rome', 'Oslo', 'Lisbon', 'Vienna'].map((city) => `cities.jsonl: ${city}`),
    );
    assert.ok(
      children.every((r) => /\(Passed\), in \d/.test(r.ariaLabel)),
      children.map((r) => r.ariaLabel).join(' | '),
    );

    // The failure in the editor, on the line of its expectation, as a sentence with the answer's start.
    const line = page.locator('.monaco-editor .view-line', { hasText: '// @expect text contains "London"' });
    const message = page.locator('.monaco-editor .inner > span.content', { hasText: 'does not contain "London"' });
    await message.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await message.count(), 1);
    assert.match(
      await message.innerText(),
      /^The answer's text does not contain "London"\. It begins: "The capital of France is Paris\."/,
    );
    const [lineBox, messageBox] = [await line.boundingBox(), await message.boundingBox()];
    assert.ok(
      lineBox && messageBox && Math.abs(lineBox.y + lineBox.height / 2 - (messageBox.y + messageBox.height / 2)) < 6,
    );
    assert.ok(messageBox && lineBox && messageBox.x > lineBox.x, 'after the expectation, on its line');
    await screenshot(page, 'checks-test-explorer');
  });

  it("a dataset's columns are variables: no problem for {{city}}, exactly one for a field no row has, at its use", async function () {
    this.timeout(120_000);
    const page = e2e.page;
    const squiggles = (kind: 'error' | 'warning') =>
      page.locator(`.editor-group-container.active .monaco-editor .squiggly-${kind}`);
    await openPalette(page, 'View: Close All Editor Groups');
    // The payload of the Run above, asking also for a field that no row of its dataset defines.
    const folder = path.join(e2e.dirs.workspace, 'checks', 'capitals');
    fs.writeFileSync(
      path.join(folder, 'countries.jsonc'),
      fs
        .readFileSync(path.join(folder, 'cities.jsonc'), 'utf8')
        .replace('Tell me one thing about {{city}}.', 'Tell me one thing about {{city}} in {{country}}.'),
    );
    await openFileByName(page, 'countries.jsonc');
    await readActiveEditorText(page, { contains: '{{country}}' });
    await squiggles('error').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await squiggles('error').count(), 1, 'exactly one problem');
    const line = page.locator('.editor-group-container.active .view-line', { hasText: '{{country}}' });
    const [lineBox, squiggleBox] = [await line.boundingBox(), await squiggles('error').boundingBox()];
    assert.ok(lineBox && squiggleBox && Math.abs(lineBox.y - squiggleBox.y) < lineBox.height, 'on the line of its use');
    await page.keyboard.press('F8'); // Go to Next Problem: the message names the field and the dataset.
    const peek = page.locator('.editor-group-container.active .marker-widget').first();
    await peek.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await peek.innerText(), /country[\s\S]*cities\.jsonl/);
    await page.keyboard.press('Escape');
    await screenshot(page, 'checks-dataset-field');

    // The payload as it was: its columns are known (the dataset was read above), so nothing is reported.
    await openFileByName(page, 'cities.jsonc');
    await readActiveEditorText(page, { contains: '{{city}}' });
    await page
      .locator('.editor-group-container.active .codelens-decoration a', { hasText: 'Send' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForTimeout(1000); // One more round of the editor's decorations.
    assert.equal(await squiggles('error').count(), 0, 'no error for the columns of cities.jsonl');
    assert.equal(await squiggles('warning').count(), 0, 'no warning either');
    fs.rmSync(path.join(folder, 'countries.jsonc'), { force: true });
  });

  it('a repeated check whose answers alternate says "2 of 4" and is found by the flaky tag filter', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    // A service whose chat answers alternate between right and wrong, as a flaky model's do.
    const flaky = await startServer({ grading: { chatScript: ['Paris, surely.', 'Lyon, I think.'] } });
    const folder = path.join(e2e.dirs.workspace, 'checks', 'repeats');
    try {
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(
        path.join(folder, 'flaky.jsonc'),
        '// POST /v1/chat\n// @repeat 4\n// @expect text contains "Paris"\n' +
          '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "The capital of France?" }] }\n',
      );
      await openPalette(page, 'View: Close All Editor Groups');
      await connectService(page, flaky.url, flaky.keys.acme);
      await openFileByName(page, 'flaky.jsonc');
      await readActiveEditorText(page, { contains: '@repeat 4' });
      await openPalette(page, 'Test: Run Tests in Current File');
      await waitForValue(
        async () => flaky.received('/v1/chat', 'POST').length,
        (n) => n >= 4,
        'four attempts sent',
      );
      // The result, where a person reads it: the failure at the expectation, with the tally and "flaky".
      const message = page.locator('.monaco-editor .inner > span.content', { hasText: 'flaky' });
      await message.first().waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await message.first().innerText(), /2 of 4 passed, flaky/);

      // Test Explorer's filter by the tag: only the flaky check is left.
      await openViewContainer(page, 'Testing', TESTING);
      // The filter ("Filter (e.g. text, !exclude, @tag)") is a small editor that suggests tags: click it, type.
      await page.locator(`[id="${TESTING}"] .monaco-editor[data-uri="testing:filter"]`).first().click();
      await page.keyboard.type('@modelAccess.checks:flaky');
      const rows = await waitForValue(
        async () => (await expandAll()).filter((r) => r.label.endsWith('.jsonc')),
        (list) => list.length === 1,
        'one check left by the flaky filter',
      );
      assert.equal(rows[0].label, 'flaky.jsonc');
      assert.match(rows[0].ariaLabel, /\(Failed\)/);
      await screenshot(page, 'checks-flaky-filter');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
    } finally {
      await connectService(page, e2e.service.url, e2e.demoKey).catch(() => undefined);
      await flaky.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
