/**
 * Issue 19 (security, round two): what accumulates is bounded, the key is removed after decoding and over
 * whole texts, loopback is never proxied, and an answer cut short is recorded as such.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactor } from '../../../src/api/redact';
import type { ServerSentEvent } from '../../../src/api/types';
import { describeEntry } from '../../../src/requests/send/core/historyEntries';
import {
  DISPLAY_LIMIT,
  finishStream,
  fullBody,
  headerLine,
  renderResponse,
  summarize,
  type ResponseRecord,
} from '../../../src/requests/answers/core/responseFormat';
import { newStreamState, readStream, TAIL_CHARS } from '../../../src/requests/send/core/streamText';
import { startServer, type RunningServer } from '../../server';
import { clientFor } from '../helpers/api';

const KEY = 'sk-canary/Z9q+x"7\\end';
const redact = redactor([KEY]);

/** Every substring of the key this long or longer: none may appear in what people see. */
function keyPieces(min = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i + min <= KEY.length; i++) {
    out.push(KEY.slice(i, i + min));
  }
  return out;
}

function assertNoKey(text: string | undefined, where: string): void {
  assert.ok(text !== undefined, `${where}: nothing to check`);
  for (const piece of keyPieces()) {
    assert.ok(!text.includes(piece), `${where} shows part of the key (${JSON.stringify(piece)})`);
  }
}

const delta = (text: string): ServerSentEvent => {
  const json = { choices: [{ index: 0, delta: { content: text } }] };
  return { data: JSON.stringify(json), json };
};

async function* events(list: ServerSentEvent[]): AsyncGenerator<ServerSentEvent> {
  for (const e of list) {
    yield e;
  }
}

async function streamRecord(list: ServerSentEvent[]): Promise<ResponseRecord> {
  const record: ResponseRecord = {
    method: 'POST',
    endpoint: '/v1/chat',
    startedAt: 0,
    status: 200,
    statusText: 'OK',
    elapsedMs: 5,
  };
  record.stream = newStreamState();
  record.rawEvents = [];
  await readStream(events(list), record.stream, record.rawEvents, 1024 * 1024);
  return record;
}

describe('security: the key is removed after decoding', () => {
  it('a key echoed with JSON escapes (\\/, \\u00XX) in a body is removed', () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('');
    assertNoKey(
      redact(`{"echo":"${escaped}"}`).replace(/\\u([0-9a-f]{4})/gi, (_m, h) => String.fromCharCode(parseInt(h, 16))),
      'a \\u-escaped echo, decoded',
    );
    const slashEscaped = JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/');
    assert.ok(!redact(`{"echo":"${slashEscaped}"}`).includes('Z9q'), 'a \\/-escaped echo');
    const record: ResponseRecord = {
      method: 'POST',
      endpoint: '/v1/chat',
      startedAt: 0,
      status: 200,
      bodyText: `{"echo":"${escaped}"}`,
      bodyJson: { echo: KEY },
    };
    assertNoKey(renderResponse(record, redact), 'the response document');
    assertNoKey(fullBody(record, redact), 'Save Response Body');
    assertNoKey(summarize(record, redact), 'the history summary');
  });

  it('the headers view, the error line, the saved body and the history redact again, whatever the record holds', () => {
    // The client redacts headers, bodies and errors before they reach the record; the document, Save Response
    // Body and the history redact once more, so what slipped through one layer still shows no key.
    const record: ResponseRecord = {
      method: 'POST',
      endpoint: '/v1/chat',
      startedAt: 0,
      status: 500,
      headers: { 'x-echo': `API key: ${KEY}`, 'content-type': 'text/plain' },
      showHeaders: true,
      bodyText: `bad key ${KEY}`,
    };
    const doc = renderResponse(record, redact);
    assert.match(doc, /^- x-echo: API key: \[redacted\]$/m, doc);
    assertNoKey(doc, 'the headers view');
    assertNoKey(fullBody(record, redact), 'Save Response Body');
    assertNoKey(summarize(record, redact), 'the history summary');
    assertNoKey(
      renderResponse({ ...record, error: `The server answered 500: bad key ${KEY}` }, redact),
      'the error line',
    );
    const streamed: ResponseRecord = { ...record, bodyText: undefined, stream: { ...newStreamState(), text: KEY } };
    assertNoKey(summarize(streamed, redact), 'the history summary of a stream');
    assertNoKey(fullBody({ ...streamed, rawEvents: [`{"delta":"${KEY}"}`] }, redact), 'the saved raw events');
  });

  it('a key split across two stream events reaches neither the document, the saved body nor the history', async () => {
    const half = 9;
    const record = await streamRecord([
      delta('Your key is '),
      delta(KEY.slice(0, half)),
      delta(KEY.slice(half)),
      delta(' — keep it safe.'),
    ]);
    assert.equal(record.stream?.text, `Your key is ${KEY} — keep it safe.`);
    assertNoKey(renderResponse(record, redact), 'the growing document');
    finishStream(record, redact);
    assertNoKey(renderResponse(record, redact), 'the finished document');
    assertNoKey(fullBody(record, redact), 'Save Response Body');
    assertNoKey(summarize(record, redact), 'the history summary');
    assert.equal(record.rawEventsWithheld, true);
    assert.equal(record.rawEvents, undefined, 'raw events holding pieces of the key are dropped');
  });

  it('a long stream shows only its tail, and a key cut by the window edge never shows in part', async () => {
    const filler = 'lorem ipsum '.repeat(Math.ceil((DISPLAY_LIMIT + 10_000) / 12));
    for (let shift = -KEY.length; shift <= KEY.length; shift += 3) {
      // Put the key where the visible tail begins, at every offset around the edge.
      const before = filler.slice(0, filler.length - DISPLAY_LIMIT + shift);
      const text = `${before}${KEY}${'z'.repeat(DISPLAY_LIMIT - shift)}`;
      // As the reader leaves it (a bounded tail beside the whole text), and with the whole text only.
      for (const tail of [text.slice(-TAIL_CHARS - 1000), '']) {
        const record: ResponseRecord = {
          method: 'POST',
          endpoint: '/v1/chat',
          startedAt: 0,
          stream: { ...newStreamState(), text, tail },
        };
        const doc = renderResponse(record, redact);
        assertNoKey(doc, `the tail window (shift ${shift})`);
        assert.ok(doc.length < DISPLAY_LIMIT + 2000, 'one redraw renders about DISPLAY_LIMIT, not the whole text');
        assert.match(doc, /Shown: the last/);
      }
    }
  });
});

describe('security: a long final event is cut only after the key was removed', () => {
  it('a key at the display limit of the final event never shows in part', () => {
    for (let shift = -KEY.length; shift <= KEY.length; shift += 5) {
      // prettyJson indents: `{\n  "text": "` is 13 characters before the text starts.
      const text = `${'y'.repeat(DISPLAY_LIMIT - 13 + shift)}${KEY}${'y'.repeat(100)}`;
      const record: ResponseRecord = {
        method: 'POST',
        endpoint: '/v1/responses',
        startedAt: 0,
        status: 200,
        stream: { ...newStreamState(), final: { text } },
      };
      assertNoKey(renderResponse(record, redact), `the final event (shift ${shift})`);
    }
  });
});

describe('security: what accumulates is bounded', () => {
  it('an endless stream stops at the limit, keeping about the limit', async () => {
    async function* endless(): AsyncGenerator<ServerSentEvent> {
      for (;;) {
        yield delta('x'.repeat(1000));
      }
    }
    const state = newStreamState();
    const raw: string[] = [];
    const end = await readStream(endless(), state, raw, 2 * 1024 * 1024);
    assert.equal(end, 'limit');
    assert.ok(state.tail.length <= 2 * TAIL_CHARS, 'the redraw tail stays bounded');
    assert.ok(state.text.endsWith(state.tail), 'the tail is the end of the text');
    const kept = state.text.length + raw.reduce((n, r) => n + r.length, 0);
    assert.ok(kept <= 2 * 1024 * 1024 + 5000, `kept ${kept} characters: at most one event past the limit`);
  });

  it('a stream from the service stops at the limit and the connection is closed', async () => {
    const server = await startServer({ streamDelayMs: 0 });
    try {
      const { client } = clientFor(server.url, server.keys.acme);
      const controller = new AbortController();
      // The local service's chat streams are finite; 200 KB is far below one answer of 400 words.
      const result = await client.post(
        '/v1/chat',
        { model: 'aurora-2', stream: true, messages: [{ role: 'user', content: 'Write 400 words.' }], max_tokens: 400 },
        { stream: true, signal: controller.signal },
      );
      const state = newStreamState();
      const end = await readStream(result.events ?? events([]), state, [], 2_000);
      controller.abort();
      assert.equal(end, 'limit');
      await client.dispose();
    } finally {
      await server.close();
    }
  });

  it('the model list stops at maxModels and at maxListBytes, with a warning', async () => {
    const server = await startServer({ models: 300, pageSize: 10 });
    try {
      const byCount = await clientFor(server.url, server.keys.acme, { maxModels: 45 }).client.listModels();
      assert.equal(byCount.models.length, 45);
      assert.match(byCount.warnings.join(' '), /modelAccess\.limits\.maxModels/);
      const byBytes = await clientFor(server.url, server.keys.acme, { maxListBytes: 4096 }).client.listModels();
      assert.ok(byBytes.models.length < 300, `read ${byBytes.models.length} models`);
      assert.match(byBytes.warnings.join(' '), /modelAccess\.limits\.maxListMegabytes/);
    } finally {
      await server.close();
    }
  });
});

describe('security: an answer cut short is recorded as such', () => {
  it('a cancelled 200 stream reads as cancelled in the document and the history', () => {
    const record: ResponseRecord = {
      method: 'POST',
      endpoint: '/v1/chat',
      startedAt: 0,
      status: 200,
      statusText: 'OK',
      cancelled: true,
      elapsedMs: 10,
      stream: newStreamState(),
    };
    assert.match(headerLine(record), /200 OK · cancelled/);
    const entry = {
      id: '1',
      endpoint: '/v1/chat' as const,
      status: 200,
      ended: 'cancelled' as const,
      at: new Date(0).toISOString(),
      payload: '{}',
      summary: '',
    };
    assert.match(describeEntry(entry), /200 \(cancelled\)/);
    assert.match(headerLine({ ...record, cancelled: false, limitReached: true }), /stopped at the size limit/);
  });
});

describe('security: loopback is never proxied', () => {
  let proxy: Server;
  let proxyUrl: string;
  const proxied: string[] = [];
  let service: RunningServer;
  before(async () => {
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(502).end();
    });
    proxy.on('connect', (req, socket) => {
      proxied.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    service = await startServer();
  });
  after(async () => {
    await service.close();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`a plain-http service on ${host} is reached directly with http.proxy set; the proxy sees nothing`, async () => {
      proxied.length = 0;
      const url = service.url.replace('127.0.0.1', host);
      const { client } = clientFor(url, service.keys.acme, { proxy: { url: proxyUrl } });
      const list = await client.listModels();
      assert.ok(list.models.length > 0);
      assert.deepEqual(proxied, []);
      await client.dispose();
    });
  }

  it('a non-loopback target still goes through the proxy (the proxy is in use at all)', async () => {
    proxied.length = 0;
    const { client } = clientFor('http://models.invalid', 'k', {
      proxy: { url: proxyUrl },
      allowInsecureHttp: true,
      retries: { max: 0 },
    });
    await client.listModels().catch(() => undefined);
    assert.equal(proxied.length > 0, true);
    await client.dispose();
  });
});
