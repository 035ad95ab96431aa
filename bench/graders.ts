/**
 * Graders over a dataset: a payload whose one expectation is `similar "{{city}} is a city." <= 1` (always true,
 * so every row costs the same) over 1,000 JSONL rows at concurrency 8, run the way `model-access check` runs it
 * (`runCheckFile`, the graders, the AIMD limiter and the retry layer), against the requests a `similar` check
 * implies sent raw (undici, JSON.parse, the cosine by hand): per row the chat request, then one embeddings
 * request with the answer and the reference: 2,000 requests, 2,000 texts embedded. The graders embed each of the
 * 8 distinct references once per run and each answer alone (2,008 requests, 1,008 texts embedded), so the ratio is
 * what a person pays or saves with the graders over writing the calls by hand, not only the client's overhead;
 * the client's CPU time beside it, as information.
 */
import { abbaRounds, type BenchContext, type SideSamples } from './context';
import { runWorker, startService } from './proc';
import { peakRssMiB, rssMiB } from './sample';
import { summarize } from './stats';
import { verdict } from './table';

interface GradersParams {
  url: string;
  key: string;
  rows: number;
  concurrency: number;
  warmup: number;
  runs: number;
}

const CITIES = ['Paris', 'Rome', 'Oslo', 'Lisbon', 'Vienna', 'Prague', 'Dublin', 'Madrid'];
const EMBEDDINGS = 'cirrus-embed-1';

function rowsOf(n: number): { city: string; n: number }[] {
  return Array.from({ length: n }, (_, i) => ({ city: CITIES[i % CITIES.length], n: i }));
}

const PAYLOAD = [
  '// POST /v1/chat',
  '// @each rows.jsonl',
  '// @expect similar "{{city}} is a city." <= 1',
  '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "Row {{n}}: tell me about {{city}}." }] }',
].join('\n');

async function measure(params: GradersParams, once: () => Promise<number>): Promise<SideSamples> {
  await once();
  for (let i = 1; i < params.warmup; i++) {
    await once();
  }
  const startRss = rssMiB();
  const times: number[] = [];
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
  return { times, cpuMs, peakRssMiB: peakRssMiB(), startRssMiB: startRss };
}

export const workerTasks = {
  async raw(params: GradersParams): Promise<SideSamples> {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
    const rows = rowsOf(params.rows);
    const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const res = await request(`${params.url}${path}`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${params.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return JSON.parse(await res.body.text()) as Record<string, unknown>;
    };
    const result = await measure(params, async () => {
      let next = 0;
      let passed = 0;
      const lane = async () => {
        while (next < rows.length) {
          const row = rows[next++];
          const chat = (await post('/v1/chat', {
            model: 'aurora-1',
            messages: [{ role: 'user', content: `Row ${row.n}: tell me about ${row.city}.` }],
          })) as { choices: { message: { content: string } }[] };
          const text = chat.choices[0].message.content;
          const e = (await post('/v1/embeddings', { model: EMBEDDINGS, input: [text, `${row.city} is a city.`] })) as {
            data: { embedding: number[] }[];
          };
          const [a, b] = e.data.map((d) => d.embedding);
          let dot = 0;
          let na = 0;
          let nb = 0;
          for (let i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
          }
          if (dot / Math.sqrt(na * nb) <= 1 + 1e-9) {
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

  async graders(params: GradersParams): Promise<SideSamples> {
    const { createClient } = await import('./client.js');
    const { runCheckFile, firstFailure } = await import('../src/checks/core/fileRun.js');
    const { AimdLimiter } = await import('../src/checks/core/aimd.js');
    const { DEFAULT_POST_RETRY } = await import('../src/checks/core/retryPolicy.js');
    const { newWaitStats, throttledService } = await import('../src/checks/core/throttledService.js');
    const inner = createClient(params.url, params.key);
    const client = throttledService(inner, new AimdLimiter(params.concurrency), DEFAULT_POST_RETRY, newWaitStats());
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
        graderModels: { embeddings: EMBEDDINGS },
        signal: new AbortController().signal,
      });
      return r.rows.filter((row) => firstFailure(row) === undefined).length;
    });
    await client.dispose();
    return result;
  },
};

const RATIO_TARGET = 1.15;

export async function runGraders(ctx: BenchContext): Promise<void> {
  const rows = 1000;
  const scenario = `Graders: ${rows.toLocaleString('en')} dataset rows with similar, concurrency 8`;
  const server = await startService('test/server/cli.ts', ['--quiet']);
  try {
    const params: GradersParams = {
      url: server.url,
      key: Object.values(server.keys)[0],
      rows,
      concurrency: 8,
      ...(ctx.quick ? { warmup: 2, runs: 4 } : { warmup: 3, runs: 10 }),
    };
    const side = (name: 'raw' | 'graders') => () => {
      ctx.log(`${scenario}: ${name}…`);
      return runWorker<SideSamples>('graders', name, params);
    };
    const { raw: rawSide, client: gradersSide } = await abbaRounds(ctx, scenario, side('raw'), side('graders'));
    const raw = summarize(rawSide.times);
    const graded = summarize(gradersSide.times);
    const ratio = graded.median / raw.median;
    const rawCpu = summarize(rawSide.cpuMs as number[]);
    const gradedCpu = summarize(gradersSide.cpuMs as number[]);
    ctx.data[scenario] = { raw, graded, ratio, rawCpu, gradedCpu };
    const fmt = (s: ReturnType<typeof summarize>) =>
      `${(s.median / 1000).toFixed(2)} s${s.n > 1 ? ` ±${Math.round((s.spread * 100) / 2)}%` : ''}`;
    ctx.rows.push(
      { scenario, metric: 'all rows, median', value: fmt(graded), floor: fmt(raw), verdict: 'info' },
      {
        scenario,
        metric: 'ratio graded/raw',
        value: ratio.toFixed(2),
        target: `≤ ${RATIO_TARGET.toFixed(2)}`,
        verdict: verdict(ratio <= RATIO_TARGET),
      },
      {
        scenario,
        metric: 'client-side CPU time, median (ratio)',
        value: `${(gradedCpu.median / 1000).toFixed(2)} s (${(gradedCpu.median / rawCpu.median).toFixed(2)})`,
        floor: `${(rawCpu.median / 1000).toFixed(2)} s`,
        verdict: 'info',
      },
    );
    if (ratio > RATIO_TARGET) {
      ctx.notes.push(
        `Graders over ${rows} rows took ${ratio.toFixed(2)}× the raw requests (target ≤ ${RATIO_TARGET}).`,
      );
    }
  } finally {
    await server.stop();
  }
}
