/**
 * Streaming: a 10,000-delta Responses event stream through the client's event iterator
 * (`post(…, {stream: true}).events`, reading each event's `json` as the response view does) vs a raw undici read of the same stream that splits events and
 * `JSON.parse`s each `data:` line — the least any consumer must do. Total time and time to first event.
 */
import * as path from 'node:path';
import { abbaRounds, type BenchContext, type SideSamples } from './context';
import { runWorker, startService } from './proc';
import { collectGarbage, peakRssMiB, rssMiB } from './sample';
import { formatSummary, summarize } from './stats';
import { profileSummary } from './profile';
import { buildWorker } from './build';
import { verdict } from './table';
import type { EventStream } from '../src/api/types';

interface StreamParams {
  url: string;
  key: string;
  warmup: number;
  runs: number;
  expectedEvents: number;
}

const DELTAS = 10_000;
/** 4 events before the deltas and 4 after (created … completed). */
const FRAMING_EVENTS = 8;
const PAYLOAD = { model: 'bench-model', input: 'Tell me a long story.', stream: true };
const RATIO_TARGET = 1.05;

async function measure(
  params: StreamParams,
  once: () => Promise<{ events: number; firstMs: number }>,
): Promise<SideSamples> {
  for (let i = 0; i < params.warmup; i++) {
    await once();
    collectGarbage();
  }
  const times: number[] = [];
  const cpu: number[] = [];
  const first: number[] = [];
  const startRss = rssMiB();
  for (let i = 0; i < params.runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await once();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    // This process's CPU time: what the machine's other work cannot stretch (the stream source runs apart).
    cpu.push((c.user + c.system) / 1000);
    first.push(r.firstMs - t0);
    if (r.events !== params.expectedEvents) {
      throw new Error(`received ${r.events} events, expected ${params.expectedEvents}`);
    }
    collectGarbage();
  }
  return { times, cpuMs: cpu, firstEventMs: first, peakRssMiB: peakRssMiB(), startRssMiB: startRss };
}

export const workerTasks = {
  async raw(params: StreamParams): Promise<SideSamples> {
    const { request } = await import('undici');
    return measure(params, async () => {
      const res = await request(`${params.url}/v1/responses`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${params.key}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify(PAYLOAD),
      });
      const decoder = new TextDecoder();
      let pending = '';
      let events = 0;
      let firstMs = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        const text = pending + decoder.decode(chunk, { stream: true });
        let start = 0;
        let end: number;
        while ((end = text.indexOf('\n\n', start)) >= 0) {
          const data = text.indexOf('data: ', start);
          if (data >= 0 && data < end) {
            JSON.parse(text.slice(data + 6, end));
            if (events++ === 0) {
              firstMs = performance.now();
            }
          }
          start = end + 2;
        }
        pending = text.slice(start);
      }
      return { events, firstMs };
    });
  },

  /** What the response document does: the events a chunk at a time (`batches()`), reading each one's JSON. */
  async client(params: StreamParams): Promise<SideSamples> {
    return readWithClient(params, async (events) => {
      let count = 0;
      let firstMs = 0;
      for await (const batch of events.batches()) {
        if (count === 0 && batch.length > 0) {
          firstMs = performance.now();
        }
        for (const event of batch) {
          void event.json;
          count++;
        }
      }
      return { events: count, firstMs };
    });
  },

  /** What chat and Compare do: the events one by one (`for await`), reading each one's JSON. */
  async clientEach(params: StreamParams): Promise<SideSamples> {
    return readWithClient(params, async (events) => {
      let count = 0;
      let firstMs = 0;
      for await (const event of events) {
        void event.json;
        if (count++ === 0) {
          firstMs = performance.now();
        }
      }
      return { events: count, firstMs };
    });
  },
};

async function readWithClient(
  params: StreamParams,
  read: (events: EventStream) => Promise<{ events: number; firstMs: number }>,
): Promise<SideSamples> {
  const { createClient } = await import('./client.js');
  const client = createClient(params.url, params.key);
  const result = await measure(params, async () => {
    const res = await client.post('/v1/responses', PAYLOAD, { stream: true });
    if (!res.events) {
      throw new Error(`no event stream (status ${res.status}, ${res.contentType})`);
    }
    return read(res.events);
  });
  await client.dispose();
  return result;
}

export async function runStreaming(ctx: BenchContext): Promise<void> {
  const scenario = `Streaming ${DELTAS / 1000}k deltas`;
  ctx.log(`${scenario}…`);
  const source = await startService('bench/sseSource.ts', ['--deltas', String(DELTAS)]);
  try {
    const params: StreamParams = {
      url: source.url,
      key: source.keys.bench,
      expectedEvents: DELTAS + FRAMING_EVENTS,
      ...(ctx.quick ? { warmup: 3, runs: 10 } : { warmup: 5, runs: 20 }),
    };
    // `--compare-with`: the other checkout's client (its own bench worker, its own src/) on the same stream.
    const other = ctx.compareWith
      ? await buildWorker(path.join(ctx.outDir, '.build-compared'), path.join(ctx.compareWith, 'bench'))
      : undefined;
    // The extension's side reads the stream both ways in the same process, batches first.
    const { raw, client, rounds } = await abbaRounds(
      ctx,
      scenario,
      () => runWorker<SideSamples>('streaming', 'raw', params),
      async () => {
        const batches = await runWorker<SideSamples>('streaming', 'client', params);
        const each = await runWorker<SideSamples>('streaming', 'clientEach', params);
        const compared = other
          ? await runWorker<SideSamples>('streaming', 'client', params, { bundle: other })
          : { times: [] as number[] };
        return { ...batches, eachTimes: each.times, eachCpuMs: each.cpuMs as number[], comparedTimes: compared.times };
      },
    );
    const c = summarize(client.times);
    const r = summarize(raw.times);
    const cc = summarize(client.cpuMs as number[]);
    const rc = summarize(raw.cpuMs as number[]);
    const e = summarize(client.eachTimes as number[]);
    const ec = summarize(client.eachCpuMs as number[]);
    const cf = summarize(client.firstEventMs as number[]);
    const rf = summarize(raw.firstEventMs as number[]);
    const ratio = c.median / r.median;
    const cpuRatio = cc.median / rc.median;
    ctx.data[scenario] = { raw, client, ratio, cpuRatio, rounds };
    ctx.rows.push(
      {
        scenario,
        metric: 'whole stream (batches, as the response document reads)',
        value: formatSummary(c, 'ms', 1),
        floor: formatSummary(r, 'ms', 1),
        verdict: 'info',
      },
      {
        scenario,
        metric: 'ratio to raw',
        value: ratio.toFixed(2),
        target: `≤ ${RATIO_TARGET.toFixed(2)}`,
        verdict: verdict(ratio <= RATIO_TARGET),
      },
      {
        scenario,
        metric: 'ratio of the best runs (each side at its quietest moment)',
        value: `${(c.min / r.min).toFixed(2)}; CPU ${(cc.min / rc.min).toFixed(2)}`,
        verdict: 'info',
      },
      {
        scenario,
        metric: 'CPU time of the reading process, ratio',
        value: `${formatSummary(cc, 'ms', 1)}; ×${cpuRatio.toFixed(2)}`,
        floor: formatSummary(rc, 'ms', 1),
        verdict: 'info',
      },
      {
        scenario,
        metric: 'one event at a time (chat, Compare): ratio, CPU ratio',
        value: `${formatSummary(e, 'ms', 1)}; ×${(e.median / r.median).toFixed(2)}, CPU ×${(ec.median / rc.median).toFixed(2)}`,
        floor: formatSummary(r, 'ms', 1),
        verdict: 'info',
      },
      ...(other
        ? [
            {
              scenario,
              metric: `client of ${ctx.compareWith} (compared, same rounds): ratio to raw`,
              value: `${formatSummary(summarize(client.comparedTimes as number[]), 'ms', 1)}; ×${(summarize(client.comparedTimes as number[]).median / r.median).toFixed(2)}`,
              floor: formatSummary(r, 'ms', 1),
              verdict: 'info' as const,
            },
          ]
        : []),
      {
        scenario,
        metric: 'time to first event',
        value: formatSummary(cf, 'ms', 2),
        floor: formatSummary(rf, 'ms', 2),
        verdict: 'info',
      },
      {
        scenario,
        metric: 'peak RSS',
        value: `${client.peakRssMiB.toFixed(0)} MiB`,
        floor: `${raw.peakRssMiB.toFixed(0)} MiB`,
        verdict: 'info',
      },
    );
    if (ratio > RATIO_TARGET) {
      let note = `Streaming: the client took ${ratio.toFixed(2)}× the raw read (target ≤ ${RATIO_TARGET}; CPU time ×${cpuRatio.toFixed(2)}).`;
      if (ctx.profile) {
        ctx.log(`${scenario}: profiling both sides (node --cpu-prof)…`);
        const long = { ...params, warmup: 3, runs: 20 };
        const dir = path.join(ctx.outDir, `stream-profile-${Date.now()}`);
        await runWorker<SideSamples>('streaming', 'client', long, { cpuProfDir: path.join(dir, 'client') });
        await runWorker<SideSamples>('streaming', 'raw', long, { cpuProfDir: path.join(dir, 'raw') });
        const cp = profileSummary(path.join(dir, 'client'), 10);
        const rp = profileSummary(path.join(dir, 'raw'), 6);
        ctx.data.streamingProfile = { client: cp, raw: rp };
        note += ` CPU profiles over 23 streams each — client busy ${cp.totalMs.toFixed(0)} ms vs raw ${rp.totalMs.toFixed(0)} ms.\nClient:\n${cp.text}\nRaw:\n${rp.text}`;
      }
      ctx.notes.push(note);
    }
  } finally {
    await source.stop();
  }
}
