/**
 * The stream source for the streaming benchmark, in its own process: `POST /v1/responses` answers a
 * Responses-style event stream with `--deltas N` `response.output_text.delta` events (default 10,000),
 * written by the local service's own SSE writer (test/server/streaming.ts). The local service's
 * generated answers are a few dozen words, hence this source for a 10,000-delta stream.
 * Prints `{"url", "keys"}` on its first stdout line, like `npm run serve`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { writeEventStream, type SseEvent } from '../test/server/streaming';

const KEY = 'ma-bench-stream-0001';

export function responseEvents(deltas: number): SseEvent[] {
  const at = { item_id: 'msg_bench', output_index: 0, content_index: 0 };
  const response = { id: 'resp_bench', object: 'response', model: 'bench-model', output: [] as unknown[] };
  let sequence = 0;
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => {
    events.push({ event: type, data: JSON.stringify({ type, ...fields, sequence_number: sequence++ }) });
  };
  emit('response.created', { response: { ...response, status: 'in_progress' } });
  emit('response.in_progress', { response: { ...response, status: 'in_progress' } });
  emit('response.output_item.added', {
    output_index: 0,
    item: { id: at.item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  });
  emit('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
  const words = ['steady ', 'lantern ', 'orbit ', 'meadow ', 'token ', 'river '];
  for (let i = 0; i < deltas; i++) {
    emit('response.output_text.delta', { ...at, delta: words[i % words.length], logprobs: [] });
  }
  emit('response.output_text.done', { ...at, text: '(elided)', logprobs: [] });
  emit('response.content_part.done', { ...at, part: { type: 'output_text', text: '(elided)', annotations: [] } });
  emit('response.output_item.done', {
    output_index: 0,
    item: { id: at.item_id, type: 'message', status: 'completed', role: 'assistant', content: [] },
  });
  emit('response.completed', { response: { ...response, status: 'completed' } });
  return events;
}

function main(): void {
  const { values } = parseArgs({ options: { deltas: { type: 'string' } } });
  const events = responseEvents(Number(values.deltas ?? 10_000));
  const faults = { latencyMs: 0, malformedJson: false, resetMidBody: false, echoKey: false };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
        return;
      }
      void writeEventStream(res, events, { delayMs: 0, faults, headers: { 'x-request-id': 'req_bench' } });
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, keys: { bench: KEY } })}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (require.main === module) {
  main();
}
