// Registry changes inside a real VS Code: the first load of a service marks nothing; after the registry
// changes (one added, one gone, one new version, one deprecated with a successor) the next load marks exactly
// those rows, Show Changes lists them, Mark as Seen clears them and they stay cleared on the next load.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
// Types only: the suite is bundled apart from the extension, so its classes are not the extension's.
import type { ModelNode, ModelsTreeNode } from '../../src/explorer/nodes';
import { startServer, type RunningServer } from '../server';
import { activateExtension, setSetting } from './helpers';
import { Commands, Settings } from '../../src/ids';

describe('Registry changes since the list was last seen', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  const key = `ma-changes-${randomBytes(12).toString('hex')}`;

  /** Every model row of the view (families expanded), with its description and accessible name. */
  function rows(): ModelNode[] {
    const out: ModelNode[] = [];
    const walk = (nodes: ModelsTreeNode[]) => {
      for (const n of nodes) {
        if ('model' in n) {
          out.push(n);
        } else if (n.collapsibleState !== vscode.TreeItemCollapsibleState.None) {
          walk(api.view.provider.getChildren(n));
        }
      }
    };
    walk(api.view.provider.getChildren());
    return out;
  }
  const marked = () =>
    rows()
      .filter((r) => r.change)
      .map((r) => [r.model.id, String(r.description), r.accessibilityInformation?.label ?? ''] as const);

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ keys: { acme: key }, pageSize: 1000 });
    await setSetting(Settings.rememberModelList, true);
    await setSetting(Settings.groupByFamily, true);
    await api.keys.store(server.url, key);
    await setSetting('baseUrl', server.url);
    await api.catalog.reload();
    await api.changes.settled();
  });

  after(async () => {
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.rememberModelList, undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await server?.close();
  });

  it('marks nothing on the first load, then exactly the four changed rows; Mark as Seen clears them for good', async () => {
    assert.equal(api.catalog.status.kind, 'ready');
    assert.equal(api.changes.count, 0, 'the first load of a service marks nothing');
    const acme = server.registry.models.filter((m) => m.organization === 'acme');
    const [gone, bumped, deprecated, successor] = [acme[0], acme[1], acme[2], acme[3]];
    server.changeRegistry('acme', {
      add: [{ ...acme[0], id: 'zephyr-1', family: 'zephyr', version: '1', model_card_url: 'https://cards.example/z' }],
      remove: [gone.id],
      update: {
        [bumped.id]: { version: `${bumped.version}.1` },
        [deprecated.id]: {
          extra: { lifecycle_status: 'deprecated', retirement_date: '2099-01-31', replacement: successor.id },
        },
      },
    });
    await api.catalog.refresh();
    await api.changes.settled();
    assert.equal(api.changes.count, 4);
    const byId = new Map(marked().map(([id, description, spoken]) => [id, { description, spoken }]));
    assert.deepEqual([...byId.keys()].sort(), ['zephyr-1', gone.id, bumped.id, deprecated.id].sort());
    assert.match(byId.get('zephyr-1')?.description ?? '', /\bnew\b/);
    assert.match(byId.get('zephyr-1')?.spoken ?? '', /\bnew\b/);
    assert.match(byId.get(gone.id)?.description ?? '', /\bgone\b/);
    assert.match(byId.get(bumped.id)?.spoken ?? '', new RegExp(`version ${bumped.version} → ${bumped.version}\\.1`));
    assert.match(byId.get(deprecated.id)?.description ?? '', /retires 2099-01-31/);
    assert.match(byId.get(deprecated.id)?.spoken ?? '', new RegExp(`replaced by ${successor.id}`));
    assert.match(String(api.view.treeView.message), /1 new · 2 updated · 1 gone since/);
    assert.equal(api.view.treeView.badge?.value, 4);
    assert.match(api.statusBar.item.text, / · 4 registry changes$/, 'the status bar counts them');
    assert.match(String(api.statusBar.item.accessibilityInformation?.label), /, 4 registry changes$/);

    const page =
      (
        await vscode.commands.executeCommand<vscode.TextDocument | undefined>(Commands.showRegistryChanges)
      )?.getText() ?? '';
    for (const id of ['zephyr-1', gone.id, bumped.id, deprecated.id]) {
      assert.ok(page.includes(id), `${id} on the page:\n${page}`);
    }
    assert.match(page, /Family zephyr/);

    assert.equal(await vscode.commands.executeCommand(Commands.markModelsSeen), 4);
    assert.equal(api.changes.count, 0);
    assert.doesNotMatch(api.statusBar.item.text, /registry change/);
    assert.deepEqual(marked(), []);
    assert.ok(!rows().some((r) => r.model.id === gone.id), 'the gone model is no longer shown');
    await api.catalog.reload();
    await api.changes.settled();
    assert.equal(api.changes.count, 0, 'still cleared after the next load');
    assert.equal(api.view.treeView.badge, undefined);
  });
});
