// A person has a chat payload open and wants to know which of two models answers it better: Compare Models…
// from the palette, a second model checked in the multi-select pick (the payload's own model is checked
// already), and one view shows both answers side by side with their status, total time and token usage.
// The view follows the color theme (checked in a dark one too).
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { generateText, questionText } from '../server/generation';
import { e2e } from './session';
import {
  answerModelPick,
  connectService,
  measureLegibility,
  moveMouseAway,
  openPalette,
  openViewContainer,
  pickQuickItem,
  quickInput,
  readActiveEditorText,
  screenshot,
  setColorTheme,
  setViewport,
  type Legibility,
  typeInQuickInput,
  waitForValue,
  webviewFrame,
  hidePanel,
} from './helpers';

interface Column {
  model: string;
  /** The column's heading: "1 of 2" and the model. */
  heading: string;
  status: string;
  time: string;
  firstToken: string;
  usage: string;
  cost: string;
  /** "fastest", "cheapest", both or empty. */
  marks: string;
  text: string;
  error: string;
  box: { left: number; right: number; top: number };
}

async function readComparison(frame: Frame): Promise<{ summary: string; columns: Column[] }> {
  // No named functions inside: the test runner's transpiler would wrap them in helpers the page does not have.
  return frame.evaluate(() => ({
    summary: document.querySelector('#summary')?.textContent ?? '',
    columns: Array.from(document.querySelectorAll('section.column')).map((section) => {
      const r = section.getBoundingClientRect();
      const cells = Object.fromEntries(
        ['status', 'time', 'firstToken', 'usage', 'cost', 'marks', 'text', 'error'].map((key) => [
          key,
          section.querySelector(`[id$="-${key}"]`)?.textContent ?? '',
        ]),
      ) as Record<'status' | 'time' | 'firstToken' | 'usage' | 'cost' | 'marks' | 'text' | 'error', string>;
      return {
        model: section.querySelector('h2 .model')?.textContent ?? '',
        heading: section.querySelector('h2')?.textContent ?? '',
        ...cells,
        box: { left: r.left, right: r.right, top: r.top },
      };
    }),
  }));
}

function legible(measured: Legibility[], theme: string): void {
  for (const m of measured) {
    assert.ok(
      m.contrast >= 4.5,
      `${theme}: ${m.selector} is legible, ${m.color} on ${m.background} (contrast ${m.contrast})`,
    );
  }
}

describe('Compare Models', () => {
  after(async () => {
    await setColorTheme(e2e.page, 'Default Light Modern').catch(() => undefined);
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
  });

  it('two models → both answers and timings, side by side or stacked as the tab allows', async function () {
    // Service, key, payload and a webview through the palette: slow on a busy machine.
    this.timeout(180_000);
    const page = e2e.page;
    await openViewContainer(page); // The extension is active (it may be the first step run).
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await connectService(page, e2e.service.url, e2e.demoKey);
    // Room for the payload and two columns.
    await openPalette(page, 'View: Close Primary Side Bar');

    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page); // The first model that suits Chat, unless a selected one does.
    const payload = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    const first = /"model": "([^"]+)"/.exec(payload)?.[1] ?? '';
    assert.ok(first, 'the payload names a model');
    await page.keyboard.type('Which is the best season for a walk?');
    await readActiveEditorText(page, { contains: 'best season for a walk' });
    const org = Object.keys(e2e.service.keys)[0];
    const second = ['basalt-code-2.1', 'kestrel-reasoner-1.0.3'].find((id) => id !== first) ?? '';
    assert.ok(e2e.service.registry.models.some((m) => m.id === second && m.organization === org));

    const before = e2e.service.requests.length;
    await openPalette(page, 'Model Access: Compare Models…');
    const prompt = await typeInQuickInput(page, second, { submit: false });
    assert.match(prompt, /Compare models: pick 2 to 6/);
    await pickQuickItem(page, second); // Checks it (the payload's model is checked already).
    await quickInput(page)
      .locator('.monaco-list-row[aria-checked="true"]', { hasText: second })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Enter');

    const frame = await webviewFrame(page, '#c1-status', 60_000);
    const view = await waitForValue(
      () => readComparison(frame),
      (v) => v.summary.startsWith('Finished.') && v.columns.every((c) => /done|failed/.test(c.status)),
      'both answers have arrived',
      60_000,
    );
    assert.deepEqual(
      view.columns.map((c) => c.model),
      [first, second],
    );
    assert.deepEqual(
      view.columns.map((c) => c.heading),
      [`1 of 2${first}`, `2 of 2${second}`],
    );
    const sent = e2e.service.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/chat');
    assert.deepEqual(sent.map((r) => r.json?.model).sort(), [first, second].sort(), 'one request per model');
    for (const c of view.columns) {
      const received = sent.find((r) => r.json?.model === c.model)?.json;
      assert.ok(received);
      assert.equal(c.status, '200 · done');
      assert.equal(c.error, '');
      assert.match(c.time, /^\d+ ms$|^\d+\.\d\d s$/, `${c.model}: total time`);
      assert.equal(c.firstToken, 'not streamed');
      assert.match(c.usage, /^\d+ tokens \(\d+ in, \d+ out\)$/, `${c.model}: token usage`);
      // Each column holds its own model's answer to this payload.
      assert.equal(c.text, generateText(c.model, questionText(received.messages)));
    }
    assert.notEqual(view.columns[0].text, view.columns[1].text);
    // The fastest is marked in words in its column, and said by the status line.
    assert.ok(
      view.columns.some((c) => c.marks.split(' · ').includes('fastest')),
      JSON.stringify(view.columns),
    );
    assert.match(view.summary, /^Finished\. Fastest: /);
    const [a, b] = view.columns.map((c) => c.box);
    // Side by side when the tab holds two readable columns, else one below the other: either way both whole,
    // neither on top of the other.
    const sideBySide = Math.abs(a.top - b.top) < 2 && b.left >= a.right;
    const stacked = Math.abs(a.left - b.left) < 2 && b.top > a.top;
    assert.ok(sideBySide || stacked, `side by side or stacked: ${JSON.stringify([a, b])}`);
    // The progress notification (with its Cancel) goes once every answer is in.
    await page
      .locator('.notification-toast', { hasText: 'comparing 2 models' })
      .first()
      .waitFor({ state: 'hidden', timeout: 15_000 });
    await moveMouseAway(page);
    await screenshot(page, 'compare-models');
  });

  it('follows the color theme: in Default Dark Modern the view is dark and its text legible', async function () {
    this.timeout(120_000);
    const page = e2e.page;
    const selectors = [
      'h1',
      '#summary',
      'h2 .model',
      'h2 .ordinal',
      'th',
      '#c0-status',
      '#c0-time',
      '#c0-text',
      'button.primary',
    ];
    legible(await measureLegibility(await webviewFrame(page, '#c1-status'), selectors), 'light theme');
    const light = await measureLegibility(await webviewFrame(page, '#c1-status'), ['body']);
    await setColorTheme(page, 'Default Dark Modern');
    const dark = await waitForValue(
      async () => measureLegibility(await webviewFrame(page, '#c1-status'), ['body']),
      (m) => m[0].background !== light[0].background,
      'the comparison takes the dark theme',
    );
    const rgb = dark[0].background.match(/\d+/g)?.map(Number) ?? [];
    assert.ok(
      rgb.length === 3 && rgb.every((c) => c < 80),
      `the background is dark in a dark theme (${dark[0].background})`,
    );
    legible(await measureLegibility(await webviewFrame(page, '#c1-status'), selectors), 'dark theme');
    await moveMouseAway(page);
    await screenshot(page, 'compare-models-dark');
    await setColorTheme(page, 'Default Light Modern');
  });

  it('four models at 900×700 with the sidebar open: no sideways scrolling, every answer whole and readable', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await setViewport(page, 900, 700);
    await openViewContainer(page); // The sidebar stays open.
    await openPalette(page, 'View: Focus First Editor Group');
    const payload = await readActiveEditorText(page, { contains: 'best season for a walk' });
    // At 900 px the payload wraps: the model's value may be on the line after its key.
    const first = /"model":\s*"([^"]+)"/.exec(payload)?.[1] ?? '';
    assert.ok(first, 'the payload names a model');
    const org = Object.keys(e2e.service.keys)[0];
    const others = ['basalt-code-2.1', 'kestrel-reasoner-1.0.3', 'aurora-2-mini', 'lynx-vision-1.1']
      .filter((id) => id !== first && e2e.service.registry.models.some((m) => m.id === id && m.organization === org))
      .slice(0, 3);
    assert.equal(others.length, 3, 'three more chat models in the demo registry');
    await openPalette(page, 'Model Access: Compare Models…');
    for (const id of others) {
      await typeInQuickInput(page, id, { submit: false });
      await pickQuickItem(page, id);
    }
    await quickInput(page).locator('input').press('Enter');

    const frame = await webviewFrame(page, '#c3-status', 60_000);
    const view = await waitForValue(
      () => readComparison(frame),
      (v) =>
        v.summary.startsWith('Finished.') && v.columns.length === 4 && v.columns.every((c) => /done/.test(c.status)),
      'the four answers',
      90_000,
    );
    assert.deepEqual(view.columns.map((c) => c.model).sort(), [first, ...others].sort());
    const fit = await frame.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      width: document.documentElement.clientWidth,
      // The heading as it is laid out, line by line: a word cut in two shows as two parts on two lines.
      title: (() => {
        const h1 = document.querySelector('h1');
        const range = document.createRange();
        const lines: string[] = [];
        let top = -1;
        const text = h1?.firstChild;
        for (let i = 0; text && i < (text.textContent ?? '').length; i++) {
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          const t = Math.round(range.getBoundingClientRect().top);
          if (t !== top) {
            lines.push('');
            top = t;
          }
          lines[lines.length - 1] += text.textContent?.[i] ?? '';
        }
        return lines.map((l) => l.trim());
      })(),
      // A column whose content is wider than the column is cut (or scrolls) somewhere inside it.
      cut: Array.from(document.querySelectorAll('section.column'))
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.querySelector('h2 .model')?.textContent ?? ''),
    }));
    assert.ok(fit.page <= 1, `no sideways scrolling at 900×700 (${fit.page} px over)`);
    assert.ok(
      fit.title.some((l) => /(^|\s)POST(\s|$)/.test(l)),
      `the heading breaks between words, not inside "POST": ${JSON.stringify(fit.title)}`,
    );
    assert.deepEqual(fit.cut, [], 'no column is wider than its content allows');
    for (const c of view.columns) {
      assert.ok(c.box.left >= 0 && c.box.right <= fit.width + 1, `${c.model}'s column is whole on screen`);
      assert.ok(c.text.length > 20, `${c.model}'s answer is shown`);
      assert.match(c.usage, /^\d+ tokens \(\d+ in, \d+ out\)$/);
    }
    // The progress notification goes once every answer is in (it would cover the columns in the picture).
    await page
      .locator('.notification-toast', { hasText: 'comparing 4 models' })
      .first()
      .waitFor({ state: 'hidden', timeout: 15_000 });
    await moveMouseAway(page);
    await screenshot(page, 'compare-models-four-900');

    // At 1400×900, the sidebar still open, the tab beside the payload holds two readable columns side by side.
    await setViewport(page, 1400, 900);
    const wide = await waitForValue(
      async () => ({
        view: await readComparison(frame),
        over: await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      }),
      (v) => v.view.columns.length === 4 && v.view.columns[1].box.left > v.view.columns[0].box.left,
      'the columns laid out again at 1400 px',
    );
    const [c0, c1] = wide.view.columns.map((c) => c.box);
    assert.ok(
      Math.abs(c0.top - c1.top) < 2 && c1.left >= c0.right,
      `side by side at 1400×900: ${JSON.stringify([c0, c1])}`,
    );
    assert.ok(wide.over <= 0, `no sideways scrolling at 1400×900 (${wide.over} px over)`);
    await moveMouseAway(page);
    await screenshot(page, 'compare-models-four-1400');
    await setViewport(page, 1280, 800);
  });
});
