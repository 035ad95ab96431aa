// Keyboard and screen-reader use of the webview pages, checked as a person using them would meet them:
// Model Details reached and its buttons run with the keyboard only (a screen reader hears "Copied …"), Send
// run from the keyboard with the cursor far from the CodeLens, and axe-core run inside each page — Model
// Details, Compare running, finished and failed — in a light, a dark and a High Contrast theme. Compare's
// columns must fit its tab at 1400×900 and at 900×700. Pictures: test-results/a11y-*.png, compare-models-*.png.
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../server';
import { assertAccessible } from './a11y';
import { e2e } from './session';
import {
  answerModelPick,
  connectService,
  moveMouseAway,
  openPalette,
  openViewContainer,
  pickQuickItem,
  quickInput,
  readActiveEditorText,
  screenshot,
  setColorTheme,
  typeInQuickInput,
  waitForValue,
  webviewFrame,
  hidePanel,
} from './helpers';

// As the theme picker names them (High Contrast is `Default High Contrast` in settings).
const THEMES = ['Default Light Modern', 'Default Dark Modern', 'Dark High Contrast'] as const;
const slug = (theme: string) =>
  theme
    .replace(/^Default /, '')
    .replace(/\s+/g, '-')
    .toLowerCase();

/** The focused element of a webview page: its tag and text, or undefined when the focus is not in the page. */
async function focusedIn(frame: Frame): Promise<string | undefined> {
  return frame.evaluate(
    `document.hasFocus() && document.activeElement && document.activeElement !== document.body ? document.activeElement.tagName + ' ' + document.activeElement.textContent.trim() : undefined`,
  ) as Promise<string | undefined>;
}

/** Presses Tab until the page's focused element is the button labelled `label`; fails after 40 presses. */
async function tabTo(page: Page, frame: Frame, label: string): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    const now = await focusedIn(frame);
    if (now === `BUTTON ${label}`) {
      return;
    }
    seen.push(now ?? '(outside the page)');
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${label}"; focus went: ${seen.join(' → ')}`);
}

interface ComparePage {
  summary: string;
  states: string[];
  models: string[];
  cancel: { disabled: boolean; opacity: number; cursor: string };
  again: { disabled: boolean };
  /** The page scrolls sideways (it must not). */
  overflow: number;
  widths: number[];
  rows: number;
}

async function readCompare(frame: Frame): Promise<ComparePage> {
  return frame.evaluate(`(() => {
    const cancel = document.getElementById('cancel');
    const style = getComputedStyle(cancel);
    const cols = Array.from(document.querySelectorAll('section.column'));
    return {
      summary: document.getElementById('summary').textContent,
      states: cols.map((c) => c.className.replace('column state-', '')),
      models: cols.map((c) => c.querySelector('.model').textContent),
      cancel: { disabled: cancel.disabled, opacity: Number(style.opacity), cursor: style.cursor },
      again: { disabled: document.getElementById('again').disabled },
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      widths: cols.map((c) => Math.round(c.getBoundingClientRect().width)),
      rows: new Set(cols.map((c) => Math.round(c.getBoundingClientRect().top))).size,
    };
  })()`) as Promise<ComparePage>;
}

/**
 * The comparison page as it is now: Compare again draws a new page (a new frame), so it is found again for
 * each read; a frame that goes away while it is read reads as "not yet".
 */
async function readCurrent(page: Page): Promise<ComparePage> {
  try {
    return await readCompare(await webviewFrame(page, '#c2-status'));
  } catch {
    return {
      summary: '',
      states: [],
      models: [],
      cancel: { disabled: false, opacity: 1, cursor: '' },
      again: { disabled: false },
      overflow: 0,
      widths: [],
      rows: 0,
    };
  }
}

describe('Keyboard, screen readers and axe-core', () => {
  let service: RunningServer;
  const models = ['aurora-2', 'basalt-code-2.1', 'kestrel-reasoner-1.0.3'];
  /** The payload's model and the two others the comparison adds. */
  let compared: string[] = [];

  before(async function () {
    this.timeout(120_000);
    service = await startServer();
    const page = e2e.page;
    await openViewContainer(page); // The extension is active (it may be the first step run).
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await connectService(page, service.url, service.keys.acme);
  });

  after(async () => {
    const page = e2e.page;
    await page.setViewportSize({ width: 1280, height: 800 }).catch(() => undefined);
    await setColorTheme(page, 'Default Light Modern').catch(() => undefined);
    await openPalette(page, 'View: Close All Editors').catch(() => undefined);
    await connectService(page, e2e.service.url).catch(() => undefined);
    await service?.close();
  });

  it('Model Details with the keyboard only: the palette, Tab to a button, Enter; "Copied …" is read out', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await openPalette(page, 'Model Access: Show Model Details');
    await typeInQuickInput(page, 'aurora-1', { submit: false });
    await quickInput(page)
      .locator('.monaco-list-row.focused', { hasText: 'aurora-1' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Enter');
    const frame = await webviewFrame(page, '#model-id', 60_000);
    await waitForValue(
      () => frame.evaluate(`document.getElementById('status')?.textContent ?? ''`) as Promise<string>,
      (s) => s.startsWith('From the service'),
      'the entry read from the service',
    );
    assert.equal(await frame.evaluate(`document.querySelector('main h1').textContent`), 'aurora-1');
    // A retiring model: the themes below check its lifecycle banner too.
    assert.match(
      (await frame.evaluate(`document.getElementById('lifecycle-heading')?.textContent ?? ''`)) as string,
      /^Retiring on /,
    );

    // Copy ID, reached with Tab and pressed with Enter: the live region says what happened.
    await tabTo(page, frame, 'Copy ID');
    await page.keyboard.press('Enter');
    await waitForValue(
      () => frame.evaluate(`document.getElementById('announce').textContent`) as Promise<string>,
      (s) => s === 'Copied aurora-1',
      'the live region says the id was copied',
    );
    // Refresh, the same way: the service is asked again.
    const asked = () => service.received('/v1/models/aurora-1', 'GET').length;
    const before = asked();
    await tabTo(page, await webviewFrame(page, '#model-id'), 'Refresh');
    await page.keyboard.press('Enter');
    await waitForValue(
      async () => asked(),
      (n) => n > before,
      'Refresh from the keyboard reads the entry again',
    );

    for (const theme of THEMES) {
      await setColorTheme(page, theme);
      const themed = await webviewFrame(page, '#model-id');
      await themed.waitForFunction(
        (hc) => document.body.classList.contains('vscode-high-contrast') === hc,
        theme.includes('High Contrast'),
        { timeout: 15_000 },
      );
      await assertAccessible(themed, `Model Details · ${theme}`);
      if (theme.includes('High Contrast')) {
        // A focused button shows an outline in the theme's contrast border.
        await themed.focus('button[data-action="copyId"]');
        const outline = (await themed.evaluate(
          `(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()`,
        )) as [string, number];
        assert.equal(outline[0], 'solid', 'a focus outline in High Contrast');
        assert.ok(outline[1] >= 1, `the outline is visible (${outline[1]} px)`);
      }
      await moveMouseAway(page);
      await screenshot(page, `a11y-model-details-${slug(theme)}`);
    }
    await setColorTheme(page, 'Default Light Modern');
  });

  it('Send and Reply from the keyboard: Payload Actions… (Ctrl+Shift+Alt+Enter) with the cursor at the end of the payload', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await openPalette(page, 'View: Close All Editors');
    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page, models[0]);
    // The model selected in the Models view by an earlier step may have been used instead of asking.
    const payload = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    const first = /"model": "([^"]+)"/.exec(payload)?.[1] ?? '';
    assert.ok(first, 'the payload names a model');
    compared = [first, ...models.filter((m) => m !== first).slice(0, 2)];
    await page.keyboard.type('Which is the best season for a walk?');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Control+Shift+Alt+Enter');
    const actions = quickInput(page);
    await actions
      .locator('.monaco-list-row', { hasText: 'Send to POST /v1/chat' })
      .first()
      .waitFor({ timeout: 15_000 });
    const rows = await actions.locator('.monaco-list-row').allInnerTexts();
    assert.ok(
      rows.some((r) => r.includes('Change endpoint')) && rows.some((r) => r.includes('Copy as Code')),
      rows.join(' | '),
    );
    const sent = service.received('/v1/chat', 'POST').length;
    await page.keyboard.press('Enter'); // Send is the first action.
    await waitForValue(
      async () => service.received('/v1/chat', 'POST').length,
      (n) => n > sent,
      'the payload is sent',
    );
    const messages = service.lastReceived('/v1/chat', 'POST').json?.messages as { content: string }[];
    assert.equal(messages.at(-1)?.content, 'Which is the best season for a walk?');
    // The answer opens beside the payload.
    await page
      .locator('.editor-group-container')
      .nth(1)
      .locator('.tab', { hasText: 'response' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // Reply from the keyboard too: back to the payload (Ctrl+1), the same actions, "Reply".
    await page.keyboard.press('Control+1');
    await page.keyboard.press('Control+Shift+Alt+Enter');
    await actions.locator('.monaco-list-row', { hasText: 'Reply' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.type('Reply');
    await page.keyboard.press('Enter');
    const replied = await readActiveEditorText(page, { contains: '"role": "assistant"' });
    assert.match(
      replied,
      /"role": "assistant"[\s\S]*"role": "user",\s*"content": ""/,
      'the answer and a new user turn',
    );
  });

  it('Compare: three models fit at 1400 and 900 px (stacked below 600 px); axe finds nothing running, finished or failed, in every theme', async function () {
    this.timeout(420_000);
    const page = e2e.page;
    await page.setViewportSize({ width: 1400, height: 900 });
    await openPalette(page, 'View: Close Primary Side Bar');
    // Back to the payload (the answer took the active editor), then compare it on three models.
    await openPalette(page, 'View: Focus First Editor Group');
    await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    // Long enough to read the running state and run axe on it even on a busy machine.
    service.setFaults({ latencyMs: 7000, paths: ['/v1/chat'] });
    await openPalette(page, 'Model Access: Compare Models…');
    assert.equal(compared.length, 3, 'the Send step made the payload');
    for (const id of compared.slice(1)) {
      await typeInQuickInput(page, id, { submit: false });
      await pickQuickItem(page, id);
    }
    await quickInput(page).locator('input').press('Enter');

    let frame = await webviewFrame(page, '#c2-status', 60_000);
    const running = await readCompare(frame);
    assert.equal(running.summary, 'Running…');
    assert.deepEqual(running.models.sort(), [...compared].sort());
    // While it runs, Compare again is disabled; Cancel is live. Once finished, Cancel looks disabled.
    assert.equal(running.again.disabled, true);
    assert.equal(running.cancel.disabled, false);
    await assertAccessible(frame, 'Compare running · Default Light Modern');
    await screenshot(page, 'a11y-compare-running');
    const finished = await waitForValue(
      () => readCurrent(page),
      (v) => v.summary.startsWith('Finished.') && v.states.every((s) => s === 'done'),
      'the three answers',
      60_000,
    );
    assert.equal(finished.cancel.disabled, true);
    assert.ok(finished.cancel.opacity < 1 && finished.cancel.cursor === 'not-allowed', JSON.stringify(finished.cancel));
    // At 1400 px the tab beside the payload (about 680 px) holds two columns side by side, the third below
    // them, none cut off and none under 300 px.
    assert.ok(finished.overflow <= 0, `no sideways scrolling at 1400 px (${finished.overflow} px over)`);
    assert.equal(finished.rows, 2, 'two rows at 1400 px');
    assert.ok(
      finished.widths.every((w) => w >= 300),
      `readable columns: ${finished.widths.join(', ')} px`,
    );
    await moveMouseAway(page);
    await screenshot(page, 'compare-models-three');

    for (const theme of THEMES) {
      await setColorTheme(page, theme);
      frame = await webviewFrame(page, '#c2-status');
      await assertAccessible(frame, `Compare finished · ${theme}`);
      // A failed run: the service answers 500 to every model.
      service.setFaults({ serverError: { first: 3 }, paths: ['/v1/chat'] });
      await (await webviewFrame(page, '#c2-status')).click('#again');
      await waitForValue(
        () => readCurrent(page),
        (v) => v.summary.startsWith('Finished.') && v.states.every((s) => s === 'failed'),
        'three failures',
        60_000,
      );
      await assertAccessible(await webviewFrame(page, '#c2-status'), `Compare failed · ${theme}`);
      await moveMouseAway(page);
      await screenshot(page, `a11y-compare-failed-${slug(theme)}`);
      // Running, then finished again.
      service.setFaults({ latencyMs: 3000, paths: ['/v1/chat'] });
      await (await webviewFrame(page, '#c2-status')).click('#again');
      await waitForValue(
        () => readCurrent(page),
        (v) => v.summary === 'Running…',
        'running again',
      );
      await assertAccessible(await webviewFrame(page, '#c2-status'), `Compare running · ${theme}`);
      await waitForValue(
        () => readCurrent(page),
        (v) => v.summary.startsWith('Finished.') && v.states.every((s) => s === 'done'),
        'the three answers again',
        60_000,
      );
      await moveMouseAway(page);
      await screenshot(page, `a11y-compare-${slug(theme)}`);
    }
    service.setFaults(undefined);
    await setColorTheme(page, 'Default Light Modern');

    // At 900×700 the columns reflow: nothing scrolls sideways, each still names its model.
    await page.setViewportSize({ width: 900, height: 700 });
    frame = await webviewFrame(page, '#c2-status');
    const narrow = await waitForValue(
      () => readCurrent(page),
      (v) => v.overflow <= 0,
      'the columns reflow at 900 px',
    );
    assert.ok(
      narrow.widths.every((w) => w >= 180),
      `readable columns at 900 px: ${narrow.widths.join(', ')} px`,
    );
    assert.deepEqual(narrow.models.sort(), [...compared].sort());
    await moveMouseAway(page);
    await screenshot(page, 'compare-models-900');
    await page.setViewportSize({ width: 1400, height: 900 });
    await screenshot(page, 'compare-models-1400');
  });
});
