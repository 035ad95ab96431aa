/**
 * `POST /v1/files`: a streaming `multipart/form-data` reader. The parsing is `@fastify/busboy`'s, not ours:
 * the extension's multipart encoder (src/api/upload.ts) is hand-written, and its tests upload here, so the
 * reader must be independent of it. The file part goes straight to a temp file as it arrives (with
 * backpressure), so uploads of a gigabyte or more use a few buffers of memory, never the whole body. Only
 * the small text parts (`purpose`) are held in memory.
 */
import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, badRequest } from './http';

export interface UploadedFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: number;
  /** Hex SHA-256 of the stored content, so tests can check the bytes arrived intact. */
  sha256: string;
  contentType: string;
  /** Every text part of the form (`purpose` and any other field), as received. */
  fields: Record<string, string>;
  /** Where the content was stored (inside the server's upload directory). */
  path: string;
  created_at: number;
}

export interface UploadOptions {
  dir: string;
  maxBytes: number;
  onBytes(n: number): void;
  /** Every text part, as received (the request record keeps them); called once the body is read. */
  onFields?(fields: Record<string, string>): void;
}

export const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'];

/** Room for the multipart framing around the file when comparing Content-Length with the cap. */
const FRAMING_ALLOWANCE = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

export async function receiveUpload(req: IncomingMessage, options: UploadOptions): Promise<UploadedFile> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw new ApiError(
      415,
      'invalid_request_error',
      'unsupported_media_type',
      `Expected Content-Type multipart/form-data with "file" and "purpose" parts, got "${contentType}".`,
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + FRAMING_ALLOWANCE) {
    // Refuse before reading: the declared body cannot fit. Node discards the unread body after the answer.
    throw tooLarge(options.maxBytes);
  }

  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: req.headers as BusboyHeaders,
      // Only the "file" part with a filename is streamed to disk; every other part is a small field.
      isPartAFile: (name, _type, filename) => name === 'file' && filename !== undefined,
      limits: { fileSize: options.maxBytes, fieldSize: MAX_FIELD_BYTES, headerSize: MAX_HEADER_BYTES },
    });
  } catch (e) {
    throw malformed(e);
  }

  const fields = new Map<string, string>();
  let file:
    | {
        name: string;
        contentType: string;
        path: string;
        out: WriteStream;
        bytes: number;
        hash: ReturnType<typeof createHash>;
        written: Promise<void>;
      }
    | undefined;
  // The first failure wins: checked after every write (the parser reports most synchronously), and every wait races it.
  let failure: { error: unknown } | undefined;
  let reject!: (e: unknown) => void;
  const failed = new Promise<never>((_, r) => {
    reject = r;
  });
  failed.catch(() => undefined);
  const fail = (error: unknown): void => {
    if (!failure) {
      failure = { error };
      reject(error);
    }
  };

  parser.on(
    'file',
    (_name: string, stream: BusboyFileStream, filename: string, _encoding: string, mimeType: string) => {
      if (file) {
        stream.resume();
        fail(badRequest('Send exactly one "file" part.', 'invalid_multipart', 'file'));
        return;
      }
      const stored = path.join(options.dir, `upload-${randomBytes(8).toString('hex')}`);
      const hash = createHash('sha256');
      const out = createWriteStream(stored);
      const entry = {
        name: filename,
        contentType: mimeType,
        path: stored,
        out,
        bytes: 0,
        hash,
        written: Promise.resolve(),
      };
      file = entry;
      stream.on('limit', () => fail(tooLarge(options.maxBytes)));
      // Registered before pipeline's own listener, so a body cut short is reported as malformed, not as a crash.
      stream.on('error', (e: unknown) => fail(malformed(e)));
      const measure = new Transform({
        transform(chunk: Buffer, _enc, done) {
          entry.bytes += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      entry.written = pipeline(stream, measure, out);
      entry.written.catch(fail);
    },
  );
  parser.on('field', (name: string | undefined, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
    if (name === undefined) {
      fail(badRequest('A multipart part has no Content-Disposition name.', 'invalid_multipart'));
    } else if (valueTruncated) {
      fail(badRequest(`The form field "${name}" is too long.`, 'invalid_multipart', name));
    } else {
      fields.set(name, value);
    }
  });
  parser.on('error', (e: unknown) => fail(malformed(e)));
  const finished = once(parser, 'finish');
  finished.catch(() => undefined);

  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      options.onBytes(chunk.length);
      const more = parser.write(chunk);
      if (failure) {
        throw failure.error;
      }
      if (!more) {
        await Promise.race([once(parser, 'drain'), failed]);
      }
    }
    parser.end();
    await Promise.race([finished, failed]);
    await Promise.race([file?.written, failed]);
  } catch (e) {
    if (file) {
      await discard(file.out, file.path);
    }
    throw e;
  }
  const received = Object.fromEntries(fields);
  options.onFields?.(received);
  const stored = file;
  if (!stored) {
    throw badRequest(
      'Missing required parameter: "file" (a multipart part with a filename).',
      'missing_required_parameter',
      'file',
    );
  }
  const purpose = fields.get('purpose');
  if (purpose === undefined || !FILE_PURPOSES.includes(purpose)) {
    await rm(stored.path, { force: true });
    throw badRequest(
      purpose === undefined
        ? 'Missing required parameter: "purpose".'
        : `Invalid "purpose" ${JSON.stringify(purpose)}; expected one of ${FILE_PURPOSES.join(', ')}.`,
      purpose === undefined ? 'missing_required_parameter' : 'invalid_value',
      'purpose',
    );
  }
  return {
    id: `file-${randomBytes(12).toString('hex')}`,
    filename: stored.name,
    purpose,
    bytes: stored.bytes,
    sha256: stored.hash.digest('hex'),
    contentType: stored.contentType,
    fields: received,
    path: stored.path,
    created_at: Math.floor(Date.now() / 1000),
  };
}

function tooLarge(max: number): ApiError {
  return new ApiError(
    413,
    'invalid_request_error',
    'file_too_large',
    `The file exceeds the maximum upload size of ${max} bytes.`,
    'file',
    { connection: 'close' },
  );
}

function malformed(e: unknown): ApiError {
  return badRequest(`Malformed multipart body: ${e instanceof Error ? e.message : String(e)}.`, 'invalid_multipart');
}

/** Closes the stream (waiting for a pending open, which would otherwise recreate the file) and removes the file. */
async function discard(out: WriteStream, file: string): Promise<void> {
  if (!out.closed) {
    await new Promise<void>((resolve) => {
      out.once('close', () => resolve());
      out.destroy();
    });
  }
  await rm(file, { force: true });
}
