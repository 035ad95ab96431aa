// The README ships in the VSIX: it is what a person who installs the extension reads. It shows pictures the
// extension details page can display, links the generated reference of every command and setting
// (reference.test.ts), and leaves development to CONTRIBUTING.md and docs/. No document of the project points
// outside the repository.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { readManifest } from '../../harness/manifest';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

interface Manifest {
  engines: { vscode: string };
}
const manifest = readManifest(ROOT) as Manifest;
const readme = read('README.md');
/** The section that shows a newcomer the two commands, near the top. */
const FROM_SOURCE = '\n## Try it from source\n';

/**
 * Relative link targets of a Markdown file (`[..](target)`), without anchors; external and anchor-only links
 * skipped, and so is anything inside code (fenced blocks and inline spans are examples, not links).
 */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target)
    .filter((t) => !/^[a-z][\w+.-]*:/i.test(t) && !t.startsWith('#'))
    .map((t) => t.split('#')[0]);
}

/** The anchor GitHub (and the Marketplace) gives a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

describe('README for users', () => {
  it('opens with what it is and a picture, then the contents, Getting started and Try it from source', () => {
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map(([, title]) => title);
    assert.deepEqual(sections.slice(0, 4), ['Contents', 'Getting started', 'Try it from source', 'Features']);
    const intro = readme.slice(0, readme.indexOf('\n## '));
    assert.match(intro, /!\[[^\]]+\]\(media\/screenshots\/[\w-]+\.png\)/, 'a picture before the first section');
  });

  it('has a table of contents that reaches every section, and no link to a heading that is not there', () => {
    const headings = [...readme.matchAll(/^#{2,3} (.+)$/gm)].map(([, title]) => slug(title));
    const contents = readme.slice(readme.indexOf('\n## Contents\n'), readme.indexOf('\n## Getting started\n'));
    for (const section of [...readme.matchAll(/^## (.+)$/gm)].map(([, title]) => title).slice(1)) {
      assert.ok(contents.includes(`](#${slug(section)})`), `the contents link "${section}"`);
    }
    const prose = readme.replace(/^```[\s\S]*?^```/gm, '');
    for (const [, anchor] of prose.matchAll(/\]\(#([^)]+)\)/g)) {
      assert.ok(headings.includes(anchor), `#${anchor} is a heading of the README`);
    }
  });

  it('gives each feature at most one picture', () => {
    const features = readme.slice(
      readme.indexOf('\n## Features\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Features\n') + 1),
    );
    for (const part of features.split(/\n### /).slice(1)) {
      const pictures = part.match(/!\[/g)?.length ?? 0;
      assert.ok(pictures <= 1, `"${part.split('\n')[0]}" has ${pictures} pictures`);
    }
  });

  it('shows a newcomer the two commands from source: npm run demo and npm test', () => {
    const start = readme.indexOf(FROM_SOURCE);
    assert.ok(start >= 0, `README has a "${FROM_SOURCE.trim()}" section`);
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    assert.match(section, /^npm run demo\b/m);
    assert.match(section, /^npm test\b/m);
  });

  it('states the VS Code version the manifest requires', () => {
    const min = /(\d+\.\d+)/.exec(manifest.engines.vscode)?.[1];
    assert.ok(min && readme.includes(`VS Code ${min} or newer`), `Requirements says "VS Code ${min} or newer"`);
  });

  it('shows pictures the extension details page can display: PNGs in the repository, by relative path', () => {
    const images = [...readme.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map(([, alt, src]) => ({ alt, src }));
    assert.ok(images.length >= 2, 'the README has pictures');
    for (const { alt, src } of images) {
      // vsce turns relative links into https URLs under the repository; the details page shows only https
      // images, and vsce refuses SVGs. See CONTRIBUTING.md, "README pictures".
      assert.match(src, /^media\/screenshots\/[\w-]+\.png$/, `${src}: a PNG under media/screenshots/`);
      assert.ok(existsSync(path.join(ROOT, src)), `${src} exists`);
      assert.ok(alt.length > 20, `${src} has alt text that says what it shows`);
    }
    assert.ok(!/<img\b|<svg\b/i.test(readme), 'no raw <img> or <svg>');
  });

  it('leaves development, benchmarks and internal notes to CONTRIBUTING.md and docs/ (but the two commands from source)', () => {
    // "From source" shows a newcomer `npm run demo` and `npm test`; everything else about development is elsewhere.
    const start = readme.indexOf(FROM_SOURCE);
    const end = readme.indexOf('\n## ', start + 1);
    const rest = start < 0 ? readme : readme.slice(0, start) + (end < 0 ? '' : readme.slice(end));
    for (const word of [
      /\bMISSED\b/,
      /npm run (demo|bench|serve|test)/,
      /\bnpm test\b/,
      /test\/(unit|integration|e2e|server)\//,
      /\bTODO\b/,
    ]) {
      assert.doesNotMatch(rest, word);
    }
    assert.doesNotMatch(readme, /npm run (bench|serve|mutate)/);
    assert.match(readme, /\[CONTRIBUTING\.md\]\(CONTRIBUTING\.md\)/);
    assert.match(readme, /\[SECURITY\.md\]\(SECURITY\.md\)/);
  });
});

describe('documents refer only to files inside the repository', () => {
  const docs = [
    'README.md',
    'CONTRIBUTING.md',
    'SECURITY.md',
    'CHANGELOG.md',
    'test/README.md',
    ...walk(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')),
  ];

  it('every relative link of the Markdown documents resolves to a file or folder of the repository', () => {
    for (const doc of docs) {
      for (const target of relativeLinks(read(doc))) {
        const resolved = path.resolve(path.dirname(path.join(ROOT, doc)), target);
        assert.ok(resolved.startsWith(ROOT + path.sep), `${doc} links outside the repository: ${target}`);
        assert.ok(existsSync(resolved), `${doc} links to ${target}, which does not exist`);
      }
    }
  });

  /** The folders of src/: a path written from src/ (`requests/send/exchange.ts`, as docs/ARCHITECTURE.md writes them). */
  const SRC_FOLDERS = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  /**
   * Repository paths a text names (`src/…`, `test/…`, `scripts/…`, `bench/…`, `docs/…`, `media/…`, also written
   * `./src/…`), and paths written from src/ (`requests/send/send.ts`, `explorer/core/`: a folder of src/ and at
   * least a file or a sub-folder), with the line each is on; globs and placeholders in capitals
   * (`test/e2e/NN-name.e2e.ts`) are not paths.
   */
  function namedPaths(text: string): { path: string; line: number }[] {
    const line = (index = 0) => text.slice(0, index).split('\n').length;
    const fromRoot = [
      ...text.matchAll(/(?<![\w./@-])(?:\.\/)?((?:src|test|scripts|bench|docs|media)\/[\w./-]*[\w/])/g),
    ].map((m) => ({ path: m[1], line: line(m.index) }));
    const fromSrc = [
      ...text.matchAll(
        new RegExp(
          `(?<![\\w./@-])((?:${SRC_FOLDERS.join('|')})\\/(?:[\\w.-]+\\/)*(?:[\\w-]+\\.ts\\b|[\\w-]+\\/))`,
          'g',
        ),
      ),
    ].map((m) => ({ path: `src/${m[1]}`, line: line(m.index) }));
    return [...fromRoot, ...fromSrc].filter(({ path: p }) => !/\/[A-Z]{2,}\b/.test(p));
  }

  it('every file or folder a document names, and every one the comments of src/ name, exists', () => {
    const sources = walk(path.join(ROOT, 'src')).filter((f) => f.endsWith('.ts'));
    assert.ok(sources.includes(path.join('src', 'ids.ts')) && docs.includes('SECURITY.md'));
    const stale: string[] = [];
    for (const file of [...docs, ...sources]) {
      for (const named of namedPaths(read(file))) {
        // bench/results/ holds the output of a run (ignored by git, but for the baseline).
        if (!existsSync(path.join(ROOT, named.path)) && !named.path.startsWith('bench/results/')) {
          stale.push(`${file}:${named.line}: ${named.path}`);
        }
      }
    }
    assert.deepEqual(stale, [], `paths that no longer exist:\n${stale.join('\n')}`);
  });

  it('every page of docs/ is one a person reads: none over 60 KB (long lists are generated on demand)', () => {
    const large = docs
      .filter((d) => d.startsWith('docs/'))
      .filter((d) => statSync(path.join(ROOT, d)).size > 60 * 1024)
      .map((d) => `${d}: ${Math.round(statSync(path.join(ROOT, d)).size / 1024)} KB`);
    assert.deepEqual(large, []);
  });

  it('finds a stale path where it is named', () => {
    assert.deepEqual(namedPaths('one\n(see src/gone/away.ts) and `test/unit/x.test.ts`, not test/e2e/NN-x.e2e.ts'), [
      { path: 'src/gone/away.ts', line: 2 },
      { path: 'test/unit/x.test.ts', line: 2 },
    ]);
    // Written from src/, or with ./ before it: a moved file is found however the text writes it.
    assert.deepEqual(
      namedPaths('`requests/exchange.ts` ─► api/client.ts\nsee ./src/requests/send.ts, explorer/core/'),
      [
        { path: 'src/requests/send.ts', line: 2 },
        { path: 'src/requests/exchange.ts', line: 1 },
        { path: 'src/api/client.ts', line: 1 },
        { path: 'src/explorer/core/', line: 2 },
      ],
    );
  });

  it('no document, source file or test names a path outside the repository', () => {
    const roots = [
      'src',
      'bench',
      'scripts',
      'test/unit',
      'test/integration',
      'test/e2e',
      'test/server',
      'test/harness',
      'test/demo',
      'docs',
      'media',
    ];
    const files = [...docs, 'package.json', '.vscodeignore', ...roots.flatMap((r) => walk(path.join(ROOT, r)))];
    // The repository has its own docs/ARCHITECTURE.md; the shared documents of the same name are outside it.
    const outside =
      /\.\.\/shared\b|\bshared\/(docs|reference)\b|\/work\/|\b(SHAPES|ENVIRONMENT)\.md\b|(?<!docs\/)\bARCHITECTURE\.md\b/;
    for (const file of files) {
      const rel = path.relative(ROOT, path.resolve(ROOT, file));
      if (!/\.(ts|js|mjs|md|json|svg)$/.test(rel) && !rel.endsWith('.vscodeignore')) {
        continue;
      }
      const text = readFileSync(path.join(ROOT, rel), 'utf8');
      assert.doesNotMatch(text, outside, `${rel} refers to a path outside the repository`);
    }
  });
});

function walk(dir: string): string[] {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [path.relative(ROOT, full)];
  });
}
