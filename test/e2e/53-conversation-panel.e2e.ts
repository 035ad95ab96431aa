// A person converses in the panel at 900×700 and at 1400×900, the sidebar open: New Request (Chat), Send →
// the answer rendered in the conversation panel beside the payload (no Markdown markup), a follow-up typed
// into the message box and sent with Enter (the service received system, user, assistant, user), streaming
// turned on in the header, Regenerate, Edit the first user turn and resend; the panel never scrolls
// sideways and the payload file on disk holds the conversation. Then the keyboard alone (Tab, Enter) reaches
// the message box, Send, Regenerate and the raw exchange, and Ctrl+2 focuses the message box; axe-core in Light, Dark and High Contrast; the
// Responses round at 1400×900.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { parse } from 'jsonc-parser';
import { assertAccessible } from './a11y';
import { e2e } from './session';
import {
  answerModelPick,
  connectService,
  hidePanel,
  moveMouseAway,
  openPalette,
  openViewContainer,
  pickQuickItem,
  quickInput,
  readActiveEditorText,
  reloadWorkbench,
  screenshot,
  setColorTheme,
  setViewport,
  waitForValue,
  webviewFrame,
} from './helpers';

type Message = { role: string; content: unknown };

function finished(p: string): number {
  return e2e.service.received(p, 'POST').filter((r) => r.finishedAt !== undefined).length;
}

async function waitForRequests(p: string, count: number): Promise<void> {
  await waitForValue(
    async () => finished(p),
    (n) => n >= count,
    `${count} requests to ${p}`,
    60_000,
  );
}

function lastMessages(): Message[] {
  return e2e.service.lastReceived('/v1/chat').json?.messages as Message[];
}

/** Waits until the last chat request the service received is the one `sent` recognizes. */
async function waitForChat(sent: (messages: Message[]) => boolean, what: string): Promise<Message[]> {
  return waitForValue(async () => lastMessages() ?? [], sent, what, 60_000);
}

/** The turns the panel shows: each article's name and text. */
async function turns(frame: Frame): Promise<{ name: string; text: string }[]> {
  return frame.evaluate(() =>
    Array.from(document.querySelectorAll('#turns article.turn')).map((a) => ({
      name: a.getAttribute('aria-label') ?? '',
      text: (a as HTMLElement).innerText,
    })),
  );
}

/** Whether the panel's page scrolls sideways (wider than its viewport). */
async function scrollsSideways(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** The newest payload of this kind on disk (scratch payloads live in the extension's global storage). */
function newestPayload(prefix: string): string {
  const found: { file: string; at: number }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.startsWith(prefix)) {
        found.push({ file: full, at: fs.statSync(full).mtimeMs });
      }
    }
  };
  walk(path.join(e2e.dirs.data, 'User', 'globalStorage'));
  found.sort((a, b) => b.at - a.at);
  assert.ok(found[0], `a ${prefix}… payload on disk`);
  return found[0].file;
}

async function newRequest(page: Page, kind: 'Chat' | 'Responses', prompt: string): Promise<string> {
  await openPalette(page, 'Model Access: New Request…');
  await pickQuickItem(page, kind);
  await answerModelPick(page);
  const template = await readActiveEditorText(page, { contains: '// POST' });
  // New Request selects the prompt's placeholder: typing replaces it. As a person does, type once it shows
  // selected (the text can be on screen a moment before the selection is).
  await waitForValue(
    () => page.locator('.statusbar-item[id="status.editor.selection"]').innerText(),
    (t) => /selected/.test(t),
    "the prompt's placeholder selected",
  );
  await page.keyboard.type(prompt);
  await readActiveEditorText(page, { contains: prompt });
  return /"model": "([^"]+)"/.exec(template)?.[1] ?? '';
}

async function clickIn(frame: Frame, selector: string): Promise<void> {
  await frame.locator(selector).first().click();
}

/** A button of the page pressed from the keyboard (focused, then Enter). */
async function pressIn(frame: Frame, selector: string): Promise<void> {
  await frame.locator(selector).first().focus();
  await frame.locator(selector).first().press('Enter');
}

/** How many editor groups (columns) the window shows. */
async function editorGroups(page: Page): Promise<number> {
  return page.locator('.editor-group-container').count();
}

/**
 * At 900×700 after the rounds' edits: Raw exchange → Copy as Code copies the request as it was sent (not the
 * file, which holds the answer since); Reload Window brings the panel back with the file's turns; Fork and New
 * Request with the panel in front leave two columns.
 */
async function copyReloadForkAndNew(page: Page, frame: Frame): Promise<void> {
  const file = newestPayload('chat-');
  const sent = e2e.service.lastReceived('/v1/chat').json?.messages as Message[];
  const answer = (parse(fs.readFileSync(file, 'utf8')) as { messages: Message[] }).messages[2].content as string;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await clickIn(frame, 'article[data-index="2"] details.exchange > summary');
  await clickIn(frame, 'article[data-index="2"] button[data-action="copyAsCode"]');
  await pickQuickItem(page, 'cURL (bash, zsh)');
  const code = await waitForValue(
    () => page.evaluate(() => navigator.clipboard.readText()),
    (t) => t.includes('/v1/chat'),
    'the request copied as code',
  );
  assert.ok(code.includes('Show me a YAML example'), code);
  assert.equal(sent.length, 2, 'sent: the system and user turns');
  assert.ok(!code.includes(JSON.stringify(answer).slice(1, 30)), `not the file's answer:\n${code}`);
  assert.ok(!code.includes(e2e.demoKey), 'never the key');
  assert.equal(await editorGroups(page), 2, 'Copy as Code opens nothing');
  assert.ok(await frame.locator('#message').isVisible(), 'the conversation stays in front');

  // Reload Window (from the payload's editor: a key pressed in the panel goes to its page first): the file still
  // holds the answer and the panel is back in its group, showing it.
  await page
    .locator('.tab', { hasText: path.basename(file) })
    .first()
    .click();
  await reloadWorkbench(page);
  const restored = await webviewFrame(page, '#message', 60_000);
  await waitForValue(
    () => turns(restored),
    (t) => t.length === 3 && t[2].name === 'Turn 3: Assistant' && t[2].text.includes(answer.slice(0, 20)),
    'the panel restored with the answer from the file',
  );
  assert.equal((parse(fs.readFileSync(file, 'utf8')) as { messages: Message[] }).messages.length, 3);
  assert.equal(await editorGroups(page), 2, 'the panel came back in its own group, not an empty one');

  // Fork from the panel, then New Request with the panel in front: two columns each time. (The keyboard: after a
  // reload the workbench may lay a webview's frame over the page a moment longer than a pointer waits.)
  await pressIn(await webviewFrame(page, '#message'), 'article[data-index="2"] button[data-action="fork"]');
  await waitForValue(
    () => page.locator('.tab', { hasText: 'Conversation ·' }).count(),
    (n) => n === 2,
    'the fork and its panel',
  );
  assert.equal(await editorGroups(page), 2, 'Fork leaves two columns');
  await (await webviewFrame(page, '#message')).locator('#message').focus();
  await openPalette(page, 'Model Access: New Request…');
  await pickQuickItem(page, 'Chat');
  // The fork's payload is the active editor of the payloads' group, which answerModelPick would read as New
  // Request having opened its payload without asking: wait for the model pick first.
  await quickInput(page)
    .filter({ hasText: /which model for POST/ })
    .waitFor({ timeout: 20_000 });
  await answerModelPick(page);
  // New Request's starter payload, its prompt selected, opens with the payloads; the conversation stays in front.
  await readActiveEditorText(page, { contains: 'Write your prompt here.' });
  assert.equal(await editorGroups(page), 2, 'New Request with a panel open leaves two columns');
  assert.equal(
    await page.locator('.editor-group-container').nth(1).locator('.tab.active', { hasText: 'Conversation ·' }).count(),
    1,
    'the panel still in front in its column',
  );
  await screenshot(page, 'conversation-panel-900-columns');
}

describe('Conversation panel', () => {
  // The session's other steps read answers as documents (modelAccess.answers.openAs "text", session.ts); here
  // Send opens answers the way a person's VS Code does by default: in the conversation panel.
  let settingsFile = '';
  let original: string | undefined;
  before(() => {
    settingsFile = path.join(e2e.dirs.data, 'User', 'settings.json');
    original = fs.readFileSync(settingsFile, 'utf8');
    const settings = { ...JSON.parse(original), 'modelAccess.answers.openAs': 'panel' };
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  });

  after(async () => {
    if (original !== undefined) {
      fs.writeFileSync(settingsFile, original);
    }
    await setViewport(e2e.page, 1280, 800).catch(() => undefined);
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
  });

  for (const size of [
    { width: 900, height: 700, name: '900' },
    { width: 1400, height: 900, name: '1400' },
  ]) {
    it(`${size.width}×${size.height}, sidebar open: Send, a follow-up from the message box, Regenerate, Edit and resend`, async function () {
      this.timeout(300_000);
      const page = e2e.page;
      await openViewContainer(page);
      await openPalette(page, 'View: Close All Editors');
      await hidePanel(page);
      await connectService(page, e2e.service.url, e2e.demoKey);
      await setViewport(page, size.width, size.height);
      await openViewContainer(page); // The sidebar stays open.

      await newRequest(page, 'Chat', 'Show me a JSON example');
      const chats = finished('/v1/chat');
      await openPalette(page, 'Model Access: Send Request');
      await waitForRequests('/v1/chat', chats + 1);
      const frame = await webviewFrame(page, '#message');
      await waitForValue(
        () => turns(frame),
        (t) => t.length === 3,
        'system, user and the answer in the panel',
      );
      const shown = await turns(frame);
      assert.deepEqual(
        shown.map((t) => t.name),
        ['Turn 1: System', 'Turn 2: User', 'Turn 3: Assistant'],
      );
      // Sent from the palette, and yet the file is the truth: the answer is the payload's last turn.
      await waitForValue(
        async () => (parse(fs.readFileSync(newestPayload('chat-'), 'utf8')) as { messages: Message[] }).messages,
        (m) => m.length === 3 && m[2].role === 'assistant',
        'the answer sent from the palette written into the payload file',
      );
      assert.ok(!/^#{1,6} |```|^---$/m.test(shown[2].text), `no Markdown markup in the answer: ${shown[2].text}`);
      // What the answer used, under it in words: tokens, cost (or that no price is known), time.
      const facts = (await frame.locator('.answer-facts').first().textContent()) ?? '';
      assert.match(facts, /^\d+ tokens \(\d+ in, \d+ out\) · .+ · first byte \d+ ms, last byte [\d.]+ m?s$/);
      assert.equal(
        await scrollsSideways(frame),
        false,
        `the panel fits ${size.width}×${size.height} with the sidebar open`,
      );
      await moveMouseAway(page);
      await screenshot(page, `conversation-panel-${size.name}`);

      // Streaming on from the header, then a follow-up typed into the message box and sent with Enter.
      await clickIn(frame, '#stream');
      await waitForValue(
        async () => fs.readFileSync(newestPayload('chat-'), 'utf8'),
        (t) => /"stream": true/.test(t),
        'stream on in the payload file',
      );
      const box = frame.getByRole('textbox', { name: /Message/ });
      await box.click();
      await box.type('Tell me more');
      await box.press('Enter');
      await waitForChat((m) => m.at(-1)?.content === 'Tell me more', 'the follow-up sent');
      assert.deepEqual(
        lastMessages().map((m) => [m.role, m.content === 'Tell me more' ? 'Tell me more' : m.role]),
        [
          ['system', 'system'],
          ['user', 'user'],
          ['assistant', 'assistant'],
          ['user', 'Tell me more'],
        ],
      );
      // The request is in as soon as it arrives; its stream ends a moment later.
      await waitForValue(
        async () => e2e.service.lastReceived('/v1/chat').stream,
        (outcome) => outcome === 'completed',
        'the answer streamed to its end',
      );
      await waitForValue(
        () => turns(frame),
        (t) => t.length === 5,
        'the streamed answer in place',
      );
      assert.equal(await scrollsSideways(frame), false);

      // Regenerate: sent without the last answer, and a new one in its place.
      const before = e2e.service.received('/v1/chat', 'POST').length;
      await clickIn(frame, 'button[data-action="regenerate"]');
      await waitForValue(
        async () => e2e.service.received('/v1/chat', 'POST').length,
        (n) => n > before,
        'Regenerate sent',
      );
      assert.deepEqual(
        lastMessages().map((m) => m.role),
        ['system', 'user', 'assistant', 'user'],
      );
      // Until the new answer has streamed to its end the panel may still show the old one: wait for the end,
      // or Edit below would start while the regenerated answer is still arriving.
      await waitForValue(
        async () => e2e.service.lastReceived('/v1/chat').stream,
        (outcome) => outcome === 'completed',
        'the regenerated answer streamed to its end',
      );
      await waitForValue(
        () => turns(frame),
        (t) => t.length === 5 && !t[4].name.includes('arriving'),
        'the new answer',
      );

      // Edit the first user turn and resend: the turns after it go.
      await clickIn(frame, 'article[data-index="1"] button[data-action="edit"]');
      const editor = frame.locator('article[data-index="1"] textarea');
      await editor.fill('Show me a YAML example');
      await frame.locator('article[data-index="1"] .editor button.primary').click();
      await waitForChat((m) => m.length === 2, 'the edited turn resent');
      assert.deepEqual(
        lastMessages().map((m) => [m.role, m.role === 'user' ? m.content : '']),
        [
          ['system', ''],
          ['user', 'Show me a YAML example'],
        ],
      );
      await waitForValue(
        () => turns(frame),
        (t) => t.length === 3 && !t[2].name.includes('arriving'),
        'three turns',
      );
      // The answer is written into the file once it is complete (the panel shows it as it arrives).
      const onDisk = await waitForValue(
        async () => parse(fs.readFileSync(newestPayload('chat-'), 'utf8')) as { messages: Message[] },
        (p) => p.messages.length === 3,
        'the answer written into the payload file',
      );
      assert.deepEqual(
        onDisk.messages.map((m) => m.role),
        ['system', 'user', 'assistant'],
        'the payload file holds the conversation',
      );
      assert.equal(onDisk.messages[1].content, 'Show me a YAML example');
      assert.equal(await scrollsSideways(frame), false);
      await moveMouseAway(page);
      await screenshot(page, `conversation-panel-${size.name}-edited`);
      if (size.name === '900') {
        await copyReloadForkAndNew(page, frame);
      }
    });
  }

  it('keyboard only: Tab and Enter reach the message box, Send, Regenerate and the raw exchange', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    const frame = await webviewFrame(page, '#message');
    await clickIn(frame, 'h1');
    const sentBefore = e2e.service.received('/v1/chat', 'POST').length;
    // Tab until the focus is on an element matching `selector`.
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        if (await frame.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
          return;
        }
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo('details.exchange > summary');
    await page.keyboard.press('Enter');
    assert.ok(await frame.evaluate(() => document.querySelector('details.exchange')?.hasAttribute('open')));
    const exchange = await frame.locator('details.exchange').innerText();
    assert.match(exchange, /POST \/v1\/chat/);
    assert.match(exchange, /200/);
    await tabTo('button[data-action="regenerate"]');
    await page.keyboard.press('Enter');
    await waitForValue(
      async () => e2e.service.received('/v1/chat', 'POST').length,
      (n) => n > sentBefore,
      'Regenerate sent from the keyboard',
    );
    // Send is disabled while an answer arrives (and Tab skips a disabled button): as a person would, wait for it.
    await waitForRequests('/v1/chat', sentBefore + 1);
    await frame.locator('#send:not([disabled])').waitFor({ timeout: 30_000 });
    await tabTo('#message');
    await page.keyboard.type('Shorter, please');
    await tabTo('#send');
    await page.keyboard.press('Enter');
    await waitForChat((m) => m.at(-1)?.content === 'Shorter, please', 'the message sent from the keyboard');
    assert.equal(lastMessages().at(-1)?.content, 'Shorter, please');
    await waitForValue(
      () => frame.locator('#announce').innerText(),
      (t) => /Answer received/.test(t),
      'the live region says the answer was received',
    );
    // Back to the payload (Ctrl+1) and to the panel (Ctrl+2): the focus lands in the message box, where the
    // next message is typed, not on the page's body.
    await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+1');
    // As a person does: Ctrl+2 once the cursor is back in the payload (the webview forwards Ctrl+1 to the
    // workbench by a message; a Ctrl+2 pressed before that lands finds the panel's group still active).
    await waitForValue(
      () => page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor'))),
      (inEditor) => inEditor,
      'the payload editor focused by Ctrl+1',
      10_000,
    );
    await page.keyboard.press('Control+2');
    // The panel Ctrl+2 focuses is the active one of its group (the 900 round left the fork's panel there too):
    // whichever page has the keyboard must have it in its message box.
    await waitForValue(
      async () => {
        for (const f of page.frames()) {
          const id = await f
            .evaluate(() =>
              document.hasFocus() && document.querySelector('#message') ? document.activeElement?.id : '',
            )
            .catch(() => '');
          if (id) {
            return id;
          }
        }
        return '';
      },
      (id) => id === 'message',
      'the message box focused by Ctrl+2',
      10_000,
    );
  });

  // It reads the panel the rounds above leave open.
  it('axe-core finds nothing serious in the panel in Light, Dark and High Contrast', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    for (const theme of ['Default Light Modern', 'Default Dark Modern', 'Dark High Contrast']) {
      await setColorTheme(page, theme);
      const frame = await webviewFrame(page, '#message');
      await assertAccessible(frame, `the conversation panel in ${theme}`);
    }
    await screenshot(page, 'conversation-panel-hc');
    await setColorTheme(page, 'Default Dark Modern');
  });

  it('Responses at 1400×900: the answer in the panel, a follow-up carries the whole conversation', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await setViewport(page, 1400, 900);
    await openPalette(page, 'View: Close All Editors');
    const model = await newRequest(page, 'Responses', 'First question');
    const count = finished('/v1/responses');
    await openPalette(page, 'Model Access: Send Request');
    await waitForRequests('/v1/responses', count + 1);
    const frame = await webviewFrame(page, '#message');
    await waitForValue(
      () => turns(frame),
      (t) => t.length === 2,
      'the question and its answer',
    );
    const box = frame.getByRole('textbox', { name: /Message/ });
    await box.click();
    await box.type('Follow-up');
    await box.press('Control+Enter');
    await waitForRequests('/v1/responses', count + 2);
    const input = e2e.service.lastReceived('/v1/responses').json?.input as Message[];
    assert.deepEqual(
      input.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(input[2].content, 'Follow-up');
    assert.ok(model);
    await waitForValue(
      () => turns(frame),
      (t) => t.length === 4,
      'four turns',
    );
    assert.equal(await scrollsSideways(frame), false);
    await moveMouseAway(page);
    await screenshot(page, 'conversation-panel-1400-responses');
  });
});
