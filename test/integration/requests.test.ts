// Scratch requests inside a real VS Code (code-server) against the local Model Access Service: new
// payloads carry the chosen model, answers land in the payload's response document (streams visibly
// growing), invalid JSON sends nothing, uploads arrive intact, Cancel aborts at the server, the "model"
// value completes from the catalog (hovering it shows the model; an unlisted id is flagged), and neither Copy as
// Code nor history ever holds the key.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { startServer, type RunningServer } from '../server';
import { INPUT_PLACEHOLDER } from '../../src/requests/payloads/core/templates';
import { generateText, questionText } from '../server/generation';
import { activateExtension, eventually, sleep, setSetting, newPayload } from './helpers';
import { Commands, Settings } from '../../src/ids';

function documentText(uri: vscode.Uri): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText();
}

describe('Scratch requests', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let tmp: string;
  const shown: string[] = [];
  const copied: string[] = [];
  /** The buttons each error notification offered. */
  const offered: string[][] = [];
  let restoreUi: () => void;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ streamDelayMs: 60 });
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-requests-'));
    const { info, error, copy } = api.ui;
    api.ui.info = async (m) => (shown.push(m), undefined);
    api.ui.error = async (m, ...actions) => (shown.push(m), offered.push(actions), undefined);
    api.ui.copy = async (t) => void copied.push(t);
    restoreUi = () => Object.assign(api.ui, { info, error, copy });
    // These tests read the answer document; the conversation panel, the default, has its own suite.
    await setSetting(Settings.answersOpenAs, 'text');
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
    await sleep(150);
    await api.catalog.refresh();
    assert.ok(api.catalog.models.length > 0, 'the catalog loaded');
  });

  after(async () => {
    restoreUi?.();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await setSetting(Settings.answersOpenAs, undefined);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(() => {
    shown.length = 0;
    copied.length = 0;
    offered.length = 0;
  });

  it('a new Chat request is a scratch file recording its endpoint, with the chosen model', async () => {
    const model = api.catalog.models[3].id;
    const editor = await newPayload('/v1/chat', model);
    const text = editor.document.getText();
    assert.equal(editor.document.lineAt(0).text, '// POST /v1/chat');
    assert.equal(JSON.parse(text.slice(text.indexOf('\n') + 1)).model, model);
    assert.ok(api.requests.scratch.contains(editor.document.uri), 'it lives in the scratch folder');
  });

  it('sending shows the answer’s text first, wrapped, then status 200, usage and the JSON', async () => {
    const model = api.catalog.models[0].id;
    const editor = await newPayload('/v1/chat', model);
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'sent');
    assert.ok(outcome.kind === 'sent');
    const payload = JSON.parse(editor.document.getText().replace(/^.*\n/, ''));
    const expected = generateText(model, questionText(payload.messages));
    const text = await eventually(
      () =>
        documentText(outcome.responseUri)?.includes(JSON.stringify(expected).slice(1, -1)) &&
        documentText(outcome.responseUri),
      5000,
      'the answer in the document',
    );
    const [answer, after] = text.split('\n\n---\n\n');
    assert.equal(answer, expected, 'the document opens with the answer text itself');
    assert.match(after.split('\n')[0], /^POST \/v1\/chat · 200 OK · \d+ ms · [\d.]+ (B|KB) · request id req_/);
    assert.match(after, /\d+ input tokens · \d+ output tokens/);
    assert.match(after, /### JSON\n\n```json\n\{/);
    assert.equal(outcome.record.status, 200);
    // Readable without scrolling sideways: the answer language wraps its lines.
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === outcome.responseUri.toString());
    assert.equal(doc?.languageId, 'model-access-answer');
    assert.equal(vscode.workspace.getConfiguration('editor', doc).get('wordWrap'), 'on');
    // The history says what the answer said, cut after a word.
    const summary = api.requests.history.entries[0].summary;
    assert.ok(summary.length > 10, summary);
    assert.ok(expected.replace(/\s+/g, ' ').trim().startsWith(summary.replace(/…$/, '')), summary);
  });

  it('a streamed request shows partial text before the final event', async () => {
    const model = api.catalog.models[1].id;
    const editor = await newPayload('/v1/responses', model, (p) => (p.stream = true));
    const payload = JSON.parse(editor.document.getText().replace(/^.*\n/, ''));
    const expected = generateText(model, questionText(payload.input));
    const pending = vscode.commands.executeCommand(Commands.sendToResponses) as Thenable<SendOutcome>;
    const responseUri = api.requests.responses.uriFor(editor.document.uri, 'text', false);
    // An intermediate state: some of the text is there, the final event is not.
    const partial = await eventually(
      () => {
        const t = documentText(responseUri);
        const body = t?.split('\n\n---\n\n')[0];
        return body && !body.startsWith('_') && !t?.includes('### Final event') ? body.trim() : undefined;
      },
      10_000,
      'partial streamed text',
    );
    assert.ok(expected.startsWith(partial), `partial text ${JSON.stringify(partial)} is a prefix of the answer`);
    assert.ok(partial.length < expected.length);
    const outcome = await pending;
    assert.ok(outcome.kind === 'sent');
    const final = await eventually(
      () => documentText(responseUri)?.includes('### Final event') && documentText(responseUri),
      5000,
      'the final event',
    );
    assert.ok(final.startsWith(`${expected}\n\n---\n\n`), 'the full text first, then the rest');
    assert.match(final, /"type": "response.completed"/);
  });

  it('New Request, then Send at once: the selected placeholder is not the payload, the template is sent', async () => {
    const model = api.catalog.models[0].id;
    const editor = (await vscode.commands.executeCommand(Commands.newRequest, model, '/v1/chat')) as vscode.TextEditor;
    assert.equal(editor.document.getText(editor.selection), INPUT_PLACEHOLDER, 'the prompt is selected to type over');
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'sent');
    assert.ok(outcome.kind === 'sent');
    assert.equal(outcome.record.status, 200);
    assert.equal(api.requests.history.entries[0].payload, editor.document.getText(), 'the whole payload was sent');
  });

  it('Send on a JSON file that is not a payload never changes it; it offers a new payload with its JSON', async () => {
    const file = path.join(tmp, 'package.json');
    const original = '{\n  "name": "demo",\n  "version": "1.0.0"\n}\n';
    writeFileSync(file, original);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    const offered: string[] = [];
    const { pick } = api.ui;
    try {
      const before = server.requests.length;
      api.ui.pick = async (_items, options) => (offered.push(options.title ?? ''), undefined); // Escape.
      let outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(outcome.kind, 'notSent');
      assert.match(offered[0], /package\.json is not a Model Access payload/);
      api.ui.pick = async (items) => items.find((i) => (i as { path?: string }).path === '/v1/chat');
      outcome = (await vscode.commands.executeCommand(Commands.sendRequest, editor.document.uri)) as SendOutcome;
      await vscode.commands.executeCommand(Commands.changeEndpoint, editor.document.uri);
      assert.equal(server.requests.length, before, 'nothing was sent');
      assert.equal(editor.document.getText(), original, 'the editor text is unchanged');
      assert.equal(editor.document.isDirty, false);
      assert.equal(readFileSync(file, 'utf8'), original, 'the file on disk is unchanged');
      const copy = vscode.window.activeTextEditor?.document;
      assert.ok(copy && api.requests.scratch.contains(copy.uri), 'a new scratch payload opened');
      assert.equal(copy.getText(), `// POST /v1/chat\n${original}`);
    } finally {
      api.ui.pick = pick;
    }
  });

  it('a payload outside the scratch folder reads only MODEL_ACCESS_* from the environment until a name is allowed', async () => {
    process.env.ISSUE27_OTHER_SECRET = 'other-canary-27';
    process.env.MODEL_ACCESS_ISSUE27 = 'own-canary-27';
    const file = path.join(tmp, 'from-a-repository.jsonc');
    const model = api.catalog.models[0].id;
    writeFileSync(
      file,
      `// POST /v1/chat\n${JSON.stringify({ model, messages: [{ role: 'user', content: '{{$env MODEL_ACCESS_ISSUE27}} {{$env ISSUE27_OTHER_SECRET}}' }] })}\n`,
    );
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    const { error } = api.ui;
    const asked: string[] = [];
    try {
      const before = server.requests.length;
      api.ui.error = async (m, ...actions) => (asked.push(m, ...actions), undefined);
      const refused = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(refused.kind, 'invalid');
      assert.ok(refused.kind === 'invalid');
      assert.match(
        refused.message,
        /outside the scratch folder reads only MODEL_ACCESS_\* .* unless you allow ISSUE27_OTHER_SECRET/,
      );
      await eventually(() => asked.includes('Allow ISSUE27_OTHER_SECRET'), 5000, 'Allow offered');
      assert.equal(server.requests.length, before, 'nothing was sent');
      const diagnostics = vscode.languages.getDiagnostics(editor.document.uri).map((d) => d.message);
      assert.ok(
        diagnostics.some((d) => /unless you allow ISSUE27_OTHER_SECRET/.test(d)),
        diagnostics.join('\n'),
      );
      // Allow: remembered for the workspace, and the payload is sent with both values.
      api.ui.error = async (_m, ...actions) => actions.find((a) => a === 'Allow ISSUE27_OTHER_SECRET');
      await vscode.commands.executeCommand(Commands.sendRequest);
      await eventually(() => server.requests.length > before, 10_000, 'the send after Allow');
      const sent = JSON.stringify(server.lastReceived('/v1/chat', 'POST').json);
      assert.ok(sent.includes('own-canary-27 other-canary-27'), sent);
      api.ui.error = async (m) => (asked.push(m), undefined);
      const again = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.equal(again.kind, 'sent', 'allowed once, remembered');
    } finally {
      api.ui.error = error;
      delete process.env.ISSUE27_OTHER_SECRET;
      delete process.env.MODEL_ACCESS_ISSUE27;
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('invalid JSON sends nothing and reports the position', async () => {
    const editor = await newPayload('/v1/chat', api.catalog.models[0].id);
    const doc = editor.document;
    await editor.edit((b) => b.insert(doc.lineAt(2).range.end, ' oops'));
    const before = server.requests.length;
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.equal(outcome.kind, 'invalid');
    assert.ok(outcome.kind === 'invalid');
    assert.match(outcome.message, /line 3, column \d+/);
    assert.equal(server.requests.length, before, 'no request reached the server');
    // The parse error (the model line may carry a warning of its own: aurora-1 retires in the demo registry).
    const diagnostics = vscode.languages
      .getDiagnostics(doc.uri)
      .filter((d) => d.source === 'Model Access' && d.severity === vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].range.start.line, 2);
    assert.ok(doc.getText().includes(' oops'), 'the text is untouched');
  });

  it('uploads a file with the right bytes, filename and purpose', async () => {
    const file = path.join(tmp, 'training data.jsonl');
    const bytes = randomBytes(512 * 1024);
    writeFileSync(file, bytes);
    await vscode.commands.executeCommand(Commands.uploadFile, vscode.Uri.file(file), 'batch');
    const upload = server.uploads.at(-1);
    assert.ok(upload, 'the server stored an upload');
    assert.equal(upload.filename, 'training data.jsonl');
    assert.equal(upload.purpose, 'batch');
    assert.equal(upload.bytes, bytes.length);
    assert.equal(upload.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.ok(
      shown.some((m) => m.includes(upload.id)),
      'the file id is reported',
    );
    // Answered in the notification: no response document squeezes the editor.
    const responseTabs = vscode.window.tabGroups.all.flatMap((g) =>
      g.tabs.filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'model-access-response'),
    );
    const uploadAnswer = api.requests.responses.uriFor(vscode.Uri.file(file), 'json', false).toString();
    assert.ok(!responseTabs.some((t) => (t.input as vscode.TabInputText).uri.toString() === uploadAnswer));
  });

  it('answers reuse the answer column: after Send, Send again, a stream, an upload and with new tabs, two columns', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const model = api.catalog.models[0].id;
    const editor = await newPayload('/v1/chat', model);
    const first = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    const second = (await vscode.commands.executeCommand(Commands.sendRequest, editor.document.uri)) as SendOutcome;
    assert.ok(first.kind === 'sent' && second.kind === 'sent');
    assert.equal(first.responseUri.toString(), second.responseUri.toString(), 'one answer tab per payload');
    await newPayload('/v1/responses', model, (p) => (p.stream = true));
    await vscode.commands.executeCommand(Commands.sendRequest);
    const file = path.join(tmp, 'notes.txt');
    writeFileSync(file, 'notes');
    await vscode.commands.executeCommand(Commands.uploadFile, vscode.Uri.file(file), 'user_data');
    assert.equal(vscode.window.tabGroups.all.length, 2, 'the payloads and their answers, side by side');
    await setSetting('responseInNewTab', true);
    try {
      await vscode.window.showTextDocument(editor.document, { preview: false });
      const third = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.ok(third.kind === 'sent');
      assert.notEqual(third.responseUri.toString(), first.responseUri.toString(), 'a new tab when asked');
      assert.equal(vscode.window.tabGroups.all.length, 2, 'still two columns');
      const answers = vscode.window.tabGroups.all.find((g) =>
        g.tabs.some(
          (t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === third.responseUri.toString(),
        ),
      );
      assert.ok(
        answers?.tabs.some(
          (t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === first.responseUri.toString(),
        ),
        'beside the earlier answer',
      );
    } finally {
      await setSetting('responseInNewTab', undefined);
    }
  });

  it('embeddings of two inputs: the answer says the count, the dimensions and their similarity', async () => {
    // The Markdown source (Send shows the picture by default: answerOpening.test.ts).
    await setSetting(Settings.answersOpenAs, 'text');
    await newPayload(
      '/v1/embeddings',
      api.catalog.models[0].id,
      (p) => (p.input = ['A cat sat on the mat.', 'A dog lay on the rug.']),
    );
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(outcome.kind === 'sent' && outcome.record.status === 200);
    const text = await eventually(
      () =>
        /^POST \/v1\/embeddings · 200/m.test(documentText(outcome.responseUri) ?? '') &&
        documentText(outcome.responseUri),
      5000,
      'the embeddings answer',
    );
    assert.match(text, /^## 2 vectors × \d+ dimensions$/m);
    assert.match(text, /^\| 1 \| A cat sat on the mat\. \| \d\.\d{3} \|$/m, 'each input with its norm');
    assert.match(text, /Input 1 and input 2 have a cosine similarity of -?\d\.\d{3}\./);
    assert.doesNotMatch(text, /data:image/, 'no picture as base64 in the text');
    assert.match(text, /Open Answer Preview" draws this matrix as a heat map/);
    assert.match(
      api.requests.history.entries[0].summary,
      /^2 vectors × \d+ dimensions · cosine similarity -?\d\.\d{3}$/,
    );
    const saved = JSON.parse(api.requests.responses.fullBody(outcome.responseUri) ?? '');
    assert.ok(Array.isArray(saved.data[0].embedding), 'Save Response Body keeps the raw vectors');
    // Open Answer Preview: the embeddings picture, our own page, in the answer's own column.
    const column = () =>
      vscode.window.tabGroups.all.find((g) =>
        g.tabs.some(
          (t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === outcome.responseUri.toString(),
        ),
      );
    const answerGroup = column();
    assert.ok(answerGroup, 'the answer is open');
    await vscode.commands.executeCommand(Commands.previewResponse);
    await eventually(
      () =>
        answerGroup.tabs.some(
          (t) => t.input instanceof vscode.TabInputWebview && /modelAccess\.embeddingsPicture$/.test(t.input.viewType),
        ),
      10_000,
      'the picture beside the answer, in its column',
    );
    assert.ok(vscode.window.tabGroups.all.length <= 2, 'no third column');
    const html = api.requests.embeddings.html ?? '';
    assert.match(html, /<h1 id="title">2 vectors × \d+ dimensions<\/h1>/);
    assert.match(html, /<svg class="heat" role="img" aria-labelledby="heat-caption"/);
    assert.match(html, /<td class="text">A dog lay on the rug\.<\/td>/);
    // A chat answer still opens VS Code's Markdown preview.
    await newPayload('/v1/chat', api.catalog.models[0].id);
    const chat = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(chat.kind === 'sent');
    await eventually(
      () => /^POST \/v1\/chat · 200/m.test(documentText(chat.responseUri) ?? ''),
      5000,
      'the chat answer',
    );
    await vscode.window.showTextDocument(chat.responseUri, { preview: false });
    await vscode.commands.executeCommand(Commands.previewResponse);
    await eventually(
      () =>
        vscode.window.tabGroups.all.some((g) =>
          g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType)),
        ),
      10_000,
      'the Markdown preview of a chat answer',
    );
    assert.ok(vscode.window.tabGroups.all.length <= 2, 'no third column');
    await setSetting(Settings.answersOpenAs, 'text');
  });

  it('a rejected key on Send offers Set API Key… and Retry', async () => {
    await newPayload('/v1/chat', api.catalog.models[0].id);
    await api.keys.store(server.url, 'sk-not-the-right-key-0000000000');
    try {
      const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.ok(outcome.kind === 'sent');
      assert.equal(outcome.record.status, 401);
      const actions = await eventually(() => offered.find((a) => a.length > 0), 5000, 'the error notification');
      assert.deepEqual(actions, ['Set API Key…', 'Retry']);
    } finally {
      await api.keys.store(server.url, server.keys.acme);
      await api.catalog.refresh();
    }
  });

  it('a stopped service offers Retry and Diagnose Connection, and the status bar follows the failure', async () => {
    const other = await startServer();
    try {
      await setSetting('baseUrl', other.url);
      await api.keys.store(other.url, other.keys.acme);
      await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === other.url), 5000, 'the base URL');
      await api.catalog.refresh();
      await eventually(() => api.catalog.status.kind === 'ready', 5000, 'the list of the second service');
      assert.doesNotMatch(api.statusBar.item.text, /warning/);
      await newPayload('/v1/chat', api.catalog.models[0].id);
      await other.close();
      const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
      assert.ok(outcome.kind === 'sent');
      assert.equal(outcome.record.status, undefined);
      const actions = await eventually(() => offered.find((a) => a.length > 0), 5000, 'the error notification');
      assert.deepEqual(actions, ['Retry', 'Diagnose Connection']);
      await eventually(() => /warning/.test(api.statusBar.item.text), 5000, 'the status bar showing the failure');
    } finally {
      await api.keys.delete(other.url).catch(() => undefined);
      await setSetting('baseUrl', server.url);
      await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
      await api.catalog.refresh();
    }
  });

  it('Cancel stops an in-flight request and the server sees the abort', async () => {
    const editor = await newPayload('/v1/chat', api.catalog.models[0].id, (p) => (p.stream = true));
    const abortsBefore = server.abortedCount();
    const pending = vscode.commands.executeCommand(Commands.sendRequest) as Thenable<SendOutcome>;
    const responseUri = api.requests.responses.uriFor(editor.document.uri, 'text', false);
    await eventually(
      () => (api.requests.responses.get(responseUri)?.stream?.events ?? 0) > 1,
      10_000,
      'the stream to start',
    );
    assert.ok(api.requests.sender.cancel(editor.document.uri));
    const outcome = await pending;
    assert.ok(outcome.kind === 'sent');
    assert.ok(!outcome.record.stream?.final, 'the stream did not finish');
    await server.waitForAborts(abortsBefore + 1, 5000);
    // What the person sees: the document says the answer stopped because of the cancel, not that it ended.
    const text = await eventually(
      () => /^POST .* · \d+ ms · /m.test(documentText(responseUri) ?? '') && documentText(responseUri),
      5000,
      'the final redraw',
    );
    assert.match(text, /^POST \/v1\/chat · 200 OK · cancelled · .*\n\nThe request was cancelled\.$/m);
    assert.equal(api.requests.history.entries[0].ended, 'cancelled');
  });

  it('completion offers the catalog’s ids at "model": "|"', async () => {
    const editor = await newPayload('/v1/embeddings', api.catalog.models[0].id, (p) => (p.model = ''));
    const doc = editor.document;
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('"model": ""'));
    const position = new vscode.Position(line, doc.lineAt(line).text.indexOf('""') + 1);
    const list = (await vscode.commands.executeCommand(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      position,
    )) as vscode.CompletionList;
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const m of api.catalog.models) {
      assert.ok(labels.includes(m.id), `${m.id} is offered`);
    }
  });

  it('hovering a listed model shows its family and version; an unlisted one is flagged until it is fixed', async () => {
    const entry = server.registry.models.find((m) => m.organization === 'acme' && m.id === 'aurora-2-2024-11-20');
    assert.ok(entry, 'the registry lists the model');
    const editor = await newPayload('/v1/chat', entry.id);
    const doc = editor.document;
    const modelLine = () => [...Array(doc.lineCount).keys()].find((i) => doc.lineAt(i).text.includes('"model"')) ?? -1;
    const valueAt = () => {
      const line = modelLine();
      return new vscode.Position(line, doc.lineAt(line).text.lastIndexOf('"') - 2);
    };
    // MarkdownString.appendText escapes Markdown punctuation and spaces; a person reads it rendered.
    const unescape = (t: string) => t.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!~|])/g, '$1');
    const hoverText = async () => {
      const hovers = (await vscode.commands.executeCommand(
        'vscode.executeHoverProvider',
        doc.uri,
        valueAt(),
      )) as vscode.Hover[];
      return hovers
        .flatMap((h) => h.contents)
        .map((c) => unescape(typeof c === 'string' ? c : c.value))
        .join('\n');
    };
    const ours = () =>
      vscode.languages
        .getDiagnostics(doc.uri)
        .filter((d) => d.source === 'Model Access' && /organization/.test(d.message));

    const hover = await hoverText();
    assert.ok(hover.includes(`Family: ${entry.family}`), hover);
    assert.ok(hover.includes(`Version: ${entry.version}`), hover);
    assert.ok(hover.includes(entry.model_card_url), hover);
    assert.deepEqual(ours(), [], 'a listed model is not flagged');

    const unknown = 'aurora-99-preview';
    const replaceModel = (id: string) =>
      editor.edit((b) => b.replace(doc.lineAt(modelLine()).range, `  "model": ${JSON.stringify(id)},`));
    await replaceModel(unknown);
    const [warning] = await eventually(() => ours().length > 0 && ours(), 5000, 'the unknown-model warning');
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.ok(warning.message.includes(`"${unknown}"`), warning.message);
    assert.equal(doc.getText(warning.range), JSON.stringify(unknown), 'it marks the value');
    assert.ok(!(await hoverText()).includes('Family:'), 'no model hover for an unlisted id');

    await replaceModel(entry.id);
    await eventually(() => ours().length === 0, 5000, 'the warning to clear once the id is fixed');
  });

  it('Copy as Code (cURL) and history never contain the key', async () => {
    await newPayload('/v1/chat', api.catalog.models[0].id);
    const curl = (await vscode.commands.executeCommand(Commands.copyAsCode, undefined, 'curl-bash')) as string;
    assert.equal(copied[0], curl);
    assert.match(curl, /Authorization: Bearer \$MODEL_ACCESS_API_KEY/);
    assert.ok(curl.includes(`${server.url}/v1/chat`));
    const key = server.keys.acme;
    assert.ok(!curl.includes(key));
    assert.ok(api.requests.history.entries.length >= 3, 'the requests above are in the history');
    assert.ok(!JSON.stringify(api.requests.history.entries).includes(key));
  });
});
