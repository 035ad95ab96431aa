/**
 * Checks over a dataset: a payload with three expectations (status, text contains a row's field, tokens)
 * over 1,000 JSONL rows, run by the checks core (`runCheckFile`: dataset reading, the planner at concurrency 4,
 * `{{…}}` per row, the client, the answer reader, the evaluator) against the same 1,000 requests sent raw
 * (undici at concurrency 4, JSON.parse, a substring test). Time for all rows once warm, and their ratio; the
 * first run of each process (code not compiled yet) and the client's CPU time as information.
 */
import { abbaRounds, type BenchContext, type SideSamples } from './context';
import { runWorker, startService } from './proc';
import { peakRssMiB, rssMiB } from './sample';
import { summarize } from './stats';
import { verdict } from './table';

interface ChecksParams {
  url: string;
  key: string;
  rows: number;
  concurrency: number;
  warmup: number;
  runs: number;
}

const CITIES = ['Paris', 'Rome', 'Oslo', 'Lisbon', 'Vienna', 'Prague', 'Dublin', 'Madrid'];

function rowsOf(n: number): { city: string; n: number }[] {
  return Array.from({ length: n }, (_, i) => ({ city: CITIES[i % CITIES.length], n: i }));
}

const PAYLOAD = [
  '// POST /v1/chat',
  '// @each rows.jsonl',
  '// @expect status 200',
  '// @expect text contains "{{city}}"',
  '// @expect tokens < 10000',
  '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "Row {{n}}: tell me about {{city}}." }] }',
].join('\n');

async function measure(params: ChecksParams, once: () => Promise<number>): Promise<SideSamples> {
  // The first run of the process is kept apart: the code is not compiled yet (a first checks run in a new
  // extension host pays it too). Then warm-up runs, then the measured ones, as the other scenarios do.
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await once();
  const firstMs = performance.now() - t0;
  const firstCpu = process.cpuUsage(c0);
  for (let i = 1; i < params.warmup; i++) {
    await once();
  }
  const startRss = rssMiB();
  const times: number[] = [];
  // CPU time of this process (the client side) as well: on a loaded machine wall time mostly measures the wait
  // for a core, CPU time what the work cost.
  const cpuMs: number[] = [];
  for (let i = 0; i < params.runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const passed = await once();
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpuMs.push((used.user + used.system) / 1000);
    if (passed !== params.rows) {
      throw new Error(`${passed} of ${params.rows} rows passed`);
    }
  }
  return {
    times,
    cpuMs,
    firstMs: [firstMs],
    firstCpuMs: [(firstCpu.user + firstCpu.system) / 1000],
    peakRssMiB: peakRssMiB(),
    startRssMiB: startRss,
  };
}

export const workerTasks = {
  async raw(params: ChecksParams): Promise<SideSamples> {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
    const rows = rowsOf(params.rows);
    const result = await measure(params, async () => {
      let next = 0;
      let passed = 0;
      const lane = async () => {
        while (next < rows.length) {
          const row = rows[next++];
          const res = await request(`${params.url}/v1/chat`, {
            method: 'POST',
            dispatcher,
            headers: { authorization: `Bearer ${params.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              model: 'aurora-1',
              messages: [{ role: 'user', content: `Row ${row.n}: tell me about ${row.city}.` }],
            }),
          });
          const body = JSON.parse(await res.body.text()) as {
            choices: { message: { content: string } }[];
            usage?: { total_tokens?: number };
          };
          if (
            res.statusCode === 200 &&
            body.choices[0].message.content.includes(row.city) &&
            (body.usage?.total_tokens ?? 0) < 10000
          ) {
            passed++;
          }
        }
      };
      await Promise.all(Array.from({ length: params.concurrency }, lane));
      return passed;
    });
    await dispatcher.close();
    return result;
  },

  async checks(params: ChecksParams): Promise<SideSamples> {
    const { createClient } = await import('./client.js');
    const { runCheckFile, firstFailure } = await import('../src/checks/core/fileRun.js');
    const client = createClient(params.url, params.key);
    const dataset = `${rowsOf(params.rows)
      .map((r) => JSON.stringify({ city: r.city, n: r.n }))
      .join('\n')}\n`;
    const result = await measure(params, async () => {
      const r = await runCheckFile(PAYLOAD, {
        target: async () => ({
          client,
          variables: { variables: {}, env: () => undefined, uuid: () => 'u', now: () => Date.now() },
        }),
        readText: (f) => (f === 'rows.jsonl' ? dataset : undefined),
        concurrency: params.concurrency,
        maxRows: params.rows,
        signal: new AbortController().signal,
      });
      return r.rows.filter((row) => firstFailure(row) === undefined).length;
    });
    await client.dispose();
    return result;
  },
};

const RATIO_TARGET = 1.1;

export async function runChecks(ctx: BenchContext): Promise<void> {
  const rows = 1000;
  const scenario = `Checks ${rows.toLocaleString('en')} dataset rows, concurrency 4`;
  const server = await startService('test/server/cli.ts', ['--quiet']);
  try {
    const params: ChecksParams = {
      url: server.url,
      key: Object.values(server.keys)[0],
      rows,
      concurrency: 4,
      // Runs of 1,000 requests take 0.1–0.3 s: as many warm-ups and runs as the small catalogs.
      ...(ctx.quick ? { warmup: 3, runs: 6 } : { warmup: 5, runs: 15 }),
    };
    const side = (name: 'raw' | 'checks') => () => {
      ctx.log(`${scenario}: ${name}…`);
      return runWorker<SideSamples>('checks', name, params);
    };
    // A B B A rounds (A B with --quick), repeated while noisy: the two sides see the machine's load alike.
    const { raw: rawSide, client: checksSide } = await abbaRounds(ctx, scenario, side('raw'), side('checks'));
    const raw = summarize(rawSide.times);
    const checks = summarize(checksSide.times);
    const ratio = checks.median / raw.median;
    const rawCpu = summarize(rawSide.cpuMs as number[]);
    const checksCpu = summarize(checksSide.cpuMs as number[]);
    const rawFirst = summarize(rawSide.firstMs as number[]);
    const checksFirst = summarize(checksSide.firstMs as number[]);
    ctx.data[scenario] = { raw, checks, ratio, rawCpu, checksCpu, rawFirst, checksFirst };
    const fmt = (s: ReturnType<typeof summarize>) =>
      `${(s.median / 1000).toFixed(2)} s${s.n > 1 ? ` ±${Math.round((s.spread * 100) / 2)}%` : ''}`;
    ctx.rows.push(
      { scenario, metric: 'all rows, median', value: fmt(checks), floor: fmt(raw), verdict: 'info' },
      {
        scenario,
        metric: 'ratio checks/raw',
        value: ratio.toFixed(2),
        target: `≤ ${RATIO_TARGET.toFixed(2)}`,
        verdict: verdict(ratio <= RATIO_TARGET),
      },
      {
        scenario,
        metric: 'client-side CPU time, median (ratio)',
        value: `${(checksCpu.median / 1000).toFixed(2)} s (${(checksCpu.median / rawCpu.median).toFixed(2)})`,
        floor: `${(rawCpu.median / 1000).toFixed(2)} s`,
        verdict: 'info',
      },
      {
        scenario,
        metric: 'first run of a process (not compiled yet), median (ratio)',
        value: `${fmt(checksFirst)} (${(checksFirst.median / rawFirst.median).toFixed(2)})`,
        floor: fmt(rawFirst),
        verdict: 'info',
      },
    );
    if (ratio > RATIO_TARGET) {
      ctx.notes.push(`Checks over ${rows} rows took ${ratio.toFixed(2)}× the raw requests (target ≤ ${RATIO_TARGET}).`);
    }
  } finally {
    await server.stop();
  }
}
