/**
 * `POST /v1/files`: a streaming `multipart/form-data` reader. The file part goes straight to a temp file
 * as it arrives (with backpressure), so uploads of a gigabyte or more use a few buffers of memory, never
 * the whole body. Only the small text parts (`purpose`) are held in memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import { ApiError, badRequest } from './http';

export interface UploadedFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: number;
  /** Hex SHA-256 of the stored content, so tests can check the bytes arrived intact. */
  sha256: string;
  contentType: string;
  /** Where the content was stored (inside the server's upload directory). */
  path: string;
  created_at: number;
}

export interface UploadOptions {
  dir: string;
  maxBytes: number;
  onBytes(n: number): void;
}

export const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'];

/** Room for the multipart framing around the file when comparing Content-Length with the cap. */
const FRAMING_ALLOWANCE = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

export async function receiveUpload(req: IncomingMessage, options: UploadOptions): Promise<UploadedFile> {
  const boundary = boundaryOf(req.headers['content-type']);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + FRAMING_ALLOWANCE) {
    // Refuse before reading: the declared body cannot fit. Node discards the unread body after the answer.
    throw tooLarge(options.maxBytes);
  }

  const fields = new Map<string, string>();
  let file: { name: string; contentType: string; path: string; out: WriteStream; bytes: number; hash: ReturnType<typeof createHash> } | undefined;
  let field: { name: string; chunks: Buffer[]; bytes: number } | undefined;
  /** Which part is being read: the file (streamed to disk) or a small field (kept in memory). */
  let active: 'file' | 'field' | undefined;
  let writeError: Error | undefined;

  const parser = new MultipartParser(boundary, {
    onPart(headers) {
      const disposition = parseDisposition(headers.get('content-disposition') ?? '');
      if (disposition.name === undefined) {
        throw badRequest('A multipart part has no Content-Disposition name.', 'invalid_multipart');
      }
      if (disposition.name === 'file' && disposition.filename !== undefined) {
        if (file) {
          throw badRequest('Send exactly one "file" part.', 'invalid_multipart', 'file');
        }
        active = 'file';
        const stored = path.join(options.dir, `upload-${randomBytes(8).toString('hex')}`);
        file = {
          name: path.basename(disposition.filename.replace(/\\/g, '/')),
          contentType: headers.get('content-type') ?? 'application/octet-stream',
          path: stored,
          out: createWriteStream(stored),
          bytes: 0,
          hash: createHash('sha256'),
        };
        // Keep the first write error for onData to report; without a listener a failed write would crash the server.
        file.out.on('error', (e: Error) => {
          writeError ??= e;
        });
      } else {
        active = 'field';
        field = { name: disposition.name, chunks: [], bytes: 0 };
      }
    },
    async onData(chunk) {
      if (active === 'file' && file) {
        if (writeError) {
          throw writeError;
        }
        file.bytes += chunk.length;
        if (file.bytes > options.maxBytes) {
          throw tooLarge(options.maxBytes);
        }
        file.hash.update(chunk);
        if (!file.out.write(chunk)) {
          await drained(file.out);
        }
      } else if (active === 'field' && field) {
        field.bytes += chunk.length;
        if (field.bytes > MAX_FIELD_BYTES) {
          throw badRequest(`The form field "${field.name}" is too long.`, 'invalid_multipart', field.name);
        }
        field.chunks.push(chunk);
      }
    },
    async onPartEnd() {
      if (active === 'file' && file) {
        await closeStream(file.out);
      } else if (active === 'field' && field) {
        fields.set(field.name, Buffer.concat(field.chunks).toString('utf8'));
      }
      active = undefined;
      field = undefined;
    },
  });

  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      options.onBytes(chunk.length);
      await parser.write(chunk);
    }
    parser.end();
  } catch (e) {
    if (file) {
      await discard(file.out, file.path);
    }
    throw e;
  }
  const stored = file;
  if (!stored) {
    throw badRequest('Missing required parameter: "file" (a multipart part with a filename).', 'missing_required_parameter', 'file');
  }
  const purpose = fields.get('purpose');
  if (purpose === undefined || !FILE_PURPOSES.includes(purpose)) {
    await rm(stored.path, { force: true });
    throw badRequest(
      purpose === undefined ? 'Missing required parameter: "purpose".' : `Invalid "purpose" ${JSON.stringify(purpose)}; expected one of ${FILE_PURPOSES.join(', ')}.`,
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
    path: stored.path,
    created_at: Math.floor(Date.now() / 1000),
  };
}

function tooLarge(max: number): ApiError {
  return new ApiError(413, 'invalid_request_error', 'file_too_large', `The file exceeds the maximum upload size of ${max} bytes.`, 'file', { connection: 'close' });
}

function boundaryOf(contentType: string | undefined): string {
  const type = contentType ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(type)) {
    throw new ApiError(415, 'invalid_request_error', 'unsupported_media_type', `Expected Content-Type multipart/form-data with "file" and "purpose" parts, got "${type}".`);
  }
  const match = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(type);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined || boundary.length > 200) {
    throw badRequest('The multipart Content-Type has no usable boundary.', 'invalid_multipart');
  }
  return boundary;
}

function parseDisposition(value: string): { name?: string; filename?: string } {
  const param = (key: string): string | undefined => {
    const m = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(value);
    if (!m) {
      return undefined;
    }
    return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
  };
  // RFC 5987 `filename*=UTF-8''…` wins over the plain form when present.
  const extended = /;\s*filename\*=([^']*)'[^']*'([^;\s]+)/i.exec(value);
  let filename = param('filename');
  if (extended) {
    try {
      filename = decodeURIComponent(extended[2]);
    } catch {
      // keep the plain filename
    }
  }
  return { name: param('name'), filename };
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

function drained(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      out.off('drain', onDrain);
      out.off('error', onError);
    };
    const onDrain = (): void => {
      cleanup();
      resolve();
    };
    const onError = (e: Error): void => {
      cleanup();
      reject(e);
    };
    out.on('drain', onDrain);
    out.on('error', onError);
  });
}

function closeStream(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    out.on('error', reject);
    out.end(() => resolve());
  });
}

interface PartHandlers {
  onPart(headers: Map<string, string>): void;
  onData(chunk: Buffer): Promise<void>;
  onPartEnd(): Promise<void>;
}

/**
 * Incremental multipart parser. Holds at most one input chunk plus a delimiter's length of look-behind:
 * body bytes are handed on as soon as they cannot be the start of the next delimiter.
 */
export class MultipartParser {
  private buffer: Buffer;
  private state: 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done' = 'preamble';
  private readonly delimiter: Buffer;

  constructor(
    boundary: string,
    private readonly handlers: PartHandlers,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    // The first delimiter has no preceding CRLF; pretend it has, so one search rule covers all delimiters.
    this.buffer = Buffer.from('\r\n', 'latin1');
  }

  async write(chunk: Buffer): Promise<void> {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      switch (this.state) {
        case 'preamble': {
          const at = this.buffer.indexOf(this.delimiter);
          if (at < 0) {
            this.keepTail();
            return;
          }
          this.buffer = this.buffer.subarray(at + this.delimiter.length);
          this.state = 'afterDelimiter';
          break;
        }
        case 'afterDelimiter': {
          // After a delimiter: "--" ends the body, otherwise optional padding then CRLF opens a part.
          let i = 0;
          while (i < this.buffer.length && (this.buffer[i] === 0x20 || this.buffer[i] === 0x09)) {
            i++;
          }
          if (this.buffer.length < i + 2) {
            return;
          }
          const two = this.buffer.toString('latin1', i, i + 2);
          if (two === '--') {
            this.state = 'done';
            this.buffer = Buffer.alloc(0);
            return;
          }
          if (two !== '\r\n') {
            throw badRequest('Malformed multipart body: expected CRLF after a boundary.', 'invalid_multipart');
          }
          this.buffer = this.buffer.subarray(i + 2);
          this.state = 'headers';
          break;
        }
        case 'headers': {
          const end = this.buffer.indexOf('\r\n\r\n', 0, 'latin1');
          if (end < 0) {
            if (this.buffer.length > MAX_HEADER_BYTES) {
              throw badRequest('Malformed multipart body: part headers too long.', 'invalid_multipart');
            }
            return;
          }
          const headers = new Map<string, string>();
          for (const line of this.buffer.toString('utf8', 0, end).split('\r\n')) {
            const colon = line.indexOf(':');
            if (colon > 0) {
              headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
            }
          }
          this.buffer = this.buffer.subarray(end + 4);
          this.handlers.onPart(headers);
          this.state = 'body';
          break;
        }
        case 'body': {
          const at = this.buffer.indexOf(this.delimiter);
          if (at < 0) {
            const safe = this.buffer.length - (this.delimiter.length - 1);
            if (safe > 0) {
              await this.handlers.onData(this.buffer.subarray(0, safe));
              this.buffer = this.buffer.subarray(safe);
            }
            return;
          }
          if (at > 0) {
            await this.handlers.onData(this.buffer.subarray(0, at));
          }
          await this.handlers.onPartEnd();
          this.buffer = this.buffer.subarray(at + this.delimiter.length);
          this.state = 'afterDelimiter';
          break;
        }
        case 'done':
          // The epilogue is ignored.
          this.buffer = Buffer.alloc(0);
          return;
      }
    }
  }

  end(): void {
    if (this.state !== 'done') {
      throw badRequest('Malformed multipart body: it ended before the closing boundary.', 'invalid_multipart');
    }
  }

  private keepTail(): void {
    const keep = this.delimiter.length - 1;
    if (this.buffer.length > keep) {
      this.buffer = this.buffer.subarray(this.buffer.length - keep);
    }
  }
}
