// What the work costs, inside a real VS Code against the local Model Access Service: the conversation panel
// says each answer's tokens, cost and time (and the conversation's), Compare marks the cheapest and the
// fastest in words, the status bar's tooltip says the requests the service said are left, a model without a
// price says so, and the Usage view counts it all.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import type { SendOutcome } from '../../src/requests/send/send';
import type { CompareOutcome } from '../../src/requests/compare/compare';
import { Commands, Views } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, connectTo, eventually, newPayload, setSetting, stubUi, type UiStub } from './helpers';

const CHEAP = 'aurora-2';
const DEAR = 'aurora-2-mini';

describe('Costs: tokens, time, prices, rate limits and totals', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let ui: UiStub | undefined;
  let dir: string | undefined;

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    await connectTo(api, server);
    // Per 1M tokens, USD: the setting overrides whatever the registry says, so the cheapest is known.
    await setSetting('prices', { [CHEAP]: { input: 0.01, output: 0.02 }, [DEAR]: { input: 500, output: 900 } });
  });

  /** A check file in the workspace: one request to the dear model, whose cost is over its limit. */
  async function checkFile(): Promise<vscode.TextDocument> {
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the suite runs with a folder open');
    dir = path.join(workspace, 'costs-it');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'dear.jsonc');
    writeFileSync(
      file,
      `// POST /v1/chat\n// @expect cost <= 0.00001\n// @expect total cost < 1000\n{ "model": "${DEAR}", "messages": [{ "role": "user", "content": "Hello" }] }\n`,
    );
    const doc = await vscode.workspace.openTextDocument(file);
    await api.checks.refresh();
    return doc;
  }

  after(async () => {
    ui?.restore();
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
    await setSetting('prices', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server?.close();
  });

  it('the panel shows tokens, cost and time under each answer, and the conversation in all; the status bar the requests left', async () => {
    const editor = await newPayload('/v1/chat', CHEAP);
    const outcome = (await vscode.commands.executeCommand(Commands.sendRequest)) as SendOutcome;
    assert.ok(outcome.kind === 'sent' && outcome.record.status === 200, JSON.stringify(outcome.kind));
    const facts = /(\d+) tokens \((\d+) in, (\d+) out\) · ([0-9.]+) USD · first byte \d+ ms, last byte \d+ (ms|s)/;
    const shown = () => api.requests.panels.shown(editor.document.uri);
    await eventually(() => facts.test(shown()?.pieces.join('') ?? ''), 10_000, 'the answer with its facts');
    const [, total, input, output, cost] = facts.exec(shown()?.pieces.join('') ?? '') ?? [];
    assert.equal(Number(total), Number(input) + Number(output));
    // 0.01 and 0.02 USD per 1M tokens, as the setting says.
    assert.ok(Math.abs(Number(cost) - (Number(input) * 0.01 + Number(output) * 0.02) / 1e6) < 1e-9, cost);
    assert.match(
      shown()?.totals ?? '',
      /^This conversation: 1 request, \d+ tokens .* USD; \d+ ms waiting for answers\.$/,
    );
    // The answer document says the same time and cost.
    assert.equal(outcome.kind === 'sent' && outcome.record.priced?.cost?.currency, 'USD');

    // The status bar's tooltip: the last rate limits the active environment's service announced.
    // As read: the Markdown's escapes (`appendText` writes spaces as &nbsp; and escapes parentheses) undone.
    const tooltip = () =>
      String((api.statusBar.item.tooltip as vscode.MarkdownString | undefined)?.value ?? '')
        .replace(/&nbsp;/g, ' ')
        .replace(/\\(.)/g, '$1');
    await eventually(() => /Rate limits \(seen just now\): requests: \d+ of \d+ left/.test(tooltip()), 5000, tooltip());
  });

  it('Compare marks the cheapest and the fastest in words; a model without a price says so, never zero', async () => {
    await newPayload('/v1/chat', CHEAP);
    ui = stubUi(api.ui, {
      pickMany: async (items) => items.filter((i) => i.label === CHEAP || i.label === DEAR) as never,
    });
    const outcome = (await vscode.commands.executeCommand(Commands.compareModels)) as CompareOutcome;
    ui.restore();
    ui = undefined;
    assert.equal(outcome.kind, 'compared');
    assert.ok(outcome.kind === 'compared');
    const byModel = new Map(outcome.view.columns.map((c) => [c.model, c]));
    assert.ok(byModel.get(CHEAP)?.marks.includes('cheapest'), JSON.stringify(outcome.view.columns));
    assert.ok(!byModel.get(DEAR)?.marks.includes('cheapest'));
    assert.equal(outcome.view.columns.filter((c) => c.marks.includes('fastest')).length >= 1, true);
    assert.match(outcome.view.best, new RegExp(`Fastest: .+\\. Cheapest: ${CHEAP}\\.`));
    assert.match(byModel.get(DEAR)?.cost ?? '', /^[0-9.]+ USD$/);

    // Without the setting, a model the registry prices nowhere says "no price known" in its column.
    await setSetting('prices', undefined);
    const again = (await api.requests.comparisons.again()) as CompareOutcome;
    assert.ok(again.kind === 'compared');
    for (const c of again.view.columns) {
      assert.ok(c.cost === 'no price known' || /^[0-9.]+ \S+$/.test(c.cost), c.cost);
      assert.notEqual(c.cost, '0 USD');
    }
    await setSetting('prices', { [CHEAP]: { input: 0.01, output: 0.02 }, [DEAR]: { input: 500, output: 900 } });
  });

  it('a check with @expect cost <= 0.00001 fails naming the cost; total cost is judged over the file', async () => {
    const doc = await checkFile();
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand(Commands.runChecks);
    const outcome = await eventually(() => api.checks.outcomes().get(doc.uri.toString()), 15_000, 'the run');
    assert.equal(outcome.state, 'failed');
    assert.deepEqual(
      outcome.messages.map((m) => m.line),
      [1],
      JSON.stringify(outcome.messages),
    );
    assert.match(outcome.messages[0].message, /^cost [0-9.]+ USD, more than 0\.00001$/);
  });

  it('the Usage view counts the requests, tokens and cost since the window opened, by model', async () => {
    const rows = api.usageView.rows();
    const session = rows.find((r) => r.id === 'session');
    assert.match(session?.description ?? '', /^\d+ requests, \d+ tokens/);
    assert.ok(session?.children.some((c) => c.label === `Model ${CHEAP}` && /USD/.test(c.description)));
    assert.ok(rows.some((r) => r.id === 'today'));
    // Kept per day as counts: no key, no prompt, no answer text.
    const stored = JSON.stringify(api.meter.days.toJSON());
    assert.match(stored, new RegExp(`"model":"${CHEAP}"`));
    assert.ok(!stored.includes(server.keys.acme) && !/"content"|messages/.test(stored), stored.slice(0, 300));
    await vscode.commands.executeCommand(`${Views.usage}.focus`);
    await eventually(() => api.usageView.treeView.visible, 5000, 'the Usage view shown');
  });

  it('a check run past the requests the service said are left asks first; Cancel sends none of them', async () => {
    const doc = await checkFile();
    const asked: string[] = [];
    ui = stubUi(api.ui, { ask: async (message) => (asked.push(message), undefined) });
    // One answer says no request is left for 2 s (a 429 with x-ratelimit-remaining-requests: 0).
    server.setFaults({ rateLimit: { first: 1, retryAfterSeconds: 2 }, paths: ['/v1/chat'] });
    await newPayload('/v1/chat', CHEAP);
    await vscode.commands.executeCommand(Commands.sendRequest);
    server.setFaults({});
    const seen = Date.now();
    assert.equal(api.meter.limitsOf()?.remainingRequests, 0);
    const before = server.requests.length;
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand(Commands.runChecks);
    const outcome = await eventually(() => api.checks.outcomes().get(doc.uri.toString()), 10_000, 'the run');
    assert.match(asked[0] ?? '', /^This run sends 1 request, and .+ said it allows 0 more before its limit resets\.$/);
    assert.equal(outcome.state, 'skipped');
    assert.equal(server.requests.length, before, 'nothing sent');
    ui.restore();
    ui = undefined;
    // The window the service announced is over before the next suite runs checks.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, seen + 2100 - Date.now())));
  });
});
