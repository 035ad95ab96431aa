import * as assert from 'node:assert/strict';
import {
  DISPLAY_LIMIT,
  finishStream,
  formatBytes,
  fullBody,
  headerLine,
  renderResponse,
  summarize,
  type ResponseRecord,
} from '../../../src/requests/core/responseFormat';
import { newStreamState, type StreamState } from '../../../src/requests/core/streamText';

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

  it('the first line says how the request stands: waiting, streaming, cancelled, failed, stopped, done', () => {
    assert.equal(headerLine(rec()), '// POST /v1/chat · waiting for the answer…');
    assert.equal(headerLine(rec({ stream: stream('', { events: 1 }) })), '// POST /v1/chat · streaming… · 1 event');
    assert.equal(headerLine(rec({ cancelled: true, error: 'x' })), '// POST /v1/chat · cancelled');
    assert.equal(headerLine(rec({ error: 'x' })), '// POST /v1/chat · failed');
    assert.equal(headerLine(rec({ status: 200, cancelled: true })), '// POST /v1/chat · 200 · cancelled');
    assert.equal(
      headerLine(rec({ status: 200, limitReached: true })),
      '// POST /v1/chat · 200 · stopped at the size limit',
    );
    assert.equal(
      headerLine(rec({ status: 200, error: 'broke', stream: stream('') })),
      '// POST /v1/chat · 200 · failed · 2 events',
    );
    assert.equal(headerLine(rec({ status: 500, error: 'broke' })), '// POST /v1/chat · 500');
    assert.equal(
      headerLine(rec({ status: 0, elapsedMs: 0, bytes: 0, requestId: '' })),
      '// POST /v1/chat · 0 · 0 ms · 0 B',
    );
  });

  it('sizes in B, KB and MB', () => {
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1.0 KB');
    assert.equal(formatBytes(1024 * 1024 - 1), '1024.0 KB');
    assert.equal(formatBytes(1024 * 1024), '1.0 MB');
    assert.equal(formatBytes(5.5 * 1024 * 1024), '5.5 MB');
  });

  it('shows the error on one line, and the headers only when asked', () => {
    const r = rec({ status: 400, error: 'Bad\r\nrequest', headers: { 'x-a': 'one\ntwo' }, bodyText: 'b' });
    assert.equal(renderResponse(r, same), '// POST /v1/chat · 400\n// Bad request\nb\n');
    assert.equal(
      renderResponse({ ...r, showHeaders: true, bodyDisplay: undefined }, same),
      '// POST /v1/chat · 400\n// Bad request\n// ── response headers ──\n// x-a: one two\nb\n',
    );
    assert.equal(renderResponse(rec({ showHeaders: true }), same), '// POST /v1/chat · waiting for the answer…\n');
    assert.equal(renderResponse(rec({ error: 'one\ntwo' }), same), '// POST /v1/chat · failed\n// one two\n');
  });

  it('a stream shows its text, whether it is still growing, its error and its final event, without the key', () => {
    const growing = renderResponse(rec({ stream: stream('Hello sk-1') }), redact);
    assert.equal(
      growing,
      '// POST /v1/chat · streaming… · 2 events\n// ── output text (growing as it arrives) ──\nHello [key]\n',
    );
    const answered = renderResponse(rec({ status: 200, elapsedMs: 5, stream: stream('Hi') }), redact);
    assert.match(answered, /\n\/\/ ── output text ──\nHi\n$/);
    assert.match(renderResponse(rec({ status: 200, stream: stream('Hi') }), redact), /growing as it arrives/);
    assert.match(renderResponse(rec({ elapsedMs: 5, stream: stream('Hi') }), redact), /growing as it arrives/);
    const done = renderResponse(
      rec({ stream: stream('Hi', { done: true, error: 'rate\nlimited', final: { type: 'error', key: 'sk-1' } }) }),
      redact,
    );
    assert.equal(
      done.split('\n').slice(1).join('\n'),
      '// ── output text ──\nHi\n// the stream reported an error: rate limited\n// ── final event ──\n{\n  "type": "error",\n  "key": "[key]"\n}\n',
    );
    // The final text, once the stream ended, is shown as it is (it was redacted whole).
    assert.match(renderResponse(rec({ finalText: 'final', stream: stream('raw') }), redact), /\nfinal\n$/);
  });

  it('a stream longer than the display limit shows its end and says how much', () => {
    const text = `${'a'.repeat(DISPLAY_LIMIT)}${'b'.repeat(10)}`;
    const out = renderResponse(rec({ stream: stream(text) }), same).split('\n');
    assert.equal(
      out[2],
      '// Shown: the last 256.0 KB of 256.0 KB. Run "Model Access: Save Response Body" to save all of it.',
    );
    assert.equal(out[3], text.slice(-DISPLAY_LIMIT));
    assert.ok(out[3].endsWith('b'.repeat(10)));
    // The same from the bounded tail of a very long stream.
    const long = stream(`${'x'.repeat(DISPLAY_LIMIT * 2)}end`, { tail: `${'x'.repeat(DISPLAY_LIMIT + 5000)}end` });
    const longLines = renderResponse(rec({ stream: long }), same).split('\n');
    const shown = longLines[3];
    assert.equal(
      longLines[2],
      '// Shown: the last 256.0 KB of 512.0 KB. Run "Model Access: Save Response Body" to save all of it.',
    );
    assert.equal(shown.length, DISPLAY_LIMIT);
    assert.ok(shown.endsWith('end'));
    // Exactly at the limit it is whole.
    const exact = renderResponse(rec({ stream: stream('c'.repeat(DISPLAY_LIMIT)) }), same).split('\n');
    assert.equal(exact[2], 'c'.repeat(DISPLAY_LIMIT));
    const finalExact = renderResponse(rec({ finalText: 'f'.repeat(DISPLAY_LIMIT), stream: stream('') }), same);
    assert.ok(!finalExact.includes('Shown:'));
    assert.ok(finalExact.endsWith(`\n${'f'.repeat(DISPLAY_LIMIT)}\n`));
    const finalOver = 'f'.repeat(DISPLAY_LIMIT + 1);
    const over = renderResponse(rec({ finalText: finalOver, stream: stream(finalOver) }), same).split('\n');
    assert.match(over[2], /^\/\/ Shown: the last 256\.0 KB/);
    assert.equal(over[3], finalOver.slice(1));
  });

  it('counts what is hidden after the key is taken out: a text that then fits is shown whole', () => {
    const key = `sk-1${'k'.repeat(60)}`;
    const text = `${'a'.repeat(DISPLAY_LIMIT - 20)}${key}end`;
    const hideKey = (t: string) => t.replaceAll(key, '[key]');
    const out = renderResponse(rec({ stream: stream(text) }), hideKey).split('\n');
    assert.equal(out[1], '// ── output text (growing as it arrives) ──');
    assert.equal(out[2], `${'a'.repeat(DISPLAY_LIMIT - 20)}[key]end`);
  });

  it('cuts a final event longer than the display limit, after taking the key out', () => {
    const final = `sk-1${'z'.repeat(DISPLAY_LIMIT)}`;
    const out = renderResponse(rec({ stream: stream('z', { done: true, final }) }), redact).split('\n');
    const at = out.indexOf('// ── final event ──');
    assert.ok(at > 0);
    assert.equal(out[at + 1].length, DISPLAY_LIMIT);
    assert.ok(out[at + 1].includes('[key]') && !out[at + 1].includes('sk-1'));
  });

  it('says when a body is nested too deeply to indent, or was cut by the client', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) {
      deep = [deep];
    }
    const flat = renderResponse(rec({ status: 200, bodyJson: deep }), same).split('\n');
    assert.equal(flat[1], '// Nested too deeply to indent: shown as one line.');
    const cut = renderResponse(rec({ status: 200, bodyText: 'part', truncatedByClient: true }), same);
    assert.equal(
      cut,
      '// POST /v1/chat · 200\npart\n// The body was larger than modelAccess.limits.maxResponseMegabytes; it was cut at that limit.\n',
    );
    const exact = renderResponse(rec({ status: 200, bodyText: 'e'.repeat(DISPLAY_LIMIT) }), same);
    assert.ok(!exact.includes('Shown:'));
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

  it('the history line is one line of at most 200 characters, without the key', () => {
    assert.equal(summarize(rec({ error: 'Failed:\n  sk-1 refused  ' }), redact), 'Failed: sk-1 refused');
    assert.equal(summarize(rec({ bodyText: ` a\n\nb ${'c'.repeat(300)}` }), redact), `a b ${'c'.repeat(196)}`);
    assert.equal(summarize(rec({ bodyText: 'sk-1' }), redact), '[key]');
    assert.equal(summarize(rec({ stream: stream('s sk-1') }), redact), 's [key]');
    assert.equal(summarize(rec({ finalText: 'done', stream: stream('raw') }), redact), 'done');
    assert.equal(summarize(rec(), redact), '');
  });
});
