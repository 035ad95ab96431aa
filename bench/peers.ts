/**
 * The model list against its peers, in ONE process, sides rotated (floor, ours, SDK, SDK, ours, floor per
 * round) so the machine's drift falls on all three alike:
 * - floor: the minimal correct program — undici.request, JSON.parse, and the four fields the Models view
 *   shows (id, family, version, card URL) copied out of every entry, following `has_more` + `last_id`;
 * - ours: ServiceClient.listModels() (paging, the dialect readers, normalize), what the extension runs;
 * - SDK: the official `openai` package (a dev dependency). Its `models.list()` reads one page only (OpenAI's
 *   own list is not paged), so the SDK lists through its own cursor paging — `getAPIList('/models', CursorPage)`,
 *   the `after` + `has_more` paging of its other lists — with `for await`.
 * 100,000 models at 1,000 a page from the local service. And streaming 10k deltas the same way (floor: the
 * raw reader of bench/streaming.ts; ours: the event iterator; SDK: `responses.create({stream: true})`).
 * `npm run bench -- --only peers`, or alone: `node --expose-gc -r tsx/cjs bench/peers.ts list|stream [rounds]`.
 */
import OpenAI from 'openai';
import { CursorPage } from 'openai/pagination';
import { type BenchContext } from './context';
import { startService } from './proc';
import { collectGarbage } from './sample';
import { formatSummary, summarize } from './stats';
import { verdict } from './table';
import { createClient } from './client';

const FLOOR_TARGET = 1.08;
const SDK_TARGET = 0.85;
/** bench/streaming.ts's target for the same stream. */
const STREAM_FLOOR_TARGET = 1.05;

interface Four {
  id: string;
  family?: string;
  version?: string;
  cardUrl?: string;
}

type Side = 'floor' | 'ours' | 'sdk';

export async function sides(url: string, key: string, expected: number): Promise<Record<Side, () => Promise<number>>> {
  const { request, Agent } = await import('undici');
  const agent = new Agent();
  const headers = { authorization: `Bearer ${key}` };
  const client = createClient(url, key);
  const sdk = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
  const check = (n: number, who: string) => {
    if (n !== expected) {
      throw new Error(`${who} listed ${n} models, expected ${expected}`);
    }
  };
  return {
    async floor() {
      const t0 = performance.now();
      const out: Four[] = [];
      let next = `${url}/v1/models`;
      for (;;) {
        const res = await request(next, { headers, dispatcher: agent });
        if (res.statusCode !== 200) {
          throw new Error(`GET ${next}: ${res.statusCode}`);
        }
        const page = JSON.parse(await res.body.text()) as {
          data: Record<string, unknown>[];
          has_more: boolean;
          last_id: string;
        };
        for (const m of page.data) {
          out.push({
            id: m.id as string,
            family: m.family as string | undefined,
            version: m.version as string | undefined,
            cardUrl: m.model_card_url as string | undefined,
          });
        }
        if (!page.has_more) {
          break;
        }
        next = `${url}/v1/models?after=${encodeURIComponent(page.last_id)}`;
      }
      const ms = performance.now() - t0;
      check(out.length, 'floor');
      return ms;
    },
    async ours() {
      const t0 = performance.now();
      const listed = await client.listModels();
      const ms = performance.now() - t0;
      check(listed.models.length, 'ours');
      return ms;
    },
    async sdk() {
      const t0 = performance.now();
      const out: unknown[] = [];
      for await (const m of sdk.getAPIList('/models', CursorPage<OpenAI.Models.Model>)) {
        out.push(m);
      }
      const ms = performance.now() - t0;
      check(out.length, 'SDK');
      return ms;
    },
  };
}

/** Rounds of floor, ours, SDK, SDK, ours, floor after one warm-up of each; every timed sample is kept. */
async function rotate(run: Record<Side, () => Promise<number>>, rounds: number): Promise<Record<Side, number[]>> {
  const times: Record<Side, number[]> = { floor: [], ours: [], sdk: [] };
  const order: Side[] = ['floor', 'ours', 'sdk', 'sdk', 'ours', 'floor'];
  for (const s of ['floor', 'ours', 'sdk'] as const) {
    await run[s]();
    collectGarbage();
  }
  for (let r = 0; r < rounds; r++) {
    for (const s of order) {
      times[s].push(await run[s]());
      collectGarbage();
    }
  }
  return times;
}

export async function measureListPeers(models: number, rounds: number): Promise<Record<Side, number[]>> {
  const server = await startService('test/server/cli.ts', [
    '--models',
    String(models),
    '--page-size',
    '1000',
    '--max-page-size',
    '1000',
    '--quiet',
  ]);
  try {
    return await rotate(await sides(server.url, Object.values(server.keys)[0], models), rounds);
  } finally {
    await server.stop();
  }
}

const DELTAS = 10_000;
/** 4 events before the deltas and 4 after (created … completed), as bench/streaming.ts. */
const STREAM_EVENTS = DELTAS + 8;
const PAYLOAD = { model: 'bench-model', input: 'Tell me a long story.', stream: true } as const;

/** Streaming 10k deltas (bench/sseSource.ts): every event read and its JSON parsed, on each side. */
export async function streamSides(url: string, key: string): Promise<Record<Side, () => Promise<number>>> {
  const { request, Agent } = await import('undici');
  const agent = new Agent();
  const client = createClient(url, key);
  const sdk = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
  const check = (n: number, who: string) => {
    if (n !== STREAM_EVENTS) {
      throw new Error(`${who} read ${n} events, expected ${STREAM_EVENTS}`);
    }
  };
  return {
    // The floor of bench/streaming.ts: undici, split events on blank lines, JSON.parse each data line.
    async floor() {
      const t0 = performance.now();
      const res = await request(`${url}/v1/responses`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(PAYLOAD),
      });
      const decoder = new TextDecoder();
      let pending = '';
      let events = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        const text = pending + decoder.decode(chunk, { stream: true });
        let start = 0;
        let end: number;
        while ((end = text.indexOf('\n\n', start)) >= 0) {
          const data = text.indexOf('data: ', start);
          if (data >= 0 && data < end) {
            JSON.parse(text.slice(data + 6, end));
            events++;
          }
          start = end + 2;
        }
        pending = text.slice(start);
      }
      const ms = performance.now() - t0;
      check(events, 'floor');
      return ms;
    },
    // As chat and Compare read a stream: one event at a time, each one's JSON.
    async ours() {
      const t0 = performance.now();
      const res = await client.post('/v1/responses', PAYLOAD, { stream: true });
      let events = 0;
      for await (const event of res.events ?? []) {
        void event.json;
        events++;
      }
      const ms = performance.now() - t0;
      check(events, 'ours');
      return ms;
    },
    async sdk() {
      const t0 = performance.now();
      const stream = await sdk.responses.create({ model: PAYLOAD.model, input: PAYLOAD.input, stream: true });
      let events = 0;
      for await (const event of stream) {
        void event;
        events++;
      }
      const ms = performance.now() - t0;
      check(events, 'SDK');
      return ms;
    },
  };
}

export async function measureStreamPeers(rounds: number): Promise<Record<Side, number[]>> {
  const source = await startService('bench/sseSource.ts', ['--deltas', String(DELTAS)]);
  try {
    return await rotate(await streamSides(source.url, source.keys.bench), rounds);
  } finally {
    await source.stop();
  }
}

function rows(
  ctx: BenchContext,
  scenario: string,
  times: Record<Side, number[]>,
  targets: { floor: number; sdk?: number },
): void {
  const floor = summarize(times.floor);
  const ours = summarize(times.ours);
  const sdk = summarize(times.sdk);
  const toFloor = ours.median / floor.median;
  const toSdk = ours.median / sdk.median;
  ctx.data[scenario] = { ...times, toFloor, toSdk };
  ctx.rows.push(
    {
      scenario,
      metric: 'ours / openai SDK, median (floor: the minimal correct program)',
      value: `${formatSummary(ours, 'ms')} / ${formatSummary(sdk, 'ms')}`,
      floor: formatSummary(floor, 'ms'),
      verdict: 'info',
    },
    {
      scenario,
      metric: 'ours, ratio to the floor',
      value: toFloor.toFixed(2),
      target: `≤ ${targets.floor.toFixed(2)}`,
      verdict: verdict(toFloor <= targets.floor),
    },
    {
      scenario,
      metric: 'ours, ratio to the openai SDK',
      value: toSdk.toFixed(2),
      target: targets.sdk === undefined ? undefined : `≤ ${targets.sdk.toFixed(2)}`,
      verdict: targets.sdk === undefined ? 'info' : verdict(toSdk <= targets.sdk),
    },
  );
}

export async function runPeers(ctx: BenchContext): Promise<void> {
  const rounds = ctx.quick ? 2 : 4;
  const list = 'Peers: model list, 100k models, page 1000 (one process, rotated)';
  ctx.log(`${list}…`);
  rows(ctx, list, await measureListPeers(100_000, rounds), { floor: FLOOR_TARGET, sdk: SDK_TARGET });
  const stream = `Peers: streaming ${DELTAS / 1000}k deltas (one process, rotated)`;
  ctx.log(`${stream}…`);
  rows(ctx, stream, await measureStreamPeers(rounds * 2), { floor: STREAM_FLOOR_TARGET });
}

if (require.main === module) {
  const what = process.argv[2] ?? 'list';
  const rounds = Number(process.argv[3] ?? 3);
  const measured = what === 'stream' ? measureStreamPeers(rounds) : measureListPeers(100_000, rounds);
  void measured.then((t) => {
    const f = summarize(t.floor).median;
    const o = summarize(t.ours).median;
    const s = summarize(t.sdk).median;
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    console.log(`floor ${fmt(t.floor)}\nours  ${fmt(t.ours)}\nsdk   ${fmt(t.sdk)}`);
    console.log(
      `${what}: median floor ${f.toFixed(0)} ms, ours ${o.toFixed(0)} ms, sdk ${s.toFixed(0)} ms; ours/floor ${(o / f).toFixed(2)}, ours/sdk ${(o / s).toFixed(2)}`,
    );
  });
}
