// Every palette command no other suite runs, run as the palette does (`executeCommand(Commands.x)`, no
// arguments) with its prompts answered through the test API (`stubUi`), checking what a person would see:
// the setting written, the key store, the Models view's rows and message, the documents, the history.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Commands, Settings, Views } from '../../src/ids';
import type { ModelsTreeNode } from '../../src/explorer/nodes';
import type { SendOutcome } from '../../src/requests/send/send';
import type { SafePickItem } from '../../src/platform/ui';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';

const isFamily = (n: ModelsTreeNode) => n.contextValue === 'family';
const isModel = (n: ModelsTreeNode) => /^model/.test(n.contextValue ?? '');
const labelOf = (n: vscode.TreeItem) => (typeof n.label === 'string' ? n.label : (n.label?.label ?? ''));
const setting = (name: string) => vscode.workspace.getConfiguration(Settings.section).inspect(name);

function documentText(uri: vscode.Uri): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText();
}

describe('Commands from the palette', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;
  let tmp: string;

  const roots = () => api.view.provider.getChildren();
  const modelRows = () =>
    roots()
      .flatMap((n) => (isFamily(n) ? api.view.provider.getChildren(n) : [n]))
      .filter(isModel);
  const acmeIds = () => server.registry.models.filter((m) => m.organization === 'acme').map((m) => m.id);

  /** Sends a fresh payload for `endpoint` with `run` (the palette's Send …) and waits for the finished answer. */
  async function send(
    run: () => Thenable<unknown>,
    endpoint: string,
    edit?: (p: Record<string, unknown>) => void,
  ): Promise<SendOutcome & { kind: 'sent' }> {
    await newPayload(endpoint, api.catalog.models[0].id, edit);
    const outcome = (await run()) as SendOutcome;
    assert.equal(outcome.kind, 'sent', JSON.stringify(outcome));
    assert.ok(outcome.kind === 'sent');
    // The document is redrawn after the command returns: wait for the status line.
    await eventually(
      () => /^POST \S+ · \d{3} /m.test(documentText(outcome.responseUri) ?? ''),
      10_000,
      'the status in the response document',
    );
    return outcome;
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-commands-'));
    await setSetting('groupByFamily', true);
    // These commands act on the answer document (headers, raw events, body, history): Send opens it when
    // answers open as text; the conversation panel, the default, has its own suite (conversation.test.ts).
    await setSetting(Settings.answersOpenAs, 'text');
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await sleep(150);
    await api.catalog.refresh();
    assert.equal(api.catalog.status.kind, 'ready');
    await vscode.commands.executeCommand(`${Views.models}.focus`);
  });

  beforeEach(() => {
    ui = stubUi(api.ui);
  });

  afterEach(() => {
    ui.restore();
    api.view.setFilter(undefined);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await setSetting('groupByFamily', undefined);
    await setSetting(Settings.answersOpenAs, undefined);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('Set Service URL offers the current URL, writes the user setting and asks for a key the new service lacks', async () => {
    const other = await startServer();
    const offered: (string | undefined)[] = [];
    try {
      api.ui.input = async (options) => (offered.push(options.value), other.url);
      assert.equal(await vscode.commands.executeCommand(Commands.setBaseUrl), other.url);
      assert.deepEqual(offered, [server.url], 'the prompt starts from the current URL');
      assert.equal(setting(Settings.baseUrl)?.globalValue, other.url);
      await eventually(
        () => ui.messages.some((m) => m.includes(`Service URL set to 127.0.0.1:${other.port}. Now set the API key`)),
        5000,
        'the "now set the key" message',
      );
      await eventually(
        () => api.catalog.status.kind === 'needsKey' && roots().length === 0,
        10_000,
        'an empty view asking for a key',
      );

      // An invalid URL (the prompt refuses it) writes nothing.
      api.ui.input = async () => 'ftp://models.example.com';
      assert.equal(await vscode.commands.executeCommand(Commands.setBaseUrl), undefined);
      assert.equal(setting(Settings.baseUrl)?.globalValue, other.url);
    } finally {
      api.ui.input = async () => server.url;
      await vscode.commands.executeCommand(Commands.setBaseUrl);
      await other.close();
    }
    assert.equal(setting(Settings.baseUrl)?.globalValue, server.url);
    await eventually(() => modelRows().length === acmeIds().length, 10_000, "acme's models again");
  });

  it('Clear API Key removes the stored key for the service; the view then asks for one', async () => {
    try {
      assert.equal(await vscode.commands.executeCommand(Commands.clearApiKey), true);
      assert.equal(await api.keys.storedScope(server.url), undefined, 'no key is stored for the service');
      assert.ok(
        ui.messages.some((m) => m.includes(`API key for ${server.url} removed.`)),
        ui.messages.join(' | '),
      );
      await eventually(
        () => api.catalog.status.kind === 'needsKey' && roots().length === 0,
        10_000,
        'an empty view asking for a key',
      );
      ui.messages.length = 0;
      assert.equal(await vscode.commands.executeCommand(Commands.clearApiKey), false, 'nothing left to clear');
      assert.ok(
        ui.messages.some((m) => m.includes('No API key is stored for 127.0.0.1')),
        ui.messages.join(' | '),
      );
    } finally {
      await api.keys.store(server.url, server.keys.acme);
    }
    await eventually(
      () => api.catalog.status.kind === 'ready' && modelRows().length === acmeIds().length,
      10_000,
      "acme's models again",
    );
  });

  it('Filter Models narrows the rows and says so; Clear Models Filter shows them all again', async () => {
    const offered: vscode.InputBoxOptions[] = [];
    api.ui.input = async (options) => (offered.push(options), 'aurora 2');
    await vscode.commands.executeCommand(Commands.filterModels);
    assert.equal(offered[0].title, 'Filter Models');
    const shown = modelRows().map(labelOf);
    const expected = acmeIds().filter((id) => id.includes('aurora') && id.includes('2'));
    assert.ok(expected.length > 0);
    assert.deepEqual([...shown].sort(), [...expected].sort());
    assert.match(
      String(api.view.treeView.message),
      new RegExp(`Filter “aurora 2”: ${expected.length} of ${acmeIds().length} models`),
    );

    // Filtering again starts from the current filter.
    api.ui.input = async (options) => (offered.push(options), 'no-such-model-anywhere');
    await vscode.commands.executeCommand(Commands.filterModels);
    assert.equal(offered[1].value, 'aurora 2');
    const [message] = roots();
    assert.equal(message.contextValue, 'message');
    assert.match(labelOf(message), /No models match “no-such-model-anywhere”/);
    assert.equal(message.command?.command, Commands.clearFilter);

    await vscode.commands.executeCommand(Commands.clearFilter);
    assert.equal(api.view.filter, undefined);
    assert.doesNotMatch(String(api.view.treeView.message ?? ''), /Filter/);
    assert.equal(modelRows().length, acmeIds().length);
  });

  it('Copy Model ID offers the models and copies the id picked', async () => {
    const offered: string[] = [];
    api.ui.pick = async (items) => {
      offered.push(...items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label));
      return items.find((i) => i.label === 'aurora-2');
    };
    assert.equal(await vscode.commands.executeCommand(Commands.copyModelId), 'aurora-2');
    assert.deepEqual([...offered].sort(), [...acmeIds()].sort());
    assert.deepEqual(ui.copied, ['aurora-2']);
  });

  it('Show Models as a Flat List and Group Models by Family write the setting and redraw the rows', async () => {
    try {
      await vscode.commands.executeCommand(Commands.viewAsList);
      assert.equal(setting(Settings.groupByFamily)?.globalValue, false);
      await eventually(
        () => roots().length === acmeIds().length && roots().every(isModel),
        5000,
        'a flat list of every model',
      );
      await vscode.commands.executeCommand(Commands.viewAsGroups);
      assert.equal(setting(Settings.groupByFamily)?.globalValue, true);
      await eventually(() => roots().length > 0 && roots().every(isFamily), 5000, 'family groups');
      assert.equal(modelRows().length, acmeIds().length);
    } finally {
      await setSetting('groupByFamily', true);
    }
  });

  it('Send to /v1/chat and Send to /v1/embeddings post to that endpoint and show its answer', async () => {
    const chat = await send(() => vscode.commands.executeCommand(Commands.sendToChat), '/v1/chat');
    assert.equal(server.requests.at(-1)?.url, '/v1/chat');
    const chatText = await eventually(() => documentText(chat.responseUri), 5000, 'the chat response document');
    assert.match(chatText, /^POST \/v1\/chat · 200 OK/m);

    const embeddings = await send(() => vscode.commands.executeCommand(Commands.sendToEmbeddings), '/v1/embeddings');
    assert.equal(server.requests.at(-1)?.url, '/v1/embeddings');
    // Shown as its picture (modelAccess.answers.openAs); its Markdown source is the same document as before.
    const text = (await vscode.workspace.openTextDocument(embeddings.responseUri)).getText();
    assert.match(text, /^POST \/v1\/embeddings · 200 OK/m);
    assert.match(text, /^## 1 vector × \d+ dimensions$/m, 'the answer says what came back');
    assert.match(text, /"embedding": "\[\d+ numbers: /, 'the vector is folded in the JSON');
  });

  it("Change Request Endpoint rewrites the payload's first line to the endpoint picked", async () => {
    const editor = await newPayload('/v1/chat', api.catalog.models[0].id);
    const offered: SafePickItem[][] = [];
    api.ui.pick = async (items) => (
      offered.push([...items]),
      items.find((i) => (i as { path?: string }).path === '/v1/responses')
    );
    await vscode.commands.executeCommand(Commands.changeEndpoint);
    assert.equal(editor.document.lineAt(0).text, '// POST /v1/responses');
    assert.equal(offered[0].find((i) => i.label === 'POST /v1/chat')?.description, 'current');
  });

  it('Open Scratch Folder lists the scratch payloads and opens the one picked', async () => {
    const editor = await newPayload('/v1/responses', api.catalog.models[0].id);
    const name = path.posix.basename(editor.document.uri.path);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const offered: string[] = [];
    api.ui.pick = async (items) => {
      offered.push(...items.map((i) => i.label));
      return items.find((i) => i.label === `$(json) ${name}`);
    };
    await vscode.commands.executeCommand(Commands.openScratchFolder);
    assert.ok(offered.includes('$(folder-opened) Open the scratch folder in a new window'), offered.join(' | '));
    await eventually(
      () => vscode.window.activeTextEditor?.document.uri.toString() === editor.document.uri.toString(),
      5000,
      `${name} in the active editor`,
    );
  });

  it('Show Request History lists the requests and shows or re-opens one; Clear Request History empties it', async () => {
    // Only this suite's requests: earlier suites' services count as other environments, listed apart.
    await api.requests.history.clear();
    await send(() => vscode.commands.executeCommand(Commands.sendRequest), '/v1/chat');
    const entry = api.requests.history.entries[0];
    const listed: string[][] = [];
    let action = 'show';
    api.ui.pick = async (items) => {
      listed.push(items.map((i) => i.label));
      const withEntry = items.find((i) => (i as { entry?: unknown }).entry === entry);
      return withEntry ?? items.find((i) => (i as { run?: string }).run === action);
    };
    await vscode.commands.executeCommand(Commands.showHistory);
    assert.equal(listed[0].length, api.requests.history.entries.length, 'every entry is offered');
    assert.match(listed[0][0], /\/v1\/chat/);
    assert.ok(
      ui.messages.some((m) => m.includes(entry.summary)),
      ui.messages.join(' | '),
    );

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    action = 'open';
    await vscode.commands.executeCommand(Commands.showHistory);
    await eventually(
      () => vscode.window.activeTextEditor?.document.getText() === entry.payload,
      5000,
      'the payload re-opened',
    );

    await vscode.commands.executeCommand(Commands.clearHistory);
    assert.equal(api.requests.history.entries.length, 0);
    assert.ok(ui.messages.includes('Request history cleared.'));
    await vscode.commands.executeCommand(Commands.showHistory);
    assert.ok(ui.messages.includes('No requests yet.'));
  });

  it('Show/Hide Response Headers adds the headers to the response document and takes them away', async () => {
    const outcome = await send(() => vscode.commands.executeCommand(Commands.sendRequest), '/v1/chat');
    await vscode.window.showTextDocument(outcome.responseUri, { preview: false });
    const marker = '### Response headers';
    assert.ok(!documentText(outcome.responseUri)?.includes(marker));
    await vscode.commands.executeCommand(Commands.toggleResponseHeaders);
    const shown = await eventually(
      () => documentText(outcome.responseUri)?.includes(marker) && documentText(outcome.responseUri),
      5000,
      'the headers',
    );
    assert.match(shown, /^- content-type: application\/json/im);
    await vscode.commands.executeCommand(Commands.toggleResponseHeaders);
    await eventually(() => !documentText(outcome.responseUri)?.includes(marker), 5000, 'the headers hidden again');
  });

  it('Show Raw Stream Events opens the stream’s data: lines; for an answer that is no stream it says so', async () => {
    const streamed = await send(
      () => vscode.commands.executeCommand(Commands.sendRequest),
      '/v1/responses',
      (p) => (p.stream = true),
    );
    await eventually(() => documentText(streamed.responseUri)?.includes('### Final event'), 10_000, 'the final event');
    await vscode.window.showTextDocument(streamed.responseUri, { preview: false });
    await vscode.commands.executeCommand(Commands.showRawEvents);
    const raw = await eventually(
      () => {
        const doc = vscode.window.activeTextEditor?.document;
        return doc?.uri.scheme === 'untitled' && doc.getText();
      },
      5000,
      'the raw events document',
    );
    const dataLines = raw.split('\n').filter((l) => l.startsWith('data:'));
    assert.ok(dataLines.length > 1, raw.slice(0, 500));
    assert.ok(raw.includes('response.completed'));
    assert.ok(!raw.includes(server.keys.acme));

    const plain = await send(() => vscode.commands.executeCommand(Commands.sendRequest), '/v1/chat');
    await vscode.window.showTextDocument(plain.responseUri, { preview: false });
    await vscode.commands.executeCommand(Commands.showRawEvents);
    assert.ok(ui.messages.includes('The active response is not a stream of events.'), ui.messages.join(' | '));
  });

  it('Save Response Body writes the answer’s body to the file chosen', async () => {
    const outcome = await send(() => vscode.commands.executeCommand(Commands.sendRequest), '/v1/chat');
    await vscode.window.showTextDocument(outcome.responseUri, { preview: false });
    const target = vscode.Uri.file(path.join(tmp, 'answer.json'));
    const asked: vscode.SaveDialogOptions[] = [];
    api.ui.saveDialog = async (options) => (asked.push(options), target);
    await vscode.commands.executeCommand(Commands.saveResponseBody);
    assert.equal(asked[0]?.saveLabel, 'Save response body');
    await eventually(() => existsSync(target.fsPath), 5000, 'the saved file');
    const saved = readFileSync(target.fsPath, 'utf8');
    assert.equal(saved, api.requests.responses.fullBody(outcome.responseUri));
    assert.ok(JSON.parse(saved).id, 'the JSON body the service sent');

    // Cancelling the dialog writes nothing.
    rmSync(target.fsPath);
    api.ui.saveDialog = async () => undefined;
    await vscode.commands.executeCommand(Commands.saveResponseBody);
    await sleep(200);
    assert.ok(!existsSync(target.fsPath));
  });

  it('Get Started opens the walkthrough (in the Welcome editor, the only tab, active)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand(Commands.openWalkthrough);
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    await eventually(
      () => tabs().length === 1 && tabs()[0].label === 'Welcome' && tabs()[0].isActive,
      10_000,
      'the Welcome editor with the walkthrough',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
