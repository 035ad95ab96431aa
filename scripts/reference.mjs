#!/usr/bin/env node
// Writes docs/reference.md, every command, key binding and setting the extension contributes, from
// package.json and the English texts of package.nls.json: the README describes the features in sentences
// and links here for the full list, so the list is never written by hand twice. A unit test
// (test/unit/project/reference.test.ts) fails when the page is not what this script writes.
//
//   node scripts/reference.mjs           write the page
//   node scripts/reference.mjs --check   exit 1 when the page is out of date
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE = 'docs/reference.md';

/** Where a menu shows a command, in the words of VS Code's UI. */
const MENUS = {
  'view/title': 'Models view title bar',
  'view/item/context': "a model's context menu",
  'editor/title': 'editor title bar',
  'editor/title/context': "editor tab's context menu",
  'editor/context': "editor's context menu",
  'explorer/context': "Explorer's context menu",
};

function readJson(root, file) {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
}

/** `%key%` replaced by its English text. */
function localize(nls, value) {
  return typeof value === 'string' ? value.replace(/^%([^%]+)%$/, (whole, key) => nls[key] ?? whole) : value;
}

/** The heading anchor GitHub and the Marketplace give `` `modelAccess.chat.models` ``. */
const anchor = (setting) => setting.toLowerCase().replace(/[^a-z0-9 -]/g, '');

/** A description for a Markdown page: `#modelAccess.x#` (a link in the Settings editor) links to its entry here. */
function prose(text, settings) {
  return text
    .replace(/`?#(modelAccess\.[\w.]+)#`?/g, (whole, id) => (settings.has(id) ? `[\`${id}\`](#${anchor(id)})` : whole))
    .replace(/\r?\n/g, ' ');
}

const cell = (text) => text.replace(/\|/g, '\\|');

/** `ctrl+shift+alt+enter` as VS Code writes it: Ctrl+Shift+Alt+Enter. */
const keyName = (key) =>
  key
    .split('+')
    .map((k) => k[0].toUpperCase() + k.slice(1))
    .join('+');

function commandRows(pkg, nls) {
  const { commands, menus = {}, keybindings = [] } = pkg.contributes;
  const hidden = new Set((menus.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
  return commands.map((c) => {
    const category = localize(nls, c.category);
    const title = localize(nls, c.title);
    const where = [
      hidden.has(c.command) ? undefined : 'Command Palette',
      ...Object.entries(MENUS)
        .filter(([menu]) => (menus[menu] ?? []).some((m) => m.command === c.command))
        .map(([, words]) => words),
    ].filter(Boolean);
    const keys = keybindings
      .filter((k) => k.command === c.command)
      .map((k) => `\`${keyName(k.key)}\`${k.mac ? ` (macOS \`${keyName(k.mac)}\`)` : ''}`);
    return [
      cell(category ? `${category}: ${title}` : title),
      `\`${c.command}\``,
      keys.join(', ') || '',
      where.length > 0 ? where.join(', ') : 'not in the Command Palette',
    ];
  });
}

function valueText(value) {
  return `\`${JSON.stringify(value)}\``;
}

function settingSection(id, schema, nls, settings, restricted) {
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  const facts = [`Type: ${type}`, `default: ${valueText(schema.default)}`];
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    facts.push(
      schema.maximum === undefined
        ? `at least ${schema.minimum}`
        : schema.minimum === undefined
          ? `at most ${schema.maximum}`
          : `from ${schema.minimum} to ${schema.maximum}`,
    );
  }
  if (schema.scope === 'application' || schema.scope === 'machine') {
    facts.push('user settings only');
  } else if (restricted.has(id)) {
    facts.push('user settings only in Restricted Mode');
  }
  const lines = [`### \`${id}\``, '', `${facts.join(' · ')}.`, ''];
  lines.push(prose(localize(nls, schema.markdownDescription ?? schema.description ?? ''), settings), '');
  if (schema.enum) {
    const descriptions = (schema.markdownEnumDescriptions ?? schema.enumDescriptions ?? []).map((d) =>
      localize(nls, d),
    );
    lines.push(
      ...schema.enum.map(
        (v, i) => `- ${valueText(v)}${descriptions[i] ? `: ${prose(descriptions[i], settings)}` : ''}`,
      ),
      '',
    );
  }
  return lines.join('\n');
}

/** The page, formatted as `npm run format:check` expects. */
export async function renderReference(root = ROOT) {
  const pkg = readJson(root, 'package.json');
  const nls = readJson(root, 'package.nls.json');
  const properties = pkg.contributes.configuration.properties;
  const settings = new Set(Object.keys(properties));
  const restricted = new Set(pkg.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []);
  const text = [
    '# Commands and settings',
    '',
    '<!-- Generated by `node scripts/reference.mjs` from package.json and package.nls.json: edit those, then run it. -->',
    '',
    `Every command and setting of ${localize(nls, pkg.displayName)} ${pkg.version}. What each feature does, in`,
    'sentences and pictures: [the README](../README.md).',
    '',
    '## Commands',
    '',
    '| Command | Id | Keys | Where |',
    '| --- | --- | --- | --- |',
    ...commandRows(pkg, nls).map((row) => `| ${row.join(' | ')} |`),
    '',
    '## Settings',
    '',
    'In the Settings editor under **Extensions › Model Access**, or in `settings.json`.',
    '',
    ...Object.entries(properties).map(([id, schema]) => settingSection(id, schema, nls, settings, restricted)),
  ].join('\n');
  const options = (await prettier.resolveConfig(path.join(root, PAGE))) ?? {};
  return prettier.format(text, { ...options, parser: 'markdown' });
}

const invoked = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  const page = await renderReference();
  const file = path.join(ROOT, PAGE);
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current !== page) {
      console.error(`${PAGE} is out of date: run node scripts/reference.mjs`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(file, page);
    console.log(`wrote ${PAGE}`);
  }
}
