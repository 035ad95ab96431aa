// Keys scoped to origin + path prefix, and service URLs chosen by a workspace, inside a real VS Code
// (code-server): one local service plays a gateway with two teams (`/team-a`, `/team-b`) under one origin,
// and records, for every request, whether it carried a key and whose it was.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiKeyStore } from '../../src/platform/apiKeys';
import type { ModelAccessApi } from '../../src/testApi';
import type { MessageNode, ModelsTreeNode } from '../../src/explorer/nodes';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, SECTION, setSetting, sleep, memorySecrets } from './helpers';
import { Commands, Settings, Views } from '../../src/ids';

type Level = 'user' | 'workspace';

/** Sets `modelAccess.baseUrl` in user or workspace settings (undefined removes it). */
async function setBaseUrl(level: Level, url: string | undefined): Promise<void> {
  const target = level === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  await vscode.workspace.getConfiguration(SECTION).update('baseUrl', url, target);
}

function labelOf(node: vscode.TreeItem): string {
  const l = node.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

const isMessage = (n: ModelsTreeNode | undefined): n is MessageNode => n?.contextValue === 'message';

describe('Key scopes: origin + path prefix, and service URLs a workspace chose', function () {
  this.timeout(90_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let origin: string;
  let teamA: string;
  let teamB: string;
  const messages: string[] = [];
  /** Every modal question: [message, detail, ...buttons]. */
  const asked: string[][] = [];
  let reply: ((answer: string | undefined) => void) | undefined;
  let restoreUi: () => void;

  /** Answers the open modal question. */
  function answer(button: string | undefined): void {
    assert.ok(reply, 'a question is open');
    const r = reply;
    reply = undefined;
    r(button);
  }

  /** Requests that reached `prefix`, and those of them that carried a key. */
  const reached = (prefix: string) => server.requests.filter((r) => r.url.startsWith(`${prefix}/`));
  const withKey = (prefix: string) => reached(prefix).filter((r) => r.authorization);

  /** Points the extension at `url` from `level` (the other level cleared) and waits until it uses it. */
  async function point(level: Level, url: string): Promise<void> {
    await setBaseUrl(level === 'user' ? 'workspace' : 'user', undefined);
    await setBaseUrl(level, url);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.url === url && s.baseUrl.source === level),
      5000,
      `${url} from ${level} settings`,
    );
    await sleep(150); // the change events are debounced
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ pathPrefix: ['/team-a', '/team-b'], pageSize: 50 });
    origin = new URL(server.url).origin;
    teamA = `${origin}/team-a`;
    teamB = `${origin}/team-b`;
    const { info, warn, ask } = api.ui;
    api.ui.info = async (m) => (messages.push(m), undefined);
    api.ui.warn = async (m) => (messages.push(m), undefined);
    api.ui.ask = (message, detail, ...buttons) =>
      new Promise((resolve) => {
        asked.push([message, detail, ...buttons]);
        reply = resolve;
      });
    restoreUi = () => Object.assign(api.ui, { info, warn, ask });
    await api.connection.consent.forget();
    // The view is open, so every change of URL or key reloads the list (and may ask).
    await vscode.commands.executeCommand(`workbench.view.extension.${Views.container}`);
  });

  after(async () => {
    reply?.(undefined);
    restoreUi?.();
    await setBaseUrl('workspace', undefined);
    await setSetting('baseUrl', undefined);
    for (const scope of [teamA, teamB, origin]) {
      await api.keys.delete(scope).catch(() => undefined);
    }
    await api.connection.consent.forget();
    await server?.close();
  });

  beforeEach(() => {
    messages.length = 0;
    asked.length = 0;
  });

  it('Set API Key stores the key for the URL’s path prefix; it serves that prefix only', async () => {
    await point('user', teamA);
    const prompts: vscode.InputBoxOptions[] = [];
    const { input } = api.ui;
    api.ui.input = async (options) => (prompts.push(options), options.password ? server.keys.globex : undefined);
    try {
      assert.equal(await vscode.commands.executeCommand(Commands.setApiKey), 'saved');
    } finally {
      api.ui.input = input;
    }
    assert.equal(prompts[0].title, `Model Access: API Key for ${teamA}`);
    assert.match(String(prompts[0].prompt), /sent only to URLs under that path/);
    assert.doesNotMatch(String(prompts[0].prompt), /workspace/);
    assert.ok(
      messages.some((m) => m.startsWith(`API key saved for ${teamA}:`)),
      messages.join(' | '),
    );

    assert.equal(await api.keys.storedScope(teamA), teamA);
    assert.equal(await api.keys.storedScope(`${teamA}/v1`), teamA);
    for (const elsewhere of [teamB, `${origin}/team-ab`, origin]) {
      assert.equal(await api.keys.get(elsewhere, 'user'), undefined, elsewhere);
    }
    await eventually(() => api.catalog.status.kind === 'ready', 10_000, 'the team-a list');
    assert.ok(withKey('/team-a').every((r) => r.organization === 'globex'));
    assert.deepEqual(asked, [], 'no question for a URL from user settings');
  });

  it('a workspace URL on another team’s prefix never gets a key stored for /team-a; Set API Key says where the URL came from', async () => {
    server.clearRecords();
    await point('workspace', teamB);
    await api.catalog.reload();
    assert.equal(api.catalog.status.kind, 'needsKey');
    assert.deepEqual(asked, [], 'nothing to ask: no key serves team-b');
    assert.equal(withKey('/team-b').length, 0, 'the team-a key never reached team-b');

    const prompts: vscode.InputBoxOptions[] = [];
    const { input } = api.ui;
    api.ui.input = async (options) => (prompts.push(options), undefined);
    try {
      assert.equal(await vscode.commands.executeCommand(Commands.setApiKey), 'cancelled');
    } finally {
      api.ui.input = input;
    }
    assert.equal(prompts[0].title, `Model Access: API Key for ${teamB}`);
    assert.match(
      String(prompts[0].prompt),
      /This URL was set by this workspace's settings \(modelAccess\.baseUrl\), not by you\./,
    );
    assert.equal(withKey('/team-b').length, 0);
  });

  it('a workspace URL under an origin key gets it only after "Allow": asked once, however many refreshes', async () => {
    server.clearRecords();
    // An origin key, as every key stored before path prefixes existed; the team-a key stays. The new key
    // reloads the list, which asks.
    await point('workspace', teamB);
    await api.keys.store(origin, server.keys.acme);

    const pending: Thenable<unknown>[] = [api.catalog.refresh()];
    await eventually(
      () => {
        assert.equal(withKey('/team-b').length, 0, 'the key reached team-b before any question');
        return asked.length === 1;
      },
      10_000,
      'the question',
    );
    assert.deepEqual(asked[0].slice(0, 1), [`Use the key stored for ${origin} with ${teamB}, set by this workspace?`]);
    assert.match(asked[0][1], new RegExp(`point Model Access at ${teamB.replace(/[.:/]/g, '\\$&')}`));
    assert.deepEqual(asked[0].slice(2), ['Allow', 'Not now']);

    // While the question is open: refreshes, a reload and a send join it instead of asking again.
    for (let i = 0; i < 5; i++) {
      pending.push(api.catalog.refresh(), vscode.commands.executeCommand(Commands.refreshModels));
    }
    pending.push(api.catalog.reload());
    await sleep(500);
    assert.equal(asked.length, 1, 'one question, however many refreshes');
    assert.deepEqual(reached('/team-b'), [], 'nothing reached team-b while the question was open');
    assert.equal(server.requests.filter((r) => r.authorization).length, 0, 'no request carried the key');

    answer('Allow');
    await Promise.all(pending);
    await api.catalog.settled();
    assert.equal(api.catalog.status.kind, 'ready');
    const keyed = withKey('/team-b');
    assert.ok(keyed.length > 0, 'after "Allow" the key arrives');
    assert.ok(
      keyed.every((r) => r.organization === 'acme'),
      'the origin key, never the team-a key',
    );
    assert.ok(api.connection.consent.isAllowed(teamB));

    // Remembered for this workspace and URL: no question on the next load.
    await api.catalog.reload();
    assert.equal(api.catalog.status.kind, 'ready');
    assert.equal(asked.length, 1);
  });

  it('after "Not now" the tree offers Allow Stored Key… instead of asking again; the action asks, and "Allow" sends the key', async () => {
    server.clearRecords();
    await api.connection.consent.forget(); // reloads the list, which asks again
    const first = api.catalog.reload();
    await eventually(
      () => {
        assert.equal(withKey('/team-b').length, 0, 'the key reached team-b before any question');
        return asked.length === 1;
      },
      10_000,
      'the question',
    );
    answer('Not now');
    await first;
    await api.catalog.settled();

    assert.equal(api.catalog.status.kind, 'error');
    const row = api.view.provider.getChildren()[0];
    assert.ok(isMessage(row), 'a message row');
    assert.equal(labelOf(row), 'Allow Stored Key…');
    assert.equal(row.command?.command, Commands.allowStoredKey);
    assert.match(
      String(api.view.treeView.message),
      new RegExp(`This workspace sets the service URL to ${teamB.replace(/[.:/]/g, '\\$&')}\\. The key stored for`),
    );
    assert.match(api.statusBar.item.text, /warning/);

    for (let i = 0; i < 5; i++) {
      await vscode.commands.executeCommand(Commands.refreshModels);
    }
    await api.catalog.reload();
    assert.equal(asked.length, 1, 'refreshes after "Not now" do not ask again');
    assert.equal(server.requests.filter((r) => r.authorization).length, 0, 'and send no key');

    const allowing = vscode.commands.executeCommand(Commands.allowStoredKey, ...(row.command.arguments ?? []));
    await eventually(() => asked.length === 2, 5000, 'the question, asked by the tree action');
    answer('Allow');
    assert.equal(await allowing, true);
    await eventually(() => api.catalog.status.kind === 'ready', 10_000, 'the list after "Allow"');
    assert.ok(withKey('/team-b').some((r) => r.organization === 'acme'));
  });

  it('a URL from user settings on a sub-path of an origin key gets it without a question, as before', async () => {
    await point('user', teamB);
    await api.connection.consent.forget();
    server.clearRecords();
    await api.catalog.reload();
    assert.equal(api.catalog.status.kind, 'ready');
    assert.deepEqual(asked, []);
    assert.ok(withKey('/team-b').length > 0 && withKey('/team-b').every((r) => r.organization === 'acme'));

    // The longest stored prefix wins: team-a still gets its own key.
    await point('user', teamA);
    await api.catalog.reload();
    assert.ok(withKey('/team-a').length > 0 && withKey('/team-a').every((r) => r.organization === 'globex'));

    // A workspace that sets the same URL as the user's own settings asks nothing either.
    await setBaseUrl('workspace', teamA);
    await eventually(
      () => api.connection.state().then((s) => s.baseUrl?.source === 'user'),
      5000,
      'the same URL counted as the user’s',
    );
    await api.catalog.reload();
    assert.equal(api.catalog.status.kind, 'ready');
    assert.deepEqual(asked, []);
    await setBaseUrl('workspace', undefined);
  });

  it('MODEL_ACCESS_API_KEY goes to a URL from user settings, never to the same service chosen by workspace settings', async () => {
    // The extension reads the environment when it needs a key, so setting it here is what a person's shell does.
    const saved = { key: process.env.MODEL_ACCESS_API_KEY, base: process.env.MODEL_ACCESS_BASE_URL };
    for (const scope of [teamA, teamB, origin]) {
      await api.keys.delete(scope);
    }
    await api.connection.consent.forget();
    process.env.MODEL_ACCESS_API_KEY = server.keys.globex;
    delete process.env.MODEL_ACCESS_BASE_URL;
    try {
      await point('user', teamA);
      server.clearRecords();
      await api.catalog.reload();
      assert.equal(api.catalog.status.kind, 'ready', 'the environment key serves a URL the user chose');
      assert.ok(withKey('/team-a').length > 0 && withKey('/team-a').every((r) => r.organization === 'globex'));

      // The same setting written in the workspace's settings instead: the decision reads the level it came from.
      await point('workspace', teamA);
      server.clearRecords();
      await api.catalog.reload();
      assert.equal(api.catalog.status.kind, 'needsKey', 'a workspace-chosen URL asks for a key of its own');
      assert.ok(reached('/team-a').length === 0 || withKey('/team-a').length === 0, 'no request carried the key');
      assert.deepEqual(asked, [], 'nothing to allow: the environment key is never offered to a workspace URL');
      assert.equal((await api.connection.state()).setup, 'needsKey');
    } finally {
      process.env.MODEL_ACCESS_API_KEY = saved.key;
      if (saved.key === undefined) {
        delete process.env.MODEL_ACCESS_API_KEY;
      }
      if (saved.base !== undefined) {
        process.env.MODEL_ACCESS_BASE_URL = saved.base;
      }
      await setBaseUrl('workspace', undefined);
    }
  });

  it('modelAccess.allowInsecureHttp counts only from user settings: in the workspace’s settings file plain http is still refused', async () => {
    // A cloned repository's .vscode/settings.json, written as a file (VS Code refuses to write an
    // application-scoped setting there itself).
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a folder is open');
    const file = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const insecure = 'http://models.example.invalid';
    const refused = /over plain http/i;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ 'modelAccess.allowInsecureHttp': true }));
      await sleep(1500); // VS Code reads the file when it changes
      await api.keys.store(insecure, 'ma-insecure-test-key-1');
      await point('user', insecure);
      await api.catalog.reload();
      assert.equal(api.catalog.status.kind, 'error', String(api.view.treeView.message));
      assert.match(String(api.view.treeView.message), refused);

      // The same setting in the user's own settings is honoured: that refusal goes (the made-up host then
      // cannot be reached, which is another error).
      await setSetting('allowInsecureHttp', true);
      await sleep(150);
      await api.catalog.reload();
      assert.doesNotMatch(String(api.view.treeView.message ?? ''), refused);
    } finally {
      if (before === undefined) {
        rmSync(file, { force: true });
      } else {
        writeFileSync(file, before);
      }
      await setSetting('allowInsecureHttp', undefined);
      await setSetting('baseUrl', undefined);
      await api.keys.delete(insecure);
    }
  });

  it('with every environment shown, Allow Stored Key… on the workspace service’s root asks for that service, whichever is active', async () => {
    await point('workspace', teamB);
    await api.keys.store(origin, server.keys.acme);
    await api.keys.store(teamA, server.keys.globex);
    await api.connection.consent.forget();
    const roots = () => api.view.roots.getChildren() as vscode.TreeItem[];
    const workspaceRoot = () => roots().find((r) => labelOf(r) !== 'Team A');
    const rowsOf = (root: vscode.TreeItem | undefined) =>
      root ? (api.view.roots.getChildren(root as never) as vscode.TreeItem[]) : [];
    try {
      // A second service from the user's settings is the active one; its list needs no question.
      await setSetting(Settings.environments, [{ name: 'Team A', baseUrl: teamA }]);
      assert.equal(await vscode.commands.executeCommand(Commands.switchEnvironment, 'Team A'), 'Team A');
      await api.catalog.settled();
      server.clearRecords();
      await setSetting(Settings.showAllEnvironments, true);
      void api.catalogs.ensureLoaded();
      await eventually(() => asked.length === 1, 10_000, 'the question for the workspace’s service');
      assert.ok(asked[0].join(' ').includes(teamB), 'it names the workspace’s URL');
      answer('Not now');
      await eventually(
        () => rowsOf(workspaceRoot())[0]?.command?.command === Commands.allowStoredKey,
        10_000,
        'the workspace root offers Allow Stored Key…',
      );
      assert.equal(withKey('/team-b').length, 0, 'no key went to the workspace’s URL');
      const row = rowsOf(workspaceRoot())[0];
      const name = labelOf(workspaceRoot() as vscode.TreeItem);
      assert.deepEqual(row.command?.arguments, [name], 'the row is for its own root');

      const allowing = vscode.commands.executeCommand(Commands.allowStoredKey, ...(row.command?.arguments ?? []));
      await eventually(() => asked.length === 2, 5000, 'the question, asked by the row');
      assert.ok(asked[1].join(' ').includes(teamB), 'again for the workspace’s URL, not the active one');
      answer('Allow');
      assert.equal(await allowing, true);
      await eventually(
        () => /models$/.test(String(workspaceRoot()?.description ?? '')),
        10_000,
        'the workspace root’s list after "Allow"',
      );
      assert.ok(withKey('/team-b').length > 0 && withKey('/team-b').every((r) => r.organization === 'acme'));
      assert.equal(api.environments.active?.name, 'Team A', 'the active environment stays');
    } finally {
      await setSetting(Settings.showAllEnvironments, undefined);
      await setSetting(Settings.environments, undefined);
      await api.keys.delete(teamA).catch(() => undefined);
    }
  });

  it('reads keys stored under the old origin names and stores new ones under origin + prefix', async () => {
    const {
      secrets,
      stored,
      dispose: disposeSecrets,
    } = memorySecrets([['modelAccess.apiKey/https://gw.example', 'old-origin-key-1']]);
    const keys = new ApiKeyStore(secrets, { env: {} });
    try {
      assert.deepEqual(await keys.get('https://gw.example/team-a/v1', 'user'), {
        key: 'old-origin-key-1',
        source: 'secretStorage',
        origin: 'https://gw.example',
        scope: 'https://gw.example',
      });
      assert.equal(await keys.store('https://gw.example/team-a/', 'team-a-key-1'), 'https://gw.example/team-a');
      assert.equal(stored.get('modelAccess.apiKey/https://gw.example/team-a'), 'team-a-key-1');
      assert.equal((await keys.get('https://gw.example/team-a/x'))?.key, 'team-a-key-1', 'the longest prefix wins');
      assert.equal((await keys.get('https://gw.example/team-ab'))?.key, 'old-origin-key-1', 'segments, not strings');
      await keys.delete('https://gw.example/team-a');
      assert.equal((await keys.get('https://gw.example/team-a'))?.key, 'old-origin-key-1', 'the origin key stays');
      assert.equal(await keys.get('https://other.example/team-a'), undefined);
    } finally {
      keys.dispose();
      disposeSecrets();
    }
  });
});
