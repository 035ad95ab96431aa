// Issue 19 in a real VS Code: a hostile service (test/server hostile mode) whose ids, families, versions,
// errors and answers carry command links, icons, forged log lines, bidi overrides, quotes, deep nesting,
// colliding ids, the key escaped or split, and endless streams. Every message, tree row, quick-pick item,
// document and log line the extension produces is checked, and every model stays listed.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
// Types only: the suite is bundled apart from the extension, so nodes are told apart by contextValue.
import type { FamilyNode, ModelNode, ModelsTreeNode } from '../../src/explorer/nodes';
import type { SendOutcome } from '../../src/requests/send/send';
import { HOSTILE, HOSTILE_IDS, startServer, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';
import { Commands } from '../../src/ids';

// What VS Code turns into a clickable link in a notification, and into an icon in a label.
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const VSCODE_ICON = /(?<!\\)\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/i;

function assertInert(text: string | undefined, where: string): void {
  if (!text) {
    return;
  }
  assert.doesNotMatch(text, VSCODE_LINK, `${where} holds a link: ${JSON.stringify(text)}`);
  assert.doesNotMatch(text, VSCODE_ICON, `${where} holds an icon: ${JSON.stringify(text)}`);
  assert.doesNotMatch(text, /[\n\r\u2028\u2029]/, `${where} holds a line break: ${JSON.stringify(text)}`);
  assert.doesNotMatch(
    text,
    /[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/,
    `${where} holds a bidi or zero-width character: ${JSON.stringify(text)}`,
  );
}

const isFamily = (n: ModelsTreeNode): n is FamilyNode => n.contextValue === 'family';
const isModel = (n: ModelsTreeNode): n is ModelNode => /^model/.test(n.contextValue ?? '');

function labelOf(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      filesUnder(file, out);
    } else if (st?.isFile()) {
      out.push(file);
    }
  }
  return out;
}

describe('Hostile service: registry and service text is data', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let key: string;
  const picks: vscode.QuickPickItem[][] = [];
  let ui: UiStub;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({
      hostile: { models: true, deepEntry: true, errors: true, answers: true, endlessStream: true },
    });
    key = server.keys.hostile;
    ui = stubUi(api.ui, { pick: async (items) => (picks.push([...items]), undefined) });
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, key);
    await sleep(150);
    await api.catalog.refresh();
    await eventually(() => api.catalog.status.kind === 'ready', 15_000, 'the hostile list');
  });

  after(async () => {
    ui?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('limits.maxResponseMegabytes', undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
  });

  it('lists every model, colliding ids included, with unique tree ids and inert labels', async () => {
    const listed = server.registry.models.filter((m) => m.organization === server.hostile?.organization);
    assert.equal(api.catalog.models.length, listed.length);
    const nodes: ModelsTreeNode[] = [];
    for (const root of await api.view.provider.getChildren()) {
      nodes.push(root);
      if (isFamily(root)) {
        nodes.push(...(await api.view.provider.getChildren(root)));
      }
    }
    const models = nodes.filter(isModel);
    assert.equal(models.length, listed.length, 'one row per registry entry');
    for (const id of HOSTILE_IDS.collisions) {
      assert.ok(
        models.some((n) => n.model.id === id),
        `row for ${JSON.stringify(id)}`,
      );
    }
    const ids = nodes.map((n) => n.id).filter((id): id is string => id !== undefined);
    assert.equal(new Set(ids).size, ids.length, 'tree item ids are unique');
    for (const n of nodes) {
      assertInert(labelOf(n), 'a tree label');
      assertInert(typeof n.description === 'string' ? n.description : undefined, 'a tree description');
    }
    for (const n of models) {
      const tooltip = (await api.view.provider.resolveTreeItem(n, n)).tooltip;
      const md = tooltip instanceof vscode.MarkdownString ? tooltip : undefined;
      assert.equal(md?.isTrusted, false, 'tooltips are untrusted');
      assert.doesNotMatch(md?.value ?? '', /\]\(command:/, 'no command link in a tooltip');
    }
    for (const normal of HOSTILE_IDS.normal) {
      assert.ok(
        models.some((n) => n.model.id === normal),
        `the normal model ${normal} is listed`,
      );
    }
    assertInert(api.statusBar.item.text.replace(/^\$\([a-z-~]+\) /, ''), 'the status bar');
  });

  it('clicking a model whose id is a command link and that has no card gives an inert message', async () => {
    ui.messages.length = 0;
    const model = api.catalog.models.find((m) => m.id === HOSTILE_IDS.commandLinkNoCard);
    assert.ok(model);
    await setSetting('modelClickAction', 'openModelCard');
    const outcome = await vscode.commands.executeCommand(Commands.modelClicked, model);
    assert.equal(outcome, 'noCard');
    await eventually(() => ui.messages.length > 0, 5000, 'the message');
    assert.match(ui.messages[0], /has no Model Card link/);
    ui.messages.forEach((m) => assertInert(m, 'the notification'));
  });

  it('errors from the service (404/500 with command links and forged lines) become inert messages', async () => {
    ui.messages.length = 0;
    for (const id of [HOSTILE_IDS.inspect404, HOSTILE_IDS.inspect500, HOSTILE_IDS.commandLink]) {
      const model = api.catalog.models.find((m) => m.id === id);
      assert.ok(model, id);
      await vscode.commands.executeCommand(Commands.inspectModel, model);
    }
    await eventually(() => ui.messages.length >= 2, 5000, 'two error messages');
    ui.messages.forEach((m) => assertInert(m, 'an error notification'));
    assert.ok(
      ui.messages.every((m) => !m.includes(key)),
      'the key is not in a message',
    );
  });

  it('the model pickers show inert labels, descriptions and separators', async () => {
    picks.length = 0;
    await vscode.commands.executeCommand(Commands.inspectModel);
    await vscode.commands.executeCommand(Commands.showModels);
    assert.ok(picks.length >= 2);
    for (const item of picks.flat()) {
      assertInert(item.label.replace(/^\$\([a-z-]+\) /, ''), 'a quick-pick label');
      assertInert(item.description, 'a quick-pick description');
      assertInert(item.detail, 'a quick-pick detail');
    }
  });

  it('Inspect shows a 10,000-deep entry on one line instead of failing', async () => {
    const model = api.catalog.models.find((m) => m.id === HOSTILE_IDS.deep);
    assert.ok(model);
    const outcome = (await vscode.commands.executeCommand(Commands.inspectModel, model)) as {
      document?: vscode.TextDocument;
      message?: string;
    };
    assert.ok(outcome.document, outcome.message);
    const text = outcome.document.getText();
    assert.match(text, /Nested too deeply to indent/);
    assert.ok(text.includes('[[[[[[[['));
  });

  it('completion of an id holding quotes inserts it escaped: the payload keeps its keys', async () => {
    const editor = await newPayload('/v1/chat', 'plain-1');
    const doc = editor.document;
    const line = [...Array(doc.lineCount).keys()].find((i) => doc.lineAt(i).text.includes('"model"'));
    assert.ok(line !== undefined);
    const text = doc.lineAt(line).text;
    const start = text.indexOf('"plain-1"') + 1;
    await editor.edit((b) => b.replace(new vscode.Range(line, start, line, start + 'plain-1'.length), ''));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(line, start),
    );
    const item = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label).startsWith('he said'));
    assert.ok(item, 'the quoting id is offered');
    await editor.edit((b) => b.insert(new vscode.Position(line, start), String(item.insertText)));
    const payload = JSON.parse(doc.getText().replace(/^.*\n/, ''));
    assert.equal(payload.model, HOSTILE.quotes);
    assert.deepEqual(Object.keys(payload).sort(), ['messages', 'model', 'stream'].filter((k) => k in payload).sort());
  });

  for (const stream of [false, true]) {
    it(`an answer echoing the key ${stream ? 'split across two stream events' : 'with every character \\u-escaped'} shows, saves and records no key`, async () => {
      ui.messages.length = 0;
      await newPayload('/v1/chat', 'plain-1', (p) => (p.stream = stream));
      const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(outcome.kind, 'sent');
      assert.ok(outcome.kind === 'sent');
      assert.equal(outcome.record.status, 200);
      const doc = await vscode.workspace.openTextDocument(outcome.responseUri);
      await eventually(() => doc.getText().includes('API key:'), 5000, 'the answer');
      assert.ok(!doc.getText().includes(key), 'the document holds no key');
      assert.match(doc.getText(), /\[redacted\]/);
      const saved = api.requests.responses.fullBody(outcome.responseUri);
      assert.ok(saved !== undefined && !saved.includes(key), 'Save Response Body holds no key');
      const entry = api.requests.history.entries[0];
      assert.ok(!JSON.stringify(entry).includes(key), 'the history holds no key');
      // The history keeps the answer as data; what a person sees of it is display text.
      picks.length = 0;
      await vscode.commands.executeCommand(Commands.showHistory);
      assert.ok(picks[0]?.length > 0, 'the history picker opened');
      for (const item of picks[0]) {
        assertInert(item.label, 'a history label');
        assertInert(item.detail, 'a history summary');
      }
    });
  }

  it('an endless stream ends at the limit with a message naming the setting; the document stays bounded', async () => {
    await setSetting('limits.maxResponseMegabytes', 2);
    ui.messages.length = 0;
    await newPayload('/v1/chat', HOSTILE_IDS.endless, (p) => (p.stream = true));
    const started = Date.now();
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(outcome.kind === 'sent');
    assert.equal(outcome.record.limitReached, true);
    assert.ok(Date.now() - started < 30_000);
    await eventually(
      () => ui.messages.some((m) => m.includes('modelAccess.limits.maxResponseMegabytes')),
      5000,
      'the limit message',
    );
    const doc = await vscode.workspace.openTextDocument(outcome.responseUri);
    const text = await eventually(
      () => /^POST .* · stopped at the size limit/m.test(doc.getText()) && doc.getText(),
      5000,
      'the final redraw',
    );
    assert.ok(text.length < 300 * 1024, `the document renders ${text.length} characters`);
    assert.match(text, /^POST \S+ · 200 OK · stopped at the size limit/m);
    // The service stopped writing: the extension closed the connection.
    await eventually(
      () => server.hostile?.endlessWrites.some((w) => w.endedAt !== undefined),
      5000,
      'the server to see the close',
    );
    assert.match(api.requests.history.entries[0].summary, /maxResponseMegabytes/);
  });

  it('an endless chat answer in VS Code chat stops at the limit with a message naming the setting', async () => {
    await setSetting('limits.maxResponseMegabytes', 1);
    const [model] = await eventually(
      async () => {
        const found = await vscode.lm.selectChatModels({ vendor: 'model-access', id: HOSTILE_IDS.endless });
        return found.length ? found : undefined;
      },
      10_000,
      'the endless chat model',
    );
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('go')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let chars = 0;
    await assert.rejects(
      (async () => {
        for await (const part of response.text) {
          chars += part.length;
        }
      })(),
      /maxResponseMegabytes/,
    );
    assert.ok(chars <= 1024 * 1024 + 64 * 1024, `received ${chars} characters`);
    await eventually(
      () => server.hostile?.endlessWrites.filter((w) => w.path === '/v1/chat').every((w) => w.endedAt !== undefined),
      5000,
      'the server to see the close',
    );
  });

  it('log lines from hostile text stay one line each: no forged entry', async () => {
    const userDataDir = path.resolve(api.requests.scratch.folder.fsPath, '..', '..', '..', '..');
    const logs = filesUnder(userDataDir).filter((f) => /Model Access\.log$/.test(f));
    assert.ok(logs.length > 0, 'the Model Access log file exists');
    for (const file of logs) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        assert.ok(!/^\s*2026-01-01 \[error\] forged/.test(line), `a forged log line: ${line}`);
      }
    }
  });
});
