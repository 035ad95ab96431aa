// The README ships in the VSIX: it is what a person who installs the extension reads. It documents every
// setting and command of package.json, shows pictures the extension details page can display, and leaves
// development to CONTRIBUTING.md and docs/. No document of the project points outside the repository.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { readManifest } from '../../harness/manifest';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

interface Manifest {
  engines: { vscode: string };
  contributes: {
    commands: { command: string; title: string }[];
    menus: { commandPalette?: { command: string; when?: string }[] };
    configuration: { properties: Record<string, unknown> };
  };
}
const manifest = readManifest(ROOT) as Manifest;
const readme = read('README.md');

/** The rows of the Markdown table under the heading `## <title>`: each row's cells. */
function tableUnder(title: string): string[][] {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README has a "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return section
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

describe('README for users', () => {
  it('shows a newcomer the two commands from source: npm run demo and npm test', () => {
    const start = readme.indexOf('\n## From source\n');
    assert.ok(start >= 0, 'README has a "## From source" section');
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    assert.match(section, /^npm run demo\b/m);
    assert.match(section, /^npm test\b/m);
  });

  it('has a row in the Settings table for every modelAccess.* setting in package.json', () => {
    const documented = new Set(tableUnder('Settings').map(([name]) => name.replace(/`/g, '')));
    const settings = Object.keys(manifest.contributes.configuration.properties);
    assert.ok(settings.length > 0);
    const missing = settings.filter((s) => !documented.has(s));
    assert.deepEqual(missing, [], `settings missing from the README's Settings table: ${missing.join(', ')}`);
    const unknown = [...documented].filter((s) => !settings.includes(s));
    assert.deepEqual(unknown, [], `the README documents settings that do not exist: ${unknown.join(', ')}`);
  });

  it('names every command of the command palette in the Commands table', () => {
    const hidden = new Set(
      (manifest.contributes.menus.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command),
    );
    const rows = tableUnder('Commands').map(([titles]) => titles);
    for (const c of manifest.contributes.commands.filter((c) => !hidden.has(c.command))) {
      assert.ok(
        rows.some((cell) => cell.split(/\s+[/·]\s+/).includes(c.title)),
        `"${c.title}" (${c.command}) is not in the README's Commands table`,
      );
    }
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
    const start = readme.indexOf('\n## From source\n');
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
    ...readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`),
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
