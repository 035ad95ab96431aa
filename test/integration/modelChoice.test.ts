// The right model for the request: New Request from the palette uses the model selected in the Models view
// when it suits the endpoint, and otherwise asks, with the models that suit the endpoint first and every
// other model after them (those the registry deprecates or retires after the current ones); Compare's
// picker lists the same way. Against the local service's demo registry
// (chat models, `cirrus-embed-*` embedding models, speech models).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { ModelPickItem } from '../../src/platform/modelPicks';
import type { SafePickItem, SafeQuickPickOptions } from '../../src/platform/ui';
import { Commands } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, connectTo, newPayload, setSetting, stubUi, type UiStub } from './helpers';

interface Asked {
  items: readonly SafePickItem[];
  options: SafeQuickPickOptions;
}

/** The picks' rows as a person reads them: separators as `— label`, items by label. */
const rows = (items: readonly SafePickItem[]) =>
  items.map((i) => (i.kind === vscode.QuickPickItemKind.Separator ? `— ${i.label}` : i.label));

describe('Model choice for New Request and Compare', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let stub: UiStub | undefined;
  const asked: Asked[] = [];

  /** Answers each pick with `answer(items)` and records what was offered. */
  function answerPicks(answer: (items: readonly SafePickItem[], n: number) => SafePickItem | undefined): void {
    stub = stubUi(api.ui, {
      pick: async (items, options) => {
        asked.push({ items, options });
        return answer(items, asked.length - 1) as never;
      },
    });
  }
  const label = (text: string) => (items: readonly SafePickItem[]) => items.find((i) => i.label === text);
  const firstModel = (items: readonly SafePickItem[]) => items.find((i) => (i as ModelPickItem).model);
  const payloadModel = (editor: vscode.TextEditor | undefined) =>
    /"model": "([^"]*)"/.exec(editor?.document.getText() ?? '')?.[1];

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    await connectTo(api, server);
  });

  afterEach(async () => {
    stub?.restore();
    stub = undefined;
    asked.length = 0;
    api.selection.current = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await setSetting('baseUrl', undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await server.close();
  });

  it('nothing selected: asks, listing the embedding models first for Embeddings and hiding none', async () => {
    answerPicks((items, n) => (n === 0 ? label('Embeddings')(items) : firstModel(items)));
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>(Commands.newRequest);
    assert.equal(asked.length, 2, 'the endpoint, then the model');
    const models = rows(asked[1].items);
    // The model the registry retires comes after the current ones, with its date: Enter takes one that stays.
    assert.deepEqual(models.slice(0, 6), [
      '— cirrus',
      'cirrus-embed-2',
      'cirrus-embed-2-large',
      '— Deprecated or retiring',
      'cirrus-embed-1',
      '— Other models (may not answer POST /v1/embeddings)',
    ]);
    assert.match(String(asked[1].items.find((i) => i.label === 'cirrus-embed-1')?.description), /retire/);
    const acme = server.registry.models.filter((m) => m.organization === 'acme').map((m) => m.id);
    assert.deepEqual(models.filter((r) => !r.startsWith('— ')).sort(), [...acme].sort(), 'every model is offered');
    const speech = asked[1].items.find((i) => i.label === 'tern-tts-2');
    assert.match(String(speech?.description), /other kind of model$/);
    assert.match(String(asked[1].options.title), /which model for POST \/v1\/embeddings/);
    assert.equal(payloadModel(editor), 'cirrus-embed-2');
  });

  it('a selected chat model that suits the endpoint is used without asking; one that does not makes it ask', async () => {
    const aurora = api.catalog.models.find((m) => m.id === 'aurora-2');
    assert.ok(aurora);
    api.selection.current = { model: aurora };
    answerPicks((items) => label('Chat')(items));
    const chat = await vscode.commands.executeCommand<vscode.TextEditor>(Commands.newRequest);
    assert.equal(asked.length, 1, 'only the endpoint is asked');
    assert.equal(payloadModel(chat), 'aurora-2');
    // The endpoints the selected model suits come first.
    assert.deepEqual(
      rows(asked[0].items).map((r) => r.split(' ')[0]),
      ['Responses', 'Chat', 'Embeddings'],
    );
    stub?.restore();
    asked.length = 0;

    answerPicks((items, n) => (n === 0 ? label('Embeddings')(items) : firstModel(items)));
    const embeddings = await vscode.commands.executeCommand<vscode.TextEditor>(Commands.newRequest);
    assert.equal(asked.length, 2, 'the model is asked: aurora-2 is a chat model');
    assert.match(String(asked[1].options.placeHolder), /aurora-2 \(selected in the Models view\) may not answer/);
    assert.equal(payloadModel(embeddings), 'cirrus-embed-2');
  });

  it('a selected embedding model puts Embeddings first and is used for it', async () => {
    const embed = api.catalog.models.find((m) => m.id === 'cirrus-embed-2');
    assert.ok(embed);
    api.selection.current = { model: embed };
    answerPicks((items) => items[0]);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>(Commands.newRequest);
    assert.equal(asked[0].items[0].label, 'Embeddings');
    assert.equal(asked.length, 1);
    assert.equal(payloadModel(editor), 'cirrus-embed-2');
    assert.match(editor?.document.lineAt(0).text ?? '', /POST \/v1\/embeddings/);
  });

  it("Compare's picker lists the chat models first for a chat payload, the payload's own model checked", async () => {
    await newPayload('/v1/chat', 'aurora-2');
    let offered: readonly SafePickItem[] = [];
    stub = stubUi(api.ui, {
      pickMany: async (items) => {
        offered = items;
        return undefined;
      },
    });
    const outcome = await vscode.commands.executeCommand<{ kind: string }>(Commands.compareModels);
    assert.equal(outcome.kind, 'notRun');
    const shown = rows(offered);
    const other = shown.indexOf('— Other models (may not answer POST /v1/chat)');
    assert.ok(other > 0, shown.join(', '));
    for (const id of ['cirrus-embed-1', 'tern-asr-3', 'tern-tts-2', 'orbit-rerank-1']) {
      const at = shown.indexOf(id);
      assert.ok(at === -1 || at > other, `${id} after the chat models`);
    }
    for (const id of ['cirrus-embed-1', 'tern-asr-3']) {
      assert.ok(shown.indexOf(id) > other, `${id} is still offered`);
    }
    assert.ok(shown.indexOf('aurora-2') < other && shown.indexOf('basalt-code-2.1') < other);
    assert.equal(offered.find((i) => i.label === 'aurora-2')?.picked, true);
  });
});
