// A failed Send with the conversation panel open: the error shows once, in the panel under the question, with
// the ways out as its buttons, and no notification over the panel as well. An unknown model (404) offers
// Pick a Model…, which writes the picked model into the payload and sends it again; a stopped service offers
// Retry, Switch Environment… and Diagnose Connection.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import type { SafePickItem, SafeQuickPickOptions } from '../../src/platform/ui';
import type { ModelEntry } from '../../src/api/types';
import { Commands } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';

async function send(): Promise<Extract<SendOutcome, { kind: 'sent' }>> {
  const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
  assert.ok(outcome.kind === 'sent', outcome.kind === 'sent' ? '' : outcome.message);
  return outcome;
}

/** The way-out buttons the panel of `uri` shows: `[way, title]`. */
function buttonsIn(html: string): [string, string][] {
  return [...html.matchAll(/data-action="way" data-way="([^"]+)">([^<]*)</g)].map((m) => [m[1], m[2]]);
}

describe('Conversation panel errors', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;
  let model: string;
  const picks: string[] = [];
  let choose: string | undefined;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    ui = stubUi(api.ui, {
      pick: async <T extends SafePickItem>(items: readonly T[], options: SafeQuickPickOptions) => {
        picks.push(String(options.title));
        return items.find((i) => (i as { model?: ModelEntry }).model?.id === choose);
      },
    });
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await sleep(150);
    await api.catalog.refresh();
    model = api.catalog.models.find((m) => m.id === 'aurora-2')?.id ?? api.catalog.models[0].id;
  });

  after(async () => {
    ui?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close().catch(() => undefined);
  });

  beforeEach(() => {
    ui.messages.length = 0;
    picks.length = 0;
    choose = undefined;
  });

  it('an unknown model: the 404 in the panel with Pick a Model…, no notification; the pick fixes the payload and sends again', async () => {
    const editor = await newPayload('/v1/chat', model, (p) => (p.model = 'no-such-model'));
    const uri = editor.document.uri;
    const outcome = await send();
    assert.equal(outcome.record.status, 404);
    const html = () => api.requests.panels.shown(uri)?.pieces.join('\n') ?? '';
    await eventually(() => html().includes('role="alert"'), 10_000, 'the error in the panel');
    assert.match(html(), /no-such-model/, 'the panel says what the service said');
    assert.deepEqual(buttonsIn(html()), [['pickModel', 'Pick a Model…']]);
    // The panel's error is the only one: no notification covers the panel's bottom.
    await sleep(200);
    assert.deepEqual(ui.messages, []);

    choose = model;
    const before = server.received('/v1/chat', 'POST').length;
    await api.requests.panels.chooseWay(uri, 'pickModel');
    assert.deepEqual(picks, ['Pick a model for this payload']);
    assert.equal((parse(editor.document.getText()) as { model: string }).model, model, 'the payload names the pick');
    const sent = server.received('/v1/chat', 'POST');
    assert.equal(sent.length, before + 1, 'sent again');
    assert.equal(sent.at(-1)?.json?.model, model);
    await eventually(() => !html().includes('role="alert"'), 10_000, 'the error gone once the answer arrived');
    assert.match(html(), /Assistant/);
    assert.deepEqual(ui.messages, []);
  });

  it('dismissing Pick a Model… changes nothing and sends nothing', async () => {
    const editor = await newPayload('/v1/chat', model, (p) => (p.model = 'no-such-model'));
    await send();
    const before = server.received('/v1/chat', 'POST').length;
    const text = editor.document.getText();
    await api.requests.panels.chooseWay(editor.document.uri, 'pickModel');
    assert.equal(picks.length, 1);
    assert.equal(editor.document.getText(), text);
    assert.equal(server.received('/v1/chat', 'POST').length, before);
  });

  // Last: it stops the service.
  it('a stopped service: Retry, Switch Environment… and Diagnose Connection in the panel, no notification', async () => {
    const editor = await newPayload('/v1/chat', model);
    const uri = editor.document.uri;
    await server.close();
    const outcome = await send();
    assert.equal(outcome.record.status, undefined);
    assert.equal(outcome.record.failure?.kind, 'network');
    const html = () => api.requests.panels.shown(uri)?.pieces.join('\n') ?? '';
    await eventually(() => html().includes('role="alert"'), 10_000, 'the error in the panel');
    assert.deepEqual(
      buttonsIn(html()).map(([, title]) => title),
      ['Retry', 'Switch Environment…', 'Diagnose Connection'],
    );
    await sleep(200);
    assert.deepEqual(ui.messages, []);
    // Switch Environment… opens the environment picker.
    await api.requests.panels.chooseWay(uri, 'switchEnvironment');
    assert.deepEqual(picks, ['Model Access: Switch Environment']);
  });
});
