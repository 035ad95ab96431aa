// First run, as a newcomer would: New Request → Send right away sends the template (the selected
// prompt placeholder is not the payload); a selected JSON object is sent on its own; the project's own
// package.json is never touched by the Send keybinding and the palette offers no Send there; after a reload
// the payload has its CodeLens and model completion without the Models view being opened.
// Driven with the palette, the keyboard and the mouse only; files in the workspace are written as a project
// would already hold them.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { e2e } from './session';
import {
  answerModelPick,
  openFileByName,
  openPalette,
  pickQuickItem,
  quickInput,
  readActiveEditorText,
  reloadWorkbench,
  screenshot,
  viewContainer,
  hidePanel,
  waitForNotification,
} from './helpers';

const SEND_KEY = 'Control+Alt+Enter';

/** Focuses the response document of `payloadName` (its tab: "<name> response.jsonc") and waits until it shows `contains`. */
async function readAnswer(page: Page, payloadName: string, contains: string | RegExp): Promise<string> {
  const tab = page.locator('.tab', { hasText: `${payloadName} response` }).first();
  await tab.waitFor({ state: 'visible', timeout: 15_000 });
  await tab.click();
  return readActiveEditorText(page, { contains });
}

/** Closes the side bar (where the Models view lives) and the panel, when they show. */
async function closeBars(page: Page): Promise<void> {
  if (await page.locator('.part.sidebar').isVisible()) {
    await openPalette(page, 'View: Close Primary Side Bar');
  }
  await hidePanel(page);
}

/** A new start: no editors, no side bar (so the Models view loads nothing), then a reload. */
async function freshWindow(page: Page): Promise<void> {
  await openPalette(page, 'View: Close All Editor Groups');
  await closeBars(page);
  await reloadWorkbench(page);
}

/** The project's own package.json: strict JSON, no payload. */
const PACKAGE_JSON = '{\n  "name": "newcomer-project",\n  "version": "1.0.0",\n  "private": true\n}\n';

describe('First run, as a newcomer', () => {
  let payloadModel = '';

  before(() => {
    // What the project holds already (written before any Go to File, whose file list is cached).
    const model = e2e.service.registry.models.find((m) => m.organization === Object.keys(e2e.service.keys)[0])?.id;
    const variant = (text: string) => JSON.stringify({ model, messages: [{ role: 'user', content: text }] });
    fs.writeFileSync(
      path.join(e2e.dirs.workspace, 'variants.jsonc'),
      `// POST /v1/chat\n// Two variants: select one and send it.\n${variant('first variant')}\n${variant('second variant')}\n`,
    );
    fs.writeFileSync(path.join(e2e.dirs.workspace, 'package.json'), PACKAGE_JSON);
  });

  it('New Request → Send with no edit (the keybinding) sends the template and shows the answer', async function () {
    this.timeout(180_000); // A window reload: the extension host starts again (slow on a busy machine).
    const page = e2e.page;
    await freshWindow(page);
    // Extension commands are listed once the extension host has started (slow on a busy machine).
    await openPalette(page, 'Model Access: New Request…', { timeoutMs: 60_000 });
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page); // The first model that suits Chat, unless a selected one does.
    const payload = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    payloadModel = /"model": "([^"]+)"/.exec(payload)?.[1] ?? '';
    assert.ok(payloadModel, 'a model is filled in, though the Models view never loaded');
    const selected = page.locator('.editor-group-container.active .monaco-editor .selected-text');
    await selected.first().waitFor({ state: 'visible', timeout: 5000 }); // The prompt is selected, ready to type over.

    const name = (
      await page.locator('.editor-group-container.active .tab.active .label-name').first().innerText()
    ).replace(/\.jsonc$/, '');
    await page.keyboard.press(SEND_KEY);
    const answer = await readAnswer(page, name, /POST \/v1\/chat · 200 OK/);
    assert.ok(
      // The answer's text is wrapped: the rows are read back as one paragraph.
      answer.replace(/\s+/g, ' ').includes('You asked: "Write your prompt here."'),
      'the service answered the template',
    );
    assert.equal(
      await page.locator('.notification-toast', { hasText: /not valid JSON/ }).count(),
      0,
      'no "not valid JSON"',
    );
  });

  it('Send Request (palette) sends a selected JSON object on its own; the earlier "not valid JSON" goes', async () => {
    const page = e2e.page;
    await openFileByName(page, 'variants.jsonc');
    await page
      .locator('.codelens-decoration a', { hasText: 'Send' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    // First as a person tries it: Send on the whole file, two objects, is not one JSON value.
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press(SEND_KEY);
    await waitForNotification(page, /Nothing was sent: the payload is not valid JSON/);
    await openPalette(page, 'Go to Line/Column');
    await quickInput(page).locator('input').fill(':4');
    await page.keyboard.press('Enter');
    // The keys go to the editor once the line picker has closed; the status bar shows the selection.
    await quickInput(page).waitFor({ state: 'hidden', timeout: 15_000 });
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page
      .locator('.statusbar-item', { hasText: /selected/ })
      .first()
      .waitFor({ timeout: 15_000 });

    // F1 straight from the selection, as a person does (Escape first would drop it).
    await openPalette(page, 'Model Access: Send Request', { keepSelection: true });
    const answer = (await readAnswer(page, 'variants', /POST \/v1\/chat · 200 OK/)).replace(/\s+/g, ' ');
    assert.ok(answer.includes('second variant'), 'the selected variant was sent');
    assert.ok(!answer.includes('first variant'));
    assert.equal(
      await page.locator('.notification-toast', { hasText: /not valid JSON/ }).count(),
      0,
      'the new Send took the old "not valid JSON" away',
    );
  });

  it('package.json: the Send keybinding leaves it byte-identical, and the palette offers no Send', async () => {
    const page = e2e.page;
    const file = path.join(e2e.dirs.workspace, 'package.json');
    const original = PACKAGE_JSON;
    await openFileByName(page, 'package.json');
    await readActiveEditorText(page, { contains: '"newcomer-project"' });
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');

    await page.keyboard.press(SEND_KEY);
    await page.waitForTimeout(1500);
    assert.equal(await quickInput(page).isVisible(), false, 'no endpoint is asked for');
    const shown = await readActiveEditorText(page);
    assert.equal(shown, original, 'the editor shows the same text (the last, empty line included)');
    assert.equal(
      await page.locator('.editor-group-container.active .tab.active.dirty').count(),
      0,
      'not modified in the editor',
    );
    assert.equal(fs.readFileSync(file, 'utf8'), original, 'byte-identical on disk');

    await page.keyboard.press('F1');
    await quickInput(page).locator('input').fill('>Model Access: ');
    await quickInput(page)
      .locator('.monaco-list-row', { hasText: 'Model Access: New Request' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    const offered = await quickInput(page).locator('.monaco-list-row').allInnerTexts();
    await page.keyboard.press('Escape');
    assert.ok(
      !offered.some((t) => /Send Request|Send to \/v1|Change Request Endpoint/.test(t)),
      `offered: ${offered.join(' | ')}`,
    );
  });

  it('after a reload the payload has its CodeLens and model completion, without the Models view', async function () {
    this.timeout(180_000); // A window reload: the extension host starts again (slow on a busy machine).
    const page = e2e.page;
    await openPalette(page, 'View: Close All Editor Groups');
    await openPalette(page, 'Model Access: Open Scratch Folder');
    await pickQuickItem(page, 'chat-');
    await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    await closeBars(page);
    await reloadWorkbench(page);

    // The extension host starts after the workbench; a busy machine makes that slow.
    const lens = page.locator('.codelens-decoration a', { hasText: 'Send' }).first();
    await lens.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await viewContainer(page).isVisible(), false, 'the Models view was not opened');

    // Into the "model" value (line 3, before its closing quote), then ask for suggestions.
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Space');
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: payloadModel }).first();
    await suggestion.waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'first-run-restored-payload');
    await page.keyboard.press('Escape');
  });
});
