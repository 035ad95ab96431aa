/**
 * Upload: a generated 1 GiB file through `ServiceClient.uploadFile` vs a raw undici streamed multipart
 * upload (hand-made framing around `fs.createReadStream`) to the same `/v1/files` of the local service.
 * Throughput of each, their ratio, and how much the uploading process's RSS grows during an upload.
 * Beside them, two library encoders the client could use instead: undici's `FormData` with
 * an `fs.openAsBlob` Blob, and form-data-encoder over the same; for each, whether Content-Length is exact and
 * known before sending, and how progress could be had.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Dispatcher } from 'undici';
import { mergeSides, type BenchContext, type SideSamples } from './context';
import { runWorker, startService } from './proc';
import { collectGarbage, peakRssMiB, rssMiB } from './sample';
import { summarize } from './stats';
import { verdict } from './table';

const MiB = 1024 * 1024;

interface UploadParams {
  url: string;
  key: string;
  file: string;
  warmupFile: string;
  warmup: number;
  runs: number;
  /** The server's upload folder: emptied after every upload so a run never fills the disk. */
  uploadDir: string;
}

function emptyDir(dir: string): void {
  for (const f of readdirSync(dir)) {
    rmSync(path.join(dir, f), { force: true });
  }
}

/** Runs `once` for the warm-up file, then measures it on the big file: time and RSS growth per run. */
async function measure(params: UploadParams, once: (file: string) => Promise<number>): Promise<SideSamples> {
  for (let i = 0; i < params.warmup; i++) {
    await once(params.warmupFile);
    emptyDir(params.uploadDir);
    collectGarbage();
  }
  const times: number[] = [];
  const growth: number[] = [];
  const size = statSync(params.file).size;
  const startRss = rssMiB();
  for (let i = 0; i < params.runs; i++) {
    collectGarbage();
    const before = rssMiB();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB());
    }, 10);
    const t0 = performance.now();
    const bytes = await once(params.file);
    const t1 = performance.now();
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB());
    if (bytes !== size) {
      throw new Error(`the server stored ${bytes} bytes, expected ${size}`);
    }
    times.push(t1 - t0);
    growth.push(peak - before);
    emptyDir(params.uploadDir);
  }
  return { times, growthMiB: growth, bytes: size, peakRssMiB: peakRssMiB(), startRssMiB: startRss };
}

export const workerTasks = {
  async raw(params: UploadParams): Promise<SideSamples> {
    const { request } = await import('undici');
    return measure(params, async (file) => {
      const boundary = `----bench${randomBytes(12).toString('hex')}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nfine-tune\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const size = statSync(file).size;
      async function* body(): AsyncGenerator<Buffer> {
        yield head;
        // 1 MiB reads: the fastest plain way to stream a file (64 KiB, the default, is slower here).
        yield* createReadStream(file, { highWaterMark: MiB }) as AsyncIterable<Buffer>;
        yield tail;
      }
      const res = await request(`${params.url}/v1/files`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${params.key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
        // undici streams an async iterable body (its types only list Readable); the client does the same.
        body: body() as unknown as Dispatcher.DispatchOptions['body'],
      });
      const answer = JSON.parse(await res.body.text()) as { bytes?: number };
      if (res.statusCode !== 200) {
        throw new Error(`raw upload: ${res.statusCode} ${JSON.stringify(answer)}`);
      }
      return answer.bytes ?? -1;
    });
  },

  /**
   * undici's own `FormData` with the file as a Blob from `fs.openAsBlob`, handed to `request()` as the body.
   * undici sends an exact Content-Length (every part has a known size) but keeps it to itself: the caller
   * sees it only on the process-wide `undici:client:sendHeaders` diagnostics channel, once the headers are
   * on their way. Progress likewise only through `undici:request:bodyChunkSent` (process-wide, filtered
   * here by request); `request()` takes no progress callback.
   */
  async formData(params: UploadParams): Promise<SideSamples> {
    const { request, FormData } = await import('undici');
    const { openAsBlob } = await import('node:fs');
    const dc = await import('node:diagnostics_channel');
    let mine: unknown;
    let sent = 0;
    let declared = -1;
    let progressCalls = 0;
    let mismatches = 0;
    // The channel's `headers` stop short of content-length, which undici appends as it writes them out: to
    // see what it declared, the bench reads that first write on the socket (and then gets out of the way).
    const onHeaders = (m: unknown) => {
      const { request: r, socket } = m as { request: unknown; socket: { write: (...args: unknown[]) => boolean } };
      if (r !== mine) {
        return;
      }
      const write = socket.write;
      socket.write = function (this: unknown, ...args: unknown[]) {
        if (typeof args[0] === 'string') {
          declared = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(args[0])?.[1] ?? -1);
          socket.write = write;
        }
        return write.apply(this, args);
      };
    };
    const onChunk = (m: unknown) => {
      const { request: r, chunk } = m as { request: unknown; chunk: Uint8Array };
      if (r === mine) {
        sent += chunk.length;
        progressCalls++;
      }
    };
    const onCreate = (m: unknown) => {
      const { request: r } = m as { request: { path: string } };
      if (r.path === '/v1/files') {
        mine = r;
      }
    };
    dc.subscribe('undici:request:create', onCreate);
    dc.subscribe('undici:client:sendHeaders', onHeaders);
    dc.subscribe('undici:request:bodyChunkSent', onChunk);
    const result = await measure(params, async (file) => {
      sent = 0;
      declared = -1;
      const form = new FormData();
      form.append('purpose', 'fine-tune');
      form.append('file', await openAsBlob(file, { type: 'application/octet-stream' }), path.basename(file));
      const res = await request(`${params.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${params.key}` },
        body: form,
      });
      const answer = JSON.parse(await res.body.text()) as { bytes?: number };
      if (res.statusCode !== 200) {
        throw new Error(`FormData upload: ${res.statusCode} ${JSON.stringify(answer)}`);
      }
      if (declared !== sent) {
        mismatches++;
      }
      return answer.bytes ?? -1;
    });
    dc.unsubscribe('undici:request:create', onCreate);
    dc.unsubscribe('undici:client:sendHeaders', onHeaders);
    dc.unsubscribe('undici:request:bodyChunkSent', onChunk);
    return { ...result, progressCalls, lengthMismatches: mismatches, lastDeclared: declared, lastSent: sent };
  },

  /**
   * form-data-encoder over a `FormData` holding a Blob from `fs.openAsBlob`: the encoder gives
   * `contentLength` before anything is sent, and its `encode()` is an async iterable we count bytes over.
   */
  async encoder(params: UploadParams): Promise<SideSamples> {
    const { request, FormData } = await import('undici');
    const { openAsBlob } = await import('node:fs');
    const { FormDataEncoder } = await import('form-data-encoder');
    let progressCalls = 0;
    let mismatches = 0;
    let lengthKnownBefore = 1; // a number: mergeSides keeps numbers and arrays only
    const result = await measure(params, async (file) => {
      const form = new FormData();
      form.append('purpose', 'fine-tune');
      form.append('file', await openAsBlob(file, { type: 'application/octet-stream' }), path.basename(file));
      const encoder = new FormDataEncoder(form);
      if (encoder.contentLength === undefined) {
        lengthKnownBefore = 0;
      }
      const total = Number(encoder.contentLength);
      let sent = 0;
      async function* body(): AsyncGenerator<Uint8Array> {
        for await (const chunk of encoder.encode()) {
          sent += chunk.byteLength;
          yield chunk;
          progressCalls++;
        }
      }
      const res = await request(`${params.url}/v1/files`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${params.key}`,
          'content-type': encoder.contentType,
          'content-length': String(total),
        },
        body: body() as unknown as Dispatcher.DispatchOptions['body'],
      });
      const answer = JSON.parse(await res.body.text()) as { bytes?: number };
      if (res.statusCode !== 200) {
        throw new Error(`form-data-encoder upload: ${res.statusCode} ${JSON.stringify(answer)}`);
      }
      if (sent !== total) {
        mismatches++;
      }
      return answer.bytes ?? -1;
    });
    return { ...result, progressCalls, lengthMismatches: mismatches, lengthKnownBefore };
  },

  async client(params: UploadParams): Promise<SideSamples> {
    const { createClient } = await import('./client.js');
    const client = createClient(params.url, params.key);
    let progressCalls = 0;
    const result = await measure(params, async (file) => {
      const res = await client.uploadFile(file, {
        purpose: 'fine-tune',
        onProgress: () => {
          progressCalls++;
        },
      });
      const answer = res.body?.json as { bytes?: number } | undefined;
      if (res.status !== 200) {
        throw new Error(`uploadFile: ${res.status} ${res.body?.text ?? ''}`);
      }
      return answer?.bytes ?? -1;
    });
    await client.dispose();
    return { ...result, progressCalls };
  },
};

/** Writes `bytes` of incompressible data (1 MiB of random bytes, repeated) without holding it in memory. */
async function generateFile(file: string, bytes: number): Promise<void> {
  const block = randomBytes(MiB);
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += block.length) {
    const chunk = written + block.length <= bytes ? block : block.subarray(0, bytes - written);
    if (!out.write(chunk)) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    out.end(() => resolve());
  });
}

const THROUGHPUT_TARGET = 0.9;
const RSS_GROWTH_TARGET_MB = 64;

export async function runUpload(ctx: BenchContext): Promise<void> {
  const scenario = 'Upload 1 GiB';
  const dir = mkdtempSync(path.join(tmpdir(), 'model-access-bench-upload-'));
  const uploadDir = path.join(dir, 'server');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', cleanup);
  try {
    const file = path.join(dir, 'upload-1GiB.bin');
    const warmupFile = path.join(dir, 'warmup-64MiB.bin');
    ctx.log(`${scenario}: generating the file in ${dir}…`);
    await generateFile(file, 1024 * MiB);
    await generateFile(warmupFile, 64 * MiB);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(uploadDir);
    ctx.log(`${scenario}: uploading…`);
    const server = await startService('test/server/cli.ts', ['--upload-dir', uploadDir, '--quiet']);
    try {
      const params: UploadParams = {
        url: server.url,
        key: Object.values(server.keys)[0],
        file,
        warmupFile,
        uploadDir,
        warmup: 1,
        runs: ctx.quick ? 1 : 2,
      };
      // Raw floor and the client alternate as elsewhere; the two library encoders run in the
      // same run, in the same order reversed on the way back (A B C D, then D C B A unless --quick).
      const order = ['raw', 'client', 'formData', 'encoder'] as const;
      const parts: Record<(typeof order)[number], SideSamples[]> = { raw: [], client: [], formData: [], encoder: [] };
      for (const side of ctx.quick ? order : [...order, ...[...order].reverse()]) {
        ctx.log(`${scenario}: ${side}…`);
        parts[side].push(await runWorker<SideSamples>('upload', side, params));
      }
      const raw = mergeSides(parts.raw);
      const client = mergeSides(parts.client);
      const formData = mergeSides(parts.formData);
      const encoder = mergeSides(parts.encoder);
      const mibps = (s: SideSamples) => summarize(s.times.map((ms) => (s.bytes as number) / MiB / (ms / 1000)));
      const c = mibps(client);
      const r = mibps(raw);
      const ratio = c.median / r.median;
      const cg = summarize(client.growthMiB as number[]);
      const rg = summarize(raw.growthMiB as number[]);
      const mb = (mib: number) => `${((mib * MiB) / 1e6).toFixed(1)} MB`;
      const growthMB = (cg.max * MiB) / 1e6;
      ctx.data[scenario] = { raw, client, ratio, formData, encoder };
      const fmt = (s: ReturnType<typeof summarize>) =>
        `${s.median.toFixed(0)} MiB/s${s.n > 1 ? ` ±${Math.round((s.spread * 100) / 2)}%` : ''}`;
      ctx.rows.push(
        { scenario, metric: 'throughput, median', value: fmt(c), floor: fmt(r), verdict: 'info' },
        {
          scenario,
          metric: 'ratio to raw',
          value: ratio.toFixed(2),
          target: `≥ ${THROUGHPUT_TARGET.toFixed(2)}`,
          verdict: verdict(ratio >= THROUGHPUT_TARGET),
        },
        {
          scenario,
          metric: 'RSS growth during upload (max)',
          value: `${growthMB.toFixed(1)} MB`,
          floor: mb(rg.max),
          target: `≤ ${RSS_GROWTH_TARGET_MB} MB`,
          verdict: verdict(growthMB <= RSS_GROWTH_TARGET_MB),
        },
        {
          scenario,
          metric: 'hand encoder: Content-Length / progress',
          value: `exact, known before sending; onProgress in file bytes (${String(client.progressCalls)} calls)`,
          verdict: 'info',
        },
      );
      const alternatives: [string, SideSamples, string][] = [
        [
          'undici FormData + fs.openAsBlob',
          formData,
          `${formData.lengthMismatches === 0 ? 'exact' : 'NOT exact'} (${String(formData.lastDeclared)} declared, ${String(formData.lastSent)} sent), NOT known before sending ` +
            `(undici computes it inside request()); progress only via diagnostics_channel bodyChunkSent (${String(formData.progressCalls)} calls)`,
        ],
        [
          'form-data-encoder + fs.openAsBlob',
          encoder,
          `${encoder.lengthMismatches === 0 ? 'exact' : 'NOT exact'}, ${encoder.lengthKnownBefore === 1 ? 'known before sending' : 'NOT known before sending'} (encoder.contentLength); ` +
            `progress by counting encode() chunks (${String(encoder.progressCalls)} calls)`,
        ],
      ];
      for (const [name, side, lengthAndProgress] of alternatives) {
        const t = mibps(side);
        const g = summarize(side.growthMiB as number[]);
        ctx.rows.push(
          {
            scenario,
            metric: `${name}: throughput, ratio to raw`,
            value: `${fmt(t)}, ${(t.median / r.median).toFixed(2)}`,
            floor: fmt(r),
            verdict: 'info',
          },
          {
            scenario,
            metric: `${name}: RSS growth (max) / peak RSS`,
            value: `${mb(g.max)} / ${side.peakRssMiB.toFixed(0)} MiB`,
            floor: `${mb(rg.max)} / ${raw.peakRssMiB.toFixed(0)} MiB`,
            verdict: 'info',
          },
          { scenario, metric: `${name}: Content-Length / progress`, value: lengthAndProgress, verdict: 'info' },
        );
      }
      ctx.rows.push({
        scenario,
        metric: 'hand encoder: peak RSS',
        value: `${client.peakRssMiB.toFixed(0)} MiB`,
        floor: `${raw.peakRssMiB.toFixed(0)} MiB`,
        verdict: 'info',
      });
      if (ratio < THROUGHPUT_TARGET) {
        ctx.notes.push(`Upload throughput ${ratio.toFixed(2)} of raw (target ≥ ${THROUGHPUT_TARGET}).`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    cleanup();
    process.off('exit', cleanup);
  }
}
