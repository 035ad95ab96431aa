// Bundles the extension (and, with --tests, the integration suite) the way the `yo code` template does:
// type checking is separate (`tsc --noEmit`), esbuild only transpiles and bundles.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
/** `--one-bundle`: no feature loaded on first use (all in dist/extension.js; undici still apart), to measure the split. */
const oneBundle = process.argv.includes('--one-bundle');
const watch = process.argv.includes('--watch');

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
  plugins: [],
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

/**
 * Features loaded on first use, each in a file of its own: activation loads dist/extension.js only (the
 * registrations), and the code behind a command, the chat provider or a details tab is parsed and run when
 * it is first needed. The eager part loads one with `onFirstUse(() => require('<its module>'))`
 * (src/common/onFirstUse.ts); here that require becomes `require('./<name>.js')`.
 */
const LAZY = [
  { name: 'requests', entry: 'src/requests/commands.ts' },
  { name: 'chat', entry: 'src/chat/provider.ts' },
  { name: 'details', entry: 'src/explorer/details.ts' },
  { name: 'client', entry: 'src/api/client.ts' },
  { name: 'diagnose', entry: 'src/api/diagnose.ts' },
  { name: 'checks', entry: 'src/checks/runner.ts' },
];

const real = (file) => fs.realpathSync(path.resolve(file));

/** Marks the resolutions the plugins below ask esbuild for themselves, so neither plugin handles them again. */
const RESOLVING = Symbol('resolving');

/** In the eager bundle, a `require()` of a lazy feature's module stays a require of its own file in dist/. */
const lazyApart = {
  name: 'lazy-apart',
  setup(build) {
    const entries = new Map(LAZY.map((l) => [real(l.entry), l.name]));
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === RESOLVING || args.kind !== 'require-call') {
        return undefined;
      }
      const resolved = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: RESOLVING,
      });
      const name = resolved.path && entries.get(real(resolved.path));
      return name ? { path: `./${name}.js`, external: true } : undefined;
    });
  },
};

/**
 * In a lazy bundle, every module the eager bundle already holds is taken from it (one instance of each
 * module: the same l10n bundle, the same classes for `instanceof`, the same state), through the table the
 * eager bundle exports as `__modules` (dist/extension.js is loaded by then: it is what requires the lazy file).
 * `used` collects which modules were asked for, to build that table.
 */
function fromEager(eagerFiles, used) {
  return {
    name: 'from-eager',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.kind === 'entry-point' || args.namespace === 'eager') {
          return args.namespace === 'eager' ? { path: args.path, external: true } : undefined;
        }
        const resolved = await build.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          importer: args.importer,
          pluginData: RESOLVING,
        });
        if (resolved.errors.length > 0 || resolved.external || !resolved.path) {
          return undefined;
        }
        const key = eagerFiles.get(real(resolved.path));
        if (key === undefined) {
          return undefined;
        }
        used.add(key);
        return { path: key, namespace: 'eager' };
      });
      build.onLoad({ filter: /.*/, namespace: 'eager' }, (args) => ({
        contents: `module.exports = require('./extension.js').__modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/** The source files (and packages) a build took in, as real paths → their path relative to the project. */
function inputsOf(metafile) {
  const files = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    // (`stdin` shows as its sourcefile name, no file.)
    if (!input.includes(':') && fs.existsSync(input)) {
      files.set(real(input), path.relative(process.cwd(), real(input)).split(path.sep).join('/'));
    }
  }
  return files;
}

/** The eager entry: the extension's exports, and the table of the modules the lazy bundles take from it. */
function eagerEntry(shared) {
  const list = [...shared].sort();
  return {
    contents: [
      "export * from './src/extension';",
      ...list.map((file, i) => `import * as m${i} from ${JSON.stringify(`./${file}`)};`),
      `export const __modules = { ${list.map((file, i) => `${JSON.stringify(file)}: m${i}`).join(', ')} };`,
    ].join('\n'),
    resolveDir: process.cwd(),
    sourcefile: 'src/extension.ts (with the shared module table)',
    loader: 'ts',
  };
}

/** Builds dist/: the eager bundle, one bundle per lazy feature, undici. */
async function buildExtension() {
  if (oneBundle) {
    await esbuild.build({
      ...common,
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      plugins: [...common.plugins, undiciApart],
    });
    await esbuild.build({ ...common, entryPoints: ['scripts/undici-entry.js'], outfile: 'dist/undici.js' });
    for (const l of LAZY) {
      fs.rmSync(`dist/${l.name}.js`, { force: true });
    }
    return;
  }
  const eagerOptions = {
    ...common,
    outfile: 'dist/extension.js',
    plugins: [...common.plugins, undiciApart, lazyApart],
  };
  // Modules two lazy files need (pure shared code such as src/domain/answer/): the eager part holds them, or
  // they would exist twice (two states, two classes). Found by building, then built again with them eager.
  const hoisted = new Set();
  for (;;) {
    const probe = await esbuild.build({ ...eagerOptions, stdin: eagerEntry(hoisted), write: false, metafile: true });
    const eagerFiles = inputsOf(probe.metafile);
    for (const l of LAZY) {
      if (eagerFiles.has(real(l.entry))) {
        throw new Error(
          `${l.entry} is loaded on first use, but the eager bundle imports it (import it as a type only)`,
        );
      }
    }
    const shared = new Set();
    const lazy = await Promise.all(
      LAZY.map((l) =>
        esbuild.build({
          ...common,
          entryPoints: [l.entry],
          outfile: `dist/${l.name}.js`,
          metafile: true,
          plugins: [...common.plugins, undiciApart, lazyApart, fromEager(eagerFiles, shared)],
        }),
      ),
    );
    const owner = new Map();
    const twice = new Set();
    lazy.forEach((result, i) => {
      for (const [file, rel] of inputsOf(result.metafile)) {
        if (owner.has(file) && owner.get(file) !== LAZY[i].name) {
          if (LAZY.some((l) => real(l.entry) === file)) {
            throw new Error(
              `${rel} is loaded on first use, but another lazy file imports it (import it as a type only)`,
            );
          }
          twice.add(rel);
        }
        owner.set(file, LAZY[i].name);
      }
    });
    if (twice.size === 0) {
      await esbuild.build({ ...eagerOptions, stdin: eagerEntry(new Set([...shared, ...hoisted])) });
      break;
    }
    twice.forEach((rel) => hoisted.add(rel));
  }
  await esbuild.build({ ...common, entryPoints: ['scripts/undici-entry.js'], outfile: 'dist/undici.js' });
  await buildCli();
}

/**
 * The command line (`model-access check`, package.json `bin`): one file with everything it needs, undici
 * included, made only of the pure code (api, common, domain, checks/core); not in the VSIX.
 */
async function buildCli() {
  await esbuild.build({
    ...common,
    entryPoints: ['src/cli/check.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    external: [],
  });
  fs.chmodSync('dist/cli.js', 0o755);
}

/** `./a.test.ts`, `./sub/b.test.ts`, … relative to test/integration, sorted. */
function integrationTestFiles() {
  const dir = 'test/integration';
  return fs
    .readdirSync(dir, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.test.ts') && !f.split('/').includes('node_modules'))
    .sort()
    .map((f) => `./${f}`);
}

/** Errors in the format VS Code's `$esbuild-watch` problem matcher reads. */
function printErrors(e) {
  for (const { text, location } of e.errors ?? [{ text: e instanceof Error ? (e.stack ?? e.message) : String(e) }]) {
    console.error(`✘ [ERROR] ${text}`);
    if (location) {
      console.error(`    ${location.file}:${location.line}:${location.column}:`);
    }
  }
}

async function main() {
  if (process.argv.includes('--cli')) {
    await buildCli();
    return;
  }
  const tests = process.argv.includes('--tests')
    ? {
        // The integration suite runs inside the extension host; it is bundled apart from the extension
        // so the VSIX never carries test code.
        // Every test/integration/**/*.test.ts is bundled (index.ts requires them through an esbuild glob) and
        // listed at build time, so a new test file needs no registration. mocha stays external: it is
        // resolved from node_modules at run time (out/ sits inside the repo). So does the test proxy (the `proxy`
        // package), which reads its own package.json through import.meta.url, which a CommonJS bundle has not.
        ...common,
        entryPoints: ['test/integration/index.ts'],
        outfile: 'out/integration/index.js',
        external: ['vscode', 'mocha', 'proxy'],
        define: { __INTEGRATION_TEST_FILES__: JSON.stringify(integrationTestFiles()) },
      }
    : undefined;
  const build = async () => {
    await buildExtension();
    if (tests) {
      await esbuild.build(tests);
    }
  };
  if (watch) {
    // The bundles depend on each other's module lists, so a change rebuilds them all (it takes a moment).
    let timer;
    const rebuild = () => {
      console.log('[watch] build started');
      build().then(
        () => console.log('[watch] build finished'),
        (e) => {
          printErrors(e);
          console.log('[watch] build finished');
        },
      );
    };
    for (const dir of ['src', 'test/integration']) {
      fs.watch(dir, { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(rebuild, 100);
      });
    }
    rebuild();
    return;
  }
  try {
    await build();
  } catch (e) {
    printErrors(e);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
