// Model ids in the workspace's code, in a real VS Code: a Python file naming a deprecated model, a YAML file
// naming a model the registry no longer lists and a TypeScript file naming a current one show exactly two
// problems with no file opened; the hover says the model's lifecycle as text; Models in Use lists the three with
// their counts, retiring first; Try the Successor runs a payload's checks on both models and its grid offers the
// switch (refactor preview first); the "in all files" quick fix moves every reference through the preview.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Commands, Settings, Views } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, setSetting, sleep, stubUi, type UiStub } from './helpers';

describe('Model references in the workspace', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let root: string;
  let ui: UiStub;
  const file = (name: string) => path.join(root, name);
  const uri = (name: string) => vscode.Uri.file(file(name));

  /** The problems the references put in the Problems view for the fixture folder, by file name. */
  function problems(): { file: string; severity: vscode.DiagnosticSeverity; message: string; line: number }[] {
    return vscode.languages
      .getDiagnostics()
      .filter(([u]) => u.fsPath.startsWith(`${root}${path.sep}`))
      .flatMap(([u, ds]) =>
        ds
          .filter((d) => d.source === 'Model Access')
          .map((d) => ({
            file: path.relative(root, u.fsPath),
            severity: d.severity,
            message: d.message,
            line: d.range.start.line,
          })),
      )
      .sort((a, b) => a.file.localeCompare(b.file));
  }

  /**
   * Presses the refactor preview's `button` until the edit that waits for it settles: VS Code shows the preview
   * before an edit that needs confirmation, and its commands do nothing until it is shown.
   */
  async function answerPreview<T>(applying: Thenable<T>, button: 'apply' | 'discard'): Promise<T> {
    let settled = false;
    const result = Promise.resolve(applying).finally(() => (settled = true));
    const deadline = Date.now() + 15_000;
    while (!settled) {
      assert.ok(Date.now() < deadline, 'the refactor preview did not show');
      await vscode.commands.executeCommand(`refactorPreview.${button}`).then(
        () => undefined,
        () => undefined,
      );
      await Promise.race([result, sleep(250)]);
    }
    return result;
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the suite runs with a folder open');
    root = path.join(workspace, 'refs-it');
    mkdirSync(path.join(root, 'ignored'), { recursive: true });
    mkdirSync(path.join(root, 'checks'), { recursive: true });
    writeFileSync(
      file('app.py'),
      [
        'from acme import Client',
        '',
        'client = Client()',
        'answer = client.chat(',
        '    model="aurora-1",',
        '    prompt="Summarise the quarterly report in three short bullet points.",',
        ')',
        '',
      ].join('\n'),
    );
    writeFileSync(
      file('deploy.yaml'),
      ['service: summaries', 'llm:', '  model: basalt-code-1', '  timeout: 30', ''].join('\n'),
    );
    writeFileSync(
      file('main.ts'),
      ['export const MODEL = "aurora-2";', 'export const NOTE = "aurora";', ''].join('\n'),
    );
    // Excluded by modelAccess.references.exclude: never read, never reported, never changed.
    writeFileSync(file('ignored/old.py'), 'MODEL = "aurora-1"\n');
    // A payload with checks that uses the deprecated model: Try the Successor runs it.
    writeFileSync(
      file('checks/summary.jsonc'),
      [
        '// POST /v1/chat',
        '// @expect status 200',
        '{',
        '  "model": "aurora-1",',
        '  "messages": [{ "role": "user", "content": "Summarise: sales grew." }]',
        '}',
        '',
      ].join('\n'),
    );
    // Only this folder: the shared workspace holds other suites' payloads.
    await setSetting(Settings.referencesInclude, ['refs-it/**/*.{py,yaml,ts,jsonc}']);
    await setSetting(Settings.referencesExclude, ['refs-it/ignored/**']);
    await setSetting(Settings.referencesWarnDays, 30);
    await setSetting(Settings.rememberModelList, true);
    await api.keys.store(server.url, server.keys.acme);
    await setSetting('baseUrl', server.url);
    await api.catalog.reload();
    await api.changes.settled();
    assert.equal(api.catalog.status.kind, 'ready');
    // The registry drops basalt-code-1 after the list was first seen: it is gone, not unknown.
    server.changeRegistry('acme', { remove: ['basalt-code-1'] });
    await api.catalog.refresh();
    await api.changes.settled();
    ui = stubUi(api.ui);
  });

  after(async () => {
    ui?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of [Settings.referencesInclude, Settings.referencesExclude, Settings.referencesWarnDays]) {
      await setSetting(name, undefined);
    }
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.rememberModelList, undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows exactly the two problems with no file opened, and the hover says the lifecycle as text', async () => {
    const feature = api.references.feature();
    await vscode.commands.executeCommand(Commands.rescanReferences);
    const found = await eventually(
      () => {
        const p = problems();
        return p.length === 2 ? p : undefined;
      },
      20_000,
      'two problems',
    );
    assert.deepEqual(
      found.map((p) => [p.file, p.line, p.severity]),
      [
        ['app.py', 4, vscode.DiagnosticSeverity.Warning],
        ['deploy.yaml', 2, vscode.DiagnosticSeverity.Error],
      ],
    );
    assert.match(found[0].message, /aurora-1/);
    assert.match(found[0].message, /2027-01-31/, 'the warning names the retirement date');
    assert.match(found[0].message, /aurora-2/, 'and the successor');
    assert.match(found[1].message, /basalt-code-1/);
    const opened = vscode.workspace.textDocuments.filter((d) => d.uri.fsPath.startsWith(root));
    assert.deepEqual(
      opened.map((d) => d.uri.fsPath),
      [],
      'no fixture file was opened',
    );

    // Within warnDays of its retirement the deprecated model's problem rises to an error.
    await setSetting(Settings.referencesWarnDays, 90);
    await eventually(
      () => problems().find((p) => p.file === 'app.py')?.severity === vscode.DiagnosticSeverity.Error,
      10_000,
      'the warning to rise within 90 days',
    );
    await setSetting(Settings.referencesWarnDays, 30);

    const hovers = (await vscode.commands.executeCommand(
      'vscode.executeHoverProvider',
      uri('app.py'),
      new vscode.Position(4, 12),
    )) as vscode.Hover[];
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n')
      .replace(/&nbsp;/g, ' ');
    assert.match(text, /Family: aurora/);
    assert.match(text, /retires 2027-01-31/);
    assert.match(text, /Capabilities: chat/);
    assert.match(text, /Context window: 16k tokens/);
    assert.match(
      text,
      /Model Card: `https:\/\/cards\.example\/acme\/aurora-1`/,
      'the card address as code, not a link',
    );
    assert.doesNotMatch(text, /\]\(https?:/);
    assert.match(text, /command:modelAccess\.trySuccessor/, 'the one link is Try the Successor');
    assert.ok(feature.index.all.size >= 3);
  });

  it('lists the three models in Models in Use with their counts, retiring first, and counts them in the Models view', async () => {
    const feature = api.references.feature();
    await feature.settled();
    const rows = feature.modelsInUse.getChildren();
    assert.deepEqual(
      rows.map((r) => [String(r.label), String(r.description)]),
      [
        ['basalt-code-1', '1 place · no longer listed'],
        ['aurora-1', '2 places · retires 2027-01-31'],
        ['aurora-2', '1 place · current'],
      ],
    );
    const places = feature.modelsInUse.getChildren(rows[1]).map((r) => String(r.label));
    assert.deepEqual(places, ['refs-it/app.py:5', 'refs-it/checks/summary.jsonc:4']);
    const reveal = feature.modelsInUse.getChildren(rows[1])[0].command;
    assert.equal(reveal?.command, 'vscode.open', 'a click reveals the line');
    await vscode.commands.executeCommand(`${Views.modelsInUse}.focus`);
    // The status bar says a model in use retires within the window (the gone one).
    assert.equal(feature.note.text, 'basalt-code-1: no longer listed');
    // The Models view's row says how many places use the model.
    const aurora = api.view.provider
      .getChildren()
      .flatMap((n) => ('model' in n ? [n] : api.view.provider.getChildren(n)))
      .find((n) => 'model' in n && n.model.id === 'aurora-1');
    assert.match(String(aurora?.description), /used in 2 places/);
  });

  it('Try the Successor runs the payload on both models and the grid offers the switch, preview first', async () => {
    const feature = api.references.feature();
    await feature.settled();
    const before = api.checks.grid.grid();
    await vscode.commands.executeCommand(Commands.trySuccessor, {
      uri: uri('app.py').toString(),
      line: 4,
      character: 11,
    });
    const grid = await eventually(
      () => {
        const g = api.checks.grid.grid();
        return g && g !== before ? g : undefined;
      },
      30_000,
      'the grid of both models',
    );
    assert.deepEqual(grid.models, ['aurora-1', 'aurora-2']);
    assert.match(api.checks.grid.html() ?? '', /Switch 2 references to aurora-2/);
    // The switch asks first: the refactor preview; discarded, nothing is written.
    await answerPreview(
      Promise.resolve(api.checks.grid.followUp()).then(() => true),
      'discard',
    );
    await sleep(300);
    assert.match(readFileSync(file('app.py'), 'utf8'), /"aurora-1"/);
    const shown = await vscode.workspace.openTextDocument(uri('app.py'));
    assert.match(shown.getText(), /"aurora-1"/, 'nothing was changed, not even in an editor');
    assert.equal(shown.isDirty, false);
    // A switch from a model nothing names changes nothing, and says so.
    const none = await vscode.commands.executeCommand(Commands.switchReferences, 'aurora-0', 'aurora-2');
    assert.equal(none, false);
    assert.ok(
      ui.messages.some((m) => /Nothing in this workspace names aurora-0/.test(m)),
      ui.messages.join(' | '),
    );
  });

  it('"Use successor … in all files" moves every reference to the successor through the refactor preview', async () => {
    const feature = api.references.feature();
    // A file created now is indexed without a rescan.
    writeFileSync(file('worker.py'), 'DEFAULT_MODEL = "aurora-1"\n');
    await eventually(() => feature.index.referencesOf(uri('worker.py')), 10_000, 'the new file in the index');
    await feature.settled();
    // The code action command reads an open model (the problems above came with no file open).
    await vscode.workspace.openTextDocument(uri('app.py'));
    const actions = (await vscode.commands.executeCommand(
      'vscode.executeCodeActionProvider',
      uri('app.py'),
      new vscode.Range(4, 12, 4, 12),
      vscode.CodeActionKind.QuickFix.value,
      10,
    )) as vscode.CodeAction[];
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Use successor aurora-2'), titles.join(' | '));
    const all = actions.find((a) => a.title === 'Use successor aurora-2 in all 3 files');
    assert.ok(all?.edit, titles.join(' | '));
    assert.equal(all.edit.size, 3);
    const applied = await answerPreview(vscode.workspace.applyEdit(all.edit), 'apply');
    assert.equal(applied, true);
    await eventually(
      () => !readFileSync(file('worker.py'), 'utf8').includes('aurora-1'),
      10_000,
      'the edit on disk or in the editors',
    );
    await vscode.workspace.saveAll(false);
    assert.match(readFileSync(file('app.py'), 'utf8'), /model="aurora-2"/);
    assert.match(readFileSync(file('worker.py'), 'utf8'), /"aurora-2"/);
    assert.match(readFileSync(file('checks/summary.jsonc'), 'utf8'), /"model": "aurora-2"/);
    assert.match(readFileSync(file('ignored/old.py'), 'utf8'), /"aurora-1"/, 'an excluded file is never changed');
    await eventually(() => problems().length === 1, 10_000, 'only the gone model left');
    assert.equal(problems()[0].file, 'deploy.yaml');
  });

  it('Try the Successor with no payload using the model makes one from the code around it, then runs it on both', async () => {
    const feature = api.references.feature();
    writeFileSync(
      file('reasoner.py'),
      ['PROMPT = "Explain why the sky is blue to a child."', 'MODEL = "kestrel-reasoner-0.5"', ''].join('\n'),
    );
    const code = await eventually(() => feature.index.referencesOf(uri('reasoner.py')), 10_000, 'the new file');
    const asked: string[] = [];
    api.ui.ask = async (message) => (asked.push(message), 'Make a Payload');
    const before = api.checks.grid.grid();
    const ref = code.refs[0];
    await vscode.commands.executeCommand(Commands.trySuccessor, {
      uri: uri('reasoner.py').toString(),
      line: ref.line,
      character: ref.character,
    });
    assert.match(asked.join(' | '), /No payload in this workspace uses kestrel-reasoner-0\.5/);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const draft = path.join(workspace, 'model-checks', 'kestrel-reasoner-0.5.jsonc');
    try {
      const text = readFileSync(draft, 'utf8');
      assert.match(text, /^\/\/ POST \/v1\/chat/);
      assert.match(text, /"content": "Explain why the sky is blue to a child\."/, 'the prompt from the code');
      const grid = await eventually(
        () => {
          const g = api.checks.grid.grid();
          return g && g !== before ? g : undefined;
        },
        30_000,
        'the grid of both models',
      );
      assert.deepEqual(grid.models, ['kestrel-reasoner-0.5', 'kestrel-reasoner-1']);
    } finally {
      rmSync(path.dirname(draft), { recursive: true, force: true });
    }
  });
});
