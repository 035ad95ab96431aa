// Payload Actions…: the CodeLens actions of line 1 (Send, Change endpoint, Copy as Code) and Compare, in one
// quick pick that a keybinding opens wherever the cursor is in the payload.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SafePickItem } from '../../src/platform/ui';
import { Commands } from '../../src/ids';
import { activateExtension, newPayload, stubUi, type UiStub } from './helpers';

describe('Payload actions', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let stub: UiStub | undefined;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
  });

  afterEach(async () => {
    stub?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers Send, Change endpoint, Copy as Code and Compare; the chosen one runs on the payload', async () => {
    const editor = await newPayload('/v1/chat', 'aurora-2');
    // The cursor far from line 1, where the CodeLens is.
    editor.selection = new vscode.Selection(editor.document.lineCount - 1, 0, editor.document.lineCount - 1, 0);
    const offered: string[][] = [];
    stub = stubUi(api.ui, {
      pick: async (items: readonly SafePickItem[]) => {
        offered.push(items.map((i) => i.label));
        // First the actions (Change endpoint), then Change endpoint's own pick (Responses).
        return (
          offered.length === 1
            ? items.find((i) => /Change endpoint/.test(i.label))
            : items.find((i) => /\/v1\/responses/.test(i.label))
        ) as never;
      },
    });
    await vscode.commands.executeCommand(Commands.payloadActions);
    assert.deepEqual(offered[0], [
      '$(play) Send to POST /v1/chat',
      '$(comment-discussion) Show Conversation',
      '$(arrow-swap) Change endpoint…',
      '$(code) Copy as Code…',
      '$(split-horizontal) Compare Models…',
    ]);
    assert.equal(editor.document.lineAt(0).text, '// POST /v1/responses', 'the endpoint changed');
  });

  it('the CodeLens row holds two short actions: Send and the conversation (or every other action)', async () => {
    const lenses = async (uri: vscode.Uri) =>
      ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) as vscode.CodeLens[]).map((l) => [
        l.command?.title,
        l.command?.command,
      ]);
    const chat = await newPayload('/v1/chat', 'aurora-2');
    assert.deepEqual(await lenses(chat.document.uri), [
      ['$(play) Send', Commands.sendRequest],
      ['$(comment-discussion) Conversation', Commands.showConversation],
    ]);
    const embeddings = await newPayload('/v1/embeddings', 'aurora-2');
    assert.deepEqual(await lenses(embeddings.document.uri), [
      ['$(play) Send', Commands.sendRequest],
      ['Actions…', Commands.payloadActions],
    ]);
    // The second lens opens Payload Actions, with everything else in it.
    const offered: string[][] = [];
    stub = stubUi(api.ui, {
      pick: async (items: readonly SafePickItem[]) => (offered.push(items.map((i) => i.label)), undefined),
    });
    const [, actions] = (await vscode.commands.executeCommand(
      'vscode.executeCodeLensProvider',
      embeddings.document.uri,
    )) as vscode.CodeLens[];
    await vscode.commands.executeCommand(actions.command!.command, ...(actions.command!.arguments ?? []));
    assert.deepEqual(offered[0], [
      '$(play) Send to POST /v1/embeddings',
      '$(arrow-swap) Change endpoint…',
      '$(code) Copy as Code…',
      '$(split-horizontal) Compare Models…',
    ]);
  });

  it('outside a payload it says to open one and runs nothing', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: '{"name": "x"}' });
    await vscode.window.showTextDocument(doc);
    let picked = 0;
    stub = stubUi(api.ui, { pick: async () => (picked++, undefined) });
    await vscode.commands.executeCommand(Commands.payloadActions);
    assert.equal(picked, 0);
    assert.match(stub.messages.join('\n'), /Open a payload first/);
    assert.equal(doc.getText(), '{"name": "x"}');
  });
});
