// The registry over time, across two window starts: the list is marked as seen, the local service's registry
// changes (one model added, one gone, one new version, one deprecated with a successor), and the next start
// marks exactly those four rows, by description and accessible name (the status bar counts them); Show
// Changes lists them; Mark as Seen clears them and they stay cleared after another start; a payload naming
// the gone model gets the warning, and its quick fix makes it name a listed model. Code naming the gone model,
// never opened, is in the Problems view and in Models in Use.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { e2e } from './session';
import {
  clearNotifications,
  connectService,
  hidePanel,
  openFileByName,
  openPalette,
  openViewContainer,
  readActiveEditorText,
  readTreeRows,
  reloadWorkbench,
  screenshot,
  viewPane,
  type TreeRow,
} from './helpers';

describe('Registry changes between two window starts', () => {
  it('marks the four changed rows, lists them, clears them for good, and fixes a payload naming the gone model', async function () {
    this.timeout(300_000);
    const page = e2e.page;
    const org = Object.keys(e2e.service.keys)[0];
    const models = e2e.service.registry.models.filter((m) => m.organization === org);
    const [gone, bumped, deprecated, successor] = models;
    const added = {
      ...gone,
      id: 'zephyr-1',
      family: 'zephyr',
      version: '1',
      model_card_url: 'https://cards.example/zephyr-1',
    };
    const changed = [added.id, gone.id, bumped.id, deprecated.id].sort();

    await openViewContainer(page);
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await connectService(page, e2e.service.url, e2e.demoKey);
    // The list as it is now is the one seen (earlier steps loaded it; Mark as Seen makes sure).
    await openPalette(page, 'Model Access: Refresh Models');
    await waitForRows(page, (rows) => rows.some((r) => r.label === gone.id), 'the list before the change');
    await openPalette(page, 'Model Access: Mark as Seen');

    e2e.service.changeRegistry(org, {
      add: [added],
      remove: [gone.id],
      update: {
        [bumped.id]: { version: `${bumped.version}.1` },
        [deprecated.id]: {
          extra: { lifecycle_status: 'deprecated', retirement_date: '2099-01-31', replacement: successor.id },
        },
      },
    });

    // Code that names the gone model, never opened: the Problems view and Models in Use say so after the start.
    const code = path.join(e2e.dirs.workspace, 'summarise.py');
    fs.writeFileSync(code, `client.chat(model="${gone.id}", prompt="Summarise the report.")\n`);

    // The second start: the rows that changed say so.
    await reloadWorkbench(page);
    await openViewContainer(page);
    const rows = await waitForRows(page, (all) => marks(all).length === 4, 'four marked rows');
    const marked = marks(rows);
    assert.deepEqual(marked.map((r) => r.label).sort(), changed);
    const row = (id: string) => marked.find((r) => r.label === id) as TreeRow;
    assert.match(row(added.id).description, /\bnew\b/);
    assert.match(row(added.id).ariaLabel, /\bnew\b/);
    assert.match(row(gone.id).description, /\bgone\b/);
    assert.match(row(gone.id).ariaLabel, /\bgone\b/);
    assert.ok(row(bumped.id).description.includes(`version ${bumped.version} → ${bumped.version}.1`));
    assert.ok(row(bumped.id).ariaLabel.includes(`version ${bumped.version} → ${bumped.version}.1`));
    assert.match(row(deprecated.id).description, /retires 2099-01-31/);
    assert.ok(row(deprecated.id).ariaLabel.includes(`replaced by ${successor.id}`));
    // The status bar counts them too.
    const counted = page.locator('.statusbar-item', { hasText: /· 4 registry changes/ });
    await counted.first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'registry-changes');

    // Models in Use (collapsed until opened) lists the gone model; the Problems view has its error.
    await viewPane(page, 'Models in Use').locator('.pane-header').click();
    let used: TreeRow | undefined;
    for (const deadline = Date.now() + 30_000; !used; await page.waitForTimeout(500)) {
      used = (await readTreeRows(page, { viewTitle: 'Models in Use' })).find((r) => r.label === gone.id);
      assert.ok(used || Date.now() < deadline, `${gone.id} in Models in Use`);
    }
    assert.match(used.description, /places? · no longer listed$/);
    await openPalette(page, 'View: Focus Problems');
    const problem = page.locator('.markers-panel .monaco-list-row', {
      hasText: `${gone.id} is no longer in the registry`,
    });
    await problem.first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'model-references');
    await hidePanel(page);
    await viewPane(page, 'Models in Use').locator('.pane-header').click();
    fs.rmSync(code, { force: true });

    // Show Changes lists the four, by family.
    await openPalette(page, 'Model Access: Show Changes');
    const pageText = await readActiveEditorText(page, { contains: 'Model registry changes' });
    for (const id of changed) {
      assert.ok(pageText.includes(id), `${id} on the Show Changes page:\n${pageText}`);
    }
    assert.match(pageText, /Family zephyr/);
    await openPalette(page, 'View: Close All Editors');

    // A payload naming the gone model: the warning, then the quick fix makes it name a listed model.
    const file = path.join(e2e.dirs.workspace, 'retired-model.jsonc');
    fs.writeFileSync(
      file,
      `// POST /v1/chat\n{\n  "model": "${gone.id}",\n  "messages": [{ "role": "user", "content": "Hello" }]\n}\n`,
    );
    await openFileByName(page, 'retired-model.jsonc');
    await readActiveEditorText(page, { contains: gone.id });
    await page
      .locator('.editor-group-container.active .monaco-editor .squiggly-warning')
      .first()
      .waitFor({ timeout: 30_000 });
    await page.keyboard.press('F8'); // Go to Next Problem: the cursor on the model's value
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: /Did you mean|Use / }).first();
    await fix.waitFor({ state: 'visible', timeout: 15_000 });
    await fix.click();
    const listed = new Set(models.filter((m) => m.id !== gone.id).map((m) => m.id));
    const fixed = await readActiveEditorText(page, { contains: /"model": "[^"]+"/ });
    const id = /"model": "([^"]+)"/.exec(fixed)?.[1] ?? '';
    assert.ok(listed.has(id), `the quick fix wrote a listed model, not ${JSON.stringify(id)}`);
    await page.keyboard.press('Control+S');
    await openPalette(page, 'View: Close All Editors');
    fs.rmSync(file, { force: true });

    // Mark as Seen clears the marks, and they stay cleared after another start.
    await clearNotifications(page);
    await openPalette(page, 'Model Access: Mark as Seen');
    await waitForRows(page, (all) => marks(all).length === 0 && !all.some((r) => r.label === gone.id), 'no marks');
    await counted.first().waitFor({ state: 'hidden', timeout: 15_000 });
    await reloadWorkbench(page);
    await openViewContainer(page);
    const after = await waitForRows(page, (all) => all.some((r) => r.label === added.id), 'the list after the restart');
    assert.deepEqual(marks(after), []);
  });
});

/** Model rows whose description marks a registry change. */
function marks(rows: TreeRow[]): TreeRow[] {
  return rows.filter((r) => /(^| · )(new|gone|version .+ → .+|now .+)( · |$)/.test(r.description));
}

async function waitForRows(
  page: typeof e2e.page,
  done: (rows: TreeRow[]) => boolean,
  what: string,
): Promise<TreeRow[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const rows = await readTreeRows(page);
    if (done(rows)) {
      return rows;
    }
    assert.ok(Date.now() < deadline, `${what}: ${JSON.stringify(rows)}`);
    await page.waitForTimeout(500);
  }
}
