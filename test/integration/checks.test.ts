// Payload checks in Test Explorer, inside a real VS Code against the local service: payloads with // @expect
// in the workspace are listed by folder (a dataset's rows as children), Run Checks runs them, a failure is
// reported at its expectation's line with expected and actual, the settings bound concurrency and rows,
// Cancel stops a run, several models give a grid across models (and a child per model in Test Explorer),
// the results tables save as CSV, and an expectation that cannot be read is an error in the editor.
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Commands, Settings } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, setSetting, sleep, stubUi, type UiStub } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../test/fixtures/checks');

function children(item: vscode.TestItem): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  item.children.forEach((c) => void out.push(c));
  // As Test Explorer lists them: by sortText (a dataset's rows: the file's order), else by label.
  return out.sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label, 'en', { numeric: true }));
}

describe('Checks in Test Explorer', function () {
  this.timeout(90_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let root: string;
  let ui: UiStub;
  let tmp: string;

  const folders = () => {
    const out: vscode.TestItem[] = [];
    api.checks.controller.items.forEach((i) => void out.push(i));
    return out.filter((f) => f.label.startsWith('checks-it'));
  };
  const item = (name: string) =>
    folders()
      .flatMap(children)
      .find((i) => i.label === name);

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-checks-'));
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the suite runs with a folder open');
    root = path.join(workspace, 'checks-it');
    cpSync(FIXTURES, root, { recursive: true });
    ui = stubUi(api.ui);
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
  });

  after(async () => {
    ui?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting(Settings.checksConcurrency, undefined);
    await setSetting(Settings.checksMaxRows, undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });

  it('lists each payload with checks by file name under its folder, a dataset row per child', async () => {
    await api.checks.refresh();
    assert.deepEqual(
      folders()
        .map((f) => f.label)
        .sort(),
      ['checks-it/capitals', 'checks-it/embeddings'],
    );
    const capitals = folders().find((f) => f.label === 'checks-it/capitals') as vscode.TestItem;
    assert.deepEqual(
      children(capitals).map((c) => c.label),
      ['cities.jsonc', 'london.jsonc', 'paris.jsonc'],
    );
    const cities = await eventually(
      () => (item('cities.jsonc')?.children.size === 5 ? item('cities.jsonc') : undefined),
      5000,
      'the rows',
    );
    assert.deepEqual(
      children(cities).map((c) => c.label),
      ['Paris', 'Rome', 'Oslo', 'Lisbon', 'Vienna'].map((city) => `cities.jsonl: ${city}`),
    );
    // The name says which case; the id is the line's, as before.
    assert.deepEqual(
      children(cities).map((c) => c.id.slice(c.id.lastIndexOf('#'))),
      [1, 2, 3, 4, 5].map((n) => `#row:${n}`),
    );
    // The gutter: the payload's test sits at its first expectation.
    assert.equal(item('paris.jsonc')?.range?.start.line, 1);
  });

  it('Run Checks runs them all: the passing pass, the failure is at its line with expected and actual, rows are children', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand(Commands.runChecks);
    const outcomes = api.checks.outcomes();
    const of = (i: vscode.TestItem | undefined) => outcomes.get((i as vscode.TestItem).id);
    assert.equal(of(item('paris.jsonc'))?.state, 'passed');
    assert.equal(of(item('vectors.jsonc'))?.state, 'passed');
    assert.ok((of(item('paris.jsonc'))?.duration ?? -1) >= 0, 'a duration is shown');
    const london = of(item('london.jsonc'));
    assert.equal(london?.state, 'failed');
    assert.equal(london?.messages.length, 1);
    // A sentence with the answer's start, not an expected/actual diff (that is for equalities).
    assert.deepEqual(london?.messages[0], {
      message: 'The answer\'s text does not contain "London". It begins: "The capital of France is Paris."',
      line: 3,
      expected: undefined,
      actual: undefined,
    });
    const cities = item('cities.jsonc') as vscode.TestItem;
    assert.equal(of(cities)?.state, 'passed');
    for (const row of children(cities)) {
      assert.equal(of(row)?.state, 'passed', row.label);
    }
    assert.equal(api.checks.lastTable()?.rows.length, 8);
  });

  it('runs one dataset row alone, and the settings bound concurrency and rows', async () => {
    const cities = item('cities.jsonc') as vscode.TestItem;
    server.clearRecords();
    await api.checks.run([children(cities)[2]]);
    assert.deepEqual(
      server.received('/v1/responses').map((r) => (r.json as { input: string }).input),
      ['Tell me one thing about Oslo.'],
    );

    await setSetting(Settings.checksMaxRows, 2);
    await setSetting(Settings.checksConcurrency, 1);
    server.clearRecords();
    await api.checks.run([cities]);
    assert.equal(server.received('/v1/responses').length, 2);
    assert.deepEqual(
      api.checks.lastTable()?.rows.map((r) => r[0]),
      ['cities.jsonl: Paris', 'cities.jsonl: Rome'],
    );
    await setSetting(Settings.checksMaxRows, undefined);
    await setSetting(Settings.checksConcurrency, undefined);
  });

  it('Cancel stops the requests in flight', async () => {
    const cities = item('cities.jsonc') as vscode.TestItem;
    server.setFaults({ latencyMs: 3000 });
    const source = new vscode.CancellationTokenSource();
    try {
      const started = Date.now();
      const running = api.checks.run([cities], undefined, source.token);
      await sleep(300);
      source.cancel();
      await running;
      assert.ok(Date.now() - started < 2500, 'the run ended at the cancel');
      const outcome = api.checks.outcomes().get(cities.id);
      assert.equal(outcome?.state, 'failed');
      assert.match(outcome?.messages[0]?.message ?? '', /cancelled/);
    } finally {
      server.setFaults(undefined);
      source.dispose();
    }
  });

  it('several models: a grid of results across three models, a child per model in Test Explorer, both tables save as CSV', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(root, 'capitals', 'paris.jsonc'));
    await vscode.window.showTextDocument(doc);
    await api.catalog.refresh();
    let offered: string[] = [];
    api.ui.pickMany = async (items) => {
      const picked = items.filter((i) => ['aurora-1', 'aurora-2', 'aurora-2-mini'].includes(String(i.label)));
      offered = picked.map((i) => String(i.label));
      return picked as never;
    };
    await vscode.commands.executeCommand(Commands.runChecksOnModels);
    assert.equal(offered.length, 3, 'the picker offered the three models');
    const table = api.checks.lastModelTable();
    // In the order the picker offered them (aurora-1 retires, so it comes after the current ones).
    assert.deepEqual(
      table?.rows.map((r) => [r[0], r[1], r[2]]),
      offered.map((m) => [m, '1/1', '100%']),
    );

    // The grid opened by itself: a column per model in that order, a row for the payload, every cell passed.
    const grid = api.checks.grid.grid();
    assert.deepEqual(grid?.models, offered);
    assert.deepEqual(
      grid?.rows.map((r) => [r.label, ...r.cells.map((c) => c.text)]),
      [['paris.jsonc', 'passed', 'passed', 'passed']],
    );
    const html = api.checks.grid.html() ?? '';
    const headers = [...html.matchAll(/class="model">(.*?)<\/th>/g)].map((m) => m[1].replace(/<wbr>/g, ''));
    assert.deepEqual(headers, offered);
    await eventually(
      () => {
        const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
        return tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('modelAccess.modelGrid');
      },
      5000,
      'the grid is the active tab',
    );

    // Test Explorer: one child of the payload per model, each with its own result.
    const paris = item('paris.jsonc') as vscode.TestItem;
    const perModel = children(paris).filter((c) => c.id.includes('#model:'));
    assert.deepEqual(perModel.map((c) => c.label).sort(), [...offered].sort());
    for (const child of perModel) {
      assert.equal(api.checks.outcomes().get(child.id)?.state, 'passed', child.label);
    }
    // Running one model's child sends the payload to that model alone, and keeps the other children.
    server.clearRecords();
    await api.checks.run([perModel[0]]);
    assert.deepEqual(
      server.received('/v1/chat').map((r) => (r.json as { model: string }).model),
      [perModel[0].label],
    );
    assert.deepEqual(
      children(paris)
        .filter((c) => c.id.includes('#model:'))
        .map((c) => c.label),
      perModel.map((c) => c.label),
    );

    // Save as CSV (the page's button): the grid, a column group per model, and the summary row.
    const target = vscode.Uri.file(path.join(tmp, 'grid.csv'));
    api.ui.saveDialog = async () => target;
    assert.equal((await api.checks.grid.saveCsv())?.fsPath, target.fsPath);
    const gridCsv = readFileSync(target.fsPath, 'utf8').split('\r\n');
    assert.equal(gridCsv[0], `row,${offered.map((m) => `${m},${m} score,${m} time,${m} failure`).join(',')}`);
    assert.match(gridCsv[1], /^paris\.jsonc,passed,,\d+(\.\d+)?m?s,,passed,/);
    assert.match(gridCsv[2], /^all rows,1\/1 \(100%\),,/);

    // Closed, it comes back from the palette with the same grid.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await eventually(() => api.checks.grid.html() === undefined, 5000, 'the grid closed');
    await vscode.commands.executeCommand(Commands.showModelGrid);
    assert.deepEqual(
      [...(api.checks.grid.html() ?? '').matchAll(/class="model">(.*?)<\/th>/g)].map((m) => m[1].replace(/<wbr>/g, '')),
      offered,
    );

    // Save Check Results as CSV still saves the per-model table.
    const summary = vscode.Uri.file(path.join(tmp, 'results.csv'));
    api.ui.saveDialog = async () => summary;
    await vscode.commands.executeCommand(Commands.saveCheckResults);
    assert.match(
      readFileSync(summary.fsPath, 'utf8'),
      new RegExp(`^model,passed,pass rate,median time\r\n${offered[0]},1/1,100%,`),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an expectation that cannot be read is an error at its line, and fails its test with the reason', async () => {
    const file = path.join(root, 'capitals', 'broken.jsonc');
    writeFileSync(file, '// POST /v1/chat\n// @expect answer is nice\n{ "model": "aurora-1", "messages": [] }\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    // The expectation's own diagnostic (the model line may have its own: aurora-1 retires in the registry).
    const diagnostic = await eventually(
      () =>
        vscode.languages
          .getDiagnostics(doc.uri)
          .find((x) => x.source === 'Model Access' && /not an expectation/.test(x.message)),
      5000,
      'the diagnostic',
    );
    assert.equal(diagnostic.range.start.line, 1);
    assert.match(
      diagnostic.message,
      /^"answer is nice" is not an expectation this extension knows; write one of: status 200/,
    );
    await vscode.commands.executeCommand(Commands.runChecks);
    const outcome = await eventually(() => api.checks.outcomes().get(doc.uri.toString()), 5000, 'the run');
    assert.equal(outcome.state, 'failed');
    assert.deepEqual([outcome.messages[0].line, /cannot be read/.test(outcome.messages[0].message)], [1, true]);
    // Completion after // @expect offers the forms.
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(1, '// @expect '.length),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(
      ['status 200', 'first token < 800ms', 'cost <= 0.01', 'total cost <= 0.50'].every((l) => labels.includes(l)),
      labels.join(', '),
    );
  });

  it('a check file in the workspace reads only MODEL_ACCESS_* environment variables, as Send does', async () => {
    const file = path.join(root, 'capitals', 'env-reader.jsonc');
    const received = server.requests.length;
    writeFileSync(
      file,
      '// POST /v1/chat\n// @expect status 200\n{ "model": "aurora-1", "messages": [{ "role": "user", "content": "{{$env HOME}}" }] }\n',
    );
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await eventually(() => item('env-reader.jsonc'), 10_000, 'the new check file listed');
    await vscode.commands.executeCommand(Commands.runChecks);
    const outcome = await eventually(() => api.checks.outcomes().get(doc.uri.toString()), 10_000, 'the run');
    assert.equal(outcome.state, 'errored', 'the check cannot run: nothing is sent');
    assert.match(
      outcome.messages[0].message,
      /outside the scratch folder reads only MODEL_ACCESS_\* environment variables unless you allow HOME/,
    );
    assert.ok(
      server.requests
        .slice(received)
        .every((r) => !JSON.stringify(r.json ?? '').includes(process.env.HOME ?? '\u0000')),
      'HOME was sent to no one',
    );
    rmSync(file, { force: true });
  });

  it('a dataset outside the workspace folder, by ../ or by a symlink, is not read: the item says why, nothing is sent', async () => {
    // `tmp` is outside the workspace: a file there holds what a payload must never send.
    const secret = path.join(tmp, 'secrets.jsonl');
    writeFileSync(secret, '{"city": "outside-secret-row"}\n');
    const dir = path.join(root, 'capitals');
    const byPath = path.join(dir, 'outside-by-path.jsonc');
    const relative = path.relative(dir, secret).split(path.sep).join('/');
    symlinkSync(secret, path.join(dir, 'linked.jsonl'));
    const byLink = path.join(dir, 'outside-by-link.jsonc');
    const payload = (each: string) =>
      `// POST /v1/chat\n// @each ${each}\n// @expect status 200\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "{{city}}" }] }\n`;
    writeFileSync(byPath, payload(relative));
    writeFileSync(byLink, payload('linked.jsonl'));
    const received = server.requests.length;
    try {
      for (const file of [byPath, byLink]) {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
      }
      for (const name of ['outside-by-path.jsonc', 'outside-by-link.jsonc']) {
        const listed = await eventually(() => (item(name)?.error ? item(name) : undefined), 15_000, `${name} listed`);
        assert.match(String(listed.error), /is outside the workspace folder of this payload/);
        assert.equal(listed.children.size, 0, 'no rows');
      }
      const doc = await vscode.workspace.openTextDocument(byLink);
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand(Commands.runChecks);
      await eventually(() => api.checks.outcomes().get(doc.uri.toString()), 15_000, 'the run');
      assert.ok(
        server.requests.slice(received).every((r) => !JSON.stringify(r.json ?? '').includes('outside-secret-row')),
        'no row of the outside file was sent',
      );
    } finally {
      for (const f of [byPath, byLink, path.join(dir, 'linked.jsonl')]) {
        rmSync(f, { force: true });
      }
    }
  });
});
