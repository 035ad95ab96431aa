import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy';
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ServiceError } from '../../../src/api/errors';
import { multipartFromFile, type MultipartBody } from '../../../src/api/upload';

interface Parsed {
  fields: Record<string, string>;
  files: { name: string; filename: string; mimeType: string; content: Buffer }[];
  length: number;
}

async function bytesOf(body: MultipartBody): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body.body) {
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

/** The body as an independent multipart reader (busboy, as the local service uses) sees it. */
async function parse(body: MultipartBody): Promise<Parsed> {
  const raw = await bytesOf(body);
  const out: Parsed = { fields: {}, files: [], length: raw.length };
  await new Promise<void>((resolve, reject) => {
    const bb = Busboy({
      headers: { 'content-type': body.contentType } as BusboyHeaders,
      isPartAFile: (_name, _type, filename) => filename !== undefined,
    });
    bb.on('field', (name: string, value: string) => {
      out.fields[name] = value;
    });
    bb.on('file', (name: string, stream: BusboyFileStream, filename: string, _enc: string, mimeType: string) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => out.files.push({ name, filename, mimeType, content: Buffer.concat(chunks) }));
    });
    bb.on('finish', resolve);
    bb.on('error', reject);
    bb.end(raw);
  });
  return out;
}

describe('api/upload', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ma-upload-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, content: string | Buffer): string => {
    const p = path.join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  it('sends every field, then the file with its name and type, in exactly Content-Length bytes', async () => {
    const p = file('data.jsonl', '{"a":1}\n{"b":2}\n');
    const body = await multipartFromFile({
      path: p,
      mimeType: 'application/jsonl',
      fields: { purpose: 'fine-tune', note: 'two words' },
    });
    assert.match(body.contentType, /^multipart\/form-data; boundary=----model-access-[0-9a-f]{32}$/);
    const parsed = await parse(body);
    assert.deepEqual(parsed.fields, { purpose: 'fine-tune', note: 'two words' });
    assert.equal(parsed.files.length, 1);
    assert.deepEqual(
      { ...parsed.files[0], content: parsed.files[0].content.toString() },
      { name: 'file', filename: 'data.jsonl', mimeType: 'application/jsonl', content: '{"a":1}\n{"b":2}\n' },
    );
    assert.equal(body.fileBytes, 16);
    assert.equal(parsed.length, body.contentLength);
  });

  it('uses a fresh boundary per body, application/octet-stream by default, and a given file name', async () => {
    const p = file('x.bin', Buffer.from([0, 1, 2, 255]));
    const a = await multipartFromFile({ path: p, fields: {} });
    const b = await multipartFromFile({ path: p, fields: {}, filename: 'renamed.bin' });
    assert.notEqual(a.contentType, b.contentType);
    const [pa, pb] = [await parse(a), await parse(b)];
    assert.equal(pa.files[0].mimeType, 'application/octet-stream');
    assert.equal(pa.files[0].filename, 'x.bin');
    assert.deepEqual([...pa.files[0].content], [0, 1, 2, 255]);
    assert.equal(pb.files[0].filename, 'renamed.bin');
  });

  it('escapes quotes and backslashes, drops line breaks, and adds filename* for non-ASCII names', async () => {
    const p = file('plain.txt', 'x');
    const body = await multipartFromFile({
      path: p,
      filename: 'my "report"\\\r\nv2 é.txt',
      mimeType: 'text/plain\r\nX-Injected: 1',
      fields: { 'odd "name"': 'v' },
    });
    const raw = (await bytesOf(body)).toString('utf8');
    assert.ok(raw.includes('name="odd \\"name\\""'), raw);
    assert.ok(
      raw.includes(
        `filename="my \\"report\\"\\\\ v2 é.txt"; filename*=UTF-8''my%20%22report%22%5C%0D%0Av2%20%C3%A9.txt`,
      ),
      raw,
    );
    assert.ok(raw.includes('Content-Type: text/plainX-Injected: 1\r\n'), raw);
    assert.ok(!/\r\nX-Injected/.test(raw));
    const ascii = await multipartFromFile({ path: p, filename: 'a~b.txt', fields: {} });
    assert.ok(!(await bytesOf(ascii)).toString().includes('filename*'));
  });

  it('reports progress per chunk up to the total, and (0, 0) for an empty file', async () => {
    const big = file('big.bin', Buffer.alloc(2.5 * 1024 * 1024, 7));
    const seen: [number, number][] = [];
    const body = await multipartFromFile({ path: big, fields: {}, onProgress: (s, t) => seen.push([s, t]) });
    const parsed = await parse(body);
    assert.equal(parsed.files[0].content.length, 2.5 * 1024 * 1024);
    const total = 2.5 * 1024 * 1024;
    assert.deepEqual(seen, [
      [1024 * 1024, total],
      [2 * 1024 * 1024, total],
      [total, total],
    ]);
    const empty = file('empty.txt', '');
    const progress: [number, number][] = [];
    const e = await multipartFromFile({
      path: empty,
      fields: { purpose: 'x' },
      onProgress: (s, t) => progress.push([s, t]),
    });
    const pe = await parse(e);
    assert.equal(pe.files[0].content.length, 0);
    assert.equal(pe.length, e.contentLength);
    assert.deepEqual(progress, [[0, 0]]);
  });

  it('never sends more than Content-Length promised when the file grows, and fails when it shrinks', async () => {
    const p = file('grow.txt', 'abc');
    const grown = await multipartFromFile({ path: p, fields: {} });
    appendFileSync(p, 'defgh');
    const parsed = await parse(grown);
    assert.equal(parsed.files[0].content.toString(), 'abc');
    assert.equal(parsed.length, grown.contentLength);

    const q = file('shrink.txt', 'abcdef');
    const shrunk = await multipartFromFile({ path: q, fields: {} });
    truncateSync(q, 2);
    await assert.rejects(
      bytesOf(shrunk),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.kind === 'config' &&
        e.message === 'Cannot upload shrink.txt: the file shrank while it was being sent.',
    );
  });

  it('stops reading when the signal aborts', async () => {
    const p = file('big.bin', Buffer.alloc(3 * 1024 * 1024, 1));
    const ac = new AbortController();
    const body = await multipartFromFile({ path: p, fields: {}, signal: ac.signal, onProgress: () => ac.abort() });
    let fileBytes = 0;
    for await (const chunk of body.body) {
      fileBytes += chunk.length;
    }
    assert.ok(fileBytes < 2 * 1024 * 1024, String(fileBytes));
  });

  it('refuses a missing file and a folder with a config error naming the file', async () => {
    await assert.rejects(
      multipartFromFile({ path: path.join(dir, 'missing.txt'), fields: {} }),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.kind === 'config' &&
        e.message === 'Cannot upload missing.txt: the file cannot be read (ENOENT).',
    );
    await assert.rejects(
      multipartFromFile({ path: dir, fields: {} }),
      (e: unknown) =>
        e instanceof ServiceError &&
        e.message === `Cannot upload ${path.basename(dir)}: the file cannot be read (EISDIR).`,
    );
  });
});

describe('api/upload: an empty file', () => {
  it('is never opened, so removing it right after the upload raises no stray error', async () => {
    for (let i = 0; i < 10; i++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'ma-upload-'));
      const p = path.join(dir, 'empty.txt');
      writeFileSync(p, '');
      const body = await multipartFromFile({ path: p, fields: {} });
      assert.equal((await bytesOf(body)).length, body.contentLength);
      // A stream opened and destroyed at once opens later still: give it the chance to fail.
      await new Promise((resolve) => setImmediate(resolve));
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
});
