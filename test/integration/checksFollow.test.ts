// Checks follow the registry, inside a real VS Code against the local service whose registry changes between
// two refreshes: a new version of a payload's model marks exactly the checks that use it outdated (the model in
// the payload, or in its dataset's rows; not a payload pinned to another environment, not one on another
// model), offers them once, and Run Checks Affected by Model Changes runs exactly those; accepting the offer
// runs them too; under a continuous run they re-run by themselves, without an offer.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Commands, Settings } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, setSetting, stubUi, type UiStub } from './helpers';

/** The model whose registry entry changes, and one that stays as it is. */
const CHANGING = 'aurora-2-mini';
const STEADY = 'aurora-1.5';
const RUN = 'Run Checks Affected by Model Changes';
/** The models the affected checks send to: changing.jsonc's, then each row of rows.jsonl. */
const THOSE_REQUESTS = [CHANGING, CHANGING, STEADY].sort();

const payload = (model: string, lines: string[] = []) =>
  [
    '// POST /v1/chat',
    ...lines,
    '// @expect status 200',
    JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello.' }] }, null, 2),
    '',
  ].join('\n');

describe('Checks follow the registry', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;
  let root: string;
  let version = 2;
  /** The changed ids of each "models changed" event, with its environment. */
  const events: { environment: string; ids: string[] }[] = [];
  let listening: vscode.Disposable | undefined;
  const key = `ma-follow-${randomBytes(12).toString('hex')}`;

  const name = (id: string) => path.basename(vscode.Uri.parse(id).path);
  /** The ids among `ids` of this suite's payloads, as file names, sorted. */
  const ours = (ids: readonly string[]) =>
    ids
      .filter((id) => vscode.Uri.parse(id).fsPath.startsWith(root + path.sep))
      .map(name)
      .sort();
  const itemId = (file: string) => {
    let id: string | undefined;
    api.checks.controller.items.forEach((folder) =>
      folder.children.forEach((c) => {
        if (c.uri?.fsPath === path.join(root, file)) {
          id = c.id;
        }
      }),
    );
    return id;
  };
  const modelsSent = () => server.received('/v1/chat').map((r) => (r.json as { model: string }).model);

  /** Changes the model's entry on the service, then refreshes and waits until Test Explorer followed. */
  async function changeAndRefresh(update: Record<string, unknown>): Promise<void> {
    server.changeRegistry('acme', { update: { [CHANGING]: update } });
    await api.catalog.refresh();
    await api.changes.settled();
    await api.checks.modelChangesFollowed();
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ keys: { acme: key } });
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the suite runs with a folder open');
    root = path.join(workspace, 'checks-follow-it');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'changing.jsonc'), payload(CHANGING));
    writeFileSync(path.join(root, 'steady.jsonc'), payload(STEADY));
    writeFileSync(path.join(root, 'rows.jsonc'), payload('{{m}}', ['// @each rows.jsonl']));
    writeFileSync(
      path.join(root, 'rows.jsonl'),
      `${JSON.stringify({ m: STEADY })}\n${JSON.stringify({ m: CHANGING })}\n`,
    );
    writeFileSync(path.join(root, 'elsewhere.jsonc'), payload(CHANGING, ['// @env Elsewhere']));
    writeFileSync(path.join(root, 'no-model.jsonc'), '// POST /v1/chat\n// @expect status 200\n{ "messages": [] }\n');
    writeFileSync(
      path.join(root, 'broken.jsonc'),
      `// POST /v1/chat\n// @expect status 200\n{ "model": "${CHANGING}", \n`,
    );
    ui = stubUi(api.ui);
    listening = api.changes.onDidFindChanges((e) =>
      events.push({ environment: e.environment, ids: [...e.changes.byId.keys()] }),
    );
    await setSetting(Settings.rememberModelList, true);
    await api.keys.store(server.url, key);
    await setSetting('baseUrl', server.url);
    await api.catalog.reload();
    await api.changes.settled();
    await api.checks.refresh();
    await eventually(() => itemId('changing.jsonc') && itemId('rows.jsonc'), 5000, 'the payloads as tests');
  });

  after(async () => {
    listening?.dispose();
    ui?.restore();
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.rememberModelList, undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await server?.close();
    rmSync(root, { recursive: true, force: true });
    await api.checks.refresh();
  });

  it('a new version of a payload’s model marks exactly its checks outdated, offers them once, and the command runs exactly those', async () => {
    assert.equal(api.changes.count, 0, 'the first load of a service finds nothing');
    assert.equal(events.length, 0, 'and says nothing changed');
    const invalidatedBefore = api.checks.lastInvalidated();
    await api.catalog.refresh();
    await api.changes.settled();
    await api.checks.modelChangesFollowed();
    assert.equal(api.checks.lastInvalidated(), invalidatedBefore, 'a refresh that changes nothing marks nothing');
    assert.equal(ui.messages.length, 0, ui.messages.join('\n'));

    await changeAndRefresh({ version: `${++version}` });
    assert.deepEqual(
      events.map((e) => e.ids),
      [[CHANGING]],
    );
    assert.equal(events[0].environment, api.catalog.serviceState.environment);
    assert.deepEqual(ours(api.checks.lastInvalidated()), ['changing.jsonc', 'rows.jsonc']);
    const offers = ui.messages.filter((m) => m.includes('use models that changed'));
    assert.deepEqual(offers, [`2 checks use models that changed: ${CHANGING} (version 2 → 3)`]);

    server.clearRecords();
    const ran = await vscode.commands.executeCommand<string[]>(Commands.runChecksAffectedByModelChanges);
    assert.deepEqual(ours(ran ?? []), ['changing.jsonc', 'rows.jsonc']);
    // changing.jsonc's request and both rows of rows.jsonc (its checks run whole); steady.jsonc not at all.
    assert.deepEqual(modelsSent().sort(), THOSE_REQUESTS);
    const outcomes = api.checks.outcomes();
    assert.equal(outcomes.get(itemId('changing.jsonc') as string)?.state, 'passed');
    for (const other of ['steady.jsonc', 'elsewhere.jsonc', 'no-model.jsonc', 'broken.jsonc']) {
      const id = itemId(other);
      assert.ok(id, `${other} is a test`);
      assert.equal(outcomes.get(id), undefined, `${other} was not run`);
    }
  });

  it('lifecycle news offers the affected checks, and accepting the offer runs them', async () => {
    ui.messages.length = 0;
    const answered: string[] = [];
    api.ui.info = async (message, ...actions) => {
      answered.push(message);
      return actions.find((a) => a === RUN);
    };
    server.clearRecords();
    await changeAndRefresh({ extra: { lifecycle_status: 'deprecated', retirement_date: '2099-01-31' } });
    assert.equal(answered.length, 1, answered.join('\n'));
    assert.match(answered[0], new RegExp(`^2 checks use models that changed: ${CHANGING} \\(.*2099-01-31`));
    assert.deepEqual(modelsSent().sort(), THOSE_REQUESTS, 'accepting the offer ran them');
  });

  it('under a continuous run the affected checks re-run by themselves, with no offer; stopped, the offer is back', async () => {
    const offers: string[] = [];
    api.ui.info = async (message) => (offers.push(message), undefined);
    const source = new vscode.CancellationTokenSource();
    const profile = api.checks.profile;
    await profile.runHandler(new vscode.TestRunRequest(undefined, undefined, profile, true), source.token);
    server.clearRecords();
    await changeAndRefresh({ version: `${++version}` });
    assert.deepEqual(offers, [], 'no offer: the continuous run took them');
    assert.deepEqual(ours(api.checks.lastInvalidated()), ['changing.jsonc', 'rows.jsonc']);
    assert.deepEqual(modelsSent().sort(), THOSE_REQUESTS, 'they ran by themselves');

    source.cancel();
    source.dispose();
    server.clearRecords();
    await changeAndRefresh({ version: `${++version}` });
    assert.equal(offers.length, 1, 'stopped: offered again');
    assert.deepEqual(modelsSent(), [], 'and nothing ran by itself');
  });
});
