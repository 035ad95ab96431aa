// How Send shows an answer (modelAccess.answers.openAs): rendered by default — an embeddings answer as its
// picture, in the answers' column, the payload keeping the focus — or as the Markdown source document; Open
// Answer as Text opens the source of the payload's own answer, never another payload's.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { startServer, type RunningServer } from '../server';
import { Commands, Settings } from '../../src/ids';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';

const isPicture = (t: vscode.Tab) =>
  t.input instanceof vscode.TabInputWebview && /modelAccess\.embeddingsPicture$/.test(t.input.viewType);
const isDocument = (uri: vscode.Uri) => (t: vscode.Tab) =>
  t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString();
const groupWith = (has: (t: vscode.Tab) => boolean) => vscode.window.tabGroups.all.find((g) => g.tabs.some(has));

describe('Answers: rendered or as text', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await sleep(150);
    await api.catalog.refresh();
  });

  beforeEach(() => {
    ui = stubUi(api.ui);
  });

  afterEach(async () => {
    ui.restore();
    await setSetting(Settings.answersOpenAs, undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
  });

  const sendEmbeddings = async () => {
    const editor = await newPayload('/v1/embeddings', api.catalog.models[0].id, (p) => (p.input = ['one', 'two']));
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(outcome.kind === 'sent' && outcome.record.status === 200, 'answered');
    return { editor, responseUri: outcome.responseUri };
  };

  it('Send shows an embeddings answer as its picture beside the payload; Open Answer as Text opens its source', async () => {
    const { editor, responseUri } = await sendEmbeddings();
    const pictureGroup = await eventually(() => groupWith(isPicture), 10_000, 'the embeddings picture');
    assert.notEqual(pictureGroup.viewColumn, vscode.window.tabGroups.activeTabGroup.viewColumn, 'beside the payload');
    assert.equal(vscode.window.activeTextEditor?.document, editor.document, 'the payload keeps the focus');
    assert.ok(!groupWith(isDocument(responseUri)), 'no Markdown source document');
    assert.match(api.requests.embeddings.html ?? '', /<h1 id="title">2 vectors × \d+ dimensions<\/h1>/);

    await vscode.commands.executeCommand(Commands.openAnswerAsText);
    await eventually(
      () => vscode.window.activeTextEditor?.document.uri.toString() === responseUri.toString(),
      5000,
      'the source document, focused',
    );
    assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /^## 2 vectors × \d+ dimensions$/m);
    assert.equal(groupWith(isDocument(responseUri))?.viewColumn, pictureGroup.viewColumn, 'in the answers’ column');
    assert.equal(vscode.window.tabGroups.all.length, 2, 'never a third column');
  });

  it('with modelAccess.answers.openAs "text", Send opens the source document and no picture', async () => {
    await setSetting(Settings.answersOpenAs, 'text');
    const { responseUri } = await sendEmbeddings();
    await eventually(() => groupWith(isDocument(responseUri)), 5000, 'the source document');
    assert.ok(!groupWith(isPicture), 'no picture');
  });

  it('a conversation answer’s document carries Reply as a labelled lens; an embeddings answer’s does not', async () => {
    const lenses = async (uri: vscode.Uri) =>
      ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) as vscode.CodeLens[]).map((l) => [
        l.command?.title,
        l.command?.command,
      ]);
    await setSetting(Settings.answersOpenAs, 'text');
    await newPayload('/v1/chat', api.catalog.models[0].id);
    const chat = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(chat.kind === 'sent');
    assert.deepEqual(await lenses(chat.responseUri), [['$(reply) Reply', Commands.reply]]);
    const { responseUri } = await sendEmbeddings();
    assert.deepEqual(await lenses(responseUri), []);
  });

  it('Open Answer as Text on a payload without an answer says so, and opens no other payload’s answer', async () => {
    const { responseUri } = await sendEmbeddings();
    await newPayload('/v1/chat', api.catalog.models[0].id);
    const before = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await vscode.commands.executeCommand(Commands.openAnswerAsText);
    assert.match(ui.messages.at(-1) ?? '', /no answer yet/);
    assert.ok(!groupWith(isDocument(responseUri)), 'the other payload’s answer stays closed');
    assert.deepEqual(
      vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)),
      before,
    );
  });
});
