// Keys never leak and concurrent use never mixes answers, inside a real VS Code (code-server): a unique
// canary key runs through every feature against a server that echoes it back in errors, then everything
// the extension wrote or showed is searched for it; bursts of refreshes, a key change mid-refresh and a send
// during a stream keep state consistent.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import { HOSTILE_ECHO_HEADER, recoverable, startServer, type RunningServer } from '../server';
import { generateText, questionText } from '../server/generation';
import { activateExtension, eventually, filesUnder, sleep, setSetting, newPayload } from './helpers';
import { Commands, Settings } from '../../src/ids';

describe('Security: keys and concurrency', function () {
  this.timeout(120_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let tmp: string;
  const canary = `ma-canary-${randomBytes(12).toString('hex')}`;
  /** The key of the hostile organization, whose answers repeat it (body, header, stream). */
  const hostileCanary = `ma-canary-hostile-${randomBytes(12).toString('hex')}`;
  const shown: string[] = [];
  let restoreUi: () => void;

  /** Read afresh: TypeScript would keep the kind an earlier assertion narrowed it to. */
  const statusKind = (): string => api.catalog.status.kind;

  async function connect(key: string): Promise<void> {
    await api.keys.store(server.url, key);
    await sleep(150);
    await api.catalog.refresh();
  }

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({
      keys: { acme: canary, hostile: hostileCanary },
      // The hostile answers also echo the key base64-encoded, in hex, as HTML references and split by zero-width
      // characters and NUL (issue 44).
      hostile: { answers: true, derivedKeys: true },
      faults: { echoKey: true },
      streamDelayMs: 30,
    });
    tmp = mkdtempSync(path.join(tmpdir(), 'model-access-security-'));
    const { info, warn, error, copy } = api.ui;
    api.ui.info = async (m) => (shown.push(m), undefined);
    api.ui.warn = async (m) => (shown.push(m), undefined);
    api.ui.error = async (m) => (shown.push(m), undefined);
    api.ui.copy = async (t) => void shown.push(t);
    restoreUi = () => Object.assign(api.ui, { info, warn, error, copy });
    await setSetting('baseUrl', server.url);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
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

  it('a canary key used everywhere appears nowhere the extension wrote or showed', async () => {
    // Every answer as its document, which this test reads whole (the panel's page is not read here).
    await setSetting(Settings.answersOpenAs, 'text');
    await connect(canary);
    assert.equal(api.catalog.status.kind, 'ready');
    const model = api.catalog.models[0].id;
    await vscode.commands.executeCommand(Commands.inspectModel, api.catalog.models[0]);
    await vscode.commands.executeCommand(Commands.inspectModel, { id: 'no-such-model', raw: undefined }); // 404 echoing the key
    for (const endpoint of ['/v1/responses', '/v1/chat', '/v1/embeddings']) {
      for (const stream of endpoint === '/v1/embeddings' ? [false] : [false, true]) {
        await newPayload(endpoint, model, (p) => (stream ? (p.stream = true) : undefined));
        const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
        assert.equal(outcome.kind, 'sent');
        assert.ok(
          outcome.kind === 'sent' && outcome.record.status === 200,
          `${endpoint} stream=${stream} answered 200`,
        );
      }
    }
    // Errors whose bodies repeat the key: an unknown model, and a wrong key.
    const lastPayload = await newPayload('/v1/chat', 'unknown-model-x');
    const notFound = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(notFound.kind === 'sent' && notFound.record.status === 404);
    const file = path.join(tmp, 'data.jsonl');
    writeFileSync(file, '{"a":1}\n');
    await vscode.commands.executeCommand(Commands.uploadFile, vscode.Uri.file(file), 'batch');
    await vscode.commands.executeCommand(Commands.copyAsCode, lastPayload.document.uri, 'curl-bash');
    // The error state, as the view shows it: its message, and each row with its tooltip.
    await api.keys.store(server.url, `${canary}-wrong`);
    await sleep(150);
    await api.catalog.refresh();
    assert.equal(api.catalog.status.kind, 'error');
    const errorView: string[] = [String(api.view.treeView.message ?? '')];
    for (const row of api.view.provider.getChildren()) {
      const item = await api.view.provider.resolveTreeItem(row, row);
      const tooltip = item.tooltip;
      errorView.push(
        JSON.stringify({ label: item.label, description: item.description }),
        typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
      );
    }
    assert.match(errorView[0], /401|key/i, 'the view says what went wrong');

    // Answers that repeat the key themselves (hostile mode): in the body, in a header, split across stream
    // events. Each is looked at every way a person can: the response document with its headers, the raw
    // events, the history, and the body saved to a file.
    await connect(hostileCanary);
    assert.equal(statusKind(), 'ready');
    const saved: string[] = [];
    const { saveDialog, pick } = api.ui;
    try {
      for (const endpoint of ['/v1/chat', '/v1/responses']) {
        for (const stream of [false, true]) {
          await newPayload(endpoint, api.catalog.models[0].id, (p) => (stream ? (p.stream = true) : undefined));
          const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
          assert.ok(outcome.kind === 'sent' && outcome.record.status === 200, `${endpoint} stream=${stream}`);
          await eventually(
            () =>
              vscode.workspace.textDocuments
                .find((d) => d.uri.toString() === outcome.responseUri.toString())
                ?.getText()
                .match(stream ? /^POST \S+ · 200 OK · \d+ ms/m : /^POST \S+ · 200 /m),
            10_000,
            'the finished response document',
          );
          await vscode.window.showTextDocument(outcome.responseUri, { preview: false });
          await vscode.commands.executeCommand(Commands.toggleResponseHeaders);
          await eventually(
            () =>
              vscode.workspace.textDocuments
                .find((d) => d.uri.toString() === outcome.responseUri.toString())
                ?.getText()
                .includes(`- ${HOSTILE_ECHO_HEADER}: API key: [redacted]`),
            5000,
            'the echo header, redacted, among the headers shown',
          );
          if (stream) {
            // The key split across events cannot be redacted event by event: the raw events are withheld, and
            // the person is told why.
            const told = shown.length;
            await vscode.commands.executeCommand(Commands.showRawEvents);
            await eventually(
              () => shown.slice(told).some((m) => m.startsWith('The raw events of this answer are not shown')),
              10_000,
              'the raw events withheld, with the reason',
            );
            await vscode.window.showTextDocument(outcome.responseUri, { preview: false });
          }
          const target = vscode.Uri.file(path.join(tmp, `saved-${saved.length}.txt`));
          api.ui.saveDialog = async () => target;
          await vscode.commands.executeCommand(Commands.saveResponseBody);
          saved.push(await eventually(() => existsSync(target.fsPath) && readFileSync(target.fsPath, 'utf8'), 5000));
          await vscode.commands.executeCommand(Commands.toggleResponseHeaders);
        }
      }
      api.ui.pick = async (items) => {
        shown.push(JSON.stringify(items.map((i) => [i.label, i.description, i.detail])));
        return undefined;
      };
      await vscode.commands.executeCommand(Commands.showHistory);
    } finally {
      Object.assign(api.ui, { saveDialog, pick });
    }
    assert.ok(
      saved.some((t) => t.includes('API key: [redacted]')),
      'a saved body held the echo, redacted',
    );

    await api.keys.store(server.url, canary);
    await sleep(150);
    await api.catalog.refresh();
    await sleep(1500); // let the log channel reach its file

    const echoed = server.requests.filter((r) => (r.status ?? 0) >= 400);
    assert.ok(echoed.length >= 3, 'errors were answered (with the key echoed in their bodies)');

    const places: { where: string; text: string }[] = [
      ...vscode.workspace.textDocuments.map((d) => ({ where: `document ${d.uri.toString()}`, text: d.getText() })),
      ...shown.map((text, i) => ({ where: `message/clipboard #${i}`, text })),
      { where: 'request history', text: JSON.stringify(api.requests.history.entries) },
      { where: 'view message', text: String(api.view.treeView.message ?? '') },
      ...errorView.map((text, i) => ({ where: `error state of the view #${i}`, text })),
      ...saved.map((text, i) => ({ where: `saved response body #${i}`, text })),
    ];
    // The whole user-data folder of this VS Code: logs (the Model Access channel), settings, global and
    // workspace storage (scratch files, history, state).
    const userDataDir = path.resolve(api.requests.scratch.folder.fsPath, '..', '..', '..', '..');
    const files = filesUnder(userDataDir);
    places.push(...files.map((f) => ({ where: f.file, text: f.text })));
    assert.ok(
      files.some((f) => f.file.includes('Model Access') && f.text.includes('POST /v1/chat')),
      `the Model Access log was among the ${files.length} files searched`,
    );
    assert.ok(
      shown.some((m) => m.includes('$MODEL_ACCESS_API_KEY')),
      'the Copy as Code message was captured',
    );
    const leaks = places.filter((p) => p.text.includes(canary) || p.text.includes(hostileCanary)).map((p) => p.where);
    assert.deepEqual(leaks, [], 'the key appears nowhere');
    // Nor can it be recovered from a derived form (base64, hex, references, split): no 16 characters of it in a row.
    const windows = Array.from({ length: hostileCanary.length - 15 }, (_, i) => hostileCanary.slice(i, i + 16));
    const derivedLeaks = places
      .filter((p) => {
        const found = recoverable(p.text);
        return windows.some((w) => found.includes(w));
      })
      .map((p) => p.where);
    assert.deepEqual(derivedLeaks, [], 'no derived form of the key appears anywhere');
    assert.ok(
      saved.some((t) => /base64-1 \S*\[redacted\]/.test(t)),
      'a saved body held the derived echoes, redacted',
    );
  });

  it('a burst of 50 refreshes makes one load: one list request in flight at a time', async () => {
    // Pages answer slowly, and the refreshes keep arriving while the first load is still reading them.
    const slow = await startServer({ faults: { latencyMs: 100, paths: ['/v1/models'] } });
    try {
      await setSetting('baseUrl', slow.url);
      await api.keys.store(slow.url, slow.keys.acme);
      // Storing the key and the new URL fire change events that reload the list (late on a loaded machine):
      // wait until the service has heard no list request for a while, so only the burst counts.
      let seen = -1;
      while (seen !== slow.requests.length) {
        seen = slow.requests.length;
        await sleep(1000);
        await api.catalog.settled();
      }
      assert.equal(api.catalog.status.kind, 'ready');
      slow.clearRecords();
      const burst: Thenable<unknown>[] = [];
      for (let i = 0; i < 50; i++) {
        burst.push(vscode.commands.executeCommand(Commands.refreshModels));
        await sleep(4);
      }
      await Promise.all(burst);
      await api.catalog.settled();
      // One load reads the pages one after another; the refreshes must join it rather than start their own.
      const lists = slow.requests.filter((r) => r.url.startsWith('/v1/models'));
      const loads = lists.filter((r) => !/[?&]after=/.test(r.url));
      assert.equal(loads.length, 1, 'the 50 refreshes joined one load');
      const pages = Math.ceil(slow.registry.models.filter((m) => m.organization === 'acme').length / 10);
      assert.equal(lists.length, pages, 'that load read each page once');
    } finally {
      await api.keys.delete(slow.url).catch(() => undefined);
      await setSetting('baseUrl', server.url);
      await slow.close();
    }
  });

  it('a key change during a refresh leaves the tree of the final key', async () => {
    const slow = await startServer({ faults: { latencyMs: 300, paths: ['/v1/models'] } });
    try {
      await setSetting('baseUrl', slow.url);
      await api.keys.store(slow.url, slow.keys.acme);
      await sleep(150);
      const first = api.catalog.refresh();
      await sleep(100);
      await api.keys.store(slow.url, slow.keys.globex);
      await first.catch(() => undefined);
      await eventually(
        async () => {
          await api.catalog.settled();
          const ids = api.catalog.models.map((m) => m.id).sort();
          const globex = slow.registry.models
            .filter((m) => m.organization === 'globex')
            .map((m) => m.id)
            .sort();
          return JSON.stringify(ids) === JSON.stringify(globex);
        },
        20_000,
        "globex's models after the key change",
      );
    } finally {
      await api.keys.delete(slow.url).catch(() => undefined);
      await setSetting('baseUrl', server.url);
      await slow.close();
    }
  });

  it('sending while another payload streams never shows one answer under the other payload', async () => {
    // A streams slowly (about 5 s), so B is sent and answered while A is still arriving.
    const slow = await startServer({ keys: { acme: canary }, streamDelayMs: 250 });
    try {
      await setSetting('baseUrl', slow.url);
      await api.keys.store(slow.url, canary);
      await sleep(150);
      await api.catalog.refresh();
      await sendingWhileStreaming(slow);
    } finally {
      await api.keys.delete(slow.url).catch(() => undefined);
      await setSetting('baseUrl', server.url);
      await slow.close();
    }
  });

  async function sendingWhileStreaming(service: RunningServer): Promise<void> {
    const model = api.catalog.models[0].id;
    const a = await newPayload('/v1/chat', model, (p) => {
      p.stream = true;
      (p.messages as { content: string }[])[1].content = 'payload A';
    });
    const pendingA = vscode.commands.executeCommand(Commands.sendRequest) as Thenable<SendOutcome>;
    await eventually(
      () =>
        (api.requests.responses.get(api.requests.responses.uriFor(a.document.uri, 'text', false))?.stream?.events ??
          0) > 0,
      10_000,
      'A streaming',
    );
    // B streams too: both answers grow in response documents of the same kind at the same time.
    await newPayload('/v1/chat', model, (p) => {
      p.stream = true;
      (p.messages as { content: string }[])[1].content = 'payload B';
    });
    const b = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    const resultA = await pendingA;
    assert.ok(b.kind === 'sent' && resultA.kind === 'sent');
    assert.notEqual(b.responseUri.toString(), resultA.responseUri.toString());
    // What a person sees: each payload's response document, as shown in its editor.
    const shownText = (uri: vscode.Uri) =>
      eventually(
        () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText(),
        5000,
        `the document ${uri.toString()}`,
      );
    // B's document once it shows B's answer (a first render may still say "waiting for the answer…").
    const docB = await eventually(
      async () => {
        const text = await shownText(b.responseUri);
        return /^POST \/v1\/chat · 200 OK · \d+ ms/m.test(text) ? text : undefined;
      },
      10_000,
      "B's answer in its document",
    );
    const docA = await eventually(
      async () => {
        const text = await shownText(resultA.responseUri);
        return /^POST \/v1\/chat · 200 OK · \d+ ms/m.test(text) ? text : undefined;
      },
      20_000,
      'the end of the A stream in its document',
    );
    assert.ok(docB.includes('payload B'), docB.slice(0, 400));
    assert.ok(!docB.includes('payload A'), "A's answer shows under B");
    assert.ok(docA.includes('payload A'), docA.slice(0, 400));
    assert.ok(!docA.includes('payload B'), "B's answer shows under A");
    // The service received each payload once, as sent.
    const received = service.received('/v1/chat');
    const sent = received.map((r) => JSON.stringify(r.json));
    assert.equal(sent.filter((t) => t.includes('payload A')).length, 1);
    assert.equal(sent.filter((t) => t.includes('payload B')).length, 1);
    // The two overlapped: B was sent while A was still streaming.
    const [recordA, recordB] = ['payload A', 'payload B'].map((p) =>
      service.requests.find((r) => r.path === '/v1/chat' && JSON.stringify(r.json).includes(p)),
    );
    assert.ok(
      recordA?.finishedAt !== undefined && recordB !== undefined && recordB.startedAt < recordA.finishedAt,
      'B was sent while A was still streaming',
    );
    // Sending B did not cut A short: each document holds its whole answer, and says it completed.
    for (const [doc, record] of [
      [docA, recordA],
      [docB, recordB],
    ] as const) {
      const whole = generateText(model, questionText(record?.json?.messages));
      assert.match(doc, /^POST \/v1\/chat · 200 OK · \d+ ms/m, doc.slice(0, 600));
      assert.ok(doc.startsWith(`${whole}\n\n---\n\n`), `the whole answer first: ${doc.slice(0, 600)}`);
    }
  }
});
