// Environments inside a real VS Code: two local services, each serving another organization with its own
// key, side by side in modelAccess.environments. Each service records what it received (headers without
// Authorization, the organization the key authenticated as, JSON bodies), so the tests check the wire.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { loadRegistry, startServer, type RunningServer } from '../server';
import {
  activateExtension,
  eventually,
  filesUnder,
  newPayload,
  setSetting,
  sleep,
  stubUi,
  type UiStub,
} from './helpers';
import type { HeaderSecretOutcome } from '../../src/setup/headerSecrets';
import type { SafeInputBoxOptions } from '../../src/platform/ui';
import * as path from 'node:path';
import { ChatVendor, Commands, Settings } from '../../src/ids';

function labelOf(node: vscode.TreeItem): string {
  const l = node.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

describe('Environments: two services side by side, each with its own key', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  /** Organization acme behind a canary key; its model list answers slowly. */
  let alpha: RunningServer;
  /**
   * Organization globex, which also has a model by the id of one of acme's ({@link SHARED}, its own entry and
   * card) and one without a Model Card ({@link NO_CARD}).
   */
  let beta: RunningServer;
  const SHARED = 'aurora-2';
  const NO_CARD = 'globex-plain-1';
  let ui: UiStub;
  const canary = `ma-canary-env-${randomBytes(12).toString('hex')}`;
  const betaKey = `ma-beta-${randomBytes(8).toString('hex')}`;
  const secret = `ma-env-secret-${randomBytes(8).toString('hex')}`;
  const SECRET_VAR = 'MODEL_ACCESS_TEST_SECRET';

  const modelsOf = (server: RunningServer, org: string) =>
    server.registry.models.filter((m) => m.organization === org).map((m) => m.id);

  /** Every model id the Models view shows (flat list). */
  function shownIds(): string[] {
    return api.view.provider
      .getChildren()
      .filter((n) => n.contextValue?.startsWith('model'))
      .map(labelOf);
  }

  async function switchTo(name: string): Promise<void> {
    assert.equal(await vscode.commands.executeCommand(Commands.switchEnvironment, name), name);
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    alpha = await startServer({
      keys: { acme: canary },
      pageSize: 50,
      faults: { latencyMs: 1200, paths: ['/v1/models'] },
    });
    const registry = loadRegistry();
    registry.models.push(
      {
        ...(registry.models.find((m) => m.id === 'meridian-4') as (typeof registry.models)[number]),
        id: SHARED,
        family: 'aurora',
        model_card_url: `https://cards.example/globex/${SHARED}`,
      },
      // An empty card link is left out of the listing: a model with no card.
      { id: NO_CARD, family: 'plain', version: '1', organization: 'globex', model_card_url: '', created: 1700000000 },
    );
    // Each server its own registry; the acme entry by the shared id is Alpha's only.
    registry.models = registry.models.filter((m) => !(m.id === SHARED && m.organization === 'acme'));
    beta = await startServer({ keys: { globex: betaKey }, pageSize: 50, registry });
    process.env[SECRET_VAR] = secret;
    ui = stubUi(api.ui);
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.groupByFamily, false);
    await api.keys.store(alpha.url, canary);
    await api.keys.store(beta.url, betaKey);
    await setSetting(Settings.environments, [
      { name: 'Alpha', baseUrl: alpha.url, headers: { 'X-Project': 'alpha-project' } },
      { name: 'Beta', baseUrl: beta.url, variables: { region: 'eu-west-1', greeting: 'Hello from {{region}}' } },
    ]);
    await eventually(() => api.environments.list.length === 2, 5000, 'two environments');
  });

  after(async () => {
    ui?.restore();
    delete process.env[SECRET_VAR];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting(Settings.environments, undefined);
    await setSetting(Settings.groupByFamily, undefined);
    await api.keys.delete(alpha.url).catch(() => undefined);
    await api.keys.delete(beta.url).catch(() => undefined);
    await alpha?.close();
    await beta?.close();
  });

  it('switching shows the other organization’s models, in the view and the status bar', async () => {
    await switchTo('Alpha');
    await api.catalog.refresh();
    assert.deepEqual(new Set(shownIds()), new Set(modelsOf(alpha, 'acme')));
    assert.match(api.environmentBar.item.text, /Alpha/);

    await switchTo('Beta');
    await eventually(() => api.catalog.status.kind === 'ready' && api.catalog.serviceState.environment === 'Beta');
    await api.catalog.settled();
    assert.deepEqual(new Set(shownIds()), new Set(modelsOf(beta, 'globex')));
    assert.match(api.environmentBar.item.text, /Beta/);
    // One fact per item: the environment item names it, the models item beside it shows the host alone.
    assert.ok(api.statusBar.item.text.includes(`${new URL(beta.url).host} · `), api.statusBar.item.text);
    assert.doesNotMatch(api.statusBar.item.text, /Beta/);
    assert.match(String((api.statusBar.item.tooltip as vscode.MarkdownString).value), /Beta/);
    assert.match(String(api.view.treeView.description), /^Beta · 127\.0\.0\.1:/);
  });

  it('each service receives only its own key and headers: A’s key never reaches B', async () => {
    await switchTo('Alpha');
    await api.catalog.reload();
    await switchTo('Beta');
    await api.catalog.reload();
    // A list request abandoned by a switch while Alpha's answer was delayed never reached the key check.
    const atAlpha = alpha.received('/v1/models').filter((r) => !r.aborted);
    const atBeta = beta.received('/v1/models').filter((r) => !r.aborted);
    assert.ok(atAlpha.length > 0 && atBeta.length > 0, 'both services were asked for their models');
    assert.deepEqual([...new Set(atAlpha.map((r) => r.organization))], ['acme'], 'Alpha authenticated as acme');
    assert.deepEqual([...new Set(atBeta.map((r) => r.organization))], ['globex'], 'Beta authenticated as globex');
    assert.ok(
      atAlpha.every((r) => r.headers['x-project'] === 'alpha-project'),
      'Alpha’s header went to Alpha',
    );
    assert.ok(
      beta.requests.every((r) => r.headers['x-project'] === undefined && r.organization !== 'acme'),
      'neither Alpha’s header nor its key went to Beta',
    );
    assert.ok(!JSON.stringify(beta.requests).includes(canary), 'the canary appears nowhere in what Beta received');
  });

  it('a switch in the middle of a slow refresh ends showing B only', async () => {
    await switchTo('Beta');
    await api.catalog.reload();
    await switchTo('Alpha');
    alpha.clearRecords();
    // Alpha's list answers after 1.2 s: switch while it is on its way.
    const pending = api.catalog.reload();
    await eventually(() => alpha.received('/v1/models').length > 0, 5000, 'Alpha’s list request');
    await switchTo('Beta');
    await pending;
    await api.catalog.settled();
    await sleep(1800); // past Alpha's answer, had it not been abandoned
    assert.equal(api.catalog.status.kind, 'ready');
    assert.equal(api.catalog.serviceState.environment, 'Beta');
    assert.deepEqual(new Set(shownIds()), new Set(modelsOf(beta, 'globex')));
    const alphaOnly = modelsOf(alpha, 'acme').filter((id) => !modelsOf(beta, 'globex').includes(id));
    assert.ok(
      shownIds().every((id) => !alphaOnly.includes(id)),
      'no model of Alpha’s organization is shown',
    );
    await alpha.waitForAborts(1, 5000);
  });

  it('the active environment is remembered by name: reordering the list keeps it, removing it falls back', async () => {
    const list = api.environments.list.map((e) => ({ ...e }));
    const setting = (names: string[]) =>
      names.map((n) => {
        const e = list.find((x) => x.name === n) as (typeof list)[number];
        return { name: e.name, baseUrl: e.baseUrl, headers: e.headers, variables: e.variables };
      });
    await switchTo('Alpha');
    await setSetting(Settings.environments, setting(['Beta', 'Alpha']));
    await eventually(() => api.environments.list[0]?.name === 'Beta', 5000, 'the reordered list');
    assert.equal(api.environments.active?.name, 'Alpha');
    await setSetting(Settings.environments, setting(['Beta']));
    await eventually(() => api.environments.active?.name === 'Beta', 5000, 'Beta, once Alpha is gone');
    await setSetting(Settings.environments, setting(['Alpha', 'Beta']));
    await eventually(() => api.environments.list.length === 2, 5000, 'both again');
  });

  it('a payload’s {{…}} are sent resolved; history and cURL keep the secret as written', async () => {
    await switchTo('Beta');
    await api.catalog.settled();
    const model = modelsOf(beta, 'globex')[0];
    const editor = await newPayload('/v1/responses', model, (p) => {
      p.input = `{{greeting}} on {{model}} with {{$env ${SECRET_VAR}}}`;
      p.metadata = { id: '{{$uuid}}' };
    });
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'sent', JSON.stringify(outcome));
    const sent = beta.lastReceived('/v1/responses', 'POST').json as { input: string; metadata: { id: string } };
    assert.equal(sent.input, `Hello from eu-west-1 on ${model} with ${secret}`);
    assert.match(sent.metadata.id, /^[0-9a-f-]{36}$/);
    const entry = api.requests.history.entries[0];
    assert.equal(entry.environment, 'Beta');
    assert.ok(entry.payload.includes(`{{$env ${SECRET_VAR}}}`) && !entry.payload.includes(secret));

    const curl = (await vscode.commands.executeCommand(
      Commands.copyAsCode,
      editor.document.uri,
      'curl-bash',
    )) as string;
    assert.ok(curl.includes(`Hello from eu-west-1 on ${model} with {{$env ${SECRET_VAR}}}`), curl);
    assert.ok(!curl.includes(secret), 'the secret is not in the cURL command');
    assert.ok(curl.includes(beta.url), 'the cURL command targets Beta');
    const documents = vscode.workspace.textDocuments.filter((d) => d.getText().includes(secret));
    assert.deepEqual(
      documents.map((d) => d.uri.toString()),
      [],
      'no document (payload, answer) holds the secret',
    );
  });

  it('an unknown variable: Send names it and sends nothing; // @env pins a payload to another environment', async () => {
    await switchTo('Beta');
    const model = modelsOf(beta, 'globex')[0];
    const editor = await newPayload('/v1/responses', model, (p) => {
      p.input = 'Hi {{nope}}';
    });
    const before = beta.received('/v1/responses').length;
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'invalid');
    assert.ok(outcome.kind === 'invalid' && outcome.message.includes('{{nope}} is not defined in environment Beta'));
    assert.equal(beta.received('/v1/responses').length, before, 'nothing was sent');
    await eventually(
      () =>
        vscode.languages
          .getDiagnostics(editor.document.uri)
          .some((d) => d.message.includes('{{nope}}') && d.severity === vscode.DiagnosticSeverity.Error),
      5000,
      'the unknown variable underlined',
    );

    const pinned = await newPayload('/v1/responses', 'aurora-2', (p) => {
      p.model = 'aurora-2';
      p.input = 'to Alpha';
    });
    await pinned.edit((b) => b.insert(new vscode.Position(1, 0), '// @env Alpha\n'));
    const atAlpha = alpha.received('/v1/responses').length;
    const sentPinned = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(sentPinned.kind, 'sent', JSON.stringify(sentPinned));
    const last = alpha.lastReceived('/v1/responses', 'POST');
    assert.equal(alpha.received('/v1/responses').length, atAlpha + 1);
    assert.equal(last.organization, 'acme');
    assert.equal(last.headers['x-project'], 'alpha-project');
    assert.equal(api.environments.active?.name, 'Beta', 'the active environment did not change');
  });

  it('Copy Environments as JSON shares names, URLs, headers and variables, never a key', async () => {
    const json = (await vscode.commands.executeCommand(Commands.copyEnvironments)) as string;
    const list = JSON.parse(json) as { name: string; baseUrl: string }[];
    assert.deepEqual(
      list.map((e) => [e.name, e.baseUrl]),
      [
        ['Alpha', alpha.url],
        ['Beta', beta.url],
      ],
    );
    assert.ok(!json.includes(canary) && !json.includes(betaKey));
    assert.ok(ui.copied.includes(json));
  });

  it('a secret header: set with its command (hidden input), sent only to its environment, shown nowhere', async () => {
    const token = `ma-org-token-canary-${randomBytes(10).toString('hex')}`;
    const plain = [
      { name: 'Alpha', baseUrl: alpha.url, headers: { 'X-Project': 'alpha-project' } },
      { name: 'Beta', baseUrl: beta.url, variables: { region: 'eu-west-1', greeting: 'Hello from {{region}}' } },
    ];
    const prompts: SafeInputBoxOptions[] = [];
    const answers: (string | undefined)[] = [];
    const input = api.ui.input;
    api.ui.input = async (options) => (prompts.push(options), answers.shift());
    /** What Switch Environment's picker says under an environment (the picker is left without a choice). */
    const pickerLine = async (name: string): Promise<string> => {
      const pick = api.ui.pick;
      let shown: readonly { label: string; detail?: string }[] = [];
      api.ui.pick = (async (items: readonly { label: string; detail?: string }[]) => {
        shown = items;
        return undefined;
      }) as typeof api.ui.pick;
      try {
        await vscode.commands.executeCommand(Commands.switchEnvironment);
      } finally {
        api.ui.pick = pick;
      }
      return String(shown.find((i) => i.label.endsWith(` ${name}`))?.detail);
    };
    try {
      await setSetting(Settings.environments, [
        { ...plain[0], headers: { 'X-Project': 'alpha-project', 'X-Org-Token': '{{secret}}' } },
        plain[1],
      ]);
      await eventually(() => api.environments.find('Alpha')?.secretHeaders.length === 1, 5000, 'the secret header');
      await switchTo('Alpha');
      alpha.clearRecords();
      // Not set yet: nothing is sent, and the view offers the command.
      await api.catalog.reload();
      assert.equal(api.catalog.status.kind, 'error');
      assert.equal(alpha.received('/v1/models').length, 0, 'nothing was sent without the secret header');
      const row = api.view.provider.getChildren().find((n) => n.contextValue === 'message');
      assert.equal(row?.command?.command, Commands.setHeaderSecret);
      assert.match(String(api.view.treeView.message), /X-Org-Token of environment Alpha has no value yet/);
      // Switch Environment says so before anyone switches.
      assert.match(
        await pickerLine('Alpha'),
        /API key: stored key for .* · 1 header · secret header X-Org-Token not set$/,
      );

      answers.push(token);
      const outcome = (await vscode.commands.executeCommand(Commands.setHeaderSecret)) as HeaderSecretOutcome;
      assert.equal(outcome, 'stored');
      assert.equal(prompts[0].password, true, 'the value is typed into a hidden input');
      assert.match(String(prompts[0].prompt), new RegExp(`sent only to ${alpha.url.replace(/\./g, '\\.')}`));
      await eventually(() => api.catalog.status.kind === 'ready', 10_000, 'the list, once the secret is set');
      await api.catalog.settled();
      const atAlpha = alpha.received('/v1/models');
      assert.ok(atAlpha.length > 0 && atAlpha.every((r) => r.headers['x-org-token'] === token));
      const line = await pickerLine('Alpha');
      assert.match(line, / · 1 header · 1 secret header set$/);
      assert.ok(!line.includes(token), 'the picker never shows the value');

      // A payload sent to Alpha, then Beta's list and a payload to Beta.
      const model = modelsOf(alpha, 'acme')[0];
      const editor = await newPayload('/v1/responses', model, (p) => {
        p.input = 'with the org token';
      });
      const sent = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(sent.kind, 'sent', JSON.stringify(sent));
      assert.equal(alpha.lastReceived('/v1/responses', 'POST').headers['x-org-token'], token);
      const curl = (await vscode.commands.executeCommand(
        Commands.copyAsCode,
        editor.document.uri,
        'curl-bash',
      )) as string;
      assert.ok(
        curl.includes(`-H 'X-Org-Token: '"$MODEL_ACCESS_HEADER_X_ORG_TOKEN"`),
        'the secret header is read from a variable',
      );
      assert.match(
        String(ui.messages.at(-1)),
        /Set MODEL_ACCESS_HEADER_X_ORG_TOKEN to the secret headers’ values first/,
      );
      const shared = (await vscode.commands.executeCommand(Commands.copyEnvironments)) as string;
      assert.deepEqual(
        (JSON.parse(shared) as { headers?: object }[])[0].headers,
        { 'X-Project': 'alpha-project', 'X-Org-Token': '{{secret}}' },
        'Copy Environments keeps the marker',
      );
      await switchTo('Beta');
      await api.catalog.reload();
      const betaModel = modelsOf(beta, 'globex')[0];
      await newPayload('/v1/responses', betaModel, (p) => {
        p.input = 'to Beta';
      });
      assert.equal(((await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome).kind, 'sent');
      assert.ok(beta.requests.length > 0);
      assert.ok(!JSON.stringify(beta.requests).includes(token), 'Beta never received the token');
      assert.ok(beta.requests.every((r) => r.headers['x-org-token'] === undefined));

      await sleep(1500); // let the log channel reach its file
      const userDataDir = path.resolve(api.requests.scratch.folder.fsPath, '..', '..', '..', '..');
      const files = filesUnder(userDataDir);
      assert.ok(
        files.some((f) => f.file.includes('Model Access') && f.text.includes('POST /v1/responses')),
        'the Model Access log was among the files searched',
      );
      const places = [
        ...files.map((f) => ({ where: f.file, text: f.text })),
        ...vscode.workspace.textDocuments.map((d) => ({ where: d.uri.toString(), text: d.getText() })),
        { where: 'history', text: JSON.stringify(api.requests.history.entries) },
        { where: 'cURL', text: curl },
        { where: 'Copy Environments', text: shared },
        { where: 'messages and clipboard', text: JSON.stringify([ui.messages, ui.copied, prompts]) },
      ];
      assert.deepEqual(
        places.filter((p) => p.text.includes(token)).map((p) => p.where),
        [],
        'the token appears nowhere',
      );

      // An empty value removes it: Alpha's requests stop again.
      await switchTo('Alpha');
      answers.push('');
      assert.equal(await vscode.commands.executeCommand(Commands.setHeaderSecret, 'Alpha', 'x-org-token'), 'cleared');
      assert.equal(await api.connection.headerSecrets?.get(alpha.url, 'X-Org-Token'), undefined);
    } finally {
      api.ui.input = input;
      await api.connection.headerSecrets?.set(alpha.url, 'X-Org-Token', '');
      await setSetting(Settings.environments, plain);
      await eventually(() => api.environments.find('Alpha')?.secretHeaders.length === 0, 5000, 'plain again');
    }
  });

  it('chat offers the active environment’s models, or every environment’s with its name; a request goes to its own', async () => {
    const NOT_CHAT = /(^|[^a-z])(embed|rerank|tts|asr)([^a-z]|$)/;
    const chatIds = (server: RunningServer, org: string) => modelsOf(server, org).filter((id) => !NOT_CHAT.test(id));
    const offered = () => vscode.lm.selectChatModels({ vendor: ChatVendor });
    const sorted = (ids: string[]) => JSON.stringify([...ids].sort());
    await switchTo('Beta');
    await api.catalog.settled();
    await eventually(
      async () => sorted((await offered()).map((m) => m.id)) === sorted(chatIds(beta, 'globex')),
      15_000,
      'Beta’s chat models only',
    );
    try {
      await setSetting(Settings.showAllEnvironments, true);
      const expected = [
        ...chatIds(alpha, 'acme').map((id) => `Alpha/${id}`),
        ...chatIds(beta, 'globex').map((id) => `Beta/${id}`),
      ];
      const models = await eventually(
        async () => {
          const m = await offered();
          return sorted(m.map((x) => x.id)) === sorted(expected) ? m : undefined;
        },
        20_000,
        'the chat models of both environments',
      );
      const fromAlpha = models.find((m) => m.id === `Alpha/${chatIds(alpha, 'acme')[0]}`) as vscode.LanguageModelChat;
      assert.equal(fromAlpha.name, chatIds(alpha, 'acme')[0]);
      // Beta stays active: the request still goes to Alpha, with Alpha's key and header.
      const chatsAtBeta = beta.received('/v1/chat').length;
      const response = await fromAlpha.sendRequest(
        [vscode.LanguageModelChatMessage.User('Hello from the other environment')],
        {},
        new vscode.CancellationTokenSource().token,
      );
      let text = '';
      for await (const fragment of response.text) {
        text += fragment;
      }
      assert.ok(text.length > 0, 'an answer streamed back');
      const request = alpha.lastReceived('/v1/chat', 'POST');
      assert.equal(request.organization, 'acme');
      assert.equal(request.headers['x-project'], 'alpha-project');
      assert.equal((request.json as { model: string }).model, chatIds(alpha, 'acme')[0], 'the service’s own model id');
      assert.equal(beta.received('/v1/chat').length, chatsAtBeta, 'nothing went to Beta');
      assert.equal(api.environments.active?.name, 'Beta');
    } finally {
      await setSetting(Settings.showAllEnvironments, undefined);
    }
    await eventually(
      async () => sorted((await offered()).map((m) => m.id)) === sorted(chatIds(beta, 'globex')),
      15_000,
      'Beta’s chat models only, again',
    );
  });

  it('with every environment shown, each is a root with its own state and models', async () => {
    const gammaKey = `ma-gamma-${randomBytes(6).toString('hex')}`;
    const gone = await startServer({ keys: { acme: gammaKey } });
    const gammaUrl = gone.url;
    await gone.close(); // Nothing listens there any more: Gamma's list fails.
    const environments = [
      { name: 'Alpha', baseUrl: alpha.url, headers: { 'X-Project': 'alpha-project' } },
      { name: 'Beta', baseUrl: beta.url, variables: { region: 'eu-west-1', greeting: 'Hello from {{region}}' } },
      { name: 'Gamma', baseUrl: gammaUrl },
      // The same service twice: the same models under two roots stay two sets of rows.
      { name: 'Alpha again', baseUrl: alpha.url },
    ];
    const roots = () => api.view.roots.getChildren() as vscode.TreeItem[];
    const root = (name: string) => roots().find((r) => labelOf(r) === name) as vscode.TreeItem;
    const described = (name: string) => String(root(name)?.description ?? '');
    await switchTo('Beta');
    await api.keys.store(gammaUrl, gammaKey);
    try {
      await setSetting(Settings.environments, environments);
      await eventually(() => api.environments.list.length === 4, 5000, 'four environments');
      await setSetting(Settings.showAllEnvironments, true);
      await eventually(() => roots().length === 4 && roots().every((r) => r.contextValue === 'environment'), 10_000);
      assert.deepEqual(roots().map(labelOf), ['Alpha', 'Beta', 'Gamma', 'Alpha again']);
      // Alpha's list answers after 1.2 s: its root says so while it loads.
      void vscode.commands.executeCommand(Commands.refreshModels);
      await eventually(() => /loading/.test(described('Alpha')), 10_000, 'Alpha loading');
      await eventually(
        () =>
          described('Alpha') === `${modelsOf(alpha, 'acme').length} models` &&
          described('Alpha again') === described('Alpha') &&
          described('Beta') === `active · ${modelsOf(beta, 'globex').length} models` &&
          /^error: /.test(described('Gamma')),
        30_000,
        'each root with its state',
      );
      const ids = (name: string) =>
        (api.view.roots.getChildren(root(name) as never) as vscode.TreeItem[])
          .filter((n) => n.contextValue?.startsWith('model'))
          .map((n) => ({ label: labelOf(n), id: String(n.id) }));
      assert.deepEqual(new Set(ids('Alpha').map((r) => r.label)), new Set(modelsOf(alpha, 'acme')));
      assert.deepEqual(new Set(ids('Beta').map((r) => r.label)), new Set(modelsOf(beta, 'globex')));
      assert.deepEqual(
        ids('Alpha again').map((r) => r.label),
        ids('Alpha').map((r) => r.label),
      );
      const all = [...ids('Alpha'), ...ids('Beta'), ...ids('Alpha again')].map((r) => r.id);
      assert.equal(new Set(all).size, all.length, 'row ids are unique across environments');
      // A switch: the environment left behind keeps showing its models, loaded on its own.
      await switchTo('Alpha');
      await eventually(
        () =>
          described('Beta') === `${modelsOf(beta, 'globex').length} models` &&
          described('Alpha') === `active · ${modelsOf(alpha, 'acme').length} models`,
        30_000,
        'Beta loaded on its own, Alpha active',
      );
      await switchTo('Beta');
      await api.catalog.settled();

      // Beta's key removed: its root says so and offers Set API Key for Beta.
      await api.keys.delete(beta.url);
      await eventually(() => described('Beta') === 'active · API key missing', 10_000, 'Beta without a key');
      const [row] = api.view.roots.getChildren(root('Beta') as never) as vscode.TreeItem[];
      assert.equal(row.command?.command, Commands.setApiKey);
      assert.deepEqual(row.command?.arguments, ['Beta']);
      assert.ok(/models$/.test(described('Alpha')), 'Alpha keeps its list');
    } finally {
      await api.keys.store(beta.url, betaKey);
      await api.keys.delete(gammaUrl).catch(() => undefined);
      await setSetting(Settings.showAllEnvironments, undefined);
      await setSetting(Settings.environments, environments.slice(0, 2));
      await eventually(() => api.environments.list.length === 2, 5000, 'two environments again');
    }
    // Off again: the view shows the active environment's models, no roots.
    await api.catalog.reload();
    await eventually(
      () => (api.view.roots.getChildren() as vscode.TreeItem[]).every((n) => n.contextValue !== 'environment'),
      10_000,
      'no environment roots',
    );
    assert.deepEqual(new Set(shownIds()), new Set(modelsOf(beta, 'globex')));
  });

  it('with every environment shown, a row’s commands go to its own environment, whichever is active', async () => {
    await switchTo('Beta');
    await api.catalog.settled();
    await setSetting(Settings.showAllEnvironments, true);
    const roots = () => api.view.roots.getChildren() as vscode.TreeItem[];
    try {
      await eventually(() => roots().length === 2 && roots().every((r) => r.contextValue === 'environment'), 10_000);
      const alphaRoot = roots().find((r) => labelOf(r) === 'Alpha') as vscode.TreeItem;
      void api.catalogs.ensureLoaded();
      const alphaRows = () =>
        (api.view.roots.getChildren(alphaRoot as never) as vscode.TreeItem[]).filter((n) =>
          n.contextValue?.startsWith('model'),
        );
      await eventually(() => alphaRows().length === modelsOf(alpha, 'acme').length, 30_000, 'Alpha’s rows');
      // A model only Alpha's organization has: Beta's service would answer 404 for it.
      const only = modelsOf(alpha, 'acme').find((id) => !modelsOf(beta, 'globex').includes(id));
      assert.ok(only, 'a model of acme that globex does not have');
      const row = alphaRows().find((n) => labelOf(n) === only) as vscode.TreeItem;
      alpha.clearRecords();
      beta.clearRecords();
      const encoded = `/v1/models/${encodeURIComponent(only)}`;

      // Inspect: Alpha's service, with Alpha's key and header.
      const inspected = (await vscode.commands.executeCommand(Commands.inspectModel, row)) as {
        document?: vscode.TextDocument;
      };
      assert.ok(inspected.document?.getText().includes(only), 'the inspected entry is shown');
      const got = alpha.received(encoded, 'GET');
      assert.equal(got.length, 1, 'Alpha was asked for the model');
      assert.equal(got[0].organization, 'acme');
      assert.equal(got[0].headers['x-project'], 'alpha-project');

      // Model Details: its tab reads Alpha's entry too, and says which environment it shows.
      const tab = (await vscode.commands.executeCommand(Commands.showModelDetails, row)) as {
        panel: vscode.WebviewPanel;
        refreshed: Promise<void>;
        state: { error?: string };
      };
      await tab.refreshed;
      assert.equal(tab.state.error, undefined, `the details loaded: ${tab.state.error}`);
      assert.equal(tab.panel.title, `${only} · Alpha`);
      assert.equal(alpha.received(encoded, 'GET').length, 2, 'the details tab asked Alpha');

      // New Request from the row: pinned to Alpha, so Send goes there with Alpha's key.
      const editor = (await vscode.commands.executeCommand(Commands.newRequest, row, '/v1/chat')) as vscode.TextEditor;
      assert.match(editor.document.getText(), /^\/\/ POST \/v1\/chat\n\/\/ @env Alpha\n/);
      const sent = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(sent.kind, 'sent', JSON.stringify(sent));
      const chat = alpha.received('/v1/chat', 'POST');
      assert.equal(chat.length, 1, 'the payload went to Alpha');
      assert.equal(chat[0].organization, 'acme');
      assert.equal(chat[0].json?.model, only);

      // Copy as Code from the row calls Alpha's service.
      const code = String(await vscode.commands.executeCommand(Commands.copyAsCode, row, 'curl-bash', '/v1/chat'));
      assert.ok(code.includes(`${alpha.url}/v1/chat`), code);
      assert.ok(code.includes(`-H 'X-Project: alpha-project'`), 'with Alpha’s header');
      assert.ok(!code.includes(beta.url), 'not the active environment’s service');
      assert.ok(!code.includes(canary), 'never the key');

      // The active environment's service received none of it.
      assert.deepEqual(
        beta.requests.filter((r) => r.path !== '/v1/models').map((r) => `${r.method} ${r.path}`),
        [],
        'Beta received nothing for Alpha’s row',
      );
      assert.ok(!JSON.stringify(beta.requests).includes(canary), 'Alpha’s key never reached Beta');
      // Each authenticated as its own organization: a key of the other would have been refused (no organization).
      assert.ok(
        alpha.requests.every((r) => r.aborted || r.organization === 'acme'),
        'only Alpha’s key reached Alpha',
      );
      assert.ok(
        beta.requests.every((r) => r.aborted || r.organization === 'globex'),
        'only Beta’s key reached Beta',
      );
    } finally {
      await setSetting(Settings.showAllEnvironments, undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('with every environment shown, a row under another root: a card’s Inspect, the same id in two roots, Compare and Copy as Code go to the row’s environment', async () => {
    const token = `ma-beta-token-canary-${randomBytes(10).toString('hex')}`;
    const plain = [
      { name: 'Alpha', baseUrl: alpha.url, headers: { 'X-Project': 'alpha-project' } },
      { name: 'Beta', baseUrl: beta.url, variables: { region: 'eu-west-1', greeting: 'Hello from {{region}}' } },
    ];
    const { info, pickMany } = api.ui;
    await api.connection.headerSecrets?.set(beta.url, 'X-Org-Token', token);
    await setSetting(Settings.environments, [
      plain[0],
      { ...plain[1], headers: { 'X-Team': 'globex-team', 'X-Org-Token': '{{secret}}' } },
    ]);
    await eventually(() => api.environments.find('Beta')?.secretHeaders.length === 1, 5000, 'Beta’s secret header');
    await switchTo('Alpha');
    await api.catalog.settled();
    await setSetting(Settings.showAllEnvironments, true);
    const roots = () => api.view.roots.getChildren() as vscode.TreeItem[];
    const rootOf = (name: string) => roots().find((r) => labelOf(r) === name) as vscode.TreeItem;
    const rowsOf = (name: string) =>
      (api.view.roots.getChildren(rootOf(name) as never) as vscode.TreeItem[]).filter((n) =>
        n.contextValue?.startsWith('model'),
      );
    const rowOf = (name: string, id: string) => rowsOf(name).find((n) => labelOf(n) === id) as vscode.TreeItem;
    try {
      await eventually(() => roots().length === 2 && roots().every((r) => r.contextValue === 'environment'), 10_000);
      void api.catalogs.ensureLoaded();
      await eventually(() => rowsOf('Beta').length === modelsOf(beta, 'globex').length, 30_000, 'Beta’s rows');
      await eventually(() => rowsOf('Alpha').length === modelsOf(alpha, 'acme').length, 30_000, 'Alpha’s rows');
      alpha.clearRecords();
      beta.clearRecords();

      // A click on Beta's model without a card (the default click action opens the card): the message offers
      // Inspect Model, and that asks Beta, with Beta's key and headers.
      let offered: readonly string[] = [];
      api.ui.info = async (message, ...actions) => (ui.messages.push(message), (offered = actions), actions[0]);
      assert.equal(await vscode.commands.executeCommand(Commands.modelClicked, rowOf('Beta', NO_CARD)), 'noCard');
      assert.deepEqual(offered, ['Inspect Model']);
      const plainPath = `/v1/models/${NO_CARD}`;
      await eventually(() => beta.received(plainPath, 'GET').length === 1, 10_000, 'Inspect asked Beta');
      const asked = beta.received(plainPath, 'GET')[0];
      assert.equal(asked.organization, 'globex');
      assert.equal(asked.headers['x-team'], 'globex-team');
      assert.equal(asked.headers['x-org-token'], token);
      api.ui.info = info;

      // The same id under both roots: two documents, each holding its own service's entry.
      type Inspected = { document?: vscode.TextDocument };
      const fromBeta = (await vscode.commands.executeCommand(
        Commands.inspectModel,
        rowOf('Beta', SHARED),
      )) as Inspected;
      const fromAlpha = (await vscode.commands.executeCommand(
        Commands.inspectModel,
        rowOf('Alpha', SHARED),
      )) as Inspected;
      assert.ok(fromBeta.document && fromAlpha.document, 'both were shown');
      assert.notEqual(fromBeta.document.uri.toString(), fromAlpha.document.uri.toString());
      assert.match(fromBeta.document.getText(), new RegExp(`cards\\.example/globex/${SHARED}`));
      assert.match(fromAlpha.document.getText(), new RegExp(`cards\\.example/acme/${SHARED}`));
      assert.match(fromBeta.document.uri.path, / · Beta\.json$/);
      assert.equal(beta.received(`/v1/models/${SHARED}`, 'GET').length, 1);
      assert.equal(alpha.received(`/v1/models/${SHARED}`, 'GET').length, 1);

      // Model Details from Beta's row: the chat id it copies is the one chat offers for Beta's model.
      const tab = (await vscode.commands.executeCommand(Commands.showModelDetails, rowOf('Beta', SHARED))) as {
        refreshed: Promise<void>;
        state: { error?: string; chat?: { id: string } };
      };
      await tab.refreshed;
      assert.equal(tab.state.error, undefined, `the details loaded: ${tab.state.error}`);
      assert.equal(tab.state.chat?.id, `Beta/${SHARED}`);

      // Compare from Beta's row on an open payload: Beta's models are offered (the row's checked), every run
      // goes to Beta.
      // The payload's variables are Beta's (Alpha has none: resolved there, Compare would refuse to send).
      const payload = await newPayload('/v1/chat', modelsOf(alpha, 'acme')[0], (p) => {
        p.messages = [{ role: 'user', content: '{{greeting}}, {{model}}' }];
      });
      const other = modelsOf(beta, 'globex').find((id) => id !== SHARED && id.startsWith('meridian')) as string;
      let items: readonly { model?: { id: string }; picked?: boolean }[] = [];
      api.ui.pickMany = (async (shown: readonly { model?: { id: string }; picked?: boolean }[]) => {
        items = shown;
        return shown.filter((i) => i.picked || i.model?.id === other);
      }) as typeof api.ui.pickMany;
      const compared = (await vscode.commands.executeCommand(Commands.compareModels, rowOf('Beta', SHARED))) as {
        kind: string;
      };
      assert.equal(compared.kind, 'compared', JSON.stringify(compared));
      assert.deepEqual(
        new Set(items.filter((i) => i.model).map((i) => i.model?.id)),
        new Set(modelsOf(beta, 'globex')),
        'Beta’s models are offered',
      );
      assert.deepEqual(
        items.filter((i) => i.picked).map((i) => i.model?.id),
        [SHARED],
        'the row’s model is checked',
      );
      const runs = beta.received('/v1/chat', 'POST');
      assert.deepEqual(new Set(runs.map((r) => r.json?.model)), new Set([SHARED, other]));
      assert.ok(runs.every((r) => r.organization === 'globex' && r.headers['x-org-token'] === token));
      assert.deepEqual(
        runs.map((r) => (r.json?.messages as { content: string }[])[0].content).sort(),
        [SHARED, other].map((m) => `Hello from eu-west-1, ${m}`).sort(),
        'each run’s {{model}} and Beta’s variables, resolved',
      );
      assert.ok(
        api.requests.history.entries.slice(0, 2).every((e) => e.environment === 'Beta'),
        'the history says where the runs went',
      );

      // Without a row, Compare follows the payload's // @env line, as Send does.
      await payload.edit((b) => b.insert(new vscode.Position(1, 0), '// @env Beta\n'));
      beta.clearRecords();
      const pinned = (await vscode.commands.executeCommand(Commands.compareModels, {
        models: [SHARED, other],
      })) as { kind: string };
      assert.equal(pinned.kind, 'compared', JSON.stringify(pinned));
      assert.equal(beta.received('/v1/chat', 'POST').length, 2, 'the pinned payload was compared on Beta');

      // Copy as Code from Beta's row: Beta's URL and plain header, the secret header read from a variable.
      const code = String(
        await vscode.commands.executeCommand(Commands.copyAsCode, rowOf('Beta', NO_CARD), 'curl-bash', '/v1/chat'),
      );
      assert.ok(code.includes(`${beta.url}/v1/chat`), code);
      assert.ok(code.includes(`-H 'X-Team: globex-team'`), 'with Beta’s header');
      assert.ok(code.includes('"$MODEL_ACCESS_HEADER_X_ORG_TOKEN"'), 'the secret header from a variable');
      for (const [what, value] of Object.entries({ token, betaKey, canary, 'Alpha’s URL': alpha.url })) {
        assert.ok(!code.includes(value), `not ${what}`);
      }

      // Alpha received only what its own row asked; neither service another's key or headers.
      assert.deepEqual(
        alpha.requests.filter((r) => r.path !== '/v1/models').map((r) => `${r.method} ${r.path}`),
        [`GET /v1/models/${SHARED}`],
        'Alpha received nothing for Beta’s rows',
      );
      // (A list request abandoned while Alpha's answer was delayed never reached the key check.)
      assert.ok(alpha.requests.every((r) => (r.aborted || r.organization === 'acme') && !r.headers['x-team']));
      assert.ok(beta.requests.every((r) => (r.aborted || r.organization === 'globex') && !r.headers['x-project']));
      assert.ok(!JSON.stringify(alpha.requests).includes(token), 'Beta’s secret header never reached Alpha');
      assert.ok(!JSON.stringify([ui.messages, api.requests.history.entries]).includes(token));
    } finally {
      Object.assign(api.ui, { info, pickMany });
      await setSetting(Settings.showAllEnvironments, undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await api.connection.headerSecrets?.set(beta.url, 'X-Org-Token', '');
      await setSetting(Settings.environments, plain);
      await eventually(() => api.environments.find('Beta')?.secretHeaders.length === 0, 5000, 'plain again');
    }
  });

  it('a Model Card previewed from the rows of two environments opens a tab for each, with its own card', async () => {
    // The same id under both roots, each entry linking to a card on its own service (version 2 at Alpha, 4 at Beta).
    const entry = (server: RunningServer) => ({ id: SHARED, cardUrl: `${server.url}/cards/${SHARED}.md`, raw: {} });
    type Preview = { kind: string; uri: vscode.Uri; text: string };
    const atAlpha = (await api.cards.preview(entry(alpha), 'Alpha')) as Preview;
    const atBeta = (await api.cards.preview(entry(beta), 'Beta')) as Preview;
    assert.deepEqual([atAlpha.kind, atBeta.kind], ['preview', 'preview']);
    assert.notEqual(atAlpha.uri.toString(), atBeta.uri.toString());
    assert.match(atAlpha.uri.path, new RegExp(`/${SHARED} · Alpha card\\.md$`));
    assert.match(atBeta.uri.path, new RegExp(`/${SHARED} · Beta card\\.md$`));
    // Previewing Beta's card left Alpha's tab with Alpha's card.
    // The demo card's facts table: a row "Version" holding the entry's version.
    const versionRow = (v: string) => new RegExp(`<td>Version</td>(&#10;|\\s)*<td>${v}</td>`);
    assert.match((await vscode.workspace.openTextDocument(atAlpha.uri)).getText(), versionRow('2'));
    assert.match((await vscode.workspace.openTextDocument(atBeta.uri)).getText(), versionRow('4'));
    // The Markdown preview names the environment's card (VS Code may reuse one preview tab for the next card).
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    await eventually(
      () => labels().some((l) => l.includes(`${SHARED} · Beta card.md`)),
      10_000,
      `a preview tab for Beta's card (tabs: ${labels().join(', ')})`,
    );
    // From the palette (no row): the active environment's, under the id alone, as before.
    const plain = (await api.cards.preview(entry(alpha))) as Preview;
    assert.match(plain.uri.path, new RegExp(`/${SHARED} card\\.md$`));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('with every environment shown, the way out of a non-active root’s error is for that environment', async () => {
    const token = `ma-beta-token-canary-${randomBytes(10).toString('hex')}`;
    const plain = [
      { name: 'Alpha', baseUrl: alpha.url, headers: { 'X-Project': 'alpha-project' } },
      { name: 'Beta', baseUrl: beta.url, variables: { region: 'eu-west-1', greeting: 'Hello from {{region}}' } },
    ];
    const { input } = api.ui;
    const answers: string[] = [];
    api.ui.input = async () => answers.shift();
    const roots = () => api.view.roots.getChildren() as vscode.TreeItem[];
    const described = (name: string) => String(roots().find((r) => labelOf(r) === name)?.description ?? '');
    const firstRow = (name: string) =>
      (api.view.roots.getChildren(roots().find((r) => labelOf(r) === name) as never) as vscode.TreeItem[])[0];
    try {
      await switchTo('Alpha');
      await api.catalog.settled();
      // Beta's stored key is one Beta's service refuses.
      await api.keys.store(beta.url, `ma-rejected-${randomBytes(6).toString('hex')}`);
      await setSetting(Settings.showAllEnvironments, true);
      void api.catalogs.ensureLoaded();
      await eventually(() => /^error: /.test(described('Beta')), 30_000, 'Beta’s root shows the refusal');
      const setKey = firstRow('Beta');
      assert.equal(setKey.command?.command, Commands.setApiKey);
      assert.deepEqual(setKey.command?.arguments, ['Beta'], 'the row sets Beta’s key');
      answers.push(betaKey);
      await vscode.commands.executeCommand(setKey.command.command, ...(setKey.command.arguments ?? []));
      assert.equal((await api.keys.get(beta.url))?.key, betaKey, 'Beta’s key replaced');
      assert.equal((await api.keys.get(alpha.url))?.key, canary, 'Alpha’s key untouched');
      await eventually(() => /models$/.test(described('Beta')), 30_000, 'Beta’s list with its key');

      // A secret header of Beta without a value: its row sets Beta's.
      await setSetting(Settings.environments, [plain[0], { ...plain[1], headers: { 'X-Org-Token': '{{secret}}' } }]);
      await eventually(
        () => /^error: /.test(described('Beta')) && firstRow('Beta')?.command?.command === Commands.setHeaderSecret,
        30_000,
        'Beta’s root asks for the secret header',
      );
      assert.deepEqual(firstRow('Beta').command?.arguments, ['Beta']);
      answers.push(token);
      await vscode.commands.executeCommand(Commands.setHeaderSecret, ...(firstRow('Beta').command?.arguments ?? []));
      assert.equal(await api.connection.headerSecrets?.get(beta.url, 'X-Org-Token'), token);
      await eventually(() => /models$/.test(described('Beta')), 30_000, 'Beta’s list with its secret header');

      // Diagnose Connection for Beta (what its root's row runs after a network failure) probes Beta's service
      // with its key and headers; without a name, the active environment's (no modelAccess.baseUrl is set).
      alpha.clearRecords();
      beta.clearRecords();
      const report = (name?: string) =>
        vscode.commands
          .executeCommand<vscode.TextDocument | undefined>(Commands.diagnoseConnection, ...(name ? [name] : []))
          .then((doc) => doc?.getText() ?? '');
      const forBeta = await report('Beta');
      assert.ok(forBeta.includes(new URL(beta.url).host), forBeta);
      assert.deepEqual(
        beta.received('/v1/models', 'GET').map((r) => [r.organization, r.headers['x-org-token'] === token]),
        [['globex', true]],
        'Beta’s service probed with its key and secret header',
      );
      assert.equal(alpha.requests.length, 0, 'Alpha was not probed');
      const forActive = await report();
      assert.ok(forActive.includes(new URL(alpha.url).host), forActive);
      assert.equal(alpha.received('/v1/models', 'GET')[0]?.organization, 'acme');
      assert.ok(![forBeta, forActive].some((t) => t.includes(token) || t.includes(canary) || t.includes(betaKey)));
    } finally {
      api.ui.input = input;
      await api.keys.store(beta.url, betaKey);
      await api.connection.headerSecrets?.set(beta.url, 'X-Org-Token', '');
      await setSetting(Settings.showAllEnvironments, undefined);
      await setSetting(Settings.environments, plain);
      await eventually(() => api.environments.find('Beta')?.secretHeaders.length === 0, 5000, 'plain again');
    }
  });
});
