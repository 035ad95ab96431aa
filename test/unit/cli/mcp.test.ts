// `model-access mcp` as an agent's MCP client meets it: the official SDK's client starts `node dist/cli.js mcp`
// (built here, as `npm run build:cli` builds it) against the local service, lists the tools and their
// annotations, calls each, reads a Model Card as a resource — and finds the key in no result and no log line.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CARD_MARKER, startServer, type RunningServer } from '../../server';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const FIXTURES = path.resolve(__dirname, '../../fixtures/checks');
const KEY = `ma-canary-${Math.random().toString(36).slice(2)}-mcp`;

type Text = { type: string; text?: string };

describe('cli/mcp (model-access mcp over stdio, with the official MCP client)', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let workspace: string;
  let client: Client;
  let stderr: string;
  const errors: Error[] = [];

  before(async () => {
    // The command line as it ships: dist/cli.js, bundled now from the sources under test.
    execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js'), '--cli'], { cwd: ROOT, stdio: 'pipe' });
    server = await startServer({ keys: { acme: KEY }, localCards: true });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-mcp-'));
    fs.cpSync(FIXTURES, workspace, { recursive: true });
    stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: workspace,
      env: { PATH: process.env.PATH ?? '', MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: KEY },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'model-access-test', version: '1.0.0' });
    // A line on stdout that is not the protocol would arrive here as a parse error.
    client.onerror = (e) => errors.push(e);
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await server?.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  const textOf = (content: unknown) => (content as Text[]).map((c) => c.text ?? '').join('\n');

  it('lists exactly list_models, get_model, run_checks and send_payload, read-only or open-world as they are', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['list_models', 'get_model', 'run_checks', 'send_payload'],
    );
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(by.list_models.annotations?.readOnlyHint, true);
    assert.equal(by.get_model.annotations?.readOnlyHint, true);
    assert.equal(by.run_checks.annotations?.openWorldHint, true);
    assert.equal(by.send_payload.annotations?.openWorldHint, true);
    assert.equal(by.send_payload.annotations?.readOnlyHint, false);
    assert.deepEqual(by.get_model.inputSchema.required, ['id']);
    assert.match(by.send_payload.description ?? '', /spends the organization's budget/);
    // No tool takes a key: it comes from the server's environment only.
    for (const t of tools) {
      assert.ok(!/key|token|secret/i.test(Object.keys(t.inputSchema.properties ?? {}).join(',')), t.name);
    }
  });

  it('calls each tool against the local service', async () => {
    const list = await client.callTool({ name: 'list_models', arguments: { lifecycle: 'preview' } });
    assert.equal(list.isError, false, textOf(list.content));
    const listed = JSON.parse(textOf(list.content));
    assert.deepEqual(
      listed.serviceSays.models.map((m: { id: string }) => m.id),
      ['aurora-10', 'basalt-code-12'],
    );
    assert.equal(listed.serviceSays.models[0].lifecycle.state, 'preview');

    const model = await client.callTool({ name: 'get_model', arguments: { id: 'aurora-1' } });
    const read = JSON.parse(textOf(model.content));
    assert.equal(read.serviceSays.model.lifecycle.successor, 'aurora-2');
    assert.ok(read.serviceSays.modelCard.includes(CARD_MARKER));

    const checks = await client.callTool({
      name: 'run_checks',
      arguments: { files: ['capitals/paris.jsonc', 'capitals/london.jsonc'] },
    });
    assert.match(JSON.parse(textOf(checks.content)).summary, /^1 passed, 1 failed in /);

    const sent = await client.callTool({ name: 'send_payload', arguments: { file: 'capitals/paris.jsonc' } });
    const answer = JSON.parse(textOf(sent.content));
    assert.equal(answer.status, 200);
    assert.match(answer.serviceSays.answer, /Paris/);

    const bad = await client.callTool({ name: 'send_payload', arguments: { file: '/etc/passwd' } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad.content), /is not a path inside the workspace/);
    assert.deepEqual(errors, []);
  });

  it('serves Model Cards as resources', async () => {
    const { resources } = await client.listResources();
    const card = resources.find((r) => r.uri === 'model-access://card/aurora-2');
    assert.ok(card, resources.map((r) => r.uri).join(', '));
    const read = await client.readResource({ uri: card.uri });
    const text = (read.contents[0] as { text: string }).text;
    assert.ok(JSON.parse(text).serviceSays.modelCard.includes(CARD_MARKER));
  });

  it('the key is in no result and no log line; stdout carried only the protocol', async () => {
    const results = [
      await client.callTool({ name: 'list_models', arguments: {} }),
      await client.callTool({ name: 'get_model', arguments: { id: 'aurora-2' } }),
      await client.callTool({ name: 'run_checks', arguments: { files: ['**/*.jsonc'] } }),
      await client.callTool({ name: 'send_payload', arguments: { file: 'capitals/london.jsonc' } }),
    ];
    for (const r of results) {
      const seen = JSON.stringify(r);
      assert.ok(!seen.includes(KEY), seen.slice(Math.max(0, seen.indexOf(KEY) - 400), seen.indexOf(KEY) + 100));
    }
    assert.match(stderr, /model-access mcp: serving list_models, get_model, run_checks, send_payload/);
    assert.match(stderr, /send_payload: done in \d+ ms/);
    assert.ok(!stderr.includes(KEY));
    assert.deepEqual(errors, []);
    // The service did take the key (it answers nothing without it): the calls above had its answers.
    assert.equal(JSON.parse((results[3].content as Text[])[0].text ?? '').status, 200);
  });
});
