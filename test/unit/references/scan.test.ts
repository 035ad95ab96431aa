// Scanning folders (issue 45) on a real tree: .gitignore (nested, re-included), include/exclude, and every
// skip counted by reason: binary, over 1 MB, minified, a symbolic link loop, a file that vanishes mid-scan;
// cancellation and progress.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeIdLookup } from '../../../src/references/core/idLookup';
import {
  DEFAULT_EXCLUDE,
  isMinified,
  isSavedModelList,
  MAX_FILE_BYTES,
  scanFolders,
  scanOneFile,
} from '../../../src/references/core/scan';

let ids: ReturnType<typeof makeIdLookup>;
// Built before each test, not when the file loads: mutation testing only sees what a test runs.
beforeEach(() => (ids = makeIdLookup(['aurora-2', 'basalt-code-2'])));

describe('references: scanFolders', function () {
  this.timeout(30_000);
  let root: string;
  const write = (rel: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const rel = (files: Map<string, unknown>) =>
    [...files.keys()].map((f) => path.relative(root, f).split(path.sep).join('/'));

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-refs-scan-'));
    write('.gitignore', 'ignored/\n*.gen.py\n# comment\n');
    write('app.py', 'client(model="aurora-2")\n');
    write('conf/settings.yaml', 'model: basalt-code-2\n');
    write('conf/.gitignore', '!keep.gen.py\nlocal.yaml\n');
    write('conf/keep.gen.py', 'm = "aurora-2"\n');
    write('conf/local.yaml', 'model: aurora-2\n');
    write('x.gen.py', 'm = "aurora-2"\n');
    write('ignored/a.py', 'm = "aurora-2"\n');
    write('ignored/b.py', 'm = "aurora-2"\n');
    write('node_modules/pkg/a.js', 'm = "aurora-2"\n');
    write('.git/x.py', 'm = "aurora-2"\n');
    write('notes.md', 'see "aurora-2"\n');
    write('big.py', `m = "aurora-2"\n${'#'.repeat(MAX_FILE_BYTES)}\n`);
    write('bin.py', Buffer.concat([Buffer.from('m = "aurora-2"\n'), Buffer.from([0, 1, 2])]));
    write('bundle.js', `var m="aurora-2";${'var a=1;'.repeat(1000)}`);
    write('lib.min.js', 'var m="aurora-2";\n');
    write('bom.py', '\ufeffm = "aurora-2"\n');
    write('empty.py', '');
    fs.symlinkSync(root, path.join(root, 'conf', 'loop'));
    fs.symlinkSync(path.join(root, 'nowhere'), path.join(root, 'dangling.py'));
    fs.symlinkSync(path.join(root, 'app.py'), path.join(root, 'linked.py'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads the default languages, honours .gitignore at every level, and counts each skip by reason', async () => {
    const done: number[] = [];
    const result = await scanFolders([root], { ids, onProgress: (n) => done.push(n) });
    // Each folder's files in name order, then its folders.
    assert.deepEqual(rel(result.files), ['app.py', 'bom.py', 'linked.py', 'conf/keep.gen.py', 'conf/settings.yaml']);
    assert.deepEqual(result.files.get(path.join(root, 'bom.py')), [
      { id: 'aurora-2', line: 0, character: 5, length: 8, listed: true },
    ]);
    assert.deepEqual(result.files.get(path.join(root, 'conf', 'settings.yaml')), [
      { id: 'basalt-code-2', line: 0, character: 7, length: 13, listed: true },
    ]);
    // app, bom, empty, keep.gen, settings, linked: read; big, bin, bundle, lib.min: picked, then skipped.
    assert.equal(result.scanned, 6);
    assert.deepEqual(result.skipped, {
      ignored: 3, // ignored/ (once), x.gen.py, conf/local.yaml
      excluded: 1, // node_modules
      language: 1, // notes.md (the .gitignore files are read as rules, not counted)
      'too-large': 1,
      binary: 1,
      minified: 2,
      'symlink-loop': 1,
      vanished: 1, // the dangling link
    });
    assert.deepEqual(
      done,
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
  });

  it('include and exclude globs replace the defaults', async () => {
    const result = await scanFolders([root], { ids, include: ['**/*.md', '*.yaml'], exclude: ['conf', 'nothing'] });
    assert.deepEqual(rel(result.files), ['notes.md']);
    assert.equal(result.skipped.excluded, 1);
    assert.equal(result.scanned, 1);
    const withModules = await scanFolders([root], { ids, exclude: [], include: ['node_modules/**'] });
    assert.deepEqual(rel(withModules.files), ['node_modules/pkg/a.js']);
    assert.deepEqual(DEFAULT_EXCLUDE, ['node_modules', '.git', '.hg', '.svn']);
  });

  it('a file named as a root is read whatever its type; a missing root is counted, not thrown; a folder twice is read once', async () => {
    const result = await scanFolders([path.join(root, 'notes.md'), path.join(root, 'missing'), root, root], {
      ids,
      include: ['*.nothing'],
    });
    assert.deepEqual(rel(result.files), ['notes.md']);
    assert.equal(result.skipped.vanished, 2);
  });

  it('a link loop between two links, a FIFO: counted, never followed or read', async () => {
    fs.mkdirSync(path.join(root, 'odd'));
    fs.symlinkSync(path.join(root, 'odd', 'b.py'), path.join(root, 'odd', 'a.py'));
    fs.symlinkSync(path.join(root, 'odd', 'a.py'), path.join(root, 'odd', 'b.py'));
    execFileSync('mkfifo', [path.join(root, 'odd', 'pipe.py')]);
    const result = await scanFolders([path.join(root, 'odd')], { ids });
    assert.deepEqual(result.skipped, { 'symlink-loop': 2, unreadable: 1 });
    assert.deepEqual(await scanOneFile(path.join(root, 'odd', 'a.py'), ids), { skipped: 'symlink-loop' });
    assert.deepEqual(await scanOneFile(path.join(root, 'odd', 'pipe.py'), ids), { skipped: 'unreadable' });
  });

  it('files that vanish mid-scan are counted as vanished, and the scan goes on', async () => {
    for (let i = 0; i < 5; i++) {
      write(`v/f${i}.py`, 'm = "aurora-2"\n');
    }
    const result = await scanFolders([path.join(root, 'v')], {
      ids,
      concurrency: 1,
      onProgress: (n) => {
        if (n === 2) {
          fs.rmSync(path.join(root, 'v', 'f3.py'));
          fs.rmSync(path.join(root, 'v', 'f4.py'));
        }
      },
    });
    assert.deepEqual(rel(result.files), ['v/f0.py', 'v/f1.py', 'v/f2.py']);
    assert.deepEqual(result.skipped, { vanished: 2 });
  });

  it('cancellable: an abort stops the reading and rejects with the reason; an aborted signal reads nothing', async () => {
    for (let i = 0; i < 20; i++) {
      write(`many/f${i}.py`, 'm = "aurora-2"\n');
    }
    const controller = new AbortController();
    let calls = 0;
    await assert.rejects(
      scanFolders([path.join(root, 'many')], {
        ids,
        concurrency: 2,
        signal: controller.signal,
        onProgress: (n) => {
          calls = n;
          if (n === 3) {
            controller.abort(new Error('stopped by the user'));
          }
        },
      }),
      /stopped by the user/,
    );
    assert.ok(calls <= 4, `${calls} files after the abort`);
    await assert.rejects(scanFolders([root], { ids, signal: AbortSignal.abort() }), { name: 'AbortError' });
  });

  it('bounded concurrency: never more files open than asked', async () => {
    for (let i = 0; i < 30; i++) {
      write(`c/f${i}.py`, 'm = "aurora-2"\n');
    }
    const original = fs.promises.open;
    let open = 0;
    let most = 0;
    (fs.promises as { open: unknown }).open = async (...args: Parameters<typeof original>) => {
      const handle = await original(...args);
      open++;
      most = Math.max(most, open);
      await new Promise((r) => setTimeout(r, 2));
      const close = handle.close.bind(handle);
      handle.close = async () => {
        open--;
        return close();
      };
      return handle;
    };
    try {
      const result = await scanFolders([path.join(root, 'c')], { ids, concurrency: 3 });
      assert.equal(result.files.size, 30);
      assert.equal(most, 3);
      assert.equal(open, 0, 'every file closed');
    } finally {
      fs.promises.open = original;
    }
  });

  it('scanOneFile: the references, or why the file was skipped', async () => {
    assert.deepEqual(await scanOneFile(path.join(root, 'app.py'), ids), [
      { id: 'aurora-2', line: 0, character: 14, length: 8, listed: true },
    ]);
    assert.deepEqual(await scanOneFile(path.join(root, 'notes.md'), ids), [
      { id: 'aurora-2', line: 0, character: 5, length: 8, listed: true },
    ]);
    assert.deepEqual(await scanOneFile(path.join(root, 'missing.py'), ids), { skipped: 'vanished' });
    assert.deepEqual(await scanOneFile(path.join(root, 'conf'), ids), { skipped: 'vanished' });
    assert.deepEqual(await scanOneFile(path.join(root, 'big.py'), ids), { skipped: 'too-large' });
    assert.deepEqual(await scanOneFile(path.join(root, 'bin.py'), ids), { skipped: 'binary' });
    assert.deepEqual(await scanOneFile(path.join(root, 'bundle.js'), ids), { skipped: 'minified' });
    assert.deepEqual(await scanOneFile(path.join(root, 'dangling.py'), ids), { skipped: 'vanished' });
    assert.deepEqual(await scanOneFile(path.join(root, 'app.py', 'x'), ids), { skipped: 'vanished' });
    write('list.json', '{\n  "format": "model-access/models@1",\n  "models": [{"id": "aurora-2"}]\n}\n');
    assert.deepEqual(await scanOneFile(path.join(root, 'list.json'), ids), { skipped: 'model-list' });
    write('other.json', '{\n  "models": [{"id": "aurora-2"}],\n  "format": "model-access/models@1"\n}\n');
    assert.equal((await scanOneFile(path.join(root, 'other.json'), ids)).constructor, Array);
    write('exact.py', `m = "aurora-2"\n${'#\n'.repeat((MAX_FILE_BYTES - 15) / 2)}\n`);
    assert.equal(fs.statSync(path.join(root, 'exact.py')).size, MAX_FILE_BYTES);
    assert.equal((await scanOneFile(path.join(root, 'exact.py'), ids)).constructor, Array);
  });
});

describe('references: isSavedModelList', () => {
  it('a document that model-access models --save wrote, by its format at the start', () => {
    assert.equal(isSavedModelList('{"format":"model-access/models@1","models":[]}'), true);
    assert.equal(isSavedModelList('  {\n  "format" : "model-access/models@2"'), true);
    assert.equal(isSavedModelList('{"format":"model-access/references@1"}'), false);
    assert.equal(isSavedModelList('{"x": 1, "format":"model-access/models@1"}'), false);
    assert.equal(isSavedModelList(`${' '.repeat(200)}{"format":"model-access/models@1"}`), false);
    assert.equal(isSavedModelList('x = {"format":"model-access/models@1"}'), false);
  });
});

describe('references: isMinified', () => {
  /** A text of `lines` lines and `length` characters. */
  const text = (length: number, lines: number) => `${'x'.repeat(length - lines + 1)}${'\n'.repeat(lines - 1)}`;
  it('a .min. name, or an average line over 500 characters in a text of 4 KB or more; never JSON or a notebook', () => {
    assert.equal(isMinified('a', 'lib.min.js'), true);
    assert.equal(isMinified('a', 'lib.MIN.CSS'), true);
    assert.equal(isMinified('a', 'lib.min'), false);
    assert.equal(isMinified(text(5010, 10), 'a.js'), true);
    assert.equal(isMinified(text(5000, 10), 'a.js'), false);
    assert.equal(isMinified('x'.repeat(4095), 'a.js'), false);
    assert.equal(isMinified('x'.repeat(4096), 'a.js'), true);
    assert.equal(isMinified('x'.repeat(5000), 'a.json'), false);
    assert.equal(isMinified('x'.repeat(5000), 'a.ipynb'), false);
    assert.equal(isMinified('x'.repeat(5000), 'a.yaml'), true);
  });
});
