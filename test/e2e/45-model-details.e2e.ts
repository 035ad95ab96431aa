// A person right-clicks a model in the Models view and chooses Show Model Details: a tab named after the model
// shows its family, version and card link, the fields the registry adds (limits, capabilities, dates, owner),
// and buttons that act on it. The page follows the color theme (checked in a dark one too). A registry entry
// whose fields carry `<script>`, HTML, a `javascript:` link and a bidi override shows all of it as text: no
// element is made of it, nothing runs, nothing opens.
// The step brings its own service, whose registry is the demo one plus those fields.
import * as assert from 'node:assert/strict';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { HOSTILE, loadRegistry, startServer, type Registry, type RunningServer } from '../server';
import { e2e } from './session';
import {
  chooseFromContextMenu,
  clearNotifications,
  connectService,
  measureLegibility,
  moveMouseAway,
  openPalette,
  openViewContainer,
  RESULTS_DIR,
  screenshot,
  setColorTheme,
  type Legibility,
  typeInQuickInput,
  viewPane,
  waitForNotification,
  waitForOpenedUrl,
  waitForValue,
  webviewFrame,
  hidePanel,
  setViewport,
} from './helpers';

/** A model whose registry entry says more than the demo registry does (what the README picture shows). */
const RICH_ID = 'aurora-2';
const RICH_FIELDS = {
  owned_by: 'acme-research',
  description: 'General-purpose chat model for drafting, summarizing and answering questions.',
  context_window: 128000,
  max_output_tokens: 8192,
  capabilities: { streaming: true, tools: true, vision: false },
  updated: 1717200000,
  deprecation_date: '2027-06-30',
};

/** A model of the demo registry that is deprecated and retires on a date, with a successor. */
const RETIRING_ID = 'aurora-1';

/** A model of the second organization whose fields carry registry text that must stay text. */
const HOSTILE_ID = 'notes-1';
/** A link that runs script if a page ever makes it an href. */
const JAVASCRIPT_LINK = 'javascript:alert(document.domain)';

function registry(): Registry {
  const demo = loadRegistry();
  // Another organization than the README picture's, so its odd family does not show in that picture.
  const org = demo.organizations[1];
  const models = demo.models.map((m) => (m.id === RICH_ID ? { ...m, extra: RICH_FIELDS } : m));
  models.push({
    id: HOSTILE_ID,
    family: HOSTILE.bidi,
    version: HOSTILE.script,
    organization: org,
    model_card_url: JAVASCRIPT_LINK,
    created: 1767225600,
    extra: {
      description: `${HOSTILE.html} ${HOSTILE.script}`,
      documentation: `${JAVASCRIPT_LINK}//docs`,
      release_notes: `[Release notes](${JAVASCRIPT_LINK})`,
      display_name: HOSTILE.bidi,
    },
  });
  return { organizations: demo.organizations, models };
}

/** The details page's text as shown (the values of its id'd cells, and the whole body). */
async function readPage(
  frame: Frame,
): Promise<{ id: string; family: string; version: string; card: string; body: string; status: string }> {
  return frame.evaluate(() => ({
    id: document.querySelector('#model-id')?.textContent ?? '',
    family: document.querySelector('#model-family')?.textContent ?? '',
    version: document.querySelector('#model-version')?.textContent ?? '',
    card: document.querySelector('#card-link')?.textContent ?? '',
    status: document.querySelector('#status')?.textContent ?? '',
    body: document.body.innerText,
  }));
}

/** Right-clicks the model's row (found by its exact id) and chooses Show Model Details; returns its page. */
async function showDetails(page: Page, id: string): Promise<Frame> {
  const row = viewPane(page, 'Models')
    .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${id}$`) }) })
    .first();
  await chooseFromContextMenu(page, row, 'Show Model Details');
  await page
    .locator('.editor-group-container.active .tab.active', { hasText: id })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  const frame = await webviewFrame(page, '#model-id');
  // The tab shows the catalog's entry at once and reads the model again from the service.
  await waitForValue(
    () => readPage(frame),
    (p) => p.id === id && /From the service at/.test(p.status),
    `the details of ${id}, read from the service`,
  );
  return frame;
}

describe('Model Details', () => {
  let service: RunningServer;
  const dialogs: string[] = [];
  const onDialog = (dialog: { message(): string; dismiss(): Promise<void> }) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  };

  before(async () => {
    service = await startServer({ registry: registry() });
    e2e.page.on('dialog', onDialog);
  });

  after(async () => {
    e2e.page.off('dialog', onDialog);
    // Later steps expect the session's service again, in the light theme.
    await setColorTheme(e2e.page, 'Default Light Modern').catch(() => undefined);
    await connectService(e2e.page, e2e.service.url).catch(() => undefined);
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
    await service?.close();
  });

  it('a model row → Show Model Details: its family, version and card link are on screen', async function () {
    // Its own service, key and a webview through the palette and the mouse: slow on a busy machine.
    this.timeout(180_000);
    const page = e2e.page;
    await openViewContainer(page);
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await connectService(page, service.url, service.keys.acme);

    const model = service.registry.models.find((m) => m.id === RICH_ID);
    assert.ok(model);
    const frame = await showDetails(page, RICH_ID);
    const shown = await readPage(frame);
    assert.equal(shown.family, model.family);
    assert.equal(shown.version, model.version);
    assert.equal(shown.card, model.model_card_url);
    // What the registry adds, each under its name, in the section a person looks for it.
    for (const [name, value] of [
      ['owned_by', RICH_FIELDS.owned_by],
      ['context_window', String(RICH_FIELDS.context_window)],
      ['max_output_tokens', String(RICH_FIELDS.max_output_tokens)],
      ['capabilities.tools', 'true'],
      ['deprecation_date', RICH_FIELDS.deprecation_date],
    ]) {
      assert.match(shown.body, new RegExp(`${name.replace('.', '\\.')}\\s+${value}`), `${name} is shown`);
    }
    assert.match(shown.body, /Limits[\s\S]*context_window/);
    assert.match(shown.body, /Capabilities[\s\S]*capabilities\.tools/);
    // The page read the model from the service when it opened.
    assert.ok(
      service.requests.some((r) => r.method === 'GET' && r.path === `/v1/models/${RICH_ID}` && r.status === 200),
      'GET /v1/models/aurora-2',
    );
    await moveMouseAway(page);
    await page
      .locator('.monaco-hover')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    await screenshot(page, 'model-details');

    // Its Open Model Card button opens exactly that card.
    await frame.locator('button[data-action="openCard"]').click();
    assert.equal(await waitForOpenedUrl(e2e.openedCardUrls, model.model_card_url), model.model_card_url);
  });

  it('follows the color theme: in Default Dark Modern the page is dark and its text legible', async function () {
    this.timeout(120_000);
    const page = e2e.page;
    const frame = await webviewFrame(page, '#model-id');
    const selectors = ['h1', '#model-family', 'th', '#card-link', 'button.primary', 'button:not(.primary)', 'h2'];
    const legible = (measured: Legibility[], theme: string) => {
      for (const m of measured) {
        assert.ok(
          m.contrast >= 4.5,
          `${theme}: ${m.selector} is legible, ${m.color} on ${m.background} (contrast ${m.contrast})`,
        );
      }
    };
    legible(await measureLegibility(frame, selectors), 'light theme');
    const light = await measureLegibility(frame, ['body']);
    await setColorTheme(page, 'Default Dark Modern');
    // The webview gets the theme's colors as CSS variables: its background follows.
    const dark = await waitForValue(
      async () => measureLegibility(await webviewFrame(page, '#model-id'), ['body']),
      (m) => m[0].background !== light[0].background,
      'the details page takes the dark theme',
    );
    const rgb = dark[0].background.match(/\d+/g)?.map(Number) ?? [];
    assert.ok(
      rgb.length === 3 && rgb.every((c) => c < 80),
      `the page background is dark in a dark theme (${dark[0].background})`,
    );
    legible(await measureLegibility(await webviewFrame(page, '#model-id'), selectors), 'dark theme');
    await moveMouseAway(page);
    await screenshot(page, 'model-details-dark');
    await setColorTheme(page, 'Default Light Modern');
  });

  it('a retiring model opens with its banner, whole at 900×700 and 1400×900 with the sidebar open', async function () {
    this.timeout(120_000);
    const page = e2e.page;
    await openViewContainer(page); // The sidebar stays open.
    const frame = await showDetails(page, RETIRING_ID);
    const entry = service.registry.models.find((m) => m.id === RETIRING_ID);
    const successor = String(entry?.extra?.replacement);
    assert.ok(successor && successor !== 'undefined', 'the demo registry names a successor');
    for (const size of [
      { width: 900, height: 700 },
      { width: 1400, height: 900 },
    ]) {
      await setViewport(page, size.width, size.height);
      const seen = await waitForValue(
        () =>
          frame.evaluate(() => {
            const banner = document.getElementById('lifecycle');
            const box = banner?.getBoundingClientRect();
            const width = document.documentElement.clientWidth;
            return {
              width,
              over: document.documentElement.scrollWidth - width,
              heading: document.getElementById('lifecycle-heading')?.textContent ?? '',
              text: banner?.innerText ?? '',
              // The banner is the first thing under the title, in view without scrolling.
              visible: !!box && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight,
              buttons: Array.from(banner?.querySelectorAll('button') ?? []).map((b) => {
                const r = b.getBoundingClientRect();
                return { text: b.textContent ?? '', whole: r.left >= 0 && r.right <= width + 1 && r.width > 0 };
              }),
            };
          }),
        (v) => v.width > 0 && v.visible,
        `the banner at ${size.width}×${size.height}`,
      );
      assert.ok(seen.over <= 0, `no sideways scrolling at ${size.width} px (${seen.over} px over)`);
      assert.match(seen.heading, /^Retiring on \d{4}-\d{2}-\d{2}$/);
      assert.ok(seen.text.includes(`Replaced by ${successor}`), seen.text);
      assert.deepEqual(
        seen.buttons.map((b) => [b.text, b.whole]),
        [
          [`New Request with ${successor}`, true],
          [`Compare with ${successor}`, true],
        ],
      );
      // A resize can put a tree row under the pointer, whose hover would lie over the banner in the picture; the
      // title bar (the workbench's, not the webview's) takes the pointer and closes it.
      await page.mouse.move(Math.round(size.width / 2), 4);
      await page
        .locator('.monaco-hover')
        .first()
        .waitFor({ state: 'hidden', timeout: 3000 })
        .catch(() => undefined);
      await screenshot(page, `model-details-retiring-${size.width}`);
    }
    await setViewport(page, 1280, 800);
  });

  it('registry text with <script>, HTML, javascript: links and bidi overrides shows as inert text', async function () {
    this.timeout(120_000);
    const page = e2e.page;
    await openPalette(page, 'Model Access: Set API Key');
    await typeInQuickInput(page, service.keys[service.registry.organizations[1]]);
    await waitForNotification(page, /API key saved/);
    await clearNotifications(page);
    const opened = e2e.openedCardUrls.length;
    const frame = await showDetails(page, HOSTILE_ID);
    const shown = await readPage(frame);
    // Shown as the registry wrote it, character for character, the bidi override as a visible mark.
    const bidiShown = HOSTILE.bidi.replace('\u202E', '⟨U+202E⟩');
    assert.equal(shown.family, bidiShown);
    assert.equal(shown.version, HOSTILE.script);
    assert.ok(shown.body.includes(`${HOSTILE.html} ${HOSTILE.script}`), 'the description, as text');
    assert.ok(shown.body.includes(`${JAVASCRIPT_LINK}//docs`), 'the javascript: links, as text');
    assert.ok(shown.body.includes(`[Release notes](${JAVASCRIPT_LINK})`));
    assert.ok(!shown.body.includes('\u202E'), 'no right-to-left override reorders the page');
    // The card link is refused and says so.
    assert.match(shown.body, /Model Card\s+Not opened/);
    // Nothing of it became an element: the page's own script only, no image, no link to anywhere.
    const made = await frame.evaluate(() => ({
      // VS Code adds a script of its own to every webview; the page has one, at the end of its body.
      scripts: Array.from(document.scripts)
        .filter((el) => /alert|onerror/.test(el.textContent ?? '') || el.parentElement === document.body)
        .map((el) => (el.textContent ?? '').trim().split('\n')[0]),
      images: document.querySelectorAll('img, iframe, object, embed').length,
      hrefs: Array.from(document.querySelectorAll('[href]'))
        .map((a) => a.getAttribute('href'))
        .filter((h) => h !== '#'),
      handlers: Array.from(document.querySelectorAll('*')).flatMap((el) =>
        Array.from(el.attributes)
          .filter((a) => /^on/i.test(a.name))
          .map((a) => `${el.tagName} ${a.name}`),
      ),
      title: document.title,
    }));
    assert.deepEqual(made, {
      scripts: ['const vscode = acquireVsCodeApi();'],
      images: 0,
      hrefs: [],
      handlers: [],
      title: HOSTILE_ID,
    });
    // Click what shows the javascript: link, as a curious person would: nothing opens, nothing runs.
    const showing = frame.getByText(JAVASCRIPT_LINK);
    for (let i = 0; i < (await showing.count()); i++) {
      await showing.nth(i).click();
    }
    // A page that ran the script would have shown its alert; give it the time a click takes to act.
    await page.waitForTimeout(1000);
    assert.deepEqual(dialogs, [], 'no script ran (no alert)');
    assert.equal(e2e.openedCardUrls.length, opened, 'no link was opened');
    await moveMouseAway(page);
    await page.screenshot({ path: path.join(RESULTS_DIR, 'model-details-hostile.png') });
  });
});
