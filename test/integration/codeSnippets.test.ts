// Copy as Code and Import cURL inside a real VS Code against the local service: the copied bash command
// (through the test Ui's clipboard) sends the payload when run with curl, a model row gives code for that
// model, and the README's curl example imports as a payload that sends.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, newPayload, setSetting, sleep, stubUi, type UiStub } from './helpers';
import { Commands } from '../../src/ids';

const HOSTILE = `It's "quoted" $HOME \`id\` %PATH% !x! ^ é 😀\nsecond line`;

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (e, stdout, stderr) => resolve({ code: e ? 1 : 0, stdout, stderr }),
    );
  });
}

describe('Copy as Code and Import cURL', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await sleep(150);
    await api.catalog.refresh();
    assert.ok(api.catalog.models.length > 0, 'the catalog loaded');
  });

  beforeEach(() => {
    ui = stubUi(api.ui);
  });

  afterEach(() => ui.restore());

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
  });

  it('Copy as Code on a payload: the picked bash command is on the clipboard, without the key, and curl sends the payload', async () => {
    const model = api.catalog.models[0].id;
    const editor = await newPayload('/v1/chat', model, (p) => {
      (p.messages as { content: string }[])[1].content = HOSTILE;
    });
    const offered: string[] = [];
    api.ui.pick = (async (items: readonly { label: string; target?: { id: string } }[]) => {
      offered.push(...items.map((i) => i.label));
      return items.find((i) => i.target?.id === 'curl-bash');
    }) as typeof api.ui.pick;
    const code = (await vscode.commands.executeCommand(Commands.copyAsCode)) as string;
    assert.ok(offered.some((l) => /PowerShell/.test(l)) && offered.some((l) => /Python: openai/.test(l)));
    assert.equal(ui.copied.length, 1);
    assert.equal(ui.copied[0], code);
    assert.ok(code.includes(`${server.url}/v1/chat`));
    assert.ok(!code.includes(server.keys.acme), 'the key is not in the snippet');
    assert.ok(ui.messages.some((m) => m.includes('MODEL_ACCESS_API_KEY')));

    const run = await bash(code, { MODEL_ACCESS_API_KEY: server.keys.acme });
    assert.equal(run.code, 0, run.stderr);
    const sent = JSON.parse(editor.document.getText().replace(/^.*\n/, ''));
    assert.deepEqual(server.lastReceived('/v1/chat').json, sent, 'curl sent the payload as it is in the editor');
    assert.equal(server.lastReceived('/v1/chat').status, 200);
  });

  it('Copy as Code on a model row: code that calls that model at the configured service', async () => {
    const model = api.catalog.models[2];
    const code = (await vscode.commands.executeCommand(
      Commands.copyAsCode,
      { model },
      'js-openai',
      '/v1/responses',
    )) as string;
    assert.equal(ui.copied[0], code);
    assert.ok(code.includes(`baseURL: "${server.url}/v1"`), code);
    assert.ok(code.includes(`"model": ${JSON.stringify(model.id)}`), code);
    assert.ok(code.includes('client.responses.create('));
    assert.ok(code.includes('process.env.MODEL_ACCESS_API_KEY'));
  });

  it("Import cURL of the README's example makes a payload that sends; the Authorization header is not written", async () => {
    const readme = readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
    const example = /```bash\n(curl [\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(example, 'the README has a curl example');
    const editor = (await vscode.commands.executeCommand(Commands.importCurl, example)) as vscode.TextEditor;
    assert.ok(editor, ui.messages.join('\n'));
    const text = editor.document.getText();
    assert.equal(editor.document.lineAt(0).text, '// POST /v1/chat');
    assert.ok(api.requests.scratch.contains(editor.document.uri), 'a scratch payload');
    assert.ok(!/Authorization|MODEL_ACCESS_API_KEY/.test(text), 'the header is not in the file');
    assert.ok(
      ui.messages.some((m) => /Authorization header was dropped/.test(m)),
      ui.messages.join('\n'),
    );

    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(outcome.kind === 'sent' && outcome.record.status === 200, JSON.stringify(outcome));
    assert.deepEqual(server.lastReceived('/v1/chat').json, JSON.parse(text.replace(/^.*\n/, '')));
  });

  it('Import cURL refuses a request that is not a payload, and writes nothing', async () => {
    const before = (await api.requests.scratch.list()).length;
    const editor = await vscode.commands.executeCommand(Commands.importCurl, `curl ${server.url}/v1/models`);
    assert.equal(editor, undefined);
    assert.ok(
      ui.messages.some((m) => /GET \/v1\/models/.test(m)),
      ui.messages.join('\n'),
    );
    assert.equal((await api.requests.scratch.list()).length, before);
  });
});
