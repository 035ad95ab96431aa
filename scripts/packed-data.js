// An esbuild plugin for esbuild.js: two tables of bytes the bundles carry, stored brotli-compressed (as base64)
// and expanded on first use. A zip compresses them poorly as the packages write them (undici's HTTP parser as
// base64 WebAssembly, entities' decoding trie as a string of escapes): about 12 KB more in the VSIX. Each module
// still exports what the package's own does: undici's the WebAssembly bytes (a Buffer, built once on first read,
// as its getter does), entities' a Uint16Array. test/unit/project/packedData.test.ts bundles with it and checks.
'use strict';
const path = require('node:path');

/** entities' table, as CommonJS or (`esm`, where its package.json says "module") as ESM. */
const entitiesTable = (esm) => ({
  // The same table in the package's CommonJS build, which this script can require.
  source: 'entities/lib/generated/decode-data-html.js',
  bytes: (exports) => Buffer.from(String.fromCharCode(...exports.default), 'utf16le'),
  module: (b64, asCommonJs = !esm) =>
    [
      asCommonJs
        ? "'use strict';\nObject.defineProperty(exports, '__esModule', { value: true });\nconst zlib = require('node:zlib');"
        : "import * as zlib from 'node:zlib';",
      `const text = zlib.brotliDecompressSync(Buffer.from('${b64}', 'base64')).toString('utf16le');`,
      'const table = new Uint16Array(text.length);',
      'for (let i = 0; i < text.length; i++) table[i] = text.charCodeAt(i);',
      asCommonJs ? 'exports.default = table;' : 'export default table;',
      '',
    ].join('\n'),
});
const PACKED = {
  'undici/lib/llhttp/llhttp-wasm.js': {
    source: 'undici/lib/llhttp/llhttp-wasm.js',
    bytes: (exports) => exports,
    module: (b64) =>
      `'use strict';\nlet bytes;\nObject.defineProperty(module, 'exports', { get: () => (bytes ??= require('node:zlib').brotliDecompressSync(Buffer.from('${b64}', 'base64'))) });\n`,
  },
  // markdown-it imports the ESM build; the CommonJS one is listed too, should anything require it.
  'entities/lib/esm/generated/decode-data-html.js': entitiesTable(true),
  'entities/lib/generated/decode-data-html.js': entitiesTable(false),
};
const packedData = {
  name: 'packed-data',
  setup(b) {
    b.onLoad({ filter: /[\\/](undici|entities)[\\/]lib[\\/]/ }, (args) => {
      const rel = args.path
        .split(path.sep)
        .join('/')
        .replace(/^.*\/node_modules\//, '');
      const packed = PACKED[rel];
      if (packed === undefined) {
        return undefined;
      }
      const zlib = require('node:zlib');
      // By file: the packages' exports maps do not list these internal modules.
      const bytes = packed.bytes(require(path.join(__dirname, '..', 'node_modules', packed.source)));
      const brotli = zlib.brotliCompressSync(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
      });
      const contents = packed.module(brotli.toString('base64'));
      // The module written must give back exactly what the package's own exports, or the build stops (an ESM
      // one is run as its CommonJS twin: the same lines but the import and the export).
      const m = { exports: {} };
      new Function('module', 'exports', 'require', packed.module(brotli.toString('base64'), true))(
        m,
        m.exports,
        require,
      );
      if (!packed.bytes(m.exports).equals(bytes)) {
        throw new Error(`the packed ${rel} does not give back the package's bytes (esbuild.js PACKED)`);
      }
      return { contents, loader: 'js' };
    });
  },
};

module.exports = { packedData, PACKED };
