// A person sets the demo API key from the palette, reads the Models tree (families with counts, ids with
// versions, as the registry says), and clicks a model to open its Model Card in the browser.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { e2e } from './session';
import { lifecycleLabel, readLifecycle } from '../../src/domain/registry/lifecycle';
import {
  clickTreeRow,
  openPalette,
  openViewContainer,
  readExtensionLog,
  readTreeRows,
  readViewText,
  RESULTS_DIR,
  screenshot,
  typeInQuickInput,
  waitForNotification,
  waitForOpenedUrl,
  type TreeRow,
} from './helpers';

/** Natural order, as the view sorts ids and families: the `en` collation, numeric, base strength, then code units (src/domain/modelSorting.ts). */
const natural = (a: string, b: string) =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);

describe('Models explorer', () => {
  const org = () => Object.keys(e2e.service.keys)[0];
  const models = () => e2e.service.registry.models.filter((m) => m.organization === org());

  it('asks for an API key before listing models', async () => {
    await openViewContainer(e2e.page);
    let text = '';
    for (let i = 0; i < 100 && !/Set API Key/.test(text); i++) {
      await e2e.page.waitForTimeout(200);
      text = await readViewText(e2e.page, 'Models');
    }
    assert.match(text, /Set API Key/);
  });

  it('sets the API key from the palette; the key is checked and the models counted', async () => {
    await openPalette(e2e.page, 'Model Access: Set API Key');
    const prompt = await typeInQuickInput(e2e.page, e2e.demoKey);
    assert.match(prompt, /SecretStorage/);
    const note = await waitForNotification(e2e.page, /API key saved/);
    assert.match(note, new RegExp(`sees ${models().length} models`));
    assert.ok(!note.includes(e2e.demoKey), 'the key is not shown');
  });

  it("shows the organization's models grouped by family with versions", async () => {
    let rows: TreeRow[] = [];
    for (let i = 0; i < 100 && rows.filter((r) => r.level === 2).length < models().length; i++) {
      await e2e.page.waitForTimeout(200);
      rows = await readTreeRows(e2e.page);
    }
    const families = [...new Set(models().map((m) => m.family))].sort(natural);
    const top = rows.filter((r) => r.level === 1);
    assert.deepEqual(
      top.map((r) => [r.label, r.description]),
      families.map((f) => {
        const n = models().filter((m) => m.family === f).length;
        return [f, `${n} ${n === 1 ? 'model' : 'models'}`];
      }),
    );
    const leaves = rows.filter((r) => r.level === 2);
    const expected = families.flatMap((f) =>
      models()
        .filter((m) => m.family === f)
        .sort((a, b) => natural(a.id, b.id))
        .map((m) => [m.id, m.version]),
    );
    // The lifecycle mark first (a narrow sidebar cuts the end of a row, never "retires …"), then the version.
    const lifecycleOf = (id: string) => {
      const m = models().find((x) => x.id === id);
      return lifecycleLabel(readLifecycle({ ...m, ...m?.extra }), Date.now());
    };
    assert.deepEqual(
      leaves.map((r) => {
        const life = lifecycleOf(r.label);
        const parts = r.description.split(' · ');
        return [r.label, life && parts[0] === life ? parts[1] : parts[0]];
      }),
      expected,
    );
    for (const r of leaves) {
      const life = lifecycleOf(r.label);
      if (life) {
        assert.ok(r.description.startsWith(`${life} · `), `${r.label}: the lifecycle leads (${r.description})`);
        assert.ok(r.ariaLabel.includes(life), `${r.label}: the accessible name says ${life} (${r.ariaLabel})`);
      }
    }
    // A retiring model's accessible name says it is deprecated and what replaces it.
    const retiring = leaves.find((r) => r.label === 'aurora-1');
    assert.match(retiring?.ariaLabel ?? '', /^aurora-1, deprecated, retires \d{4}-\d{2}-\d{2}, replaced by aurora-2,/);
    await screenshot(e2e.page, 'models-view');
    // The README's picture: the sidebar and the status bar, without the empty editor area.
    await e2e.page.screenshot({
      path: path.join(RESULTS_DIR, 'models-view-sidebar.png'),
      clip: { x: 0, y: 0, width: 352, height: 800 },
    });
  });

  it('clicking a model opens exactly its Model Card', async () => {
    const model = models().find((m) => m.id === 'aurora-1.5') ?? models()[0];
    await clickTreeRow(e2e.page, model.id);
    const url = await waitForOpenedUrl(e2e.openedCardUrls, model.model_card_url);
    assert.equal(url, model.model_card_url);
  });

  it('a rejected key is reported in the view with Set API Key, and a good key brings the tree back', async function () {
    this.timeout(120_000);
    await openPalette(e2e.page, 'Model Access: Set API Key');
    await typeInQuickInput(e2e.page, 'ma-wrong-key-0000');
    const toast = e2e.page.locator('.notification-toast', { hasText: /rejected this API key/ }).first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    await toast.locator('.monaco-button', { hasText: 'Save Anyway' }).click();
    let text = '';
    // The view's message and its Set API Key row render separately: wait for both.
    for (let i = 0; i < 100 && !/The API key was rejected\.\s+Set API Key…/.test(text); i++) {
      await e2e.page.waitForTimeout(200);
      text = await readViewText(e2e.page, 'Models');
    }
    assert.match(text, /The API key was rejected\.\s+Set API Key…/);
    await screenshot(e2e.page, 'models-view-rejected-key');

    await openPalette(e2e.page, 'Model Access: Set API Key');
    await typeInQuickInput(e2e.page, e2e.demoKey);
    await waitForNotification(e2e.page, /API key saved/);
    for (let i = 0; i < 100 && (/rejected/.test(text) || !/aurora/.test(text)); i++) {
      await e2e.page.waitForTimeout(200);
      text = await readViewText(e2e.page, 'Models');
    }
    const rows = await readTreeRows(e2e.page);
    assert.equal(rows.filter((r) => r.level === 2).length, models().length);
  });

  it('Show Log lists each request (method, path, status, time, request id) and never the key', async () => {
    await openPalette(e2e.page, 'Model Access: Show Log');
    const lines = e2e.page.locator('.part.panel .monaco-editor .view-lines').first();
    await lines.waitFor({ state: 'visible', timeout: 30_000 });
    let text = '';
    for (let i = 0; i < 50 && !/GET \/v1\/models/.test(text); i++) {
      await e2e.page.waitForTimeout(200);
      text = (await lines.innerText()).replace(/\u00a0/g, ' ');
    }
    assert.match(text, /GET \/v1\/models\S* 200 \d+ ms request-id\s+req_/);
    await screenshot(e2e.page, 'models-log');
    await e2e.page.keyboard.press('Escape');
    // The Output view shows only the last lines; the log file holds every line written so far.
    const visible = (text.split('\n').find((l) => /GET \/v1\/models\S* 200/.test(l)) ?? '').trim();
    let log = readExtensionLog(e2e.dirs.data);
    for (let i = 0; i < 50 && !log.text.includes(visible); i++) {
      await e2e.page.waitForTimeout(200); // VS Code writes the file a moment after the view shows the line.
      log = readExtensionLog(e2e.dirs.data);
    }
    assert.ok(log.files.length > 0, `a Model Access log file under ${e2e.dirs.data}`);
    assert.ok(log.text.includes(visible), `what the Output view shows (${visible}) comes from this file`);
    for (const key of [...Object.values(e2e.service.keys), 'ma-wrong-key-0000']) {
      assert.ok(!log.text.includes(key), `the key ${key.slice(0, 8)}… is not in the log`);
    }
  });
});
