// The conversation panel survives any answer, inside a real VS Code (issue 44): an answer whose code block is a
// 5,000-character line of `#` or `-` once overflowed the highlighter's stack, the draw's rejection went
// unhandled and the panel never drew again. It draws that answer, and keeps following the payload's edits.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Commands } from '../../src/ids';
import { activateExtension, eventually } from './helpers';

describe('Conversation panel: any answer', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let tmp: string;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-panel-survives-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(tmp, { recursive: true, force: true });
  });

  it('draws an answer with a 5,000-character line of # and - in code, then follows the next edit', async () => {
    const line = `${'#'.repeat(5000)}\n${'-'.repeat(5000)}`;
    const file = path.join(tmp, 'hashes.jsonc');
    const messages = [
      { role: 'user', content: 'Draw a line' },
      { role: 'assistant', content: `Here:\n\n\`\`\`c\n${line}\n\`\`\`\n` },
    ];
    writeFileSync(file, `// POST /v1/chat\n${JSON.stringify({ model: 'm', messages }, null, 2)}\n`);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const panel = (await vscode.commands.executeCommand(Commands.showConversation)) as vscode.WebviewPanel;
    assert.ok(panel, 'a panel opened');
    const html = () => api.requests.panels.shown(editor.document.uri)?.pieces.join('\n') ?? '';
    await eventually(() => html().includes('Turn 2: Assistant'), 15_000, 'the answer in the panel');
    assert.ok(html().includes('#'.repeat(5000)) && html().includes('-'.repeat(5000)), 'the line shown whole');
    assert.ok(html().includes('class="code-block"'), 'as a code block');

    // The panel still follows the payload: a new turn written in the editor shows.
    await vscode.window.showTextDocument(editor.document);
    const text = editor.document.getText();
    const at = editor.document.positionAt(text.lastIndexOf(']'));
    await editor.edit((b) => b.insert(at, ',\n    { "role": "user", "content": "And a shorter one?" }\n  '));
    await eventually(() => html().includes('And a shorter one?'), 10_000, 'the next turn in the panel');
    panel.dispose();
  });
});
