#!/usr/bin/env node
// Writes l10n/bundle.l10n.json, the English messages VS Code's translations are keyed by, from every
// `l10n.t('…')` call in src/ (run by `npm run build` and `npm run package`; the file is not committed).
//
// The extraction is @vscode/l10n-dev's. It only looks for `l10n.t` in files that import `vscode` or
// `@vscode/l10n`; our `l10n` is the typed wrapper from src/common/l10n.ts or src/platform/l10n.ts, so each
// file is handed over with the package's import line in front (the calls themselves are unchanged).
//
//   node scripts/l10n.mjs           write the bundle
//   node scripts/l10n.mjs --pseudo  also write a pseudo-localized bundle and package.nls (qps-ploc), for
//                                   finding strings that were missed: run VS Code with `--locale qps-ploc`
import { getL10nJson, getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) {
        return sources(file);
      }
      return file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file] : [];
    });
}

/**
 * The bundle for the sources under `root`/src: message → message. The extraction parses every file with a
 * message (10–20 s on two cores), and `npm test` asks for it twice over the same sources (the unit test that
 * checks the bundle, then the packaging): the result is kept in node_modules/.cache, named by a hash of what
 * is handed over and of the extractor's version, so the same input is never parsed twice.
 */
export async function extract(root = ROOT) {
  const files = sources(path.join(root, 'src'))
    .map((file) => fs.readFileSync(file, 'utf8'))
    // The parse is slow (tree-sitter in WebAssembly): only files with a message are handed over.
    .filter((text) => text.includes('l10n.t('))
    .map((text) => ({ extension: '.ts', contents: `import * as l10n from '@vscode/l10n';\n${text}` }));
  const hash = createHash('sha256').update(extractorVersion(root));
  for (const f of files) {
    hash.update(`\0${f.contents.length}\0`).update(f.contents);
  }
  const cached = path.join(root, 'node_modules', '.cache', 'model-access-l10n', `${hash.digest('hex')}.json`);
  try {
    return JSON.parse(fs.readFileSync(cached, 'utf8'));
  } catch {
    // Not extracted yet (or the cache was cleared).
  }
  const bundle = await getL10nJson(files);
  try {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(`${cached}.${process.pid}`, JSON.stringify(bundle));
    fs.renameSync(`${cached}.${process.pid}`, cached);
    // Each edit of a message makes a new entry: keep the few newest.
    const dir = path.dirname(cached);
    fs.readdirSync(dir)
      .map((name) => ({ file: path.join(dir, name), at: fs.statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .slice(4)
      .forEach(({ file }) => fs.rmSync(file, { force: true }));
  } catch {
    // A read-only node_modules: the next run extracts again.
  }
  return bundle;
}

function extractorVersion(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@vscode', 'l10n-dev', 'package.json'), 'utf8'))
      .version;
  } catch {
    return 'unknown';
  }
}

export async function writeBundle(root = ROOT, { pseudo = false } = {}) {
  // Sorted: a stable file for translators, and similar messages side by side compress better in the VSIX.
  const extracted = await extract(root);
  const bundle = Object.fromEntries(
    Object.keys(extracted)
      .sort()
      .map((k) => [k, extracted[k]]),
  );
  const dir = path.join(root, 'l10n');
  fs.mkdirSync(dir, { recursive: true });
  // One line: the file ships in the VSIX, and nobody edits it by hand.
  fs.writeFileSync(path.join(dir, 'bundle.l10n.json'), `${JSON.stringify(bundle)}\n`);
  if (pseudo) {
    fs.writeFileSync(
      path.join(dir, 'bundle.l10n.qps-ploc.json'),
      `${JSON.stringify(getL10nPseudoLocalized(bundle), null, 2)}\n`,
    );
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
    fs.writeFileSync(
      path.join(root, 'package.nls.qps-ploc.json'),
      `${JSON.stringify(getL10nPseudoLocalized(nls), null, 2)}\n`,
    );
  }
  return Object.keys(bundle).length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const count = await writeBundle(ROOT, { pseudo: process.argv.includes('--pseudo') });
  console.log(`l10n/bundle.l10n.json: ${count} messages`);
}
