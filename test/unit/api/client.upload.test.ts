import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../server';
import { clientFor, expectError } from '../helpers/api';

const MiB = 1024 * 1024;

/** Writes `size` bytes of pseudo-random content 1 MiB at a time; returns its SHA-256. */
async function generate(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const block = randomBytes(MiB);
  const fh = await open(file, 'w');
  try {
    for (let written = 0, i = 0; written < size; i++) {
      block.writeUInt32LE(i, 0);
      const piece = block.subarray(0, Math.min(MiB, size - written));
      await fh.write(piece);
      hash.update(piece);
      written += piece.length;
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

describe('client: uploadFile', function () {
  this.timeout(120000);
  let dir: string;
  let server: RunningServer | undefined;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'model-access-upload-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('streams a 200 MB file from disk with progress and bounded memory; the bytes arrive intact', async () => {
    const file = path.join(dir, 'big.bin');
    const size = 200 * MiB + 12345;
    const sha = await generate(file, size);
    server = await startServer();
    const { client } = clientFor(server.url, server.keys.acme);
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const progress: number[] = [];
    const t0 = performance.now();
    const r = await client.uploadFile(file, {
      purpose: 'fine-tune',
      filename: 'train "set".jsonl',
      mimeType: 'application/jsonl',
      onProgress: (sent, total) => {
        assert.equal(total, size);
        progress.push(sent);
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    await client.dispose();
    assert.equal(r.status, 200, r.body?.text);
    const stored = server.uploads[0];
    assert.equal(stored.bytes, size);
    assert.equal(stored.sha256, sha);
    assert.equal(stored.purpose, 'fine-tune');
    assert.equal(stored.filename, 'train "set".jsonl');
    assert.equal(stored.contentType, 'application/jsonl');
    assert.deepEqual((r.body?.json as { bytes: number }).bytes, size);
    assert.ok(progress.length > 100, `${progress.length} progress reports`);
    assert.ok(progress.every((p, i) => i === 0 || p >= progress[i - 1]));
    assert.equal(progress.at(-1), size);
    const growth = (peak - base) / MiB;
    // Client and server share this process: both stream, so neither holds the file.
    assert.ok(growth < 64, `RSS grew by ${growth.toFixed(1)} MB`);
    console.log(
      `      (200 MB in ${seconds.toFixed(2)} s, ${(size / MiB / seconds).toFixed(0)} MB/s, RSS +${growth.toFixed(1)} MB)`,
    );
  });

  it('cancellation mid-upload rejects with aborted and the server keeps nothing', async () => {
    const file = path.join(dir, 'mid.bin');
    await generate(file, 64 * MiB);
    server = await startServer();
    const { client } = clientFor(server.url, server.keys.acme);
    const ac = new AbortController();
    let last = 0;
    const e = await expectError(
      client.uploadFile(file, {
        purpose: 'batch',
        signal: ac.signal,
        onProgress: (sent) => {
          last = sent;
          if (sent >= 8 * MiB) {
            ac.abort();
          }
        },
      }),
      'aborted',
    );
    await client.dispose();
    assert.equal(e.message, 'The request was cancelled.');
    assert.ok(last < 64 * MiB);
    await server.waitForAborts(1);
    assert.equal(server.uploads.length, 0);
  });

  it('extra fields go along; a missing file is a config error before any request', async () => {
    const file = path.join(dir, 'small.txt');
    writeFileSync(file, 'hello');
    server = await startServer();
    const { client } = clientFor(server.url, server.keys.acme);
    const fields = { note: 'ünïcode "quoted" value', 'expires_after[days]': '7' };
    const r = await client.uploadFile(file, { purpose: 'user_data', fields });
    assert.equal(r.status, 200);
    assert.equal(server.uploads[0].bytes, 5);
    // What went over the wire, as the service's own multipart reader parsed it.
    assert.deepEqual(server.lastReceived('/v1/files', 'POST').fields, { purpose: 'user_data', ...fields });
    server.clearRecords();
    const e = await expectError(client.uploadFile(path.join(dir, 'missing.bin'), { purpose: 'batch' }), 'config');
    assert.match(e.message, /Cannot upload missing\.bin: the file cannot be read \(ENOENT\)/);
    assert.equal(server.requests.length, 0);
    await client.dispose();
  });

  it('an upload over the server cap is refused with 413 in `error`', async () => {
    const file = path.join(dir, 'over.bin');
    await generate(file, 2 * MiB);
    server = await startServer({ maxUploadBytes: MiB });
    const { client } = clientFor(server.url, server.keys.acme);
    const r = await client.uploadFile(file, { purpose: 'batch' });
    await client.dispose();
    assert.equal(r.status, 413);
    assert.equal(r.error?.kind, 'http');
    assert.match(r.error?.message ?? '', /^The server answered 413 Payload Too Large/);
  });
});
