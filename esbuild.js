// Bundles the extension, the CLI (--cli) and the integration suite (--tests) the way the `yo code` template
// does: type checking is separate (`tsc --noEmit`), esbuild only transpiles and bundles. The extension is split:
// activation loads dist/extension.js; the features in LAZY load on first use (what that saves at activation:
// docs/benchmarks.md; `--one-bundle` builds it without the split, to measure).
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const flag = (name) => process.argv.includes(name);
const production = flag('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  // Production maps stay beside the bundles (the VSIX leaves them out), so a profile of it names the sources.
  sourcemap: production ? 'external' : true,
  sourcesContent: false,
  external: ['vscode'],
  // jsonc-parser's `main` is a UMD build whose internal requires esbuild cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
  alias: {
    // The browser build of @vscode/l10n: the same t() without the Node build's file and HTTP readers.
    '@vscode/l10n': '@vscode/l10n/dist/browser.js',
    // markdown-it needs entities' decoder only; the package index also brings a 23 KB encoder table.
    entities: 'entities/lib/decode.js',
    // markdown-it constructs a linkify-it it never calls with `linkify: false`, the only way it is used here.
    'linkify-it': './scripts/linkify-off.js',
  },
  logLevel: 'silent',
};

/**
 * `import * as vscode from 'vscode'` in each of ~60 modules became its own `__toESM(require('vscode'))`, a copy
 * of every member of the API object (hundreds of getters) per module, when the bundle loads. One module per
 * bundle re-exports it and the others share that one namespace.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(b) {
    b.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    b.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/** undici loads on the first request (src/api/dispatcher.ts), from its own file with only the parts we use. */
const undiciApart = {
  name: 'undici-apart',
  setup: (b) => b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true })),
};
/**
 * Modules of undici that Agent and ProxyAgent load but the client never reaches, replaced in dist/undici.js by
 * one that throws if it ever is (each would then fail loudly, not silently differ). Together about 95 KB of the
 * minified file (docs/benchmarks.md, "VSIX"):
 * - the SIMD build of the HTTP parser: undici tries it first and falls back to the plain build when loading it
 *   throws, so the plain one (which runs everywhere) is the one kept;
 * - HTTP/2: used only with `allowH2`, which the client never sets;
 * - fetch's body reader (and the whole of fetch it brings): used only to send a FormData body (uploads build
 *   their multipart body themselves, src/api/upload.ts);
 * - SOCKS proxies: src/api/dispatcher.ts refuses any proxy but http:// and https:// before undici sees it.
 */
const UNDICI_LEFT_OUT = {
  // Loaded inside undici's try/catch: throwing here is what makes it take the plain build.
  'lib/llhttp/llhttp_simd-wasm.js': (fail) => fail,
  // Loaded when undici loads, called only for a connection that negotiated h2.
  'lib/dispatcher/client-h2.js': (fail) => `module.exports = function connectH2() { ${fail} };`,
  // Loaded on the first FormData body.
  'lib/web/fetch/body.js': (fail) => fail,
  // Loaded when undici loads, constructed only for a socks5:// proxy.
  'lib/dispatcher/socks5-proxy-agent.js': (fail) =>
    `module.exports = class Socks5ProxyAgent { constructor() { ${fail} } };`,
};
const undiciLeftOut = {
  name: 'undici-left-out',
  setup(b) {
    const stubbed = new Set();
    // A newer undici that moved one of these would otherwise bring it back unnoticed.
    b.onEnd((r) => {
      const missing = Object.keys(UNDICI_LEFT_OUT).filter((f) => !stubbed.has(f));
      if (r.errors.length === 0 && missing.length > 0) {
        throw new Error(`undici no longer loads ${missing.join(', ')}: update UNDICI_LEFT_OUT in esbuild.js`);
      }
    });
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]/ }, (args) => {
      const rel = args.path
        .split(path.sep)
        .join('/')
        .replace(/^.*\/undici\//, '');
      const stub = UNDICI_LEFT_OUT[rel];
      if (stub !== undefined) {
        stubbed.add(rel);
      }
      const fail = `throw new Error(${JSON.stringify(`undici/${rel} is not bundled in the extension (esbuild.js)`)});`;
      return stub === undefined ? undefined : { contents: stub(fail), loader: 'js' };
    });
  },
};
/** Data tables stored brotli-compressed in the bundles (scripts/packed-data.js). */
const { packedData } = require('./scripts/packed-data.js');

const buildUndici = () =>
  esbuild.build({
    ...common,
    entryPoints: ['scripts/undici-entry.js'],
    outfile: 'dist/undici.js',
    plugins: [packedData, undiciLeftOut],
  });

/** Loaded on first use through `onFirstUse(() => require('<entry>'))` (src/common/onFirstUse.ts). */
const LAZY = [
  { name: 'requests', entry: 'src/requests/commands.ts' },
  { name: 'chat', entry: 'src/chat/provider.ts' },
  { name: 'details', entry: 'src/explorer/details.ts' },
  { name: 'client', entry: 'src/api/client.ts' },
  { name: 'diagnose', entry: 'src/api/diagnose.ts' },
  { name: 'checks', entry: 'src/checks/runner.ts' },
  { name: 'refs', entry: 'src/references/feature.ts' },
];
/**
 * Code more than one lazy file uses (Send, chat and checks read answers; the client and the checks' retry
 * policy share GET's retry loop): the eager part holds it once.
 */
const SHARED = ['src/domain/answer/index.ts', 'src/api/retry.ts'];

const real = (file) => fs.realpathSync(path.resolve(file));
const lazyNames = new Map(LAZY.map((l) => [real(l.entry), l.name]));
const RESOLVING = Symbol('resolving');
const resolve = (b, { path: p, resolveDir, kind, importer }) =>
  b.resolve(p, { resolveDir, kind, importer, pluginData: RESOLVING });

/**
 * `require()` of a lazy entry becomes `require('./<name>.js')`. With `eager` (the modules of dist/extension.js,
 * real path → key), a lazy bundle takes each of them from the eager bundle's `__modules` table instead of a copy
 * of its own: one instance of every module (one l10n bundle, one ServiceError for `instanceof`). `used` collects
 * the keys asked for, which make that table.
 */
function lazyPlugin(eager, used) {
  return {
    name: 'lazy',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'eager') {
          return { path: args.path, external: true }; // ./extension.js
        }
        if (args.pluginData === RESOLVING || args.kind === 'entry-point' || args.path === 'vscode') {
          return undefined;
        }
        const r = await resolve(b, args);
        const file = !r.external && r.path && fs.existsSync(r.path) ? real(r.path) : undefined;
        if (file && lazyNames.has(file) && args.kind === 'require-call') {
          return { path: `./${lazyNames.get(file)}.js`, external: true };
        }
        if (file && eager?.has(file)) {
          used.add(eager.get(file));
          return { path: eager.get(file), namespace: 'eager' };
        }
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'eager' }, (args) => ({
        contents: `module.exports = require('./extension.js').__modules[${JSON.stringify(args.path)}];`,
      }));
    },
  };
}

/** The eager entry: the extension's exports, SHARED, and the `__modules` table of what lazy files take from it. */
const eagerEntry = (table) => ({
  contents: [
    "export * from './src/extension';",
    ...SHARED.map((f) => `import './${f}';`),
    ...table.map((f, i) => `import * as m${i} from './${f}';`),
    `export const __modules = { ${table.map((f, i) => `${JSON.stringify(f)}: m${i}`).join(', ')} };`,
  ].join('\n'),
  resolveDir: process.cwd(),
  sourcefile: 'src/extension.ts (and the module table)',
  loader: 'ts',
});

/** The project files a build read: real path → path relative to the project. */
const inputsOf = (metafile) =>
  new Map(
    Object.keys(metafile.inputs)
      .filter((f) => !f.includes(':') && fs.existsSync(f))
      .map((f) => [real(f), path.relative(process.cwd(), real(f)).split(path.sep).join('/')]),
  );

async function buildExtension() {
  const eager = {
    ...common,
    outfile: 'dist/extension.js',
    plugins: [vscodeOnce, packedData, undiciApart, lazyPlugin()],
  };
  if (flag('--one-bundle')) {
    LAZY.forEach((l) => fs.rmSync(`dist/${l.name}.js`, { force: true }));
    return Promise.all([
      esbuild.build({ ...eager, entryPoints: ['src/extension.ts'], plugins: [undiciApart] }),
      buildUndici(),
    ]);
  }
  // Which modules the eager part holds decides what the lazy files take from it, and they decide its table.
  const probe = inputsOf(
    (await esbuild.build({ ...eager, stdin: eagerEntry([]), write: false, metafile: true })).metafile,
  );
  const used = new Set();
  const owner = new Map();
  for (const l of LAZY) {
    if (probe.has(real(l.entry))) {
      throw new Error(`${l.entry} is loaded on first use, but the eager part imports it (import it as a type only)`);
    }
    const { metafile } = await esbuild.build({
      ...common,
      entryPoints: [l.entry],
      outfile: `dist/${l.name}.js`,
      metafile: true,
      plugins: [vscodeOnce, packedData, undiciApart, lazyPlugin(probe, used)],
    });
    for (const [file, rel] of inputsOf(metafile)) {
      if (owner.has(file)) {
        throw new Error(
          `${rel} is in dist/${owner.get(file)}.js and dist/${l.name}.js: add it to SHARED in esbuild.js`,
        );
      }
      owner.set(file, l.name);
    }
  }
  await Promise.all([esbuild.build({ ...eager, stdin: eagerEntry([...used].sort()) }), buildUndici(), buildCli()]);
}

/** The `model-access` command line (package.json `bin`): everything in one file, undici too; not in the VSIX. */
async function buildCli() {
  const outfile = 'dist/cli.js';
  await esbuild.build({
    ...common,
    entryPoints: ['src/cli/check.ts'],
    outfile,
    banner: { js: '#!/usr/bin/env node' },
    external: [],
    // What `model-access mcp` tells an MCP client it is (src/cli/mcp.ts).
    define: { __MODEL_ACCESS_VERSION__: JSON.stringify(require('./package.json').version) },
  });
  fs.chmodSync(outfile, 0o755);
}

/**
 * The integration suite, run inside the extension host, apart from the extension (the VSIX carries no test
 * code). Every test/integration/**\/*.test.ts is listed here (index.ts requires them through an esbuild glob),
 * so a new file needs no registration. mocha and the test proxy (which reads its package.json through
 * import.meta.url) are resolved from node_modules at run time.
 */
function buildTests() {
  const files = fs
    .readdirSync('test/integration', { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.test.ts') && !f.split('/').includes('node_modules'))
    .sort()
    .map((f) => `./${f}`);
  return esbuild.build({
    ...common,
    entryPoints: ['test/integration/index.ts'],
    outfile: 'out/integration/index.js',
    external: ['vscode', 'mocha', 'proxy'],
    alias: { '@vscode/l10n': common.alias['@vscode/l10n'] }, // (test helpers use entities' other exports)
    define: { __INTEGRATION_TEST_FILES__: JSON.stringify(files) },
  });
}

async function build() {
  if (flag('--cli')) {
    return buildCli();
  }
  await buildExtension();
  if (flag('--tests')) {
    await buildTests();
  }
}

/** Errors as esbuild prints them (the format of VS Code's `$esbuild-watch` problem matcher). */
async function report(e) {
  const lines = e.errors ? await esbuild.formatMessages(e.errors, { kind: 'error' }) : [`✘ [ERROR] ${e.message}\n`];
  process.stderr.write(lines.join(''));
}

if (flag('--watch')) {
  // The bundles depend on each other's module lists, so a change rebuilds them all.
  let timer;
  const rebuild = () => {
    console.log('[watch] build started');
    build()
      .catch(report)
      .then(() => console.log('[watch] build finished'));
  };
  for (const dir of ['src', 'test/integration']) {
    fs.watch(dir, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(rebuild, 100);
    });
  }
  rebuild();
} else {
  build().catch(async (e) => {
    await report(e);
    process.exit(1);
  });
}
