// Registry text is data, and text moved into the scratch folder keeps its `{{$env}}` policy (issue 44): inside
// a real VS Code against the local service's hostile registry (family `vars`: ids that are `{{…}}` references),
// New Request, the successor quick fix and completion write an id that Send sends as listed; Copy as Code
// applies the payload's `{{$env}}` policy; Fork and Import cURL of text from outside the scratch folder give a
// `.copied.jsonc` file that reads no more than its source could (a request reopened from history too); a `{{$env}}` value a service echoes in a
// response header is redacted in what the answer keeps.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { END_USER_HEADER, HOSTILE_IDS, startServer, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';
import { Commands } from '../../src/ids';

const CANARY = 'canary-issue44-registry-text';
const OTHER = 'ISSUE44_OTHER_SECRET';

describe('Registry text and the scratch folder keep their {{$env}} limits', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let tmp: string;
  let ui: UiStub;
  const vars = HOSTILE_IDS.variables;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ hostile: { models: true } });
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-registry-text-'));
    process.env.HOSTILE_ENV_CANARY = CANARY;
    process.env.MODEL_ACCESS_HOSTILE_CANARY = CANARY;
    process.env[OTHER] = CANARY;
    ui = stubUi(api.ui);
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.hostile);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the URL');
    await sleep(150);
    await api.catalog.refresh();
    await eventually(() => api.catalog.models.some((m) => m.id === vars[0]), 15_000, 'the hostile list');
  });

  after(async () => {
    ui?.restore();
    delete process.env.HOSTILE_ENV_CANARY;
    delete process.env.MODEL_ACCESS_HOSTILE_CANARY;
    delete process.env[OTHER];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(() => {
    ui.messages.length = 0;
    ui.copied.length = 0;
  });

  /** Sends the active payload and returns the body the service received. */
  async function sendActive(): Promise<Record<string, unknown>> {
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(
      outcome.kind === 'sent' && outcome.record.status === 200,
      `sent: ${JSON.stringify(outcome.kind === 'sent' ? outcome.record.error : outcome)}`,
    );
    const body = server.lastReceived('/v1/responses', 'POST').json ?? {};
    assert.ok(!JSON.stringify(body).includes(CANARY), `an environment variable went out: ${JSON.stringify(body)}`);
    return body;
  }

  it('New Request, the successor quick fix and completion write a listed id; Send sends it as listed', async () => {
    for (const id of [vars[0], vars[1]]) {
      await newPayload('/v1/responses', id);
      assert.equal((await sendActive()).model, id, 'New Request');
    }

    // The successor the registry names for a retiring model, through the quick fix.
    const retiring = await newPayload('/v1/responses', HOSTILE_IDS.variablesRetiring);
    const uri = retiring.document.uri;
    const warning = await eventually(
      () => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'retiringModel'),
      10_000,
      'the retiring-model warning',
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      warning.range,
    );
    const successor = actions.find((a) => a.title.includes('its successor'));
    assert.ok(successor?.edit, `offered: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(successor.edit));
    retiring.selection = new vscode.Selection(0, 0, 0, 0);
    assert.equal((await sendActive()).model, vars[0], 'the successor fix');

    // Completion at "model": "|" inserts plain text (no snippet), written literally.
    const editor = await newPayload('/v1/responses', 'plain-1');
    const doc = editor.document;
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('"model"'));
    await editor.edit((b) => b.replace(doc.lineAt(line).range, '  "model": "",'));
    const at = new vscode.Position(line, doc.lineAt(line).text.indexOf('""') + 1);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      at,
    );
    const item = list.items.find(
      (i) => typeof i.insertText === 'string' && i.insertText.includes('MODEL_ACCESS_HOSTILE'),
    );
    assert.ok(item, 'the id is offered');
    assert.equal(typeof item.insertText, 'string', 'not a snippet');
    const range = item.range instanceof vscode.Range ? item.range : item.range?.replacing;
    await editor.edit((b) => b.replace(range ?? new vscode.Range(at, at), item.insertText as string));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    assert.equal((await sendActive()).model, vars[1], 'completion');
  });

  it("Copy as Code reads only the {{$env}} names the payload's file may read", async () => {
    const file = path.join(tmp, 'copy-as-code.jsonc');
    writeFileSync(file, `// POST /v1/responses\n{"model": "plain-1", "input": "{{$env ${OTHER}}}"}\n`);
    const uri = vscode.Uri.file(file);
    const code = await vscode.commands.executeCommand(Commands.copyAsCode, uri, 'curl-bash');
    assert.equal(code, undefined, 'nothing was copied');
    assert.deepEqual(ui.copied, []);
    await eventually(
      () => ui.messages.some((m) => m.includes(`unless you allow ${OTHER}`)),
      5000,
      'the refusal, with the name to allow',
    );
  });

  it('Fork and Import cURL of text from outside the scratch folder keep its limit', async () => {
    const file = path.join(tmp, 'from-a-repository.jsonc');
    const content = `{{$env ${OTHER}}}`;
    writeFileSync(
      file,
      `// POST /v1/responses\n${JSON.stringify({ model: 'plain-1', input: [{ role: 'user', content }] }, null, 2)}\n`,
    );
    const source = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    const end = source.document.positionAt(source.document.getText().length);
    source.selection = new vscode.Selection(end, end);
    const before = server.requests.length;

    const forked = (await vscode.commands.executeCommand(Commands.forkConversation)) as {
      kind: string;
      editor?: vscode.TextEditor;
    };
    assert.equal(forked.kind, 'done');
    const fork = forked.editor;
    assert.ok(fork, 'the fork opened');
    assert.ok(fork.document.uri.path.endsWith('.copied.jsonc'), fork.document.uri.path);
    assert.ok(fork.document.getText().includes(content), 'the fork holds the reference');
    await vscode.window.showTextDocument(fork.document, { preview: false });
    fork.selection = new vscode.Selection(0, 0, 0, 0);
    const refused = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(refused.kind === 'invalid', `refused: ${refused.kind}`);
    assert.match(refused.message, new RegExp(`copied into the scratch folder .* unless you allow ${OTHER}`));

    const curl = `curl ${server.url}/v1/responses -H 'content-type: application/json' -d '${JSON.stringify({ model: 'plain-1', input: content })}'`;
    const imported = (await vscode.commands.executeCommand(Commands.importCurl, curl)) as vscode.TextEditor;
    assert.ok(imported.document.uri.path.endsWith('.copied.jsonc'), imported.document.uri.path);
    imported.selection = new vscode.Selection(0, 0, 0, 0);
    const again = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(again.kind === 'invalid', `refused: ${again.kind}`);
    assert.equal(server.requests.length, before, 'nothing was sent');

    // The person's own scratch payload forks into one of their own: every name stays readable there.
    const own = await newPayload('/v1/responses', 'plain-1');
    const ownEnd = own.document.positionAt(own.document.getText().length);
    own.selection = new vscode.Selection(ownEnd, ownEnd);
    const ownFork = (await vscode.commands.executeCommand(Commands.forkConversation)) as { editor?: vscode.TextEditor };
    assert.ok(ownFork.editor && !ownFork.editor.document.uri.path.endsWith('.copied.jsonc'));
  });

  it('a request reopened from history without its own scratch file opens as copied text', async () => {
    const marker = 'sent from an untitled editor';
    const doc = await vscode.workspace.openTextDocument({
      language: 'jsonc',
      content: `// POST /v1/responses\n${JSON.stringify({ model: 'plain-1', input: marker })}\n`,
    });
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'sent');
    const { pick } = api.ui;
    try {
      api.ui.pick = (async (items: readonly { entry?: { payload: string }; run?: string }[]) =>
        items.find((i) => i.entry?.payload.includes(marker)) ?? items.find((i) => i.run === 'open')) as typeof pick;
      await vscode.commands.executeCommand(Commands.showHistory);
      const reopened = await eventually(
        () => {
          const active = vscode.window.activeTextEditor?.document;
          return active?.getText().includes(marker) && active.uri.scheme !== 'untitled' ? active : undefined;
        },
        5000,
        'the reopened payload',
      );
      assert.ok(reopened.uri.path.endsWith('.copied.jsonc'), reopened.uri.path);
    } finally {
      api.ui.pick = pick;
    }
  });

  it('a {{$env}} value the service echoes in a response header is redacted in what the answer keeps', async () => {
    const editor = await newPayload('/v1/responses', 'plain-1', (p) => (p.user = `{{$env ${OTHER}}}`));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(outcome.kind === 'sent' && outcome.record.status === 200);
    assert.equal(server.lastReceived('/v1/responses', 'POST').json?.user, CANARY, 'the scratch payload read it');
    const headers = outcome.record.headers ?? {};
    assert.ok(headers[END_USER_HEADER]?.includes('[redacted]'), JSON.stringify(headers));
    assert.ok(!JSON.stringify(headers).includes(CANARY), JSON.stringify(headers));
  });
});
