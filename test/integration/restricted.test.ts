// Restricted Mode: the runner opens a second window with workspace trust on and the folder untrusted, and
// runs only this suite there (in the trusted window it skips itself). The folder's .vscode/settings.json
// points every restricted setting somewhere else — another service, its own template, no chat models — and
// the extension must work from user settings alone: models listed, a card opened, a request answered, chat
// models offered, and not one request to the workspace's service.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { INPUT_PLACEHOLDER } from '../../src/requests/payloads/core/templates';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, SECTION, setSetting, sleep } from './helpers';
import { Commands } from '../../src/ids';

describe('Restricted Mode (untrusted workspace)', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let service: RunningServer;
  /** What the workspace's settings point at: it must never be called. */
  let workspaceService: RunningServer;
  let settingsDir: string | undefined;

  before(async function () {
    if (vscode.workspace.isTrusted) {
      this.skip(); // The runner's untrusted window runs it.
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the window has a folder');
    api = await activateExtension<ModelAccessApi>();
    assert.ok(api, 'the extension is enabled in Restricted Mode');
    service = await startServer();
    workspaceService = await startServer();
    settingsDir = path.join(folder.uri.fsPath, '.vscode');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(
      path.join(settingsDir, 'settings.json'),
      JSON.stringify({
        'modelAccess.baseUrl': workspaceService.url,
        'modelAccess.environments': [{ name: 'From the workspace', baseUrl: workspaceService.url }],
        'modelAccess.requestTemplates': {
          '/v1/chat': { model: '', messages: [{ role: 'user', content: 'from the workspace' }] },
        },
        'modelAccess.chat.models': ['no-such-model-*'],
        'modelAccess.chat.enabled': false,
        'modelAccess.groupByFamily': false, // Not restricted: shows when VS Code has read the file.
      }),
    );
    await eventually(
      () => vscode.workspace.getConfiguration(SECTION).inspect('groupByFamily')?.workspaceValue === false,
      15_000,
      'the workspace settings to be read',
    );
    await setSetting('baseUrl', service.url);
    await api.keys.store(service.url, service.keys.acme);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.url === service.url && s.setup === 'ready'),
      5000,
      'the user-settings service',
    );
    await sleep(150);
  });

  after(async () => {
    if (settingsDir) {
      rmSync(settingsDir, { recursive: true, force: true });
    }
    if (api && service) {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await api.keys.delete(service.url).catch(() => undefined);
      await setSetting('baseUrl', undefined);
    }
    await service?.close();
    await workspaceService?.close();
  });

  it("lists the organization's models from user settings; the workspace's service URL is never used", async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const inspected = vscode.workspace.getConfiguration(SECTION).inspect('baseUrl');
    assert.equal(inspected?.workspaceValue, undefined, 'VS Code hides the restricted workspace value');
    assert.deepEqual(
      api.environments.list.map((e) => e.baseUrl),
      [service.url],
      "the workspace's environments are not offered; the user's URL is the only one",
    );
    await api.catalog.refresh();
    const acme = service.registry.models
      .filter((m) => m.organization === 'acme')
      .map((m) => m.id)
      .sort();
    assert.deepEqual(api.catalog.models.map((m) => m.id).sort(), acme);
    assert.ok(api.view.provider.getChildren().length > 0, 'the Models view has rows');
    assert.equal(workspaceService.requests.length, 0, 'nothing reached the workspace service');
  });

  it('cards, requests and chat models work from user settings, with the built-in template', async () => {
    const opened: string[] = [];
    const restore = api.setOpener(async (url) => (opened.push(url), true));
    try {
      const model = service.registry.models.find((m) => m.organization === 'acme' && m.id === 'aurora-1.5');
      assert.ok(model);
      await vscode.commands.executeCommand(Commands.openModelCard, model.id);
      assert.deepEqual(opened, [model.model_card_url]);
    } finally {
      restore();
    }

    const editor = await newPayload('/v1/chat', api.catalog.models[0].id);
    assert.ok(editor.document.getText().includes(INPUT_PLACEHOLDER), 'the built-in template, not the workspace one');
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'sent');
    assert.ok(outcome.kind === 'sent');
    assert.equal(outcome.record.status, 200);

    const chat = await eventually(
      async () => {
        const models = await vscode.lm.selectChatModels({ vendor: 'model-access' });
        return models.length > 0 && models;
      },
      15_000,
      'chat models despite the workspace turning chat off',
    );
    assert.ok(chat.some((m) => m.id === 'aurora-1.5'));
    assert.equal(workspaceService.requests.length, 0, 'nothing reached the workspace service');
  });

  it('model ids in the code get their problems: the references only read', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const file = path.join(folder.uri.fsPath, 'restricted-refs', 'app.py');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'MODEL = "aurora-1"\n');
    try {
      await api.catalog.refresh();
      await api.references.feature().rescan();
      const problems = await eventually(
        () => {
          const found = vscode.languages
            .getDiagnostics(vscode.Uri.file(file))
            .filter((d) => d.source === 'Model Access');
          return found.length > 0 ? found : undefined;
        },
        15_000,
        'the problem of a file never opened',
      );
      assert.match(problems[0].message, /aurora-1/);
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
