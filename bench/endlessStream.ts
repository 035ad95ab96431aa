/**
 * `npm run bench:endless [-- --seconds 60] [--limit-mb 32]`
 *
 * An endless `/v1/chat` stream from the local service (hostile mode), read for `--seconds` by the
 * extension's own stream reader (`readStream`, the code behind Send) and redrawn every 75 ms by its own
 * renderer (`renderResponse`, with the key redactor), as the response document does. Each answer stops at
 * `modelAccess.limits.maxResponseMegabytes` (`--limit-mb`) with the limit message; the next one starts at
 * once, so the minute holds many answers back to back. Prints the memory of this process (RSS and heap)
 * before, at its peak and at the end, the size of the biggest redraw, and how long each answer took to hit
 * the limit. Not a test: figures to read, not thresholds.
 */
import { ServiceClient } from '../src/api/client';
import { redactor } from '../src/api/redact';
import { renderResponse, finishStream, type ResponseRecord } from '../src/requests/answers/core/responseFormat';
import { newStreamState, readStream } from '../src/requests/send/core/streamText';
import { HOSTILE_IDS, startServer } from '../test/server';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const seconds = option('--seconds', 60);
  const limitBytes = Math.floor(option('--limit-mb', 32) * 1024 * 1024);
  const server = await startServer({ hostile: { endlessStream: true } });
  const key = server.keys.hostile;
  const client = new ServiceClient({ baseUrl: server.url, apiKey: async () => key });
  const redact = redactor([key]);
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  let biggestRedraw = 0;
  let slowestRedrawMs = 0;
  const answers: { ms: number; chars: number; end: string }[] = [];
  const deadline = Date.now() + seconds * 1000;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);

  while (Date.now() < deadline) {
    const started = Date.now();
    const controller = new AbortController();
    const stop = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
    const record: ResponseRecord = { method: 'POST', endpoint: '/v1/chat', startedAt: started, status: 200 };
    record.stream = newStreamState();
    record.rawEvents = [];
    const redraw = setInterval(() => {
      const t = performance.now();
      const text = renderResponse(record, redact);
      slowestRedrawMs = Math.max(slowestRedrawMs, performance.now() - t);
      biggestRedraw = Math.max(biggestRedraw, text.length);
    }, 75);
    let end = 'error';
    try {
      const result = await client.post(
        '/v1/chat',
        { model: HOSTILE_IDS.endless, stream: true, messages: [{ role: 'user', content: 'go' }] },
        { stream: true, signal: controller.signal },
      );
      end = await readStream(result.events ?? (async function* () {})(), record.stream, record.rawEvents, limitBytes);
      if (end === 'limit') {
        record.limitReached = true;
        record.error = 'The answer passed the limit (modelAccess.limits.maxResponseMegabytes) and was stopped there.';
      }
    } catch {
      end = controller.signal.aborted ? 'time up' : 'error';
    } finally {
      controller.abort();
      clearTimeout(stop);
      clearInterval(redraw);
    }
    finishStream(record, redact);
    const chars = record.stream.text.length + (record.rawEvents ?? []).reduce((n, r) => n + r.length, 0);
    answers.push({ ms: Date.now() - started, chars, end });
  }
  clearInterval(sample);
  global.gc?.();
  const after = process.memoryUsage();
  await client.dispose();
  await server.close();

  const limited = answers.filter((a) => a.end === 'limit');
  const times = limited.map((a) => a.ms).sort((a, b) => a - b);
  console.log(
    `endless /v1/chat stream for ${seconds} s, limit ${mb(limitBytes)} (modelAccess.limits.maxResponseMegabytes)`,
  );
  console.log(
    `  answers stopped at the limit: ${limited.length} of ${answers.length}; time to the limit: median ${times[Math.floor(times.length / 2)] ?? '—'} ms, max ${times.at(-1) ?? '—'} ms`,
  );
  console.log(
    `  kept per answer at the stop: max ${mb(Math.max(0, ...answers.map((a) => a.chars * 2)))} (UTF-16, text + raw events)`,
  );
  console.log(
    `  RSS: before ${mb(before.rss)}, peak ${mb(peakRss)} (+${mb(peakRss - before.rss)}), after ${mb(after.rss)}`,
  );
  console.log(
    `  heap used: before ${mb(before.heapUsed)}, peak ${mb(peakHeap)} (+${mb(peakHeap - before.heapUsed)}), after ${mb(after.heapUsed)}`,
  );
  console.log(
    `  biggest redraw: ${(biggestRedraw / 1024).toFixed(0)} KB of text; slowest redraw ${slowestRedrawMs.toFixed(1)} ms`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
