// Pure helpers of the scratch-request feature: endpoint header, payload parsing, templates, cURL export,
// stream text accumulation and the history bound.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { curlCommand, shellQuote } from '../../src/requests/core/curl';
import { readEndpoint, withEndpoint } from '../../src/requests/core/endpointHeader';
import { addToHistory, HISTORY_LIMIT, type HistoryEntry } from '../../src/requests/core/historyEntries';
import { parsePayload, payloadModel, wantsStream } from '../../src/requests/core/payload';
import { renderResponse } from '../../src/requests/core/responseFormat';
import { addEvent, newStreamState } from '../../src/requests/core/streamText';
import { INPUT_PLACEHOLDER, starterPayload } from '../../src/requests/core/templates';

const ev = (json: unknown, event?: string) => ({ event, data: JSON.stringify(json), json });

describe('requests: endpoint header', () => {
  it('reads the endpoint from a first-line comment, tolerant of case, spaces and slashes', () => {
    assert.equal(readEndpoint('// POST /v1/chat\n{}'), '/v1/chat');
    assert.equal(readEndpoint('//post   v1/Embeddings/ \r\n{}'), '/v1/embeddings');
    assert.equal(readEndpoint('// POST /v1/responses'), '/v1/responses');
    assert.equal(readEndpoint('{}\n// POST /v1/chat'), undefined, 'only the first line counts');
    assert.equal(readEndpoint('// POST /v1/unknown\n{}'), undefined);
    assert.equal(readEndpoint('// GET /v1/models\n{}'), undefined);
  });

  it('replaces an existing header or inserts one, keeping the payload intact', () => {
    assert.equal(withEndpoint('// POST /v1/chat\n{"a":1}', '/v1/responses'), '// POST /v1/responses\n{"a":1}');
    assert.equal(withEndpoint('{"a":1}', '/v1/chat'), '// POST /v1/chat\n{"a":1}');
  });
});

describe('requests: payload parsing', () => {
  it('accepts comments (the header) and returns compact JSON to send', () => {
    const r = parsePayload('// POST /v1/chat\n{ "model": "m", /* note */ "stream": true }');
    assert.ok(r.ok);
    assert.equal(r.json, '{"model":"m","stream":true}');
    assert.equal(payloadModel(r.value), 'm');
    assert.equal(wantsStream(r.value), true);
  });

  it('reports the first problem with its 1-based line and column', () => {
    const r = parsePayload('// POST /v1/chat\n{\n  "model": "m"\n  "input": "x"\n}');
    assert.ok(!r.ok);
    assert.equal(r.problem.line, 4);
    assert.equal(r.problem.column, 3);
    assert.match(r.problem.message, /comma/);
  });

  it('refuses trailing commas and empty payloads', () => {
    assert.ok(!parsePayload('{"a":1,}').ok);
    const empty = parsePayload('// POST /v1/chat\n');
    assert.ok(!empty.ok);
    assert.match(empty.problem.message, /empty/);
  });
});

describe('requests: starter payloads', () => {
  it('fill the chosen model into the OpenAI shape of each endpoint', () => {
    const chat = JSON.parse(starterPayload('/v1/chat', 'aurora-2'));
    assert.equal(chat.model, 'aurora-2');
    assert.equal(chat.messages.at(-1).content, INPUT_PLACEHOLDER);
    assert.equal(JSON.parse(starterPayload('/v1/responses', 'x')).input, INPUT_PLACEHOLDER);
    assert.deepEqual(JSON.parse(starterPayload('/v1/embeddings', 'e')).input, [INPUT_PLACEHOLDER]);
  });

  it('use the template from settings, keeping a fixed model', () => {
    const t = {
      '/v1/chat': { model: '', messages: [], temperature: 0 },
      '/v1/responses': { model: 'pinned', input: 'hi' },
    };
    assert.deepEqual(JSON.parse(starterPayload('/v1/chat', 'a', t)), { model: 'a', messages: [], temperature: 0 });
    assert.equal(JSON.parse(starterPayload('/v1/responses', 'a', t)).model, 'pinned');
    assert.equal(JSON.parse(starterPayload('/v1/embeddings', 'a', { '/v1/embeddings': 'not an object' })).model, 'a');
  });
});

describe('requests: cURL export', () => {
  it('names the key as $MODEL_ACCESS_API_KEY and quotes the body for the shell', () => {
    const body = JSON.stringify({ model: "it's", input: 'a "b" $HOME `x`' });
    const cmd = curlCommand({ url: 'http://127.0.0.1:1/v1/chat' }, body);
    assert.match(cmd, /Authorization: Bearer \$MODEL_ACCESS_API_KEY/);
    assert.match(cmd.split('\n')[0], /^# POSIX shell/);
    // The shell gives back exactly the body: nothing expanded, nothing lost.
    const echoed = execFileSync('sh', ['-c', `printf %s ${shellQuote(body)}`]).toString();
    assert.equal(echoed, body);
  });

  it('without a configured service, the URL expands from $MODEL_ACCESS_BASE_URL in the shell', () => {
    const cmd = curlCommand({ baseUrlVariable: 'MODEL_ACCESS_BASE_URL', path: '/v1/chat' }, '{}');
    // Run the command with `curl` replaced by a function that prints its arguments, one per line.
    const script = `curl() { printf '%s\\n' "$@"; }\n${cmd}`;
    const out = execFileSync('sh', ['-c', script], {
      env: { ...process.env, MODEL_ACCESS_BASE_URL: 'https://gw.example/api', MODEL_ACCESS_API_KEY: 'k' },
    }).toString();
    assert.ok(out.split('\n').includes('https://gw.example/api/v1/chat'), out);
  });
});

describe('requests: stream text', () => {
  it('grows with Responses deltas and keeps the completed event', () => {
    const s = newStreamState();
    addEvent(s, ev({ type: 'response.created' }, 'response.created'));
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 'Hel' }, 'response.output_text.delta'));
    assert.equal(s.text, 'Hel');
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 'lo' }, 'response.output_text.delta'));
    addEvent(s, ev({ type: 'response.output_text.done', text: 'Hello' }, 'response.output_text.done'));
    addEvent(s, ev({ type: 'response.completed', response: { status: 'completed' } }, 'response.completed'));
    assert.equal(s.text, 'Hello');
    assert.ok(s.done);
    assert.deepEqual(s.final, { type: 'response.completed', response: { status: 'completed' } });
  });

  it('grows with Chat chunks and ends on [DONE]', () => {
    const s = newStreamState();
    addEvent(s, ev({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant' } }] }));
    addEvent(s, ev({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' } }] }));
    addEvent(
      s,
      ev({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }],
      }),
    );
    addEvent(s, { data: '[DONE]' });
    assert.equal(s.text, 'Hi there');
    assert.ok(s.done);
    assert.equal(s.events, 4);
  });

  it('records an error event, flat or nested', () => {
    assert.equal(addEvent(newStreamState(), ev({ type: 'error', message: 'boom' })).error, 'boom');
    assert.equal(addEvent(newStreamState(), ev({ type: 'error', error: { message: 'nested' } })).error, 'nested');
  });
});

const same = (text: string) => text;

describe('requests: response document', () => {
  it('starts with endpoint, status, time, size and request id, then pretty JSON', () => {
    const text = renderResponse(
      {
        method: 'POST',
        endpoint: '/v1/chat',
        startedAt: 0,
        status: 200,
        statusText: 'OK',
        elapsedMs: 12.4,
        bytes: 2048,
        requestId: 'req_1',
        bodyText: '{"a":1}',
        bodyJson: { a: 1 },
      },
      same,
    );
    const [head, ...rest] = text.split('\n');
    assert.equal(head, '// POST /v1/chat · 200 OK · 12 ms · 2.0 KB · request id req_1');
    assert.equal(rest.join('\n'), '{\n  "a": 1\n}\n');
  });

  it('cuts a huge body for display and says how to save all of it', () => {
    const big = 'x'.repeat(300 * 1024);
    const text = renderResponse(
      { method: 'POST', endpoint: '/v1/chat', startedAt: 0, status: 200, bodyText: big },
      same,
    );
    assert.ok(text.length < big.length);
    assert.match(text, /Save Response Body/);
  });
});

describe('requests: history', () => {
  const entry = (i: number): HistoryEntry => ({
    id: `e${i}`,
    endpoint: '/v1/chat',
    at: new Date(i).toISOString(),
    payload: `{"i":${i}}`,
    summary: '',
  });

  it('keeps the newest 50, newest first, and clips very long payloads', () => {
    let h: HistoryEntry[] = [];
    for (let i = 0; i < 60; i++) {
      h = addToHistory(h, entry(i));
    }
    assert.equal(h.length, HISTORY_LIMIT);
    assert.equal(h[0].id, 'e59');
    assert.equal(h.at(-1)?.id, 'e10');
    const long = addToHistory([], { ...entry(1), payload: 'y'.repeat(100) }, 10);
    assert.equal(long[0].payload.length, 10);
  });
});
