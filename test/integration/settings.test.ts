// The modelAccess.* settings no other suite sets, each set as a person would (user settings) and checked
// where its effect shows: the Set Service URL prompt, an answer that times out, the upload's purpose
// picker, response tabs, the Models view's rows and message, the chat models' token limits.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { ChatVendor, Commands, Settings } from '../../src/ids';
import type { SendOutcome } from '../../src/requests/send/send';
import { startServer, type RegistryModel, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';

const MODELS = 24;
/** A model whose registry entry gives only a context window: its input limit is the window minus the output budget. */
const WINDOWED = 'windowed-1';
const WINDOW = 10_000;

describe('Settings', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;
  let tmp: string;

  const models: RegistryModel[] = [
    ...Array.from({ length: MODELS }, (_, i): RegistryModel => ({
      id: `plain-${i}`,
      family: 'plain',
      version: String(i),
      organization: 'acme',
      model_card_url: `https://cards.example/plain-${i}`,
      created: 0,
    })),
    {
      id: WINDOWED,
      family: 'windowed',
      version: '1',
      organization: 'acme',
      model_card_url: 'https://cards.example/windowed',
      created: 0,
      extra: { context_window: WINDOW },
    },
  ];

  async function reload(): Promise<void> {
    await sleep(150);
    await api.catalog.refresh();
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    // Every POST /v1/chat is read and never answered (for the timeout); the rest answers normally.
    server = await startServer({
      registry: { organizations: ['acme'], models },
      pageSize: 5,
      faults: { hang: { rate: 1 }, paths: ['/v1/chat'] },
    });
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-settings-'));
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await reload();
    assert.equal(api.catalog.models.length, models.length);
  });

  beforeEach(() => {
    ui = stubUi(api.ui);
  });

  afterEach(() => ui.restore());

  after(async () => {
    for (const name of [
      'requestTimeoutSeconds',
      'allowInsecureHttp',
      'defaultFilePurpose',
      'responseInNewTab',
      'answers.openAs',
      'limits.maxModels',
      'limits.maxListMegabytes',
      'chat.defaultMaxInputTokens',
      'chat.defaultMaxOutputTokens',
    ]) {
      await setSetting(name, undefined);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('modelAccess.allowInsecureHttp lets Set Service URL accept an http:// URL that is not this machine', async () => {
    const validate = async () => {
      let check: vscode.InputBoxOptions['validateInput'];
      api.ui.input = async (options) => ((check = options.validateInput), undefined);
      await vscode.commands.executeCommand(Commands.setBaseUrl);
      return check?.('http://models.example.com');
    };
    assert.match(String(await validate()), /modelAccess\.allowInsecureHttp/);
    try {
      await setSetting('allowInsecureHttp', true);
      assert.equal(await validate(), undefined, 'accepted with the setting on');
    } finally {
      await setSetting('allowInsecureHttp', undefined);
    }
  });

  it('modelAccess.requestTimeoutSeconds bounds the wait for an answer', async () => {
    await setSetting('requestTimeoutSeconds', 1);
    try {
      await sleep(150);
      const editor = await newPayload('/v1/chat', 'plain-0');
      ui.messages.length = 0;
      const started = Date.now();
      const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.ok(outcome.kind === 'sent', JSON.stringify(outcome));
      assert.match(String(outcome.record.error), /did not answer in 1 s|timed out/);
      assert.ok(Date.now() - started < 15_000, `gave up after ${Date.now() - started} ms`);
      // A chat answer shows in the conversation panel, so the timeout is said there, and only there.
      const html = () => api.requests.panels.shown(editor.document.uri)?.pieces.join('\n') ?? '';
      await eventually(() => /timed out|did not answer/.test(html()), 10_000, 'the timeout in the panel');
      assert.deepEqual(
        ui.messages.filter((m) => /timed out|did not answer/.test(m)),
        [],
        'no notification over the panel as well',
      );
    } finally {
      await setSetting('requestTimeoutSeconds', undefined);
    }
  });

  it('modelAccess.defaultFilePurpose is offered first, marked default, when uploading', async () => {
    const file = path.join(tmp, 'data.jsonl');
    writeFileSync(file, '{"a":1}\n');
    await setSetting('defaultFilePurpose', 'batch');
    try {
      const offered: { label: string; description?: string }[] = [];
      api.ui.pick = async (items) => (offered.push(...items), undefined);
      await vscode.commands.executeCommand(Commands.uploadFile, vscode.Uri.file(file));
      assert.equal(offered[0]?.label, 'batch');
      assert.equal(offered[0]?.description, 'default (modelAccess.defaultFilePurpose)');
    } finally {
      await setSetting('defaultFilePurpose', undefined);
    }
  });

  it('modelAccess.responseInNewTab opens each answer in its own document', async () => {
    const sendTwice = async () => {
      await newPayload('/v1/embeddings', 'plain-0');
      const outcomes: SendOutcome[] = [];
      for (let i = 0; i < 2; i++) {
        outcomes.push((await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome);
      }
      return outcomes.map((o) => (o.kind === 'sent' ? o.responseUri.toString() : o.kind));
    };
    // The source documents (an embeddings answer is otherwise drawn as its picture).
    await setSetting(Settings.answersOpenAs, 'text');
    const [a, b] = await sendTwice();
    assert.equal(a, b, 'by default the payload’s response document is reused');
    await setSetting('responseInNewTab', true);
    try {
      const [c, d] = await sendTwice();
      assert.notEqual(c, d, 'a new document per answer');
      for (const uri of [c, d]) {
        await eventually(
          () => vscode.workspace.textDocuments.some((doc) => doc.uri.toString() === uri),
          5000,
          `${uri} open`,
        );
      }
    } finally {
      await setSetting('responseInNewTab', undefined);
      await setSetting(Settings.answersOpenAs, undefined);
    }
  });

  it('modelAccess.answers.openAs: a chat answer in the conversation panel, or as the answer document', async () => {
    const isAnswerDocument = (e: vscode.TextEditor) => e.document.uri.scheme === 'model-access-response';
    const sendChat = async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const editor = await newPayload('/v1/chat', 'plain-0');
      const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(outcome.kind, 'sent');
      return editor.document.uri;
    };
    // This suite's service never answers a chat (for the timeout test): here it answers, so Send ends.
    server.setFaults(undefined);
    try {
      const panelUri = await sendChat();
      assert.ok(api.requests.panels.shown(panelUri), 'the panel opened');
      assert.ok(!vscode.window.visibleTextEditors.some(isAnswerDocument), 'no answer document by default');
      await setSetting('answers.openAs', 'text');
      const textUri = await sendChat();
      assert.equal(api.requests.panels.shown(textUri), undefined, 'no panel');
      await eventually(() => vscode.window.visibleTextEditors.some(isAnswerDocument), 5000, 'the answer document');
    } finally {
      await setSetting('answers.openAs', undefined);
      server.setFaults({ hang: { rate: 1 }, paths: ['/v1/chat'] });
    }
  });

  it('modelAccess.limits.maxModels and limits.maxListMegabytes stop the list and the view says so', async () => {
    try {
      await setSetting('limits.maxModels', 7);
      await reload();
      assert.equal(api.catalog.models.length, 7);
      assert.match(String(api.view.treeView.message), /modelAccess\.limits\.maxModels/);
      await setSetting('limits.maxModels', undefined);
      await setSetting('limits.maxListMegabytes', 0.0001);
      await reload();
      assert.ok(
        api.catalog.models.length > 0 && api.catalog.models.length < models.length,
        `${api.catalog.models.length} models`,
      );
      assert.match(String(api.view.treeView.message), /modelAccess\.limits\.maxListMegabytes/);
    } finally {
      await setSetting('limits.maxModels', undefined);
      await setSetting('limits.maxListMegabytes', undefined);
      await reload();
    }
    assert.equal(api.catalog.models.length, models.length);
  });

  it('modelAccess.chat.defaultMaxInputTokens and chat.defaultMaxOutputTokens set the chat models’ limits', async () => {
    const limit = async (id: string) =>
      (await vscode.lm.selectChatModels({ vendor: ChatVendor, id }))[0]?.maxInputTokens;
    await eventually(async () => (await limit('plain-0')) === 16_384, 15_000, 'the default input limit');
    // Output budget min(4096, window/4) = 2500.
    await eventually(
      async () => (await limit(WINDOWED)) === WINDOW - 2500,
      15_000,
      'window minus the default output budget',
    );
    try {
      await setSetting('chat.defaultMaxInputTokens', 5000);
      await setSetting('chat.defaultMaxOutputTokens', 1000);
      await eventually(async () => (await limit('plain-0')) === 5000, 15_000, 'the input limit from the setting');
      await eventually(
        async () => (await limit(WINDOWED)) === WINDOW - 1000,
        15_000,
        'window minus the output budget from the setting',
      );
    } finally {
      await setSetting('chat.defaultMaxInputTokens', undefined);
      await setSetting('chat.defaultMaxOutputTokens', undefined);
    }
  });
});
