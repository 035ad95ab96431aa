/**
 * Checks over a dataset: a payload with three expectations (status, text contains a row's field, tokens)
 * over 1,000 JSONL rows, run by the checks core (`runCheckFile`: dataset reading, the planner at concurrency 4,
 * `{{…}}` per row, the client, the answer reader, the evaluator) against the same 1,000 requests sent raw
 * (undici at concurrency 4, JSON.parse, a substring test). Time for all rows, and their ratio.
 */
import { mergeSides, type BenchContext, type SideSamples } from './context';
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
  for (let i = 0; i < params.warmup; i++) {
    await once();
  }
  const startRss = rssMiB();
  const times: number[] = [];
  // CPU time of this process (the client side) as well: on a loaded machine wall time mostly measures the wait
  // for a core, CPU time what the work cost.
  const cpuMs: number[] = [];
  for (let i = 0; i < params.runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const passed = await once();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
    if (passed !== params.rows) {
      throw new Error(`${passed} of ${params.rows} rows passed`);
    }
  }
  return { times, cpuMs, peakRssMiB: peakRssMiB(), startRssMiB: startRss };
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
      warmup: 1,
      runs: ctx.quick ? 2 : 5,
    };
    const parts: Record<'raw' | 'checks', SideSamples[]> = { raw: [], checks: [] };
    // A B B A (A B with --quick): the two sides see the machine's load alike.
    for (const side of ctx.quick ? (['raw', 'checks'] as const) : (['raw', 'checks', 'checks', 'raw'] as const)) {
      ctx.log(`${scenario}: ${side}…`);
      parts[side].push(await runWorker<SideSamples>('checks', side, params));
    }
    const rawSide = mergeSides(parts.raw);
    const checksSide = mergeSides(parts.checks);
    const raw = summarize(rawSide.times);
    const checks = summarize(checksSide.times);
    const ratio = checks.median / raw.median;
    const rawCpu = summarize(rawSide.cpuMs as number[]);
    const checksCpu = summarize(checksSide.cpuMs as number[]);
    ctx.data[scenario] = { raw, checks, ratio, rawCpu, checksCpu };
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
    );
    if (ratio > RATIO_TARGET) {
      ctx.notes.push(`Checks over ${rows} rows took ${ratio.toFixed(2)}× the raw requests (target ≤ ${RATIO_TARGET}).`);
    }
  } finally {
    await server.stop();
  }
}
