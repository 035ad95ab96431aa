// A person sends a payload whose answer streams slowly, changes their mind, and presses Cancel on the
// "Model Access: POST /v1/chat" progress notification: the response document says the request was cancelled
// (before the answer could have finished) and the service saw the client go away.
import * as assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../server';
import { generateText, questionText } from '../server/generation';
import { e2e } from './session';
import {
  answerModelPick,
  connectService,
  openPalette,
  openViewContainer,
  pickQuickItem,
  readActiveEditorText,
  screenshot,
  hidePanel,
  streamPayload,
} from './helpers';

/** Between two streamed events: a 15–25 word answer takes 20 s or more, far longer than the steps below. */
const STREAM_DELAY_MS = 1500;

describe('Cancelling a request', () => {
  let slow: RunningServer;

  before(async () => {
    slow = await startServer({ streamDelayMs: STREAM_DELAY_MS });
  });

  after(async () => {
    // Later steps expect the session's service again (its key is still stored for it).
    await connectService(e2e.page, e2e.service.url).catch(() => undefined);
    await openPalette(e2e.page, 'View: Close All Editors').catch(() => undefined);
    await slow?.close();
  });

  it('Cancel on the progress notification stops a streamed answer; the document says so', async function () {
    // Setting up its own service, key and payload through the palette takes most of a minute in a full run.
    this.timeout(180_000);
    const page = e2e.page;
    await openViewContainer(page); // The extension is active (it may be the first step run).
    await openPalette(page, 'View: Close All Editors');
    // Earlier steps may have left the log open in the panel; the payload needs the room.
    await hidePanel(page);
    await connectService(page, slow.url, slow.keys.acme);

    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page); // The first model that suits Chat, unless a selected one does.
    await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    await page.keyboard.type('Tell me a long story');
    await streamPayload(page); // Ask for a streamed answer, as a person would.
    await page.keyboard.press('Control+Home'); // Back to the top, where the CodeLens is.

    const lens = page.locator('.codelens-decoration a', { hasText: 'Send' }).first();
    await lens.waitFor({ state: 'visible', timeout: 15_000 });
    await lens.click();

    // The notification says the answer is arriving; its Cancel button is what the person presses.
    const toast = page.locator('.notification-toast', { hasText: 'Model Access: POST /v1/chat' }).first();
    await toast.locator('.notification-list-item-message', { hasText: 'receiving' }).waitFor({ timeout: 30_000 });
    const sentAt = Date.now();
    // The toast re-renders as the progress message changes, so it is rarely "stable" for Playwright: the
    // button is clicked where it is shown, as a person would, without waiting for the toast to stop moving.
    await toast.hover({ timeout: 5000 }).catch(() => undefined);
    const cancel = toast.locator('.monaco-button', { hasText: 'Cancel' }).first();
    await cancel.waitFor({ state: 'visible', timeout: 10_000 });
    await cancel.click({ force: true, timeout: 10_000 });
    await toast.waitFor({ state: 'hidden', timeout: 10_000 });

    const responseGroup = page.locator('.editor-group-container').nth(1);
    await responseGroup.locator('.tab.active').first().click();
    const response = await readActiveEditorText(page, {
      contains: /POST \/v1\/chat · 200 OK · cancelled/,
      timeoutMs: 10_000,
    });
    assert.ok(Date.now() - sentAt < 15_000, 'the document said so long before the answer could have finished');
    assert.ok(response.includes('The request was cancelled.'), response);
    await screenshot(page, 'requests-cancelled');
    const sent = slow.lastReceived('/v1/chat', 'POST')?.json;
    assert.ok(sent, 'the service received the payload');
    const whole = generateText(String(sent.model), questionText(sent.messages));
    assert.ok(!response.includes(whole), 'only part of the answer arrived');

    // The service saw the client go away in the middle of the stream.
    await slow.waitForAborts(1, 10_000);
    const chat = slow.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat');
    assert.equal(chat.length, 1);
    assert.equal(chat[0].aborted, true);
    assert.equal(chat[0].stream, 'aborted');
    // A cancelled request is not an error to report.
    assert.equal(await page.locator('.notification-toast', { hasText: 'POST /v1/chat:' }).count(), 0);
  });
});
