// A person creates a Chat request from the palette, types a prompt, sends it with the CodeLens above the
// payload, and reads the answer (its text first, then the status line) in the response document beside it;
// the new payload has nothing underlined as an error.
import * as assert from 'node:assert/strict';
import { e2e } from './session';
import {
  answerModelPick,
  moveMouseAway,
  openPalette,
  pickQuickItem,
  readActiveEditorText,
  screenshot,
} from './helpers';

describe('Scratch requests', () => {
  it('creates a Chat request, sends it from the CodeLens, and shows the answer beside it', async () => {
    const page = e2e.page;
    // An earlier step left the log open in the panel; the picture is about the payload and its answer.
    await openPalette(page, 'View: Hide Panel');
    await openPalette(page, 'Model Access: New Request…');
    await pickQuickItem(page, 'Chat');
    await answerModelPick(page); // The first model that suits Chat, unless a selected one does.
    const payload = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    assert.match(payload, /"model": "[^"]+"/, 'the model is filled in');
    // The prompt placeholder is selected: typing replaces it.
    await page.keyboard.type('What is the capital of France?');
    await readActiveEditorText(page, { contains: '"content": "What is the capital of France?"' });

    const lens = page.locator('.codelens-decoration a', { hasText: 'Send' }).first();
    await lens.waitFor({ state: 'visible', timeout: 15_000 });
    await lens.click();

    const responseGroup = page.locator('.editor-group-container').nth(1);
    await responseGroup.waitFor({ state: 'visible', timeout: 15_000 });
    await responseGroup.locator('.tab.active').first().click();
    const response = await readActiveEditorText(page, { contains: /POST \/v1\/chat · 200 OK/ });
    // The answer's text first, then the status line.
    // (A wrapped line is shown as several rows: read them as one paragraph.)
    const read = response.replace(/\s+/g, ' ');
    // The demo model knows this one (test/server/responder.ts).
    assert.match(read, /^The capital of France is Paris\./);
    assert.match(read, /POST \/v1\/chat · 200 OK · \d+ ms · [\d.]+ (B|KB) · request id req_/);
    assert.ok(!response.includes(e2e.demoKey), 'no key in the response document');
    // By now VS Code's JSON server has validated the payload: its `// POST` line is no error (it was one, as
    // "Comments are not permitted in JSON", before the payload language's schema allowed comments).
    const payloadErrors = page.locator('.editor-group-container').first().locator('.squiggly-error');
    assert.equal(await payloadErrors.count(), 0, 'no error underlined in the new payload');
    await moveMouseAway(page);
    await screenshot(page, 'requests');
  });
});
