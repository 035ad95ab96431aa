// A person reads the README's Import cURL example, selects the curl command in it and runs Model Access:
// Import cURL…: a new payload opens with the endpoint and JSON body of the command, its Authorization header
// dropped with a note (not in the editor, not in the file), and Send gets the service's answer with the stored
// key.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../harness/codeServer';
import { generateText, questionText } from '../server/generation';
import { e2e } from './session';
import {
  clearNotifications,
  connectService,
  openFileByName,
  openPalette,
  openViewContainer,
  quickInput,
  readActiveEditorText,
  screenshot,
  waitForNotification,
} from './helpers';

/** The README's example: the bash block of its Import cURL section. */
function readmeExample(readme: string): string {
  const section = readme.slice(readme.indexOf('**Import cURL…**'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block && /^curl /.test(block), 'the README shows a curl command for Import cURL');
  return block.trimEnd();
}

/** Files named `name` under `dir`, at any depth. */
function findFiles(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? findFiles(full, name) : entry.name === name ? [full] : [];
  });
}

describe('Import cURL', () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const example = readmeExample(readme);

  before(() => {
    // The README as a person has it at hand, in the folder they work in.
    fs.writeFileSync(path.join(e2e.dirs.workspace, 'README.md'), readme);
  });

  after(async () => {
    await openPalette(e2e.page, 'View: Close All Editor Groups').catch(() => undefined);
  });

  it("the README's example, selected → a payload with its endpoint and body, without the key, that sends", async function () {
    this.timeout(180_000);
    const page = e2e.page;
    await openViewContainer(page); // The extension is active (it may be the first step run).
    await openPalette(page, 'View: Close All Editor Groups');
    await connectService(page, e2e.service.url, e2e.demoKey);
    // The whole width for the README, so no line of the command wraps.
    await openPalette(page, 'View: Close Primary Side Bar');

    await openFileByName(page, 'README.md');
    const first = readme.split('\n').findIndex((line) => line === example.split('\n')[0]) + 1;
    const lines = example.split('\n').length;
    await openPalette(page, 'Go to Line/Column');
    await quickInput(page).locator('input').fill(`:${first}`);
    await page.keyboard.press('Enter');
    // The keys go to the editor once the line picker has closed; a picker still showing when the palette
    // opens is closed with Escape, which would drop the selection.
    await quickInput(page).waitFor({ state: 'hidden', timeout: 15_000 });
    await page.keyboard.press('Home');
    for (let i = 1; i < lines; i++) {
      await page.keyboard.press('Shift+ArrowDown');
    }
    await page.keyboard.press('Shift+End');
    await page
      .locator('.statusbar-item', { hasText: `(${example.length} selected)` })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });

    await openPalette(page, 'Model Access: Import cURL…', { keepSelection: true });
    const note = await waitForNotification(page, /Imported the curl command/);
    assert.match(note, /from the selection as a new payload for POST \/v1\/chat/);
    assert.match(note, /Authorization header was dropped/);
    const payload = await readActiveEditorText(page, { contains: '// POST /v1/chat' });
    const body = JSON.parse(/-d '([^']+)'/.exec(example)?.[1] ?? '') as { model: string; messages: unknown };
    assert.deepEqual(JSON.parse(payload.replace(/^\/\/.*$/gm, '')), body, 'the body of the command, as JSON');
    assert.ok(!/Authorization|Bearer|MODEL_ACCESS_API_KEY/.test(payload), 'no credential in the editor');
    const name = (await page.locator('.editor-group-container.active .tab.active .label-name').first().innerText())
      .trim()
      .replace(/\u00a0/g, ' ');
    const files = findFiles(e2e.dirs.data, name.endsWith('.jsonc') ? name : `${name}.jsonc`);
    assert.equal(files.length, 1, `the payload ${name} is one file of the profile`);
    assert.ok(!/Authorization|Bearer/.test(fs.readFileSync(files[0], 'utf8')), 'no credential in the file');
    await clearNotifications(page);

    const lens = page.locator('.codelens-decoration a', { hasText: 'Send' }).first();
    await lens.waitFor({ state: 'visible', timeout: 15_000 });
    await lens.click();
    const responseGroup = page.locator('.editor-group-container').nth(1);
    await responseGroup.waitFor({ state: 'visible', timeout: 15_000 });
    await responseGroup.locator('.tab.active').first().click();
    const answer = await readActiveEditorText(page, { contains: /POST \/v1\/chat · 200 OK/ });
    const received = e2e.service.lastReceived('/v1/chat', 'POST');
    assert.deepEqual(received.json, body, 'the service received the README body');
    assert.equal(received.authorization, true, 'with the stored key');
    // The answer's text opens the document (its wrapped rows read as one paragraph).
    const expected = generateText(body.model, questionText(body.messages));
    assert.ok(answer.replace(/\s+/g, ' ').startsWith(expected), `the answer shows: ${expected}`);
    assert.ok(!answer.includes(e2e.demoKey), 'no key in the answer document');
    await screenshot(page, 'import-curl');
  });
});
