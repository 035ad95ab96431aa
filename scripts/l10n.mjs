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

/** The bundle for the sources under `root`/src: message → message. */
export async function extract(root = ROOT) {
  const files = sources(path.join(root, 'src'))
    .map((file) => fs.readFileSync(file, 'utf8'))
    // The parse is slow (tree-sitter in WebAssembly): only files with a message are handed over.
    .filter((text) => text.includes('l10n.t('))
    .map((text) => ({ extension: '.ts', contents: `import * as l10n from '@vscode/l10n';\n${text}` }));
  return getL10nJson(files);
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
