// The saved model list inside a real VS Code: the last good list of an environment is shown at once, marked
// with its age, while a slow service is asked again; a list saved under one key is never shown under another;
// a damaged file is ignored and written again. Two environments on one local service take turns, so each
// switch back is a "first load" of that environment, as in a new window.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, setSetting, sleep } from './helpers';
import { Commands, Settings } from '../../src/ids';

/** How long the service keeps the first page of a list waiting. */
const SLOW_MS = 5000;

describe('Saved model list: shown at once, refreshed in the background', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  const keyA = `ma-cache-a-${randomBytes(12).toString('hex')}`;
  const keyB = `ma-cache-b-${randomBytes(12).toString('hex')}`;

  const idsOf = (org: string) => new Set(server.registry.models.filter((m) => m.organization === org).map((m) => m.id));
  const shown = () => new Set(api.catalog.models.map((m) => m.id));
  const message = () => String(api.view.treeView.message ?? '');

  async function switchTo(name: string): Promise<void> {
    assert.equal(await vscode.commands.executeCommand(Commands.switchEnvironment, name), name);
  }

  /** Switches to `name` and waits for its list to be loaded from the service. */
  async function loaded(name: string): Promise<void> {
    await switchTo(name);
    await eventually(() => api.catalog.serviceState.environment === name, 5000, `${name} active`);
    // Joins the load the switch started, or loads again (the environment was already active, after a failure).
    await api.catalog.refresh();
    assert.equal(api.catalog.status.kind, 'ready', `${name} loaded`);
  }

  async function savedFile(): Promise<string> {
    const file = await api.modelCache.fileFor(await api.connection.state());
    assert.ok(file, 'the active environment has a cache file');
    return file;
  }

  /** The list requests that reached the service and have not been answered yet. */
  const unanswered = () => server.received('/v1/models').filter((r) => r.finishedAt === undefined && !r.aborted);
  /** Whether the service answered any list request since the records were cleared. */
  const answered = () => server.received('/v1/models').some((r) => r.finishedAt !== undefined && !r.aborted);

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ keys: { acme: keyA, globex: keyB }, pageSize: 1000 });
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.rememberModelList, true);
    await api.keys.store(server.url, keyA);
    await setSetting(Settings.environments, [
      { name: 'One', baseUrl: server.url },
      { name: 'Two', baseUrl: server.url },
    ]);
    await eventually(() => api.environments.list.length === 2, 5000, 'two environments');
  });

  afterEach(() => server.setFaults(undefined));

  after(async () => {
    await setSetting(Settings.environments, undefined);
    await setSetting(Settings.rememberModelList, undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await server?.close();
  });

  it('shows the saved list before a slow service answers, says how old it is, then shows the fresh one', async () => {
    await loaded('One');
    await api.modelCache.flush();
    const file = await savedFile();
    assert.ok(!(await fs.readFile(file, 'utf8')).includes(keyA), 'the key is not in the file');
    await loaded('Two');

    server.setFaults({ latencyMs: SLOW_MS, paths: ['/v1/models'] });
    server.clearRecords();
    const started = Date.now();
    await switchTo('One');
    // Two showed the same organization's list: wait for One's own, the saved one.
    await eventually(
      () => api.catalog.serviceState.environment === 'One' && api.catalog.savedListShown && shown().size > 0,
      3000,
      'the saved list of One',
    );
    const after = Date.now() - started;
    assert.ok(after < SLOW_MS, `shown after ${after} ms`);
    assert.equal(answered(), false, 'the service has not answered yet');
    assert.deepEqual(shown(), idsOf('acme'));
    assert.equal(api.catalog.savedListShown, true);
    assert.match(message(), /Saved list, updated just now\. Refreshing…/);
    // The tree draws it: families and rows, not only the catalog's array.
    const roots = api.view.provider.getChildren();
    assert.ok(roots.length > 0, 'the tree has rows');

    await api.catalog.settled();
    assert.ok(Date.now() - started >= SLOW_MS - 200, 'settled only when the service answered');
    assert.equal(api.catalog.savedListShown, false);
    assert.equal(api.catalog.status.kind, 'ready');
    assert.doesNotMatch(message(), /Saved list/);
  });

  it('a failed refresh keeps the saved list and says so', async () => {
    await loaded('One');
    await api.modelCache.flush();
    await loaded('Two');
    server.setFaults({ serverError: { first: 100 }, paths: ['/v1/models'] });
    await switchTo('One');
    await eventually(() => api.catalog.status.kind === 'error', 30_000, 'the refresh failed');
    await api.catalog.settled();
    assert.deepEqual(shown(), idsOf('acme'), 'the saved list stays');
    assert.match(message(), /500/);
    assert.match(message(), /Showing the saved list, updated (just now|1 min ago)\./);
  });

  it('a list saved under key A is not shown under key B', async () => {
    await loaded('One');
    await api.modelCache.flush();
    await loaded('Two');
    // Key B, for the same service: another organization, another list.
    await api.keys.store(server.url, keyB);
    await eventually(() => api.catalog.status.kind === 'ready' && shown().has([...idsOf('globex')][0]), 15_000);
    await api.catalog.settled();
    server.setFaults({ latencyMs: SLOW_MS, paths: ['/v1/models'] });
    server.clearRecords();
    await switchTo('One');
    await eventually(() => unanswered().length === 1, 5000, 'the refresh under key B reached the service');
    // Long enough for a saved list to have been read and shown, well before the service answers.
    await sleep(1500);
    assert.equal(shown().size, 0, 'nothing from key A is shown');
    assert.equal(api.catalog.savedListShown, false);
    assert.doesNotMatch(message(), /Saved list/);
    await api.catalog.settled();
    assert.deepEqual(shown(), idsOf('globex'));

    // B's list replaced A's in the file: switching back to A must not show B's.
    await api.modelCache.flush();
    const saved = await fs.readFile(await savedFile(), 'utf8');
    assert.ok(!saved.includes(keyB), 'the key is not in the file');
    assert.ok([...idsOf('globex')].every((id) => saved.includes(JSON.stringify(id))));
    await api.keys.store(server.url, keyA);
    await eventually(() => unanswered().length === 1, 5000, 'the refresh under key A reached the service');
    await sleep(1500);
    assert.equal(shown().size, 0, 'nothing from key B is shown under key A');
    await api.catalog.settled();
    assert.deepEqual(shown(), idsOf('acme'));
  });

  it('a damaged file is ignored and written again', async () => {
    await loaded('One');
    await api.modelCache.flush();
    const file = await savedFile();
    await loaded('Two');
    await fs.writeFile(file, '{"format":1,"environment":"One"\n[{"id": "forged"');
    server.setFaults({ latencyMs: SLOW_MS, paths: ['/v1/models'] });
    server.clearRecords();
    await switchTo('One');
    await eventually(() => unanswered().length === 1, 5000, 'the refresh reached the service');
    await sleep(1500);
    assert.equal(shown().size, 0, 'nothing from the damaged file is shown');
    assert.equal(api.catalog.status.kind, 'loading', 'the view is loading, not failing');
    await api.catalog.settled();
    assert.deepEqual(shown(), idsOf('acme'));
    await api.modelCache.flush();
    const [header, entries] = (await fs.readFile(file, 'utf8')).split('\n');
    assert.equal((JSON.parse(header) as { count: number }).count, idsOf('acme').size);
    assert.equal((JSON.parse(entries) as unknown[]).length, idsOf('acme').size);
  });

  it('with no saved list, a large list shows its first pages while the rest is read, keeping row ids', async () => {
    const big = await startServer({ models: 2000, pageSize: 100, faults: { latencyMs: 150, paths: ['/v1/models'] } });
    const key = Object.values(big.keys)[0];
    try {
      await api.keys.store(big.url, key);
      await setSetting(Settings.environments, [
        { name: 'One', baseUrl: server.url },
        { name: 'Two', baseUrl: server.url },
        { name: 'Big', baseUrl: big.url },
      ]);
      await eventually(() => api.environments.list.length === 3, 5000, 'three environments');
      await switchTo('Big');
      // Twenty pages of 100, 150 ms each: rows from page 3 (300 models), long before the last page.
      const partial = await eventually(
        () => {
          const n = api.catalog.models.length;
          return api.catalog.status.kind === 'loading' && n >= 300 && n < 2000 ? n : undefined;
        },
        10_000,
        'rows before the last page',
      );
      assert.ok(partial < 2000);
      const families = api.view.provider.getChildren();
      assert.ok(families.length > 0 && families.every((f) => f.id !== undefined), 'families with ids');
      assert.ok(
        families.every((f) => f.collapsibleState === vscode.TreeItemCollapsibleState.Collapsed),
        'a large list starts collapsed',
      );
      const firstIds = families.map((f) => f.id);
      await api.catalog.settled();
      assert.equal(api.catalog.models.length, 2000);
      const finalIds = new Set(api.view.provider.getChildren().map((f) => f.id));
      assert.ok(
        firstIds.every((id) => finalIds.has(id)),
        'every family shown early keeps its id (and so its expanded state and selection)',
      );
    } finally {
      await setSetting(Settings.environments, [
        { name: 'One', baseUrl: server.url },
        { name: 'Two', baseUrl: server.url },
      ]);
      await api.keys.delete(big.url).catch(() => undefined);
      await big.close();
    }
  });

  it('turning modelAccess.rememberModelList off removes the saved lists and shows none', async () => {
    await loaded('One');
    await api.modelCache.flush();
    const file = await savedFile();
    await setSetting(Settings.rememberModelList, false);
    await eventually(
      async () =>
        !(await fs
          .stat(file)
          .then(() => true)
          .catch(() => false)),
      5000,
      'the saved list removed',
    );
    await loaded('Two');
    server.setFaults({ latencyMs: 1500, paths: ['/v1/models'] });
    await switchTo('One');
    await sleep(800);
    assert.equal(shown().size, 0, 'no saved list while the setting is off');
    await api.catalog.settled();
    await api.modelCache.flush();
    assert.equal(await api.modelCache.fileFor(await api.connection.state()), undefined, 'nothing is written');
    await setSetting(Settings.rememberModelList, true);
  });
});
