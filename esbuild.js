// Bundles the extension (and, with --tests, the integration suite) the way the `yo code` template does:
// type checking is separate (`tsc --noEmit`), esbuild only transpiles and bundles.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the format VS Code's `$esbuild-watch` problem matcher reads. */
const problemMatcherPlugin = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => {
      console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) {
          console.error(`    ${location.file}:${location.line}:${location.column}:`);
        }
      }
      console.log('[watch] build finished');
    });
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  external: ['vscode'],
  // jsonc-parser's `main` is a UMD build whose internal requires esbuild cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
  // @vscode/l10n's browser build: the same t() and config({ contents }) (all src/common/l10n.ts uses), without
  // the Node build's fs and HTTP readers (this extension hands it the bundle's contents): a smaller bundle.
  alias: { '@vscode/l10n': '@vscode/l10n/dist/browser.js' },
  logLevel: 'silent',
  plugins: [problemMatcherPlugin],
};

/**
 * undici is most of the extension's code but only needed on the first request: it goes to its own file,
 * `dist/undici.js`, which `src/api/dispatcher.ts` requires lazily, so loading the extension parses only ours.
 */
const undiciApart = {
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/** `./a.test.ts`, `./sub/b.test.ts`, … relative to test/integration, sorted. */
function integrationTestFiles() {
  const fs = require('node:fs');
  const dir = 'test/integration';
  return fs
    .readdirSync(dir, { recursive: true })
    .map((f) => String(f).split(require('node:path').sep).join('/'))
    .filter((f) => f.endsWith('.test.ts') && !f.split('/').includes('node_modules'))
    .sort()
    .map((f) => `./${f}`);
}

async function main() {
  const builds = [
    {
      ...common,
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      plugins: [...common.plugins, undiciApart],
    },
    { ...common, entryPoints: ['scripts/undici-entry.js'], outfile: 'dist/undici.js' },
  ];
  if (process.argv.includes('--tests')) {
    // The integration suite runs inside the extension host; it is bundled apart from the extension
    // so the VSIX never carries test code.
    // Every test/integration/**/*.test.ts is bundled (index.ts requires them through an esbuild glob) and
    // listed at build time, so a new test file needs no registration. mocha stays external: it is
    // resolved from node_modules at run time (out/ sits inside the repo). So does the test proxy (the `proxy`
    // package), which reads its own package.json through import.meta.url, which a CommonJS bundle has not.
    builds.push({
      ...common,
      entryPoints: ['test/integration/index.ts'],
      outfile: 'out/integration/index.js',
      external: ['vscode', 'mocha', 'proxy'],
      define: { __INTEGRATION_TEST_FILES__: JSON.stringify(integrationTestFiles()) },
    });
  }
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  let failed = false;
  for (const ctx of contexts) {
    try {
      await ctx.rebuild();
    } catch {
      failed = true;
    }
    await ctx.dispose();
  }
  if (failed) {
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
