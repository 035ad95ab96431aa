// docs/reference.md lists every command, key binding and setting; scripts/reference.mjs writes it from
// package.json, so a new command or setting reaches the page by running the script, and this test fails until
// someone does. The README describes features in sentences and links there.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readManifest, REPO_ROOT } from '../../harness/manifest';

const read = (rel: string) => readFileSync(path.join(REPO_ROOT, rel), 'utf8');

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { default?: unknown }> };
    keybindings: { command: string; key: string }[];
  };
}
const manifest = readManifest() as Manifest;
const page = read('docs/reference.md');

/** The cells of each row of the Markdown table under `## <title>` (the header row left out). */
function rowsUnder(text: string, title: string): string[][] {
  const start = text.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `a "## ${title}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

describe('the commands and settings reference (docs/reference.md)', () => {
  it('is what scripts/reference.mjs writes from package.json (run `node scripts/reference.mjs` after a change)', async function () {
    // Loading Prettier, which formats the page as `npm run format:check` expects, is slow on a busy machine.
    this.timeout(60_000);
    const { renderReference } = await import('../../../scripts/reference.mjs');
    assert.equal(page, await renderReference(REPO_ROOT), 'docs/reference.md is out of date');
  });

  it('lists every command with its title and id, and its key binding', () => {
    const rows = rowsUnder(page, 'Commands');
    const commands = manifest.contributes.commands;
    assert.equal(rows.length, commands.length, 'one row per command');
    for (const c of commands) {
      const row = rows.find(([, id]) => id === `\`${c.command}\``);
      assert.ok(row, `${c.command} has a row`);
      assert.equal(row[0], `${c.category ? `${c.category}: ` : ''}${c.title}`, `${c.command}: its title`);
    }
    for (const k of manifest.contributes.keybindings) {
      const row = rows.find(([, id]) => id === `\`${k.command}\``);
      assert.ok(row?.[2].toLowerCase().includes(k.key), `${k.command} shows ${k.key}`);
    }
  });

  it('has a section for every setting, with its default', () => {
    const properties = Object.entries(manifest.contributes.configuration.properties);
    assert.ok(properties.length > 0);
    const headings = [...page.matchAll(/^### `([^`]+)`$/gm)].map(([, id]) => id);
    assert.deepEqual(headings, Object.keys(manifest.contributes.configuration.properties));
    for (const [id, schema] of properties) {
      const section = page.slice(page.indexOf(`### \`${id}\``)).split('\n### ')[0];
      assert.ok(section.includes(`default: \`${JSON.stringify(schema.default)}\``), `${id} states its default`);
    }
  });

  it('links a setting named in a description to its section', () => {
    assert.match(page, /\[`modelAccess\.allowInsecureHttp`\]\(#modelaccessallowinsecurehttp\)/);
    assert.doesNotMatch(page, /#modelAccess\.[\w.]+#/, 'no Settings-editor link syntax left');
  });
});

describe('the README a newcomer reads', () => {
  const readme = read('README.md');

  it('stays under 30 KB', () => {
    const size = Buffer.byteLength(readme);
    assert.ok(size < 30 * 1024, `README.md is ${(size / 1024).toFixed(1)} KB`);
  });

  it('links the full reference of commands and settings', () => {
    assert.ok(readme.includes('](docs/reference.md)'), 'README links docs/reference.md');
  });
});
