// The agent tools in a real VS Code (language model tools), against the local service: VS Code lists them,
// list_models answers with the registry's models and their lifecycle, and send_payload asks the person first —
// its prepareInvocation names the service and the number of requests and sends nothing; without that yes it
// sends nothing either. (Invoking them from Copilot Chat's agent mode needs Copilot, which code-server has not.)
import * as assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, setSetting } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../test/fixtures/checks');
const NAMES = [
  'modelAccess_list_models',
  'modelAccess_get_model',
  'modelAccess_run_checks',
  'modelAccess_send_payload',
];

type Loose = Record<string, unknown> & { serviceSays: Record<string, unknown> };

/** A confirmation's text as the person reads it (MarkdownString.appendText escapes spaces and punctuation). */
function shown(message: string | vscode.MarkdownString | undefined): string {
  const text = typeof message === 'string' ? message : (message?.value ?? '');
  return text.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('Agent tools (language model tools)', function () {
  this.timeout(60_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let root: string;
  const posts = () => server.received().filter((r) => r.method === 'POST');

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer();
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the suite runs with a folder open');
    root = path.join(workspace, 'agent-tools-it');
    cpSync(FIXTURES, root, { recursive: true });
    await setSetting('baseUrl', server.url);
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
  });

  after(async () => {
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('vscode.lm.tools lists the four tools with their input schemas', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('modelAccess_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), [...NAMES].sort());
    const get = ours.find((t) => t.name === 'modelAccess_get_model');
    assert.deepEqual((get?.inputSchema as { required?: string[] }).required, ['id']);
    assert.match(ours.find((t) => t.name === 'modelAccess_send_payload')?.description ?? '', /budget/);
    assert.deepEqual(api.checks.agentTools.names, NAMES);
  });

  it('invoking list_models returns the registry’s models with their lifecycle', async () => {
    const result = await vscode.lm.invokeTool('modelAccess_list_models', {
      input: { family: 'aurora' },
      toolInvocationToken: undefined,
    });
    const read = JSON.parse(textOf(result)) as Loose;
    assert.equal(read.service, server.url);
    const models = read.serviceSays.models as { id: string; lifecycle: Record<string, string> }[];
    assert.deepEqual(
      models.map((m) => m.id),
      server.registry.models.filter((m) => m.organization === 'acme' && m.family === 'aurora').map((m) => m.id),
    );
    const aurora1 = models.find((m) => m.id === 'aurora-1');
    assert.equal(aurora1?.lifecycle.retires, '2027-01-31');
    assert.equal(aurora1?.lifecycle.successor, 'aurora-2');
    assert.ok(['retiring', 'retired'].includes(aurora1?.lifecycle.state ?? ''), aurora1?.lifecycle.state);
    assert.ok(!textOf(result).includes(server.keys.acme), 'the key is in the result');
    assert.equal(posts().length, 0);
  });

  it('send_payload asks first: the service, one request and the budget, and nothing is sent before the yes', async () => {
    server.clearRecords();
    const input = { file: 'agent-tools-it/capitals/paris.jsonc' };
    const prepared = await api.checks.agentTools.prepare('send_payload', input);
    const confirm = prepared.confirmationMessages;
    assert.ok(confirm, 'send_payload has no confirmation');
    const host = new URL(server.url).host;
    assert.ok(confirm.title.includes(host), confirm.title);
    const message = shown(confirm.message);
    assert.match(message, /1 request/);
    assert.match(message, /budget/);
    assert.match(message, /agent-tools-it\/capitals\/paris\.jsonc/);
    assert.equal(posts().length, 0, 'prepareInvocation sent a request');
    // Confirmed (VS Code calls invoke after the person's yes): one request, the answer back to the agent.
    const sent = JSON.parse(textOf(await api.checks.agentTools.invoke('send_payload', input))) as Loose;
    assert.equal(sent.status, 200);
    assert.match(String(sent.serviceSays.answer), /Paris/);
    assert.equal(posts().length, 1);
  });

  it('run_checks asks first too, and a call nobody confirmed sends nothing', async () => {
    server.clearRecords();
    const input = { files: ['agent-tools-it/capitals/*.jsonc'], maxRows: 2 };
    const prepared = await api.checks.agentTools.prepare('run_checks', input);
    assert.match(shown(prepared.confirmationMessages?.message), /: 4 requests to http:\/\/127\.0\.0\.1:\d+ /);
    const unconfirmed = textOf(
      await api.checks.agentTools.invoke('send_payload', { file: 'agent-tools-it/capitals/london.jsonc' }),
    );
    assert.match(unconfirmed, /^Error: send_payload was not run: .*not what the person confirmed/);
    assert.equal(posts().length, 0);
    const read = JSON.parse(textOf(await api.checks.agentTools.invoke('run_checks', input))) as Loose;
    assert.match(String(read.summary), /^3 passed, 1 failed in /);
  });
});
