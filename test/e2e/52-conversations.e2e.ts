// A person carries a conversation forward in the payload: New Request (Chat), types, turns streaming on,
// Send; Reply (Ctrl+Alt+R), types the follow-up, Send with the
// keyboard: the service received system, user, assistant (the first answer's full text), user. Then Reply
// and Regenerate, Show Conversation (the transcript beside the payload), Fork Conversation; and the same
// round over /v1/responses, sent whole.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { generateText, questionText } from '../server/generation';
import { e2e } from './session';
import {
  answerModelPick,
  activeEditorTitle,
  connectService,
  moveMouseAway,
  openPalette,
  openViewContainer,
  pickQuickItem,
  readActiveEditorText,
  screenshot,
  waitForValue,
  webviewFrame,
  hidePanel,
} from './helpers';

type Message = { role: string; content: unknown };

/** Clicks the payload's CodeLens whose text contains `title`. */
async function clickLens(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Control+Home'); // The CodeLens is above the first line.
  const lens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: title }).first();
  await lens.waitFor({ state: 'visible', timeout: 20_000 });
  await lens.click();
}

/** Selects the first `text` in the active editor (Find, then Escape keeps the match selected). */
async function selectText(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+F');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

/** How many requests to `path` the service has finished. */
function finished(path: string): number {
  return e2e.service.received(path, 'POST').filter((r) => r.finishedAt !== undefined).length;
}

async function waitForRequests(path: string, count: number): Promise<void> {
  await waitForValue(
    async () => finished(path),
    (n) => n >= count,
    `${count} requests to ${path}`,
    60_000,
  );
}

async function transcriptTurns(frame: Frame): Promise<string[]> {
  return frame.evaluate(() =>
    Array.from(document.querySelectorAll('article.turn')).map((a) => a.getAttribute('aria-label') ?? ''),
  );
}

/**
 * After Reply: the answer is in the payload and the cursor stands in the new empty user turn (the status bar's
 * "Ln N" is the line of the last `"content": ""` or `"content": []`), so what is typed next goes there. Reply
 * places the cursor just after its edit lands; keys pressed in between would go to the old cursor.
 */
async function cursorInNewTurn(page: Page): Promise<void> {
  await readActiveEditorText(page, { contains: '"role": "assistant"' });
  // The file's line number of the last empty turn, from the editor's gutter: the payload's lines may still wrap
  // (the suite's settings file turns wrap off, and VS Code can take a while to read it), and a wrapped line
  // numbers only its first row.
  const line = await waitForValue(
    () =>
      page.evaluate(() => {
        const editor = document.querySelector('.editor-group-container.active .monaco-editor');
        const rows = Array.from(editor?.querySelectorAll<HTMLElement>('.view-lines .view-line') ?? []);
        const row = rows
          .filter((r) => /"content": (""|\[\])/.test((r.textContent ?? '').replace(/\u00a0/g, ' ')))
          .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
          .pop();
        const numbers = Array.from(editor?.querySelectorAll<HTMLElement>('.margin-view-overlays > div') ?? []);
        const number = numbers.find((n) => row && n.style.top === row.style.top)?.querySelector('.line-numbers');
        return Number(number?.textContent ?? NaN);
      }),
    (n) => Number.isInteger(n) && n > 0,
    'the payload has a new empty user turn',
  );
  await waitForValue(
    () => page.locator('.statusbar-item[id="status.editor.selection"]').innerText(),
    (t) => t.startsWith(`Ln ${line},`),
    `the cursor on line ${line}, in the new user turn`,
  );
}

describe('Conversations', () => {
  // cursorInNewTurn counts the lines the editor shows; scratch payloads wrap long turns (the payload language's
  // default), so this step turns wrap off to count one line per line of the file, and restores the settings.
  let settingsFile = '';
  let original: string | undefined;
  before(() => {
    settingsFile = path.join(e2e.dirs.data, 'User', 'settings.json');
    original = fs.readFileSync(settingsFile, 'utf8');
    const settings = { ...JSON.parse(original), '[model-access-payload]': { 'editor.wordWrap': 'off' } };
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  });

  after(async () => {
    if (original !== undefined) {
      fs.writeFileSync(settingsFile, original);
    }
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
  });

  it('Chat: Send streamed → Reply → type → Send carries the whole conversation; Regenerate, Show Conversation, Fork', async function () {
    this.timeout(300_000);
    const page = e2e.page;
    await openViewContainer(page); // The extension is active (it may be the first step run).
    await openPalette(page, 'View: Close All Editors');
    await hidePanel(page);
    await connectService(page, e2e.service.url, e2e.demoKey);
    await openPalette(page, 'View: Close Primary Side Bar');

    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page); // The first model that suits Chat, unless a selected one does.
    const template = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    const model = /"model": "([^"]+)"/.exec(template)?.[1] ?? '';
    assert.ok(model, 'the payload names a model');
    await page.keyboard.type('Hi team');
    await readActiveEditorText(page, { contains: '"content": "Hi team"' });
    await selectText(page, 'false');
    await page.keyboard.type('true');
    await readActiveEditorText(page, { contains: '"stream": true' });

    const chats = finished('/v1/chat');
    await clickLens(page, 'Send');
    await waitForRequests('/v1/chat', chats + 1);
    const first = e2e.service.lastReceived('/v1/chat').json?.messages as Message[];
    const firstAnswer = generateText(model, questionText(first));
    assert.equal(e2e.service.lastReceived('/v1/chat').stream, 'completed', 'the answer was streamed');

    // Reply has a key (Ctrl+Alt+R), in the payload as on its answer.
    await page
      .locator('.editor-group-container')
      .first()
      .click({ position: { x: 300, y: 200 } });
    await page.keyboard.press('Control+Alt+r');
    await cursorInNewTurn(page);
    await page.keyboard.type('Tell me more');
    await readActiveEditorText(page, { contains: '"content": "Tell me more"' });
    await page.keyboard.press('Control+Alt+Enter');
    await waitForRequests('/v1/chat', chats + 2);
    const second = e2e.service.lastReceived('/v1/chat').json?.messages as Message[];
    assert.deepEqual(
      second.map((m) => [m.role, m.content]),
      [
        ['system', 'You are a helpful assistant.'],
        ['user', 'Hi team'],
        ['assistant', firstAnswer],
        ['user', 'Tell me more'],
      ],
      'the service received system, user, assistant (the first answer, whole), user',
    );
    const secondAnswer = generateText(model, questionText(second));

    // Reply again from the palette, then Regenerate: sent without that answer, and a new one in its place.
    await openPalette(page, 'Model Access: Reply');
    await readActiveEditorText(page, { contains: '"content": ""' });
    await openPalette(page, 'Model Access: Regenerate');
    await waitForRequests('/v1/chat', chats + 3);
    assert.deepEqual(
      (e2e.service.lastReceived('/v1/chat').json?.messages as Message[]).map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
      'Regenerate sent the conversation without the last answer',
    );
    // Regenerate writes its new answer into the payload as it arrives: wait for it there, as a person does before
    // the next command. A palette opened meanwhile could lose the focus to the payload's editor and type into it.
    await readActiveEditorText(page, { contains: `"content": ${JSON.stringify(secondAnswer).slice(0, 16)}` });

    await openPalette(page, 'Model Access: Show Conversation');
    const frame = await webviewFrame(page, 'article.turn', 30_000);
    const turns = await waitForValue(
      () => transcriptTurns(frame),
      (t) => t.length === 5,
      'five turns in the panel',
    );
    // Reply's new empty user turn is the panel's message box, not a turn.
    assert.deepEqual(turns, [
      'Turn 1: System',
      'Turn 2: User',
      'Turn 3: Assistant',
      'Turn 4: User',
      'Turn 5: Assistant',
    ]);
    const texts = await frame.evaluate(() =>
      Array.from(document.querySelectorAll('article.turn')).map((a) => a.textContent ?? ''),
    );
    assert.ok(texts[2].includes(firstAnswer.slice(0, 40)), 'the first answer is shown');
    assert.ok(texts[4].includes(secondAnswer.slice(0, 40)), 'the regenerated answer is shown in its place');
    assert.ok(texts[3].includes('Tell me more'));
    await moveMouseAway(page);
    await screenshot(page, 'conversation');

    // Fork from the payload with the cursor in the second turn: a new payload with the first two turns.
    await page
      .locator('.editor-group-container')
      .first()
      .click({ position: { x: 300, y: 200 } });
    await selectText(page, '"content": "Hi team"');
    const title = await activeEditorTitle(page);
    await openPalette(page, 'Model Access: Fork Conversation');
    await waitForValue(
      () => activeEditorTitle(page),
      (t) => t !== title && /^chat-/.test(t),
      'the forked payload opens',
    );
    const forked = await readActiveEditorText(page, { contains: '"content": "Hi team"' });
    assert.ok(forked.startsWith('// POST /v1/chat'));
    assert.ok(!forked.includes('"role": "assistant"'), 'the turns after the cursor stay behind');
  });

  it('Responses: Reply turns the input into the conversation, and Send carries all of it', async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await openPalette(page, 'View: Close All Editors');
    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Responses');
    await answerModelPick(page);
    const template = await readActiveEditorText(page, { contains: '// POST /v1/responses' });
    const model = /"model": "([^"]+)"/.exec(template)?.[1] ?? '';
    await page.keyboard.type('First question');
    await readActiveEditorText(page, { contains: '"input": "First question"' });
    const count = finished('/v1/responses');
    await clickLens(page, 'Send');
    await waitForRequests('/v1/responses', count + 1);
    await page
      .locator('.editor-group-container')
      .first()
      .click({ position: { x: 300, y: 200 } });
    await page.keyboard.press('Control+Alt+r');
    await cursorInNewTurn(page);
    await page.keyboard.type('Follow-up');
    await readActiveEditorText(page, { contains: '"content": "Follow-up"' });
    await page.keyboard.press('Control+Alt+Enter');
    await waitForRequests('/v1/responses', count + 2);
    const sent = e2e.service.lastReceived('/v1/responses').json;
    assert.deepEqual(sent?.input, [
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: generateText(model, 'First question') },
      { role: 'user', content: 'Follow-up' },
    ]);
    assert.equal(sent?.previous_response_id, undefined, 'sent whole, by default');
  });
});
