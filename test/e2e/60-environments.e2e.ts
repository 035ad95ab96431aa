// A person who works with a second organization's service: adds it as an environment in their user
// settings (JSON), switches to it from the status bar, sets its API key, sees its models, and sends a payload
// whose {{model}} and environment variable are filled in when sent. Driven with the palette, the keyboard and
// the mouse only; the second service records what it received.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../server';
import { e2e } from './session';
import {
  answerModelPick,
  clearNotifications,
  moveMouseAway,
  openPalette,
  readTreeRows,
  openViewContainer,
  pickQuickItem,
  readActiveEditorText,
  readViewText,
  screenshot,
  typeInQuickInput,
  waitForNotification,
  hidePanel,
} from './helpers';

const SEND_KEY = 'Control+Alt+Enter';

/** Replaces the user settings with `settings`, as a person pasting into Preferences: Open User Settings (JSON). */
async function pasteUserSettings(page: Page, settings: Record<string, unknown>): Promise<void> {
  await openPalette(page, 'Preferences: Open User Settings (JSON)');
  await readActiveEditorText(page, { contains: '{' });
  await page.keyboard.press('Control+A');
  // Pasted on one line: the editor would indent every pasted line again.
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(JSON.stringify(settings));
  // Whatever the editor closed automatically after the pasted text is not part of it.
  await page.keyboard.press('Control+Shift+End');
  await page.keyboard.press('Delete');
  await readActiveEditorText(page, { contains: JSON.stringify(settings).slice(-40) });
  await page.keyboard.press('Control+S');
  await page.waitForFunction(
    () => !document.querySelector('.editor-group-container.active .tab.active.dirty'),
    undefined,
    { timeout: 30_000 },
  );
  // The settings may open in a modal editor: Escape closes it (a palette opened while it closes is lost).
  await page.keyboard.press('Escape');
  await page.locator('.monaco-modal-editor-block').waitFor({ state: 'hidden', timeout: 15_000 });
  await openPalette(page, 'View: Close All Editors');
}

describe('Environments, as a person', () => {
  let second: RunningServer;
  let settingsFile = '';
  let original: string | undefined;

  before(async () => {
    second = await startServer();
    settingsFile = path.join(e2e.dirs.data, 'User', 'settings.json');
    original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
  });

  after(async () => {
    // Later steps expect the session's service alone: the settings as they were before this step.
    if (original !== undefined) {
      fs.writeFileSync(settingsFile, original);
    }
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
    await clearNotifications(e2e.page).catch(() => undefined);
    await second?.close();
  });

  it('adds a second environment, switches to it from the status bar, sets its key, sends with variables', async function () {
    // Settings, a switch, a key check, the model list and a send: several minutes on a loaded machine.
    this.timeout(300_000);
    const page = e2e.page;
    await openViewContainer(page); // The extension is active (it may be the first step run).
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await clearNotifications(page);

    // The user settings as JSON: the session's service plus a second one, pasted over what was there.
    const current = original ? (JSON.parse(original) as Record<string, unknown>) : {};
    const edited = {
      ...current,
      'modelAccess.environments': [
        { name: 'Main', baseUrl: e2e.service.url },
        { name: 'Second Org', baseUrl: second.url, variables: { team: 'globex-platform' } },
      ],
    };
    await pasteUserSettings(page, edited);

    // Two environments: the status bar offers the switch. A click, then the second one from the picker.
    const item = page.locator('.statusbar-item', { has: page.locator('.codicon-server-environment') }).first();
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    await moveMouseAway(page);
    await item.click();
    await pickQuickItem(page, 'Second Org', { timeoutMs: 30_000 });
    await page
      .locator('.statusbar-item', { hasText: 'Second Org' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });

    // Its key, set while it is active: stored for its URL, checked with its service.
    await openPalette(page, 'Model Access: Set API Key');
    await typeInQuickInput(page, second.keys.globex);
    await waitForNotification(page, /API key saved/, 60_000);
    await clearNotifications(page);

    // The Models view shows the second organization's models, and none of the first one's.
    const globex = second.registry.models.filter((m) => m.organization === 'globex').map((m) => m.id);
    const acmeOnly = e2e.service.registry.models
      .filter((m) => m.organization === 'acme' && !globex.includes(m.id))
      .map((m) => m.id);
    await openViewContainer(page);
    let shown = '';
    const deadline = Date.now() + 60_000;
    while (!globex.some((id) => shown.includes(id))) {
      assert.ok(Date.now() < deadline, `the Models view never showed the second organization's models:\n${shown}`);
      shown = await readViewText(page).catch(() => '');
      if (!globex.some((id) => shown.includes(id))) {
        await page.waitForTimeout(500);
      }
    }
    assert.ok(!acmeOnly.some((id) => shown.includes(id)), `no model of the first organization:\n${shown}`);
    await screenshot(page, 'environments-second-org');

    // A payload with {{model}} and the environment's {{team}}: sent with both filled in.
    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page); // The first model that suits Chat.
    const template = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    const model = /"model": "([^"]+)"/.exec(template)?.[1] ?? '';
    assert.ok(globex.includes(model), `the new payload names a model of the second organization (${model})`);
    const payload = JSON.stringify(
      { model, messages: [{ role: 'user', content: 'Hello from {{team}}, answered by {{model}}' }] },
      null,
      2,
    );
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(`// POST /v1/chat\n${payload}\n`);
    await readActiveEditorText(page, { contains: '{{team}}' });
    await page.keyboard.press('Control+Home');
    const before = second.received('/v1/chat').length;
    await page.keyboard.press(SEND_KEY);
    const answerTab = page.locator('.tab', { hasText: 'response' }).first();
    await answerTab.waitFor({ state: 'visible', timeout: 60_000 });
    const deadlineSent = Date.now() + 30_000;
    while (second.received('/v1/chat').length === before) {
      assert.ok(Date.now() < deadlineSent, 'the second service received the payload');
      await page.waitForTimeout(200);
    }
    const sent = second.lastReceived('/v1/chat', 'POST').json as { model: string; messages: { content: string }[] };
    assert.equal(sent.messages[0].content, `Hello from globex-platform, answered by ${model}`);
    assert.equal(second.lastReceived('/v1/chat', 'POST').organization, 'globex', 'with the second key');
    assert.equal(
      e2e.service.requests.filter(
        (r) => r.method === 'POST' && JSON.stringify(r.json ?? '').includes('globex-platform'),
      ).length,
      0,
      'nothing of it went to the first service',
    );
    await answerTab.click();
    const answer = await readActiveEditorText(page, { contains: /POST \/v1\/chat · 200/, timeoutMs: 30_000 });
    assert.ok(answer.includes(model), 'the answer names the model the service used');
    await screenshot(page, 'environments-sent-with-variables');

    // Every environment side by side: each a root with its own state, the second one's models below it.
    await openPalette(page, 'View: Close All Editors');
    await pasteUserSettings(page, { ...edited, 'modelAccess.modelsView.showAllEnvironments': true });
    await openViewContainer(page);
    const count = `${globex.length} models`;
    const deadlineRoots = Date.now() + 60_000;
    let rows = await readTreeRows(page);
    while (!rows.some((r) => r.level === 1 && r.label === 'Second Org' && r.description.includes(count))) {
      assert.ok(Date.now() < deadlineRoots, `no Second Org root with ${count}: ${JSON.stringify(rows)}`);
      await page.waitForTimeout(500);
      rows = await readTreeRows(page);
    }
    const main = rows.find((r) => r.level === 1 && r.label === 'Main');
    // Its state: a count with the key stored by earlier steps, or the missing key when this step runs alone.
    assert.match(
      main?.description ?? '',
      /\d+ models?|API key missing/,
      'the first environment is a root with its state',
    );
    assert.ok(
      rows.some((r) => r.level > 1 && globex.includes(r.label)),
      'the active environment’s models are listed under its root',
    );
    await screenshot(page, 'environments-all-roots');
  });
});
