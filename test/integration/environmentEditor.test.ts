// Add Environment… and Edit Environment… as a newcomer runs them: a name, a URL, then the key through
// Set API Key (hidden input, checked against the service). The settings file gets the name and URL; the
// key goes to SecretStorage only.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { EnvironmentEditOutcome } from '../../src/setup/environmentEditor';
import type { SafeInputBoxOptions, SafePickItem } from '../../src/platform/ui';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, filesUnder, setSetting, stubUi, type UiStub } from './helpers';
import { Commands, Settings } from '../../src/ids';

describe('Add and Edit Environment: a guided flow that writes the person’s settings', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let first: RunningServer;
  let second: RunningServer;
  let ui: UiStub;
  const firstKey = `ma-add-env-${randomBytes(10).toString('hex')}`;
  const secondKey = `ma-edit-env-${randomBytes(10).toString('hex')}`;
  /** Every input box shown, in order; each answered from `answers` (undefined when they run out: Escape). */
  const prompts: SafeInputBoxOptions[] = [];
  let answers: string[] = [];

  const userEnvironments = () =>
    vscode.workspace.getConfiguration(Settings.section).inspect<unknown>(Settings.environments)?.globalValue;
  const workspaceEnvironments = () =>
    vscode.workspace.getConfiguration(Settings.section).inspect<unknown>(Settings.environments)?.workspaceValue;

  /** The user settings file on disk, as VS Code wrote it. */
  function userSettingsFile(): { file: string; text: string } | undefined {
    const userDataDir = path.resolve(api.requests.scratch.folder.fsPath, '..', '..', '..', '..');
    return filesUnder(userDataDir).find((f) => f.file.endsWith(path.join('User', 'settings.json')));
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    first = await startServer({ keys: { acme: firstKey } });
    second = await startServer({ keys: { globex: secondKey } });
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.environments, undefined);
    ui = stubUi(api.ui, {
      input: async (options: SafeInputBoxOptions) => {
        prompts.push(options);
        const answer = answers.shift();
        // What the box itself would refuse never reaches the command: the test answers as a person would.
        assert.equal(answer === undefined ? undefined : options.validateInput?.(answer), undefined, answer);
        return answer;
      },
    });
  });

  after(async () => {
    ui?.restore();
    await setSetting(Settings.environments, undefined);
    await api.keys.delete(first.url).catch(() => undefined);
    await api.keys.delete(second.url).catch(() => undefined);
    await first?.close();
    await second?.close();
  });

  it('adds an environment: name, URL, key; the settings hold the name and URL, SecretStorage the key', async () => {
    prompts.length = 0;
    answers = ['Newcomer', first.url, firstKey];
    const outcome = (await vscode.commands.executeCommand(Commands.addEnvironment)) as EnvironmentEditOutcome;
    assert.deepEqual(outcome, { name: 'Newcomer', target: 'user', key: 'saved' });
    assert.deepEqual(
      prompts.map((p) => [p.title, Boolean(p.password)]),
      [
        ['Model Access: Add Environment (1/3)', false],
        ['Model Access: Add Environment (2/3)', false],
        [`Model Access: API Key for ${first.url}`, true],
      ],
    );
    // The URL box says what it takes, and refuses plain http to another machine.
    assert.match(String(prompts[1].validateInput?.('http://models.example.com')), /http/);
    assert.equal(prompts[1].validateInput?.('https://models.example.com'), undefined);

    assert.deepEqual(userEnvironments(), [{ name: 'Newcomer', baseUrl: first.url }]);
    assert.equal(workspaceEnvironments(), undefined, 'nothing written to the workspace’s settings');
    const stored = await api.keys.get(first.url, 'user');
    assert.equal(stored?.key, firstKey);
    assert.equal(stored?.source, 'secretStorage');
    await eventually(() => userSettingsFile()?.text.includes('"Newcomer"') === true, 5000, 'the settings file');
    const settings = userSettingsFile() as { file: string; text: string };
    assert.ok(!settings.text.includes(firstKey), 'the key is not in the settings file');
    assert.equal(api.environments.active?.name, 'Newcomer', 'the new environment is the one worked with');
    assert.ok(
      ui.messages.some((m) => m.startsWith('Environment Newcomer added to your user settings')),
      ui.messages.join(' | '),
    );
    await eventually(
      () => api.catalog.status.kind === 'ready' && api.catalog.serviceState.environment === 'Newcomer',
      10_000,
      'the new environment’s models',
    );
    assert.match(api.statusBar.item.text, /model/);
  });

  it('Switch Environment offers Add and Edit Environment, and says where each key comes from', async () => {
    let offered: readonly SafePickItem[] = [];
    const { pick } = api.ui;
    api.ui.pick = async (items) => ((offered = items), undefined);
    try {
      await vscode.commands.executeCommand(Commands.switchEnvironment);
    } finally {
      api.ui.pick = pick;
    }
    const labels = offered.map((i) => String(i.label));
    assert.ok(labels.includes('$(add) Add Environment…'), labels.join(' | '));
    assert.ok(labels.includes('$(edit) Edit Environment…'), labels.join(' | '));
    assert.equal(offered[0].detail, `API key: stored key for ${first.url}`);
  });

  it('edits its name and URL: the entry is rewritten in place, the new URL’s key asked for and stored', async () => {
    prompts.length = 0;
    answers = ['Newcomer EU', second.url, secondKey];
    const outcome = (await vscode.commands.executeCommand(
      Commands.editEnvironment,
      'Newcomer',
    )) as EnvironmentEditOutcome;
    assert.deepEqual(outcome, { name: 'Newcomer EU', target: 'user', key: 'saved' });
    assert.equal(prompts[0].value, 'Newcomer', 'the name box starts with the current name');
    assert.equal(prompts[1].value, first.url, 'the URL box starts with the current URL');
    assert.equal(prompts[2].password, true);
    assert.deepEqual(userEnvironments(), [{ name: 'Newcomer EU', baseUrl: second.url }]);
    assert.equal(api.environments.active?.name, 'Newcomer EU', 'the active environment follows its new name');
    assert.equal((await api.keys.get(second.url, 'user'))?.key, secondKey);
    await eventually(() => userSettingsFile()?.text.includes('"Newcomer EU"') === true, 5000, 'the settings file');
    const text = userSettingsFile()?.text ?? '';
    assert.ok(text.includes(second.url));
    assert.ok(!text.includes(firstKey) && !text.includes(secondKey), 'no key in the settings file');

    // Editing only the name keeps the URL and asks for no key.
    prompts.length = 0;
    answers = ['Newcomer', second.url];
    assert.deepEqual(await vscode.commands.executeCommand(Commands.editEnvironment, 'Newcomer EU'), {
      name: 'Newcomer',
      target: 'user',
      key: 'unchanged',
    });
    assert.equal(prompts.length, 2);
    assert.deepEqual(userEnvironments(), [{ name: 'Newcomer', baseUrl: second.url }]);
  });

  it('Diagnose Connection opens as a rendered page ending with what to do next, the way out as buttons', async () => {
    const offered: string[][] = [];
    const { info, warn } = api.ui;
    api.ui.info = async (message, ...actions) => (ui.messages.push(message), offered.push(actions), undefined);
    api.ui.warn = async (message, ...actions) => (ui.messages.push(message), offered.push(actions), undefined);
    /** Runs the command; the report's document is refreshed in place, so wait for the text expected. */
    const run = async (expect: RegExp) => {
      const doc = await vscode.commands.executeCommand<vscode.TextDocument>(Commands.diagnoseConnection);
      return eventually(() => (expect.test(doc.getText()) ? doc : undefined), 10_000, `a report matching ${expect}`);
    };
    try {
      const working = await run(/## What to do next\n\nThe service answered with its model list/);
      assert.ok(
        !vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === working.uri.scheme),
        'not shown as raw Markdown',
      );
      await eventually(
        () =>
          vscode.window.tabGroups.all
            .flatMap((g) => g.tabs)
            .some((t) => t.input instanceof vscode.TabInputWebview && /Preview/.test(t.label)),
        10_000,
        'the rendered preview',
      );
      assert.deepEqual(offered.at(-1), ['Retry']);

      // A key the service refuses: the page and the button say Set API Key.
      await api.keys.store(second.url, 'ma-wrong-key');
      const refused = await run(/The service needs a valid API key: run \*\*Model Access: Set API Key…\*\*/);
      assert.deepEqual(offered.at(-1), ['Set API Key…']);
      assert.ok(!refused.getText().includes('ma-wrong-key'));
    } finally {
      api.ui.info = info;
      api.ui.warn = warn;
      await api.keys.store(second.url, secondKey);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('Escape at any step writes nothing', async () => {
    prompts.length = 0;
    answers = ['Half done'];
    assert.equal(await vscode.commands.executeCommand(Commands.addEnvironment), undefined);
    // The name box refuses a name in use, whatever its case.
    assert.match(String(prompts[0].validateInput?.('newcomer')), /already an environment named newcomer/);
    assert.deepEqual(userEnvironments(), [{ name: 'Newcomer', baseUrl: second.url }]);
  });
});
