// Issue 19 as a person meets it: the service's registry is hostile. Its ids are command links, icons,
// forged log lines and colliding ids. The person points the extension at it, clicks the model whose id is a
// command link (it has no card, so a notification explains that), then clicks whatever the notification
// shows — and nothing runs: no new untitled editor appears. Every model stays listed. Last, another
// installed extension asks Model Access for its exports and gets nothing.
import * as assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { CARD_BYPASS_ID, HOSTILE_IDS, startServer, type RunningServer } from '../server';
import { e2e } from './session';
import {
  chooseFromContextMenu,
  clearNotifications,
  clickTreeRow,
  connectService,
  openPalette,
  openViewContainer,
  readTreeRows,
  screenshot,
  typeInQuickInput,
  viewPane,
  waitForNotification,
  webviewFrame,
} from './helpers';

describe('Hostile registry', () => {
  let hostile: RunningServer;

  before(async () => {
    hostile = await startServer({ hostile: { models: true } });
  });

  after(async () => {
    // Later steps expect the demo service again.
    await connectService(e2e.page, e2e.service.url).catch(() => undefined);
    await hostile?.close();
  });

  /** Labels of the editor tabs, as a person reads them. */
  async function tabLabels(): Promise<string[]> {
    return e2e.page.locator('.tabs-container .tab .label-name').allInnerTexts();
  }

  it('connects to the hostile service from the palette', async () => {
    const page = e2e.page;
    await openViewContainer(page);
    await openPalette(page, 'View: Close All Editors');
    // The status bar follows the new service before the key is entered for it.
    const note = await connectService(page, hostile.url, hostile.keys.hostile);
    const count = hostile.registry.models.filter((m) => m.organization === hostile.hostile?.organization).length;
    assert.match(note, new RegExp(`sees ${count} models`));
  });

  it('lists every model, the colliding ids included', async () => {
    const page = e2e.page;
    await openViewContainer(page);
    await openPalette(page, 'Model Access: Filter Models…');
    await typeInQuickInput(page, 'collide');
    // The rows under the family `collide`: `x`, `x` and `x\u00001` (shown with U+FFFD for the NUL).
    const collideRows = async () => {
      const rows = await readTreeRows(page);
      const start = rows.findIndex((r) => r.level === 1 && r.label === 'collide');
      const end = rows.findIndex((r, i) => i > start && r.level === 1);
      return start < 0
        ? []
        : rows.slice(start + 1, end < 0 ? undefined : end).filter((r) => r.level === 2 && r.label.startsWith('x'));
    };
    let collide = await collideRows();
    for (let i = 0; i < 50 && collide.length < HOSTILE_IDS.collisions.length; i++) {
      await page.waitForTimeout(200);
      collide = await collideRows();
    }
    assert.deepEqual(collide.map((r) => r.label).sort(), ['x', 'x', 'x\ufffd1'], `rows: ${JSON.stringify(collide)}`);
    await openPalette(page, 'Model Access: Clear Models Filter');
    // The status bar counts what the view lists.
    const count = hostile.registry.models.filter((m) => m.organization === hostile.hostile?.organization).length;
    const status = await page
      .locator('.statusbar-item', { hasText: `${count} models` })
      .first()
      .innerText({ timeout: 15_000 });
    assert.match(status, new RegExp(`${count} models`));
  });

  it('clicking a model whose id is a command link shows an inert notification: clicking it runs nothing', async () => {
    const page = e2e.page;
    await clearNotifications(page);
    await openPalette(page, 'Model Access: Filter Models…');
    await typeInQuickInput(page, 'Open file');
    await clickTreeRow(page, '[Open file]');
    const toast = page.locator('.notification-toast', { hasText: 'has no Model Card link' }).first();
    await toast.waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'hostile-notification');
    const links = toast.locator('.notification-list-item-message a');
    assert.equal(await links.count(), 0, 'the message holds no link');
    // Click whatever the message shows, as a curious person would.
    await toast.locator('.notification-list-item-message').click();
    for (let i = 0; i < (await links.count()); i++) {
      await links
        .nth(i)
        .click()
        .catch(() => undefined);
    }
    await page.waitForTimeout(1000);
    assert.deepEqual(
      (await tabLabels()).filter((t) => /^Untitled/.test(t)),
      [],
      'no command ran (no new untitled editor)',
    );
    await clearNotifications(page);
    await openPalette(page, 'Model Access: Clear Models Filter');
  });

  it('Preview Model Card of a card made of the sanitizer bypasses: no link but http(s), no raw HTML element', async () => {
    const page = e2e.page;
    // A service of its own, whose one model's card is on its own origin (a card is read from this machine only
    // there), so no other step's model counts change.
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const carded = await startServer({
      port,
      hostile: { cards: true },
      registry: {
        organizations: ['acme'],
        models: [
          {
            id: CARD_BYPASS_ID,
            family: 'cards',
            version: '1',
            organization: 'acme',
            model_card_url: `http://127.0.0.1:${port}/cards/${CARD_BYPASS_ID}.md`,
            created: 1698796800,
          },
        ],
      },
    });
    try {
      await openPalette(page, 'View: Close All Editors');
      await connectService(page, carded.url, carded.keys.acme);
      await openViewContainer(page);
      const family = viewPane(page, 'Models')
        .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^cards$/ }) })
        .first();
      await family.waitFor({ state: 'visible', timeout: 30_000 });
      if ((await family.getAttribute('aria-expanded')) === 'false') {
        await family.click();
      }
      const row = viewPane(page, 'Models')
        .locator('.monaco-list-row', {
          has: page.locator('.label-name', { hasText: new RegExp(`^${CARD_BYPASS_ID}$`) }),
        })
        .first();
      await chooseFromContextMenu(page, row, 'Preview Model Card');
      const frame = await webviewFrame(page, '.model-card');
      const shown = await frame.evaluate(() => {
        const card = document.querySelector('.model-card') as HTMLElement;
        return {
          links: Array.from(card.querySelectorAll('a')).map((a) => a.getAttribute('href') ?? ''),
          tags: Array.from(card.querySelectorAll('*')).map((e) => e.tagName.toLowerCase()),
          spans: Array.from(card.querySelectorAll('span')).map((e) => e.outerHTML),
          styled: card.querySelectorAll('[style], .raw-html, img').length,
          text: card.innerText,
        };
      });
      await screenshot(page, 'card-preview-bypass');
      assert.ok(shown.links.length >= 3, JSON.stringify(shown));
      for (const href of shown.links) {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
        assert.ok(scheme === undefined || scheme === 'http' || scheme === 'https', `a link to ${href}`);
      }
      // What Markdown makes, and the spans VS Code's own Markdown engine adds (no card text is raw HTML).
      const markdownTags =
        'p h1 h2 h3 h4 h5 h6 blockquote ul ol li pre code em strong s a img hr br table thead tbody tr th td span'.split(
          ' ',
        );
      assert.deepEqual(
        shown.tags.filter((t) => !markdownTags.includes(t)),
        [],
        'no element but what Markdown makes',
      );
      assert.ok(!shown.spans.some((h) => /raw-html|style=|on\w+=/i.test(h)), shown.spans.join('\n'));
      assert.equal(shown.styled, 0, 'no raw HTML element, style or image');
      // The raw HTML is shown as the text that was written.
      assert.ok(shown.text.includes('<div class="raw-html"'), shown.text);
    } finally {
      await openPalette(page, 'View: Close All Editors').catch(() => undefined);
      await carded.close();
    }
  });

  it('another installed extension gets no key store and no UI from Model Access', async () => {
    const page = e2e.page;
    await openPalette(page, 'Exports Probe: Inspect Model Access Exports');
    const note = await waitForNotification(page, /Model Access exports:/);
    assert.match(note, /Model Access exports: undefined/);
    await clearNotifications(page);
  });
});
