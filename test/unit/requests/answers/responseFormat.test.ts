import * as assert from 'node:assert/strict';
import {
  DISPLAY_LIMIT,
  fenceFor,
  finishStream,
  formatBytes,
  fullBody,
  headerLine,
  renderResponse,
  renderResponseParts,
  summarize,
  clip,
  type ResponseRecord,
} from '../../../../src/requests/answers/core/responseFormat';
import { newStreamState, type StreamState } from '../../../../src/requests/send/core/streamText';

const same = (text: string) => text;

describe('requests: response document', () => {
  const rec = (over: Partial<ResponseRecord> = {}): ResponseRecord => ({
    method: 'POST',
    endpoint: '/v1/chat',
    startedAt: 0,
    ...over,
  });
  const stream = (text: string, over: Partial<StreamState> = {}): StreamState => ({
    ...newStreamState(),
    text,
    tail: text,
    events: 2,
    ...over,
  });
  /** Hides the key `sk-1`, as the client's redaction does. */
  const redact = (text: string) => text.replaceAll('sk-1', '[key]');

  /** The document's parts: the answer (before the rule), and the status line with what follows. */
  const parts = (text: string) => {
    const at = text.indexOf('\n\n---\n\n');
    assert.ok(at >= 0, `a rule after the answer in ${JSON.stringify(text.slice(0, 200))}`);
    return { answer: text.slice(0, at), after: text.slice(at + 7) };
  };

  it('opens with the answer text, then the status line, usage and timing, then the JSON', () => {
    const body = {
      choices: [
        { message: { role: 'assistant', content: 'Hello **there**.\n\nA second paragraph.' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    };
    const text = renderResponse(
      rec({
        status: 200,
        statusText: 'OK',
        elapsedMs: 12.4,
        firstByteMs: 9,
        bytes: 2048,
        requestId: 'req_1',
        bodyText: JSON.stringify(body),
        bodyJson: body,
        priced: {
          price: { inputPerToken: 1e-6, outputPerToken: 2e-6, currency: 'USD', source: 'registry' },
          cost: { amount: 0.000019, currency: 'USD' },
        },
      }),
      same,
    );
    const { answer, after } = parts(text);
    assert.equal(answer, 'Hello **there**.\n\nA second paragraph.');
    const lines = after.split('\n');
    assert.equal(lines[0], 'POST /v1/chat · 200 OK · 12 ms · 2.0 KB · request id req_1');
    assert.equal(lines[2], '5 input tokens · 7 output tokens · 12 tokens in all · finished: stop');
    assert.equal(lines[4], 'Time: first byte 9 ms, last byte 12 ms');
    assert.equal(lines[6], 'Cost: 0.000019 USD');
    assert.equal(lines[8], '### JSON');
    assert.equal(lines[10], '```json');
    assert.deepEqual(JSON.parse(lines.slice(11, -2).join('\n')), body);
    assert.equal(lines.at(-2), '```');
  });

  it('says "no price known" for a model without a price, never a cost of zero; nothing of cost before it is counted', () => {
    const body = { choices: [{ message: { content: 'Hi' } }], usage: { prompt_tokens: 5, completion_tokens: 7 } };
    const base = { status: 200, elapsedMs: 30, bodyText: JSON.stringify(body), bodyJson: body };
    const unpriced = renderResponse(rec({ ...base, priced: { price: undefined, cost: undefined } }), same);
    assert.match(unpriced, /^Cost: no price known$/m);
    assert.doesNotMatch(unpriced, /0 USD/);
    assert.doesNotMatch(renderResponse(rec(base), same), /^Cost:/m);
  });

  it('a tool call shows its name and arguments; a body without text says what was looked for', () => {
    const body = {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
          },
        },
      ],
    };
    const { answer } = parts(renderResponse(rec({ status: 200, bodyJson: body }), same));
    assert.match(answer, /\*\*Tool call: get_weather\*\*\n\n```json\n\{"city":"Oslo"\}\n```/);
    assert.match(
      parts(renderResponse(rec({ status: 200, bodyJson: { odd: 1 } }), same)).answer,
      /No answer text was found/,
    );
  });

  it('a plain-text body is the answer, shown once', () => {
    const text = renderResponse(rec({ status: 200, bodyText: 'just text' }), same);
    assert.equal(parts(text).answer, 'just text');
    assert.equal(text.split('just text').length, 2);
  });

  it('a fence is longer than any run of backticks in what it holds', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('a ```` b'), '`````');
  });

  it('embeddings: count, dimensions, norms and the similarity, the vectors folded in the JSON', () => {
    const body = {
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [3, 4, 0, 0] },
        { object: 'embedding', index: 1, embedding: [3, 4, 0, 0.5] },
      ],
    };
    const text = renderResponse(rec({ status: 200, bodyJson: body, inputs: ['cats', 'dogs'] }), same);
    const { answer, after } = parts(text);
    assert.match(answer, /^## 2 vectors × 4 dimensions$/m);
    assert.match(answer, /^\| 1 \| cats \| 5\.000 \|$/m);
    assert.match(answer, /Input 1 and input 2 have a cosine similarity of 0\.995\./);
    assert.match(answer, /"Model Access: Open Answer Preview" draws this matrix as a heat map\./);
    // The picture is drawn by the preview's page, not carried as a line of base64 that the wrapped text shows.
    assert.doesNotMatch(text, /data:image|base64|heat map\]/);
    assert.match(after, /"embedding": "\[4 numbers: 3, 4, 0, …\] \(Save Response Body saves them all\)"/);
    assert.deepEqual(
      JSON.parse(fullBody(rec({ status: 200, bodyJson: body, bodyText: JSON.stringify(body) }), same) ?? ''),
      body,
    );
  });

  it('the status line says how the request stands: waiting, streaming, cancelled, failed, stopped, done', () => {
    assert.equal(headerLine(rec()), 'POST /v1/chat · waiting for the answer…');
    assert.equal(headerLine(rec({ stream: stream('', { events: 1 }) })), 'POST /v1/chat · streaming… · 1 event');
    assert.equal(headerLine(rec({ cancelled: true, error: 'x' })), 'POST /v1/chat · cancelled');
    assert.equal(headerLine(rec({ error: 'x' })), 'POST /v1/chat · failed');
    assert.equal(headerLine(rec({ status: 200, cancelled: true })), 'POST /v1/chat · 200 · cancelled');
    assert.equal(
      headerLine(rec({ status: 200, limitReached: true })),
      'POST /v1/chat · 200 · stopped at the size limit',
    );
    assert.equal(
      headerLine(rec({ status: 200, error: 'broke', stream: stream('') })),
      'POST /v1/chat · 200 · failed · 2 events',
    );
    assert.equal(headerLine(rec({ status: 500, error: 'broke' })), 'POST /v1/chat · 500');
    assert.equal(headerLine(rec({ status: 200, stream: stream('Hi') })), 'POST /v1/chat · 200 · receiving… · 2 events');
    assert.equal(
      headerLine(rec({ status: 200, elapsedMs: 3, stream: stream('Hi') })),
      'POST /v1/chat · 200 · 3 ms · 2 events',
    );
    assert.equal(
      headerLine(rec({ status: 200, stream: stream('Hi', { done: true }) })),
      'POST /v1/chat · 200 · 2 events',
    );
    assert.equal(
      headerLine(rec({ status: 0, elapsedMs: 0, bytes: 0, requestId: '' })),
      'POST /v1/chat · 0 · 0 ms · 0 B',
    );
  });

  it('sizes in B, KB and MB', () => {
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1.0 KB');
    assert.equal(formatBytes(1024 * 1024 - 1), '1024.0 KB');
    assert.equal(formatBytes(1024 * 1024), '1.0 MB');
    assert.equal(formatBytes(5.5 * 1024 * 1024), '5.5 MB');
  });

  it('shows the error first, on one line, and the headers only when asked', () => {
    const r = rec({ status: 400, error: 'Bad\r\nrequest', headers: { 'x-a': 'one\ntwo' }, bodyText: 'b' });
    assert.equal(renderResponse(r, same), '**Bad request**\nb\n\n---\n\nPOST /v1/chat · 400\n');
    assert.equal(
      renderResponse({ ...r, showHeaders: true, bodyDisplay: undefined }, same),
      '**Bad request**\nb\n\n---\n\nPOST /v1/chat · 400\n\n### Response headers\n\n- x-a: one two\n',
    );
    assert.equal(
      renderResponse(rec({ showHeaders: true }), same),
      '_Waiting for the answer…_\n\n---\n\nPOST /v1/chat · waiting for the answer…\n',
    );
    assert.equal(renderResponse(rec({ error: 'one\ntwo' }), same), '**one two**\n\n---\n\nPOST /v1/chat · failed\n');
  });

  it('cuts a huge body for display and says how to save all of it', () => {
    const big = { data: 'x'.repeat(300 * 1024) };
    const text = renderResponse(rec({ status: 200, bodyJson: big }), same);
    assert.ok(text.length < 300 * 1024);
    assert.match(text, /Shown: the first 256\.0 KB of 300\.0 KB\. Run "Model Access: Save Response Body"/);
    const exact = renderResponse(rec({ status: 200, bodyText: 'e'.repeat(DISPLAY_LIMIT) }), same);
    assert.ok(!exact.includes('Shown:'));
  });

  it('a stream shows its text first as it grows, then its status, its error and its final event, without the key', () => {
    const growing = renderResponse(rec({ stream: stream('Hello sk-1') }), redact);
    assert.equal(parts(growing).answer, 'Hello [key]');
    assert.match(parts(growing).after, /^POST \/v1\/chat · streaming… · 2 events\n/);
    assert.match(parts(renderResponse(rec({ stream: stream('') }), redact)).answer, /appears here as it arrives/);
    assert.match(
      parts(renderResponse(rec({ elapsedMs: 3, stream: stream('', { done: true }) }), redact)).answer,
      /held no answer text/,
    );
    const done = renderResponse(
      rec({ stream: stream('Hi', { done: true, error: 'rate\nlimited', final: { type: 'error', key: 'sk-1' } }) }),
      redact,
    );
    assert.equal(parts(done).answer, 'Hi\n\n**The stream reported an error: rate limited**');
    assert.match(
      parts(done).after,
      /### Final event\n\n```json\n\{\n {2}"type": "error",\n {2}"key": "\[key\]"\n\}\n```/,
    );
    assert.match(parts(done).after, /Show Raw Events/);
    // The final text, once the stream ended, is shown as it is (it was redacted whole).
    assert.equal(parts(renderResponse(rec({ finalText: 'final', stream: stream('raw') }), redact)).answer, 'final');
    const parts2 = renderResponseParts(rec({ stream: stream('one\ntwo\nthree') }), same);
    assert.equal(parts2.answerLines, 3, 'the line a growing stream keeps in view');
  });

  it('a stream longer than the display limit shows its end and says how much', () => {
    const text = `${'a'.repeat(DISPLAY_LIMIT)}${'b'.repeat(10)}`;
    const out = renderResponse(rec({ stream: stream(text) }), same).split('\n');
    assert.equal(
      out[0],
      '_Shown: the last 256.0 KB of 256.0 KB. Run "Model Access: Save Response Body" to save all of it._',
    );
    assert.equal(out[2], text.slice(-DISPLAY_LIMIT));
    // The same from the bounded tail of a very long stream.
    const long = stream(`${'x'.repeat(DISPLAY_LIMIT * 2)}end`, { tail: `${'x'.repeat(DISPLAY_LIMIT + 5000)}end` });
    const longLines = renderResponse(rec({ stream: long }), same).split('\n');
    assert.match(longLines[0], /^_Shown: the last 256\.0 KB of 512\.0 KB\./);
    assert.equal(longLines[2].length, DISPLAY_LIMIT);
    assert.ok(longLines[2].endsWith('end'));
    // Exactly at the limit it is whole.
    const exact = renderResponse(rec({ stream: stream('c'.repeat(DISPLAY_LIMIT)) }), same).split('\n');
    assert.equal(exact[0], 'c'.repeat(DISPLAY_LIMIT));
    const finalExact = renderResponse(rec({ finalText: 'f'.repeat(DISPLAY_LIMIT), stream: stream('') }), same);
    assert.ok(!finalExact.includes('Shown:'));
    assert.ok(finalExact.startsWith(`${'f'.repeat(DISPLAY_LIMIT)}\n`));
    const finalOver = 'f'.repeat(DISPLAY_LIMIT + 1);
    const over = renderResponse(rec({ finalText: finalOver, stream: stream(finalOver) }), same).split('\n');
    assert.match(over[0], /^_Shown: the last 256\.0 KB/);
    assert.equal(over[2], finalOver.slice(1));
  });

  it('counts what is hidden after the key is taken out: a text that then fits is shown whole', () => {
    const key = `sk-1${'k'.repeat(60)}`;
    const text = `${'a'.repeat(DISPLAY_LIMIT - 20)}${key}end`;
    const hideKey = (t: string) => t.replaceAll(key, '[key]');
    const out = renderResponse(rec({ stream: stream(text) }), hideKey).split('\n');
    assert.equal(out[0], `${'a'.repeat(DISPLAY_LIMIT - 20)}[key]end`);
  });

  it('cuts a final event longer than the display limit, after taking the key out', () => {
    const final = `sk-1${'z'.repeat(DISPLAY_LIMIT)}`;
    const out = renderResponse(rec({ stream: stream('z', { done: true, final }) }), redact).split('\n');
    const at = out.indexOf('### Final event');
    assert.ok(at > 0);
    assert.equal(out[at + 3].length, DISPLAY_LIMIT);
    assert.ok(out[at + 3].includes('[key]') && !out[at + 3].includes('sk-1'));
  });

  it('says when a body is nested too deeply to indent, or was cut by the client', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) {
      deep = [deep];
    }
    const flat = renderResponse(rec({ status: 200, bodyJson: deep }), same);
    assert.match(flat, /\n### JSON\n\nNested too deeply to indent: shown as one line\.\n/);
    const cut = renderResponse(rec({ status: 200, bodyText: 'part', truncatedByClient: true }), same);
    assert.equal(
      cut,
      'part\n\n---\n\nPOST /v1/chat · 200\n\nThe body was larger than modelAccess.limits.maxResponseMegabytes; it was cut at that limit.\n',
    );
  });

  it('Save Response Body saves the raw events, the text when they were withheld, or the body, without the key', () => {
    const events = ['data: {"delta":"sk-"}', 'data: {"delta":"1"}'];
    const r = rec({ stream: stream('sk-1'), rawEvents: [...events] });
    assert.equal(
      fullBody(rec({ stream: stream('a'), rawEvents: ['data: 1', 'data: 2'] }), redact),
      'data: 1\n\ndata: 2',
    );
    finishStream(r, redact);
    assert.equal(r.finalText, '[key]');
    assert.equal(r.rawEventsWithheld, true);
    assert.equal(r.rawEvents, undefined);
    assert.equal(fullBody(r, redact), '[key]');
    const clean = rec({ stream: stream('plain'), rawEvents: ['data: plain'] });
    finishStream(clean, redact);
    assert.equal(clean.rawEventsWithheld, false);
    assert.deepEqual(clean.rawEvents, ['data: plain']);
    assert.equal(fullBody(rec({ stream: stream('sk-1 text') }), redact), '[key] text');
    assert.equal(fullBody(rec({ bodyText: 'sk-1' }), redact), '[key]');
    assert.equal(fullBody(rec(), redact), undefined);
    const noStream = rec({ bodyText: 'x' });
    finishStream(noStream, redact);
    assert.equal(noStream.finalText, undefined);
  });

  it("the history line is the answer's text on one line, cut after a word, without the key", () => {
    assert.equal(summarize(rec({ error: 'Failed:\n  sk-1 refused  ' }), redact), 'Failed: sk-1 refused');
    assert.equal(summarize(rec({ bodyText: ` a\n\nb ${'c'.repeat(300)}` }), redact), `a b ${'c'.repeat(195)}…`);
    assert.equal(summarize(rec({ bodyText: 'sk-1' }), redact), '[key]');
    assert.equal(summarize(rec({ stream: stream('s sk-1') }), redact), 's [key]');
    assert.equal(summarize(rec({ finalText: 'done', stream: stream('raw') }), redact), 'done');
    assert.equal(summarize(rec(), redact), '');
    const chat = { choices: [{ message: { content: 'The answer, sk-1.' } }], id: 'x' };
    assert.equal(
      summarize(rec({ status: 200, bodyJson: chat, bodyText: JSON.stringify(chat) }), redact),
      'The answer, [key].',
    );
    const vectors = { data: [{ embedding: [1, 0] }, { embedding: [1, 0] }] };
    assert.equal(
      summarize(rec({ status: 200, bodyJson: vectors }), redact),
      '2 vectors × 2 dimensions · cosine similarity 1.000',
    );
    const calls = {
      choices: [{ message: { content: null, tool_calls: [{ function: { name: 'f', arguments: '{}' } }] } }],
    };
    assert.equal(summarize(rec({ status: 200, bodyJson: calls }), redact), 'tool call f({})');
  });

  it('clips after a whole word', () => {
    assert.equal(clip('one two three', 9), 'one two…');
    assert.equal(clip('  short  '), 'short');
    assert.equal(clip('x'.repeat(20), 10), `${'x'.repeat(9)}…`);
  });
});
