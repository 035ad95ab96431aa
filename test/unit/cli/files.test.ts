// Datasets and schemas are read only inside the working directory (real paths: a symlink out is refused too),
// unless --allow-outside-files; a schema that does not parse is never quoted; a refused URL shows no password;
// CSV cells holding `;` are quoted (issue 35, items 6 and 12).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../src/cli/check';
import { tableAsCsv } from '../../../src/checks/core/resultsTable';
import { startServer, type RunningServer } from '../../server';

describe('cli: files a payload names, and small leaks', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let root: string;
  let work: string;
  before(async () => {
    server = await startServer();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-files-'));
    work = path.join(root, 'work');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(root, 'outside.jsonl'), '{"q": "root:x:0:0:secret-row"}\n');
    fs.writeFileSync(path.join(root, 'outside.json'), 'root:x:0:0:root:/root:/bin/bash');
    fs.symlinkSync(path.join(root, 'outside.jsonl'), path.join(work, 'link.jsonl'));
    const payload = (lines: string) =>
      `// POST /v1/chat\n${lines}\n{"model": "aurora-1", "messages": [{"role": "user", "content": "{{q}}"}]}`;
    fs.writeFileSync(path.join(work, 'up.jsonc'), payload('// @each ../outside.jsonl\n// @expect status 200'));
    fs.writeFileSync(
      path.join(work, 'abs.jsonc'),
      payload(`// @each ${path.join(root, 'outside.jsonl')}\n// @expect status 200`),
    );
    fs.writeFileSync(path.join(work, 'link.jsonc'), payload('// @each link.jsonl\n// @expect status 200'));
  });
  after(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function run(args: string[], env: Record<string, string> = {}) {
    server.clearRecords();
    const lines: string[] = [];
    const code = await main(['check', ...args], {
      env: { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys.acme, ...env },
      cwd: work,
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    return { code, text: lines.join('\n') };
  }

  it('a dataset outside the working directory (../, absolute, a symlink) is not read, its rows not sent', async () => {
    const r = await run(['up.jsonc', 'abs.jsonc', 'link.jsonc']);
    assert.equal(r.code, 1, r.text);
    assert.equal((r.text.match(/cannot be read/g) ?? []).length, 3, r.text);
    // Each says why, and the way out.
    assert.equal(
      (
        r.text.match(
          /cannot be read: it lies outside the working directory .*; run with --allow-outside-files to read it/g,
        ) ?? []
      ).length,
      3,
      r.text,
    );
    assert.equal(server.received('/v1/chat', 'POST').length, 0);
    assert.doesNotMatch(r.text, /secret-row/);
    const allowed = await run(['link.jsonc', '--allow-outside-files']);
    assert.equal(allowed.code, 0, allowed.text);
    assert.equal(server.received('/v1/chat', 'POST').length, 1);
  });

  it('a schema that is not JSON is named, never quoted', async () => {
    fs.writeFileSync(path.join(work, 'bad.json'), 'root:x:0:0:root:/root:/bin/bash');
    fs.writeFileSync(
      path.join(work, 's.jsonc'),
      '// POST /v1/chat\n// @expect schema bad.json\n{"model": "aurora-1", "messages": []}',
    );
    const r = await run(['s.jsonc']);
    assert.match(r.text, /The schema file bad\.json is not JSON/);
    fs.writeFileSync(
      path.join(work, 'out.jsonc'),
      '// POST /v1/chat\n// @expect schema ../outside.json\n{"model": "aurora-1", "messages": []}',
    );
    assert.match(
      (await run(['out.jsonc'])).text,
      /The schema file \.\.\/outside\.json cannot be read: it lies outside the working directory .*--allow-outside-files/,
    );
    assert.doesNotMatch(r.text, /root:x/);
  });

  it('a refused service URL is printed without its user name and password', async () => {
    const url = new URL(server.url);
    url.username = 'alice';
    url.password = 'hunter2pw';
    const r = await run(['s.jsonc'], {
      MODEL_ACCESS_BASE_URL: url.toString(),
      MODEL_ACCESS_API_KEY: 'ma-wrong-key-000000',
    });
    assert.equal(r.code, 2, r.text);
    assert.doesNotMatch(r.text, /alice|hunter2pw/);
  });

  it('CSV: a cell holding ; is quoted', () => {
    assert.equal(tableAsCsv({ columns: ['a'], rows: [['x;=1+2']] }), 'a\r\n"x;=1+2"\r\n');
  });
});
