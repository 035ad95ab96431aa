// Computed from package.json: every contributed command, setting and view is named by some integration or
// e2e test, so a new one fails here until a test runs it. How a test may name one: see
// test/README.md ("Every command, setting and view has a test").
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Commands, Settings, Views } from '../../../src/ids';
import { readManifest } from '../../harness/manifest';

interface Manifest {
  contributes: {
    commands?: { command: string; title: string }[];
    views?: Record<string, { id: string }[]>;
    configuration?: { properties: Record<string, unknown> };
  };
}

const root = path.join(__dirname, '..', '..', '..');
const manifest = readManifest(root) as Manifest;

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full, suffix) : e.name.endsWith(suffix) ? [full] : [];
  });
}

/** The code of each test file (helpers do not count), without comment lines: a comment runs nothing. */
const testFiles = [
  ...filesUnder(path.join(root, 'test', 'integration'), '.test.ts'),
  ...filesUnder(path.join(root, 'test', 'e2e'), '.e2e.ts'),
].map((file) => ({
  file: path.relative(root, file),
  code: readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n'),
}));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `name` as a whole identifier or id: not followed by more of one (`modelAccess.setApiKey` is not `…setApiKeyFoo`). */
const word = (s: string) => `${escape(s)}(?![\\w])`;

/** The ids.ts constant name of `value` in `table` (`Commands.setBaseUrl` for `modelAccess.setBaseUrl`). */
function constantName(table: Record<string, string>, value: string): string | undefined {
  return Object.entries(table).find(([, v]) => v === value)?.[0];
}

function namingTests(patterns: RegExp[]): string[] {
  return testFiles.filter((t) => patterns.some((p) => p.test(t.code))).map((t) => t.file);
}

/**
 * A command is run by a test: `executeCommand(<id>` with the literal id, `Commands.<name>` or `${SECTION}.<name>`
 * as its first argument, or (e2e) the palette entry `openPalette(page, 'Model Access: <title>')`. Naming it
 * elsewhere (an assertion on a row's command, a comment) runs nothing.
 */
function commandPatterns(id: string, title: string): RegExp[] {
  const short = id.replace(/^modelAccess\./, '');
  const name = constantName(Commands, id);
  const ids = [`['"\`]${word(id)}['"\`]`, `\`\\$\\{SECTION\\}\\.${word(short)}`];
  if (name) {
    ids.push(`\\bCommands\\.${word(name)}`);
  }
  return [
    new RegExp(`executeCommand(?:<[^>(]*>)?\\(\\s*(?:${ids.join('|')})`),
    new RegExp(`openPalette\\([^)]*['"\`]Model Access: ${escape(title)}['"\`]`),
  ];
}

/**
 * A setting is set by a test: `setSetting(<key>` or `.update(<key>` with the key as a string or `Settings.<name>`,
 * to a value other than `undefined`, or a settings file written with `'modelAccess.<key>':`. Reading it (`inspect`, a
 * title) or clearing it sets nothing.
 */
function settingPatterns(key: string): RegExp[] {
  const short = key.replace(/^modelAccess\./, '');
  const name = constantName(Settings, short);
  const refs = [`['"\`]${escape(short)}['"\`]`, ...(name ? [`\\bSettings\\.${word(name)}`] : [])];
  return [
    new RegExp(`(?:\\bsetSetting|\\.update)\\(\\s*(?:${refs.join('|')})\\s*,(?!\\s*undefined\\b)`),
    new RegExp(`['"\`]${escape(key)}['"\`]\\s*:`),
  ];
}

/** Views: the literal id (also in `<id>.focus`) or `Views.<name>`. */
function viewPatterns(id: string): RegExp[] {
  const name = constantName(Views, id);
  return [new RegExp(`['"\`]${word(id)}`), ...(name ? [new RegExp(`\\bViews\\.${word(name)}`)] : [])];
}

describe('every command, setting and view has a test that names it (package.json)', () => {
  it('finds the test files', () => {
    assert.ok(testFiles.some((t) => t.file.endsWith('commands.test.ts')));
    assert.ok(testFiles.some((t) => t.file.endsWith('.e2e.ts')));
  });

  it('every contributed command is run by a test in test/integration or test/e2e', () => {
    const commands = manifest.contributes.commands ?? [];
    assert.ok(commands.length > 20);
    const missing = commands
      .filter((c) => namingTests(commandPatterns(c.command, c.title)).length === 0)
      .map((c) => `${c.command} (“${c.title}”)`);
    assert.deepEqual(
      missing,
      [],
      'commands no test names: add a test that runs them (test/integration/commands.test.ts)',
    );
  });

  it('every contributed modelAccess.* setting is set by a test', () => {
    const settings = Object.keys(manifest.contributes.configuration?.properties ?? {});
    assert.ok(settings.length > 10);
    assert.ok(settings.every((k) => k.startsWith(`${Settings.section}.`)));
    const missing = settings.filter((k) => namingTests(settingPatterns(k)).length === 0);
    assert.deepEqual(
      missing,
      [],
      'settings no test names: add a test that sets them (test/integration/settings.test.ts)',
    );
  });

  it('every contributed view is named by a test', () => {
    const views = Object.values(manifest.contributes.views ?? {}).flat();
    assert.ok(views.length > 0);
    const missing = views.filter((v) => namingTests(viewPatterns(v.id)).length === 0).map((v) => v.id);
    assert.deepEqual(missing, []);
  });

  it('the patterns count a run or a write, not a mention; a longer id does not name a shorter one', () => {
    const named = (patterns: RegExp[], code: string) => patterns.some((p) => p.test(code));
    const showLog = commandPatterns('modelAccess.showLog', 'Show Log');
    assert.ok(named(showLog, "executeCommand('modelAccess.showLog')"));
    assert.ok(named(showLog, 'executeCommand(Commands.showLog)'));
    assert.ok(named(showLog, 'vscode.commands.executeCommand<boolean>(\n  Commands.showLog, 1)'));
    assert.ok(named(showLog, 'executeCommand(`${SECTION}.showLog`)'));
    assert.ok(named(showLog, "openPalette(page, 'Model Access: Show Log')"));
    assert.ok(!named(showLog, "executeCommand('modelAccess.showLogs')"));
    assert.ok(!named(showLog, 'executeCommand(Commands.showLogs)'));
    assert.ok(!named(showLog, 'assert.equal(row.command?.command, Commands.showLog)'), 'an assertion runs nothing');
    assert.ok(!named(showLog, "const id = 'modelAccess.showLog';"));
    const models = settingPatterns('modelAccess.chat.models');
    assert.ok(named(models, "setSetting('chat.models', [])"));
    assert.ok(named(models, 'config.update(Settings.chatModels, [], target)'));
    assert.ok(named(models, "writeFileSync(f, JSON.stringify({ 'modelAccess.chat.models': [] }))"));
    assert.ok(!named(models, "setSetting('chat.modelsX', [])"));
    assert.ok(!named(models, "inspect('chat.models')"), 'reading a setting sets nothing');
    assert.ok(!named(models, "setSetting('chat.models', undefined)"), 'clearing it neither');
    assert.ok(named(viewPatterns('modelAccess.models'), "executeCommand('modelAccess.models.focus')"));
  });

  it('a contributed command, setting or view that no test runs is reported', () => {
    const code = "await vscode.commands.executeCommand(Commands.showLog);\nawait setSetting('chat.models', []);";
    const files = [{ file: 'x.test.ts', code }];
    const runs = (patterns: RegExp[]) => files.some((t) => patterns.some((p) => p.test(t.code)));
    assert.ok(runs(commandPatterns('modelAccess.showLog', 'Show Log')));
    assert.ok(!runs(commandPatterns('modelAccess.brandNewCommand', 'Brand New Command')));
    assert.ok(runs(settingPatterns('modelAccess.chat.models')));
    assert.ok(!runs(settingPatterns('modelAccess.brandNewSetting')));
    assert.ok(!runs(viewPatterns('modelAccess.brandNewView')));
  });
});
