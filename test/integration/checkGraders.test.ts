// Graders and repeats in Test Explorer, inside a real VS Code against the local service: the judge named by
// modelAccess.checks.graders grades the answer (its reason in Test Results), and a repeated request whose
// answers alternate fails short of "5 of 5" with the flaky tag on its test.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Settings } from '../../src/ids';
import { startServer, type RunningServer } from '../server';
import { activateExtension, eventually, setSetting } from './helpers';

describe('Checks with graders and repeats in Test Explorer', function () {
  this.timeout(90_000);
  let api: ModelAccessApi;
  let server: RunningServer;
  let root: string;

  const find = (name: string): vscode.TestItem | undefined => {
    let found: vscode.TestItem | undefined;
    api.checks.controller.items.forEach((folder) =>
      folder.children.forEach((c) => {
        if (c.uri?.fsPath === path.join(root, name)) {
          found = c;
        }
      }),
    );
    return found;
  };

  before(async () => {
    api = await activateExtension<ModelAccessApi>();
    server = await startServer({ grading: { chatScript: ['Paris, surely.', 'Lyon, I think.'] } });
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the suite runs with a folder open');
    root = path.join(workspace, 'checks-graders-it');
    mkdirSync(root, { recursive: true });
    const body = '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "Capital of France?" }] }\n';
    writeFileSync(
      path.join(root, 'judged.jsonc'),
      `// POST /v1/chat\n// @expect judge "The answer names Paris"\n${body}`,
    );
    writeFileSync(
      path.join(root, 'repeated.jsonc'),
      `// POST /v1/chat\n// @repeat 5\n// @expect text contains "Paris"\n${body}`,
    );
    await setSetting('baseUrl', server.url);
    await setSetting(Settings.checksGraders, { judge: 'aurora-2' });
    await api.keys.store(server.url, server.keys.acme);
    await eventually(() => api.connection.state().then((s) => s.baseUrl?.url === server.url), 5000, 'the base URL');
  });

  after(async () => {
    await setSetting(Settings.checksGraders, undefined);
    await api.keys.delete(server.url).catch(() => undefined);
    await setSetting('baseUrl', undefined);
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the judge of modelAccess.checks.graders grades the answer', async () => {
    await api.checks.refresh();
    const judged = find('judged.jsonc');
    assert.ok(judged, 'judged.jsonc is listed');
    await api.checks.run([judged]);
    const outcome = api.checks.outcomes().get(judged.id);
    assert.equal(outcome?.state, 'passed', JSON.stringify(outcome));
    const asked = server.received('/v1/chat', 'POST').filter((q) => q.json?.response_format !== undefined);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].json?.model, 'aurora-2');
  });

  it('a repeated request whose answers alternate fails short of 5 of 5 and is tagged flaky', async () => {
    await api.checks.refresh();
    const repeated = find('repeated.jsonc');
    assert.ok(repeated, 'repeated.jsonc is listed');
    server.clearRecords();
    await api.checks.run([repeated]);
    const outcome = api.checks.outcomes().get(repeated.id);
    assert.equal(outcome?.state, 'failed', JSON.stringify(outcome));
    assert.match(outcome?.messages[0]?.message ?? '', /\d of 5 passed, flaky/);
    assert.equal(outcome?.messages[0]?.line, 1, 'the tally at the // @repeat line, where the editor shows it');
    assert.ok(
      repeated.tags.some((t) => t.id === 'flaky'),
      'the flaky tag',
    );
    assert.equal(server.received('/v1/chat', 'POST').length, 5);
  });
});
