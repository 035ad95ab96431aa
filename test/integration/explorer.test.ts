// The models explorer inside a real VS Code (code-server) against the local Model Access Service:
// the tree equals the organization's models across pages, keys are bound to origins, Model Card links are
// checked before opening, inspect shows the server's JSON, and failures keep the previous tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiKeyStore } from '../../src/platform/apiKeys';
import type { ModelAccessApi } from '../../src/testApi';
// Types only: this suite is bundled apart from the extension, so its classes are not the extension's
// (no instanceof); nodes are told apart by their contextValue, as menus do.
import type { FamilyNode, MessageNode, ModelNode, ModelsTreeNode } from '../../src/explorer/nodes';
import { startServer, type Registry, type RegistryModel, type RunningServer } from '../server';
import { activateExtension, eventually, sleep, setSetting, memorySecrets } from './helpers';
import { Commands, Views } from '../../src/ids';
import { lifecycleLabel, readLifecycle } from '../../src/domain/registry/lifecycle';

/** A row's description after its lifecycle mark ("retires 2027-01-31 · 1 · …" → "1 · …"), which leads it. */
function afterLifecycle(model: RegistryModel | undefined, description: unknown): string {
  const life = lifecycleLabel(readLifecycle({ ...model, ...model?.extra }), Date.now());
  const text = String(description);
  assert.ok(!life || text.startsWith(`${life} · `), `the lifecycle leads: ${text}`);
  return life ? text.slice(life.length + 3) : text;
}

function orgModels(server: RunningServer, org: string): RegistryModel[] {
  return server.registry.models.filter((m) => m.organization === org);
}

const isFamily = (n: ModelsTreeNode): n is FamilyNode => n.contextValue === 'family';
const isModel = (n: ModelsTreeNode): n is ModelNode => /^model/.test(n.contextValue ?? '');
const isMessage = (n: ModelsTreeNode | undefined): n is MessageNode => n?.contextValue === 'message';

function labelOf(node: vscode.TreeItem): string {
  const l = node.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Natural order, as the view sorts: enough for the registry's ids and versions. */
function natural(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
}

describe('Models explorer', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  const opened: string[] = [];
  const messages: string[] = [];
  let restoreOpener: () => void;
  let restoreUi: () => void;

  const roots = () => api.view.provider.getChildren();
  const children = (node: ModelsTreeNode) => api.view.provider.getChildren(node);
  const modelNodes = (): ModelNode[] =>
    roots()
      .flatMap((n) => (isFamily(n) ? children(n) : [n]))
      .filter(isModel);

  /** Points the extension at `url` with `key` stored for it, and waits for a finished load under that key. */
  async function connect(url: string, key?: string): Promise<void> {
    await setSetting('baseUrl', url);
    if (key) {
      await api.keys.store(url, key);
    }
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === url), 5000, 'the new base URL');
    // Let the change events (debounced) arrive, then wait for the load they start.
    await sleep(150);
    await api.catalog.refresh();
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    assert.ok(api, 'activate() returned the test API');
    server = await startServer({ pageSize: 4 });
    restoreOpener = api.setOpener(async (url) => {
      opened.push(url);
      return true;
    });
    const { info, warn } = api.ui;
    api.ui.info = async (message) => {
      messages.push(message);
      return undefined;
    };
    api.ui.warn = async (message) => {
      messages.push(message);
      return undefined;
    };
    restoreUi = () => {
      api.ui.info = info;
      api.ui.warn = warn;
    };
    await setSetting('groupByFamily', true);
    await setSetting('modelClickAction', undefined);
    await vscode.commands.executeCommand(`workbench.view.extension.${Views.container}`);
  });

  after(async () => {
    restoreOpener?.();
    restoreUi?.();
    if (server) {
      await api.keys.delete(server.url).catch(() => undefined);
      await server.close();
    }
    await setSetting('baseUrl', undefined);
    await setSetting('groupByFamily', undefined);
  });

  beforeEach(() => {
    opened.length = 0;
    messages.length = 0;
  });

  it('asks for a service URL, then for a key, before listing anything', async () => {
    await setSetting('baseUrl', undefined);
    await sleep(150);
    await api.catalog.reload();
    assert.equal(api.catalog.status.kind, 'needsUrl');
    assert.deepEqual(roots(), []);
    await setSetting('baseUrl', server.url);
    await api.keys.delete(server.url);
    await sleep(150);
    await api.catalog.reload();
    assert.equal(api.catalog.status.kind, 'needsKey');
    assert.deepEqual(roots(), []);
    assert.equal(server.requests.length, 0, 'nothing was sent without a key');
  });

  it("shows the organization's models grouped by family, across several pages", async () => {
    await connect(server.url, server.keys.acme);
    assert.equal(api.catalog.status.kind, 'ready');
    const expected = orgModels(server, 'acme');
    const listRequests = server.requests.filter((r) => r.url.includes('/v1/models'));
    assert.ok(
      listRequests.length >= Math.ceil(expected.length / 4),
      `${listRequests.length} list requests for ${expected.length} models`,
    );

    const families = roots();
    assert.ok(families.every(isFamily), 'only family groups at the top');
    const expectedFamilies = [...new Set(expected.map((m) => m.family))].sort(natural);
    assert.deepEqual(families.map(labelOf), expectedFamilies);
    for (const family of families as FamilyNode[]) {
      const inFamily = expected.filter((m) => m.family === labelOf(family));
      assert.equal(family.description, `${inFamily.length} ${inFamily.length === 1 ? 'model' : 'models'}`);
      const items = children(family) as ModelNode[];
      assert.deepEqual(
        // The lifecycle first (a narrow sidebar must not cut it), then the version, then the capabilities.
        items.map((n) => [
          labelOf(n),
          afterLifecycle(
            inFamily.find((m) => m.id === labelOf(n)),
            n.description,
          ).split(' · ')[0],
        ]),
        inFamily.sort((a, b) => natural(a.id, b.id)).map((m) => [m.id, m.version]),
      );
      assert.ok(items.every((n) => n.contextValue === 'modelWithCard'));
    }
    assert.match(String(api.view.treeView.description), /127\.0\.0\.1/);
  });

  it("builds a model row's tooltip on hover (resolveTreeItem): id, family, version and card", async () => {
    const node = modelNodes()[0];
    assert.ok(node, 'a model row');
    const model = orgModels(server, 'acme').find((m) => m.id === labelOf(node));
    assert.ok(model);
    const resolved = await api.view.provider.resolveTreeItem(node, node);
    const tooltip = String((resolved.tooltip as vscode.MarkdownString | undefined)?.value ?? '');
    assert.match(tooltip, /Family: /);
    // appendText escapes Markdown syntax as VS Code does (`2.1` → `2\.1`).
    assert.ok(
      tooltip.includes(`Version: ${String(model.version).replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, '\\$&')}`),
      tooltip,
    );
    assert.match(tooltip, /Model Card: https:/);
  });

  it('shows a flat list when grouping is off, and filters by text', async () => {
    await setSetting('groupByFamily', false);
    try {
      await eventually(() => roots().every(isModel), 5000, 'a flat list');
      assert.equal(roots().length, orgModels(server, 'acme').length);
      // Sorted by family without family rows: each row names its family after the version.
      for (const node of roots()) {
        const model = orgModels(server, 'acme').find((m) => m.id === labelOf(node));
        assert.equal(
          afterLifecycle(model, node.description).split(' · ').slice(0, 2).join(' · '),
          `${model?.version} · ${model?.family}`,
        );
      }
      api.view.setFilter('aurora 2');
      const shown = roots().map(labelOf);
      assert.ok(shown.length > 0 && shown.every((id) => id.includes('aurora') && id.includes('2')), shown.join(', '));
      assert.match(String(api.view.treeView.message), /Filter “aurora 2”: \d+ of \d+ models/);
      api.view.setFilter('no-such-model-anywhere');
      assert.ok(isMessage(roots()[0]));
    } finally {
      api.view.setFilter(undefined);
      await setSetting('groupByFamily', true);
    }
  });

  it("switching to another organization's key changes the tree", async () => {
    await connect(server.url, server.keys.globex);
    const ids = modelNodes().map(labelOf).sort();
    assert.deepEqual(
      ids,
      orgModels(server, 'globex')
        .map((m) => m.id)
        .sort(),
    );
    await connect(server.url, server.keys.acme);
    assert.deepEqual(
      modelNodes().map(labelOf).sort(),
      orgModels(server, 'acme')
        .map((m) => m.id)
        .sort(),
    );
  });

  it('a key stored for one origin is not used for another', async () => {
    const other = await startServer();
    try {
      await connect(other.url);
      assert.equal(api.catalog.status.kind, 'needsKey', 'no key for the second origin');
      assert.equal(
        other.requests.filter((r) => r.authorization).length,
        0,
        'the first origin’s key never reached the second',
      );
      assert.deepEqual(roots(), []);
      assert.equal((await api.keys.get(server.url))?.key, server.keys.acme, 'the first origin keeps its key');
    } finally {
      await other.close();
      await connect(server.url);
    }
    assert.equal(api.catalog.status.kind, 'ready');
  });

  it('Set API Key checks the key against the service, saves it for the origin and never shows it', async () => {
    const { input } = api.ui;
    api.ui.input = async (options) => (options.password ? server.keys.globex : undefined);
    try {
      const outcome = await vscode.commands.executeCommand(Commands.setApiKey);
      assert.equal(outcome, 'saved');
    } finally {
      api.ui.input = input;
    }
    const stored = await api.keys.get(server.url);
    assert.equal(stored?.key, server.keys.globex);
    assert.equal(stored?.source, 'secretStorage');
    assert.ok(
      messages.some((m) => m.includes(`sees ${orgModels(server, 'globex').length} models`)),
      messages.join(' | '),
    );
    assert.ok(messages.every((m) => !m.includes(server.keys.globex)));
    await eventually(() => modelNodes().length === orgModels(server, 'globex').length, 10_000, 'the globex tree');
    await connect(server.url, server.keys.acme);
  });

  it('clicking a model opens exactly its Model Card URL', async () => {
    const node = modelNodes().find((n) => labelOf(n) === 'aurora-1.5');
    assert.ok(node?.command, 'the item has a click command');
    await vscode.commands.executeCommand(node.command.command, ...(node.command.arguments ?? []));
    const expected = orgModels(server, 'acme').find((m) => m.id === 'aurora-1.5')?.model_card_url;
    assert.deepEqual(opened, [expected]);
  });

  it('refuses command:, javascript: and file: card links with a message', async () => {
    const registry: Registry = {
      organizations: ['evil'],
      models: ['command:workbench.action.quit', 'javascript:alert(1)', 'file:///etc/passwd'].map(
        (link, i): RegistryModel => ({
          id: `trap-${i}`,
          family: 'trap',
          version: '1',
          organization: 'evil',
          model_card_url: link,
          created: 0,
        }),
      ),
    };
    const hostile = await startServer({ registry });
    try {
      await connect(hostile.url, hostile.keys.evil);
      const nodes = modelNodes();
      assert.equal(nodes.length, 3);
      for (const node of nodes) {
        assert.equal(node.contextValue, 'model', 'no card context value for an unsafe link');
        const outcome = await vscode.commands.executeCommand(Commands.openModelCard, node);
        assert.equal(outcome, 'refused');
      }
      assert.deepEqual(opened, [], 'nothing was opened');
      assert.ok(
        messages.some((m) => m.includes('"command:"')),
        messages.join(' | '),
      );
      assert.ok(
        messages.every((m) => !m.includes('workbench.action.quit')),
        'the hostile link itself is not echoed',
      );
    } finally {
      await api.keys.delete(hostile.url);
      await hostile.close();
      await connect(server.url);
    }
  });

  it("Inspect Model shows the server's JSON in a read-only document titled by the id", async () => {
    const id = 'aurora-2';
    const outcome = await vscode.commands.executeCommand<{ document?: vscode.TextDocument }>(Commands.inspectModel, id);
    const doc = outcome?.document;
    assert.ok(doc, 'a document was shown');
    assert.equal(doc.uri.scheme, 'model-access-model');
    assert.match(doc.uri.path, /\/aurora-2\.json$/);
    const res = await fetch(`${server.url}/v1/models/${id}`, {
      headers: { authorization: `Bearer ${server.keys.acme}` },
    });
    assert.deepEqual(JSON.parse(doc.getText()), await res.json());
    assert.ok(!doc.getText().includes(server.keys.acme));
    // Typing changes nothing: the editor is read-only. A writable editor, focused and typed into the same way
    // first, proves the typing reaches the focused editor (without it, no focus would pass as read-only too).
    const control = await vscode.workspace.openTextDocument({ content: '' });
    await vscode.window.showTextDocument(control, { preview: false, preserveFocus: false });
    await vscode.commands.executeCommand('type', { text: 'typed' });
    await eventually(() => control.getText() === 'typed', 5000, 'the text typed into a writable editor');
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), doc.uri.toString());
    const text = doc.getText();
    await vscode.commands.executeCommand('type', { text: 'typed' });
    assert.equal(doc.getText(), text, 'the document is read-only');
    assert.equal(doc.isDirty, false);
    await vscode.window.showTextDocument(control);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    // Inspecting again re-fetches into the same document.
    const again = await vscode.commands.executeCommand<{ document?: vscode.TextDocument }>(Commands.inspectModel, id);
    assert.equal(again?.document?.uri.toString(), doc.uri.toString());

    const missing = await vscode.commands.executeCommand<{ message?: string }>(Commands.inspectModel, 'no-such-model');
    assert.match(String(missing?.message), /not available to your organization/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the status bar shows host and count; its picker offers the models and then what to do', async () => {
    assert.match(
      api.statusBar.item.text,
      new RegExp(`127\\.0\\.0\\.1:${server.port} · ${orgModels(server, 'acme').length} models`),
    );
    // Where the key comes from, in the words Switch Environment and Diagnose use too (the tooltip's Markdown
    // writes its spaces as &nbsp;).
    assert.match(
      String((api.statusBar.item.tooltip as vscode.MarkdownString).value).replace(/&nbsp;/g, ' '),
      /API key: stored key for http:\/\/127\.0\.0\.1:\d+\./,
    );
    const { pick, copy } = api.ui;
    const offered: string[][] = [];
    const copied: string[] = [];
    api.ui.pick = async (items) => {
      offered.push(items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label));
      return offered.length === 1
        ? items.find((i) => i.label === 'aurora-10')
        : items.find((i) => /Copy Model ID/.test(i.label));
    };
    api.ui.copy = async (text) => void copied.push(text);
    try {
      await vscode.commands.executeCommand(api.statusBar.item.command as string);
    } finally {
      api.ui.pick = pick;
      api.ui.copy = copy;
    }
    assert.deepEqual(
      [...offered[0]].sort(),
      orgModels(server, 'acme')
        .map((m) => m.id)
        .sort(),
    );
    assert.ok(offered[1].some((l) => /Open Model Card/.test(l)) && offered[1].some((l) => /Inspect Model/.test(l)));
    assert.deepEqual(copied, ['aurora-10']);
  });

  it('a refresh while one is in flight does not start a second', async () => {
    await api.catalog.settled();
    const before = api.catalog.requestCount;
    await Promise.all([
      api.catalog.refresh(),
      api.catalog.refresh(),
      vscode.commands.executeCommand(Commands.refreshModels),
      api.catalog.refresh(),
    ]);
    assert.equal(api.catalog.requestCount - before, 1);
  });

  it('a rejected key (401) says so, offers Set API Key and keeps the previous tree', async () => {
    const shown = modelNodes().map(labelOf);
    assert.ok(shown.length > 0);
    // Same origin and key, but the service no longer accepts it (the key was revoked).
    const port = server.port;
    await server.close();
    server = await startServer({ port, pageSize: 4, keys: { acme: 'ma-rotated-key-0001' } });
    await api.catalog.refresh();
    assert.equal(api.catalog.status.kind, 'error');
    const first = roots()[0];
    assert.ok(isMessage(first));
    assert.equal(labelOf(first), 'Set API Key…');
    assert.equal(first.command?.command, Commands.setApiKey);
    assert.match(String(first.tooltip), /The API key was rejected/);
    // A screen reader hears the row's visible label first, then why.
    assert.match(String(first.accessibilityInformation?.label), /^Set API Key…: The API key was rejected/);
    assert.match(String(api.statusBar.item.accessibilityInformation?.label), /^Model Access warning: /);
    assert.match(String(api.view.treeView.message), /The API key was rejected/);
    assert.deepEqual(modelNodes().map(labelOf), shown, 'the previous tree is kept');
  });

  it('an unreachable service names the host and reason, offers Retry and keeps the previous tree', async () => {
    const port = server.port;
    await server.close();
    server = await startServer({ port, pageSize: 4 });
    await api.catalog.refresh();
    const shown = modelNodes().map(labelOf);
    assert.ok(shown.length > 0);
    await server.close();
    try {
      await api.catalog.refresh();
      assert.equal(api.catalog.status.kind, 'error');
      const first = roots()[0];
      assert.ok(isMessage(first));
      assert.equal(labelOf(first), 'Retry');
      assert.match(String(first.accessibilityInformation?.label), /^Retry: .*127\.0\.0\.1/);
      assert.equal(first.command?.command, Commands.refreshModels);
      // The other ways out of an unreachable service: another URL, or the diagnosis.
      assert.deepEqual(roots().slice(0, 3).map(labelOf), ['Retry', 'Set Service URL…', 'Diagnose Connection']);
      assert.match(String(api.view.treeView.message), new RegExp(`127\\.0\\.0\\.1:${port}.*(refused|connect)`));
      assert.deepEqual(modelNodes().map(labelOf), shown, 'the previous tree is kept');
    } finally {
      server = await startServer({ port, pageSize: 4 });
    }
    await vscode.commands.executeCommand(Commands.refreshModels);
    assert.equal(api.catalog.status.kind, 'ready');
  });

  it('the MODEL_ACCESS_API_KEY fallback follows MODEL_ACCESS_BASE_URL and never a workspace-chosen URL', async () => {
    // A private store over an in-memory SecretStorage, with a chosen environment.
    const { secrets, dispose: disposeSecrets } = memorySecrets();
    const bound = new ApiKeyStore(secrets, {
      env: { MODEL_ACCESS_API_KEY: 'env-key-123456' },
      environmentBaseUrl: () => 'https://models.example.com/api',
    });
    assert.deepEqual(await bound.get('https://models.example.com/other', 'environment'), {
      key: 'env-key-123456',
      source: 'environment',
      origin: 'https://models.example.com',
      scope: 'https://models.example.com',
    });
    assert.equal(await bound.get('https://elsewhere.example.com', 'user'), undefined, 'not for another origin');
    await bound.store('https://models.example.com', 'stored-key-123456');
    assert.equal((await bound.get('https://models.example.com', 'user'))?.source, 'secretStorage', 'a stored key wins');

    const unbound = new ApiKeyStore(secrets, { env: { MODEL_ACCESS_API_KEY: 'env-key-123456' } });
    assert.equal((await unbound.get('https://a.example.com', 'user'))?.source, 'environment');
    assert.equal(
      await unbound.get('https://a.example.com', 'workspace'),
      undefined,
      'a workspace URL never gets the environment key',
    );
    bound.dispose();
    unbound.dispose();
    disposeSecrets();
  });
});
