// A person reads answers, at 1400×900 and at half a laptop's width (900×700): the chat answer's document opens
// with the answer's text, wrapped (nothing runs past the right edge), then the status line; a streamed answer
// grows in view; embeddings of two inputs say how many vectors of how many dimensions and how alike they are,
// and their picture (Open Answer Preview) passes axe-core in a light, a dark and both High Contrast themes
// (test-results/answer-embeddings-preview-*.png); Send, Upload and Compare never make a third editor column.
// A rejected key on Send offers Set API Key…, a stopped service offers Retry.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { assertAccessible } from './a11y';
import { startServer, type RunningServer } from '../server';
import { e2e } from './session';
import {
  clearNotifications,
  connectService,
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
  waitForNotification,
  webviewFrame,
  answerModelPick,
  hidePanel,
  streamPayload,
} from './helpers';

// As the theme picker names them; both High Contrast themes, as the picture draws with their borders.
const THEMES = ['Default Light Modern', 'Default Dark Modern', 'Dark High Contrast', 'Light High Contrast'] as const;
const slug = (theme: string) =>
  theme
    .replace(/^Default /, '')
    .replace(/\s+/g, '-')
    .toLowerCase();

const SIZES = [
  { width: 1400, height: 900, name: 'full' },
  { width: 900, height: 700, name: 'half' },
] as const;

/** How far the widest rendered line of the active editor reaches past its right edge (≤ 0: no sideways scrolling). */
async function overflow(page: Page): Promise<{ past: number; slider: boolean; lines: number }> {
  return page
    .locator('.editor-group-container.active .monaco-editor')
    .first()
    .evaluate((el) => {
      const right = el.getBoundingClientRect().right;
      const spans = Array.from(el.querySelectorAll('.view-lines .view-line > span'));
      const widest = Math.max(0, ...spans.map((s) => s.getBoundingClientRect().right));
      const track = el.querySelector('.scrollbar.horizontal') as HTMLElement | null;
      const slider = track?.querySelector('.slider') as HTMLElement | null;
      const hasSlider = !!track && !!slider && slider.offsetWidth > 0 && slider.offsetWidth < track.offsetWidth - 1;
      return { past: widest - right, slider: hasSlider, lines: spans.length };
    });
}

/** What the embeddings picture shows: its heading, the heat map's name and cells, its text, how far it overflows. */
async function readPicture(frame: Frame): Promise<{
  heading: string;
  name: string;
  pairs: number;
  width: number;
  text: string;
  overflow: number;
  /** What scrolls sideways inside the page (the heat map's and the pairs table's regions) or reaches past it. */
  cut: string[];
}> {
  return frame.evaluate(`(() => {
    const svg = document.querySelector('svg.heat');
    const caption = document.getElementById(svg.getAttribute('aria-labelledby'));
    const width = document.documentElement.clientWidth;
    const cut = [
      ...Array.from(document.querySelectorAll('.scroll'))
        .filter((r) => r.scrollWidth > r.clientWidth + 1)
        .map((r) => 'region ' + r.getAttribute('aria-labelledby') + ' scrolls ' + (r.scrollWidth - r.clientWidth) + ' px'),
      ...Array.from(document.querySelectorAll('table, svg.heat, #heat-legend'))
        .filter((e) => e.getBoundingClientRect().right > width + 1)
        .map((e) => (e.className.baseVal ?? e.className ?? e.id) + ' ends at ' + Math.round(e.getBoundingClientRect().right)),
    ];
    return {
      heading: document.querySelector('main h1').textContent,
      name: caption ? caption.textContent : '',
      pairs: svg.querySelectorAll('rect.cell > title').length,
      width: Math.round(svg.getBoundingClientRect().width),
      text: document.body.innerText,
      overflow: document.documentElement.scrollWidth - width,
      cut,
    };
  })()`) as ReturnType<typeof readPicture>;
}

/** Editor columns (groups) on screen. */
async function columns(page: Page): Promise<number> {
  return page.locator('.part.editor .editor-group-container').count();
}

/**
 * The active editor's text on screen, its lines joined and runs of spaces made one: a wrapped line is shown as
 * several rows, and the tests read it as a person reads the paragraph. Waits until it matches `re`.
 */
async function readWrapped(page: Page, re: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await readActiveEditorText(page).catch(() => '')).replace(/\s+/g, ' ');
    if (re.test(text)) {
      return text;
    }
    if (Date.now() > deadline) {
      throw new Error(`the active editor did not show ${String(re)} within ${timeoutMs} ms; it shows:\n${text}`);
    }
    await page.waitForTimeout(100);
  }
}

/** Clicks the answer's tab (the second group's active tab) so the answer is the active editor. */
async function focusAnswer(page: Page): Promise<void> {
  const group = page.locator('.editor-group-container').nth(1);
  await group.waitFor({ state: 'visible', timeout: 15_000 });
  await group.locator('.tab.active').first().click();
}

/** A new Chat payload; with `prompt`, typed over the selected placeholder prompt. */
async function newChatPayload(page: Page, prompt?: string): Promise<void> {
  await openPalette(page, 'Model Access: New Request…');
  await pickQuickItem(page, 'Chat');
  await answerModelPick(page); // The first model that suits Chat, unless a selected one does.
  await readActiveEditorText(page, { contains: '// POST /v1/chat' });
  if (prompt) {
    await page.keyboard.insertText(prompt);
    await readActiveEditorText(page, { contains: `"content": "${prompt.slice(0, 30)}` });
  }
}

async function send(page: Page): Promise<void> {
  await openPalette(page, 'Model Access: Send Request');
}

// A long question, not a request for a paragraph: the demo echoes it in a few wrapped lines, so the status line
// below the text is in view at 900×700 too (a paragraph of ~130 words would push it out of view).
const LONG_PROMPT =
  'Why does the sky look blue on a clear afternoon and red at sunset, and what does that have to do with the way light scatters in the air?';

describe('Answers people read', () => {
  let slow: RunningServer | undefined;

  before(async () => {
    // The demo's answer of 30–50 words streams over 12–20 s: long enough to read it mid-way at each size,
    // short enough not to make the whole e2e layer wait (it waited 80 s at one word a second).
    slow = await startServer({ streamDelayMs: 400 });
  });

  after(async () => {
    await setViewport(e2e.page, 1280, 800).catch(() => undefined);
    await connectService(e2e.page, e2e.service.url).catch(() => undefined);
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
    await slow?.close().catch(() => undefined);
  });

  for (const size of SIZES) {
    it(`${size.width}×${size.height}: the chat answer opens with its text, wrapped, then the status line`, async function () {
      this.timeout(180_000);
      const page = e2e.page;
      await setViewport(page, size.width, size.height);
      await openViewContainer(page);
      await openPalette(page, 'View: Close All Editors');
      await hidePanel(page);
      await connectService(page, e2e.service.url, e2e.demoKey);
      await newChatPayload(page, LONG_PROMPT);
      await send(page);
      await focusAnswer(page);
      const text = await readWrapped(page, /POST \/v1\/chat · 200 OK/);
      assert.match(text, /^This is \S+, a demo model/, `the answer's text comes first:\n${text}`);
      assert.ok(text.indexOf('a demo model') < text.indexOf('POST /v1/chat · 200 OK'), 'then the status line');
      const o = await overflow(page);
      assert.ok(o.lines > 2, 'the answer wraps onto several lines');
      assert.ok(o.past <= 1 && !o.slider, `no sideways scrolling (${JSON.stringify(o)})`);
      assert.ok((await columns(page)) <= 2, 'the payload and its answer: two columns');
      await moveMouseAway(page);
      await screenshot(page, `answer-chat-${size.name}`);
    });
  }

  it('a streamed answer grows as wrapped text that stays in view, at both sizes', async function () {
    this.timeout(240_000);
    const page = e2e.page;
    assert.ok(slow);
    await connectService(page, slow.url, slow.keys.acme);
    await setViewport(page, SIZES[0].width, SIZES[0].height);
    await openPalette(page, 'View: Close All Editors');
    // The template's own prompt: the answer streams word by word whatever it says. One stream for both sizes:
    // the window is narrowed while the answer is still arriving, as a person drags it.
    await newChatPayload(page);
    await streamPayload(page);
    await send(page);
    await focusAnswer(page);
    let before = '';
    for (const size of SIZES) {
      await setViewport(page, size.width, size.height);
      // Mid-stream: some words are there, the status line says the answer is still arriving.
      const growing = await readWrapped(page, /^This is .* POST \/v1\/chat · 200 OK · receiving…/);
      assert.match(growing, /^This is/, `the growing text is on screen at ${size.name}:\n${growing}`);
      assert.ok(growing.split(' --- ')[0].length >= before.length, `it grows, in view, at ${size.name}`);
      before = growing.split(' --- ')[0];
      const o = await overflow(page);
      assert.ok(o.past <= 1 && !o.slider, `the growing text wraps at ${size.name} (${JSON.stringify(o)})`);
      await moveMouseAway(page);
      await screenshot(page, `answer-streaming-${size.name}`);
    }
    await page.waitForTimeout(1500);
    const grown = await readWrapped(page, /^This is/);
    assert.ok(grown.split(' --- ')[0].length > before.length, 'it grows, in view');
    await readWrapped(page, /POST \/v1\/chat · 200 OK · \d+ ms/, 90_000);
    const o = await overflow(page);
    assert.ok(o.past <= 1 && !o.slider, `the whole answer wraps (${JSON.stringify(o)})`);
    assert.ok((await columns(page)) <= 2);
  });

  it('embeddings of two inputs say the count, the dimensions and their similarity', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await setViewport(page, 1400, 900);
    await openViewContainer(page); // The sidebar open, at every size below.
    await hidePanel(page);
    await connectService(page, e2e.service.url, e2e.demoKey);
    await openPalette(page, 'View: Close All Editors');
    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Embeddings');
    await answerModelPick(page); // An embedding model: those come first for Embeddings.
    await readActiveEditorText(page, { contains: '// POST /v1/embeddings' });
    // The placeholder inside the input list is selected: two inputs replace it.
    await page.keyboard.insertText('A cat sat on the mat.", "A dog lay on the rug.');
    await readActiveEditorText(page, { contains: 'A dog lay on the rug.' });
    await send(page);
    await focusAnswer(page);
    const text = await readWrapped(page, /POST \/v1\/embeddings · 200 OK/);
    assert.match(text, /^## 2 vectors × \d+ dimensions /, text);
    assert.match(text, /\| 1 \| A cat sat on the mat\. \| \d\.\d{3} \|/, 'each input with its norm');
    assert.match(text, /Input 1 and input 2 have a cosine similarity of -?\d\.\d{3}\./);
    assert.ok((await columns(page)) <= 2);
    await moveMouseAway(page);
    await screenshot(page, 'answer-embeddings');
    // The picture, from the palette: our own page in the answer's column, checked by axe-core in a light, a dark
    // and a High Contrast theme (light and dark), at 1400×900 and 900×700.
    await openPalette(page, 'Model Access: Open Answer Preview');
    const seen = await readPicture(await webviewFrame(page, 'svg.heat[role="img"]', 60_000));
    assert.match(seen.heading, /^2 vectors × \d+ dimensions$/);
    assert.equal(seen.name, 'Cosine similarity heat map', 'the heat map is named by its visible caption');
    assert.equal(seen.pairs, 4, 'one cell per pair');
    assert.ok(seen.width >= 200, `the heat map is drawn (${seen.width} px wide)`);
    assert.match(seen.text, /A cat sat on the mat\.\s+\d\.\d{3}/, 'each input with its norm');
    assert.match(seen.text, /Input 1 and input 2 have a cosine similarity of -?\d\.\d{3}\./);
    assert.ok((await columns(page)) <= 2, 'the picture opens with the answer');
    for (const theme of THEMES) {
      await setColorTheme(page, theme);
      const frame = await webviewFrame(page, 'svg.heat[role="img"]');
      await frame.waitForFunction(
        (hc) => /vscode-high-contrast/.test(document.body.className) === hc,
        /High Contrast/.test(theme),
        { timeout: 15_000 },
      );
      await assertAccessible(frame, `Embeddings picture · ${theme}`);
      for (const size of SIZES) {
        await setViewport(page, size.width, size.height);
        const fit = await readPicture(await webviewFrame(page, 'svg.heat[role="img"]'));
        assert.ok(fit.overflow <= 0, `${theme} at ${size.width} px: no sideways scrolling (${fit.overflow} px over)`);
        // The third column, the legend and the pairs table whole too: nothing scrolls inside the page either.
        assert.deepEqual(fit.cut, [], `${theme} at ${size.width} px: nothing cut or scrolling sideways`);
        await moveMouseAway(page);
        await screenshot(page, `answer-embeddings-preview-${slug(theme)}-${size.width}`);
      }
    }
    await setColorTheme(page, 'Default Light Modern');
    await setViewport(page, 1400, 900);
    await moveMouseAway(page);
    await screenshot(page, 'answer-embeddings-preview');
  });

  it('after Send, Upload and Compare there are at most two editor columns', async function () {
    this.timeout(240_000);
    const page = e2e.page;
    await setViewport(page, 1400, 900);
    await openPalette(page, 'View: Close All Editors');
    await newChatPayload(page, 'Hello there');
    await send(page);
    await focusAnswer(page);
    await readWrapped(page, /POST \/v1\/chat · 200 OK/);
    // Back to the payload (the first column), then Upload a workspace file and Compare.
    await page.locator('.editor-group-container').nth(0).locator('.tab.active').first().click();
    fs.writeFileSync(path.join(e2e.dirs.workspace, 'notes.txt'), 'notes for the upload\n');
    await openFileByName(page, 'notes.txt');
    await clearNotifications(page);
    await openPalette(page, 'Model Access: Upload File to /v1/files');
    await pickQuickItem(page, 'user_data'); // The default purpose.
    await waitForNotification(page, /Uploaded notes\.txt: file-/);
    assert.ok((await columns(page)) <= 2, 'the upload is answered in a notification');
    await page.locator('.editor-group-container').nth(0).locator('.tab', { hasText: 'chat-' }).first().click();
    await openPalette(page, 'Model Access: Compare Models…');
    const org = Object.keys(e2e.service.keys)[0];
    const second = e2e.service.registry.models.find((m) => m.organization === org && m.id.startsWith('basalt'))?.id;
    assert.ok(second);
    await typeInQuickInput(page, second, { submit: false });
    await pickQuickItem(page, second);
    await quickInput(page)
      .locator('.monaco-list-row[aria-checked="true"]', { hasText: second })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Enter');
    await webviewFrame(page, '#c1-status', 60_000);
    assert.ok((await columns(page)) <= 2, 'the comparison opens with the answers');
    await moveMouseAway(page);
    await screenshot(page, 'answers-two-columns');
  });

  it('a rejected key on Send offers Set API Key…; a stopped service offers Retry', async function () {
    this.timeout(240_000);
    const page = e2e.page;
    assert.ok(slow);
    await setViewport(page, 1400, 900);
    await openPalette(page, 'View: Close All Editors');
    await connectService(page, slow.url);
    // A key the service does not know, saved anyway, as a person who mistyped it would.
    await openPalette(page, 'Model Access: Set API Key');
    await typeInQuickInput(page, 'sk-this-key-is-not-known-00000000');
    const question = page.locator('.notification-toast', { hasText: 'rejected this API key' }).first();
    await question.waitFor({ state: 'visible', timeout: 30_000 });
    await question.hover().catch(() => undefined);
    await question.locator('.monaco-button', { hasText: 'Save Anyway' }).first().click();
    await clearNotifications(page);
    await newChatPayload(page, 'Hello');
    await send(page);
    const rejected = page.locator('.notification-toast', { hasText: 'POST /v1/chat:' }).first();
    await rejected.waitFor({ state: 'visible', timeout: 30_000 });
    await rejected
      .locator('.monaco-button', { hasText: 'Set API Key…' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'answer-key-rejected');
    await clearNotifications(page);

    await connectService(page, slow.url, slow.keys.acme);
    await slow.close();
    await page.locator('.editor-group-container').nth(0).locator('.tab.active').first().click();
    await send(page);
    const stopped = page.locator('.notification-toast', { hasText: 'POST /v1/chat:' }).first();
    await stopped.waitFor({ state: 'visible', timeout: 30_000 });
    await stopped
      .locator('.monaco-button', { hasText: 'Retry' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await stopped
      .locator('.monaco-button', { hasText: 'Diagnose Connection' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    // The status bar follows the failure.
    await page.locator('.statusbar-item .codicon-warning').first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'answer-service-stopped');
    await clearNotifications(page);
  });
});
