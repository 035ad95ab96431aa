import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import MarkdownIt from 'markdown-it';
import { packedData } from '../../../scripts/packed-data';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Bundles `source` as esbuild.js does (with the packed tables) and runs it; gives its exports. */
async function bundled(source: string): Promise<{ exports: Record<string, unknown>; text: string }> {
  const r = await esbuild.build({
    stdin: { contents: source, resolveDir: ROOT },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    plugins: [packedData],
  });
  const text = r.outputFiles[0].text;
  const m = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', text)(m, m.exports, require);
  return { exports: m.exports, text };
}

describe('tables stored compressed in the bundles (scripts/packed-data.js)', function () {
  this.timeout(30_000);

  it('markdown-it in a bundle decodes named, numeric and astral entities as the package does', async () => {
    const { exports, text } = await bundled("module.exports = new (require('markdown-it'))();");
    assert.match(text, /brotliDecompressSync/, 'the entity table is the packed one');
    const md = exports as unknown as MarkdownIt;
    const sample = '&copy; &amp; &Aacute;&nbsp;&ne; &#x1F600; &fjlig; &NotSquareSupersetEqual; &bogus; &amp';
    assert.equal(md.render(sample), new MarkdownIt().render(sample));
    assert.match(md.render('&copy; &Aacute;'), /© Á/);
  });

  it("entities' decoding table in a bundle is the package's, entry for entry", async () => {
    // The ESM build, which markdown-it imports; the comparison is with the package's CommonJS build.
    const { exports } = await bundled("export { htmlDecodeTree } from 'entities/lib/decode.js';");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const original = (require('entities/lib/decode.js') as { htmlDecodeTree: Uint16Array }).htmlDecodeTree;
    const packed = exports.htmlDecodeTree as Uint16Array;
    assert.ok(packed instanceof Uint16Array);
    assert.ok(original.length > 10_000);
    assert.deepEqual([...packed], [...original]);
  });

  it('undici in a bundle parses HTTP answers with its packed parser', async () => {
    const { exports, text } = await bundled(
      "const D = require('undici/lib/dispatcher/dispatcher.js'); D.prototype.request = require('undici/lib/api/api-request.js'); module.exports = { Agent: require('undici/lib/dispatcher/agent.js') };",
    );
    assert.match(text, /brotliDecompressSync/, 'the WebAssembly parser is the packed one');
    const server = http.createServer((_req, res) => {
      res.setHeader('x-kind', 'chunked');
      res.write('hello, ');
      res.end('world');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const Agent = exports.Agent as new () => {
      request(
        o: object,
      ): Promise<{ statusCode: number; headers: Record<string, string>; body: { text(): Promise<string> } }>;
      close(): Promise<void>;
    };
    const agent = new Agent();
    try {
      const r = await agent.request({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        path: '/',
        method: 'GET',
      });
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['x-kind'], 'chunked');
      assert.equal(await r.body.text(), 'hello, world');
    } finally {
      await agent.close();
      server.close();
    }
  });
});
