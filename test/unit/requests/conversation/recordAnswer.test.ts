// Reply against every answer shape the client reads: the record's answer (through the shared reader),
// appended to a payload. Bodies and event sequences come from the local service where it has them.
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { answerOfRecord, withoutSecrets } from '../../../../src/requests/conversation/core/recordAnswer';
import { appendReply } from '../../../../src/requests/conversation/core/edits';
import type { ResponseRecord } from '../../../../src/requests/answers/core/responseFormat';
import { addEvent, newStreamState } from '../../../../src/requests/send/core/streamText';
import { chatAnswer, responsesAnswer } from '../../../server/conversation';
import type { SseEvent } from '../../../server/streaming';

const SPACES = { insertSpaces: true, tabSize: 2, eol: '\n' };
const CHAT_PAYLOAD = '// POST /v1/chat\n{"messages": [{"role": "user", "content": "Hi"}]}';
const RESPONSES_PAYLOAD = '// POST /v1/responses\n{"input": "Hi"}';

function bodyRecord(endpoint: string, body: { json?: unknown; text?: string }, extra: Partial<ResponseRecord> = {}) {
  return {
    method: 'POST',
    endpoint,
    startedAt: 0,
    status: 200,
    elapsedMs: 5,
    bodyJson: body.json,
    bodyText: body.text ?? (body.json === undefined ? undefined : JSON.stringify(body.json)),
    ...extra,
  } satisfies ResponseRecord;
}

function streamRecord(endpoint: string, events: readonly SseEvent[], extra: Partial<ResponseRecord> = {}) {
  const stream = newStreamState();
  for (const e of events) {
    addEvent(stream, { event: e.event, data: e.data, json: e.data === '[DONE]' ? undefined : JSON.parse(e.data) });
  }
  return {
    method: 'POST',
    endpoint,
    startedAt: 0,
    status: 200,
    elapsedMs: 5,
    stream,
    ...extra,
  } satisfies ResponseRecord;
}

/** What Reply appends for the record, as the payload's turns after the first. */
function replied(payload: string, record: ResponseRecord): unknown[] {
  const read = answerOfRecord(record);
  assert.ok(read && !read.arriving);
  const edit = appendReply(payload, read.answer, SPACES);
  assert.ok(edit.ok, edit.ok ? '' : edit.problem);
  const value = parse(edit.text) as { messages?: unknown[]; input?: unknown[] };
  return (value.messages ?? value.input ?? []).slice(1);
}

const TOOLS = [{ type: 'function', function: { name: 'lookup' } }];

describe('conversation: the answer of a record, in every shape', () => {
  const chat = chatAnswer('m', { messages: [{ role: 'user', content: 'Hi' }] });
  const text = (chat.json as { choices: { message: { content: string } }[] }).choices[0].message.content;

  it('Chat Completions, whole and streamed: the same text is appended', () => {
    const whole = replied(CHAT_PAYLOAD, bodyRecord('/v1/chat', { json: chat.json }));
    const streamed = replied(CHAT_PAYLOAD, streamRecord('/v1/chat', chat.events));
    assert.deepEqual(whole, [
      { role: 'assistant', content: text },
      { role: 'user', content: '' },
    ]);
    assert.deepEqual(streamed, whole);
  });

  it('Chat tool calls, whole and streamed in argument fragments: the call and one tool turn', () => {
    const call = chatAnswer('m', { messages: [{ role: 'user', content: 'Hi' }], tools: TOOLS });
    const whole = replied(CHAT_PAYLOAD, bodyRecord('/v1/chat', { json: call.json }));
    const streamed = replied(CHAT_PAYLOAD, streamRecord('/v1/chat', call.events));
    const first = whole[0] as { tool_calls: { id: string; function: { name: string; arguments: string } }[] };
    assert.equal(first.tool_calls[0].function.name, 'lookup');
    assert.deepEqual(JSON.parse(first.tool_calls[0].function.arguments), { input: 'Hi' });
    assert.deepEqual(whole[1], { role: 'tool', tool_call_id: first.tool_calls[0].id, content: '' });
    assert.deepEqual(streamed, whole);
  });

  it('Responses, whole (output[]) and streamed (output_text deltas): the same text, and the response id', () => {
    const answer = responsesAnswer('m', { input: 'Hi' });
    const json = answer.json as { id: string; output: { content: { text: string }[] }[] };
    const whole = replied(RESPONSES_PAYLOAD, bodyRecord('/v1/responses', { json }));
    assert.deepEqual(whole, [
      { role: 'assistant', content: json.output[0].content[0].text },
      { role: 'user', content: '' },
    ]);
    assert.deepEqual(replied(RESPONSES_PAYLOAD, streamRecord('/v1/responses', answer.events)), whole);
    const read = answerOfRecord(streamRecord('/v1/responses', answer.events));
    assert.equal(read?.answer.id, json.id);
    assert.equal(answerOfRecord(bodyRecord('/v1/responses', { json }))?.answer.id, json.id);
  });

  it('an output_text convenience field, a top-level message/output/text string, and a plain-text body', () => {
    const cases: Array<[string, { json?: unknown; text?: string }]> = [
      ['from output_text', { json: { object: 'response', output_text: 'from output_text' } }],
      ['from message', { json: { message: 'from message' } }],
      ['from output', { json: { output: 'from output' } }],
      ['from text', { json: { text: 'from text' } }],
      ['plain words', { text: 'plain words' }],
    ];
    for (const [expected, body] of cases) {
      assert.deepEqual(
        replied(CHAT_PAYLOAD, bodyRecord('/v1/chat', body))[0],
        { role: 'assistant', content: expected },
        JSON.stringify(body),
      );
    }
  });

  it('an answer without text the reader can find: nothing to append', () => {
    const read = answerOfRecord(bodyRecord('/v1/chat', { json: { unrelated: true } }));
    assert.ok(read);
    assert.equal(read.answer.text, undefined);
    assert.equal(appendReply(CHAT_PAYLOAD, read.answer, SPACES).ok, false);
  });

  it('an error body is an error, not a cut answer', () => {
    const read = answerOfRecord(
      bodyRecord(
        '/v1/chat',
        { json: { error: { message: 'model not found', code: 'not_found' } } },
        {
          status: 404,
          // As the exchange records it: the failure, and the body the service sent.
          error: 'HTTP 404: model not found',
        },
      ),
    );
    assert.equal(read?.answer.error?.message, 'model not found');
    assert.equal(read?.cut, undefined);
  });

  it('says how an answer stopped short', () => {
    const events = chat.events.slice(0, 3);
    assert.equal(answerOfRecord(streamRecord('/v1/chat', events, { cancelled: true }))?.cut, 'cancelled');
    assert.equal(answerOfRecord(streamRecord('/v1/chat', events, { limitReached: true }))?.cut, 'limit');
    assert.equal(answerOfRecord(streamRecord('/v1/chat', events, { error: 'reset' }))?.cut, 'failed');
    assert.equal(
      answerOfRecord(bodyRecord('/v1/chat', { text: '{"choices": [' }, { truncatedByClient: true }))?.cut,
      'truncated',
    );
    const length = {
      choices: [{ index: 0, message: { role: 'assistant', content: 'cut' }, finish_reason: 'length' }],
    };
    assert.equal(answerOfRecord(bodyRecord('/v1/chat', { json: length }))?.cut, 'length');
    const incomplete = {
      object: 'response',
      status: 'incomplete',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'half' }] }],
    };
    assert.equal(answerOfRecord(bodyRecord('/v1/responses', { json: incomplete }))?.cut, 'length');
    assert.equal(answerOfRecord(bodyRecord('/v1/chat', { json: chat.json }))?.cut, undefined);
    assert.equal(answerOfRecord(streamRecord('/v1/chat', chat.events))?.cut, undefined);
  });

  it('an answer still arriving, and a record with no answer yet', () => {
    const arriving = answerOfRecord(streamRecord('/v1/chat', chat.events.slice(0, 4), { elapsedMs: undefined }));
    assert.equal(arriving?.arriving, true);
    assert.ok((arriving?.answer.text ?? '').length > 0);
    assert.equal(answerOfRecord({ method: 'POST', endpoint: '/v1/chat', startedAt: 0 }), undefined);
    assert.equal(
      answerOfRecord({ method: 'POST', endpoint: '/v1/chat', startedAt: 0, elapsedMs: 3, error: 'refused' }),
      undefined,
    );
  });

  it('takes secrets out of the text and the tool calls', () => {
    const redact = (t: string) => t.replaceAll('sk-secret', '[redacted]');
    const clean = withoutSecrets(
      {
        shape: 'chat',
        text: 'key sk-secret',
        role: 'assistant',
        toolCalls: [{ id: 'c-sk-secret', name: 'sk-secret', arguments: '{"k":"sk-secret"}' }],
        id: 'x',
      },
      redact,
    );
    assert.equal(clean.text, 'key [redacted]');
    assert.deepEqual(clean.toolCalls, [{ id: 'c-[redacted]', name: '[redacted]', arguments: '{"k":"[redacted]"}' }]);
    assert.equal(clean.id, 'x');
    assert.equal(
      withoutSecrets({ shape: 'unknown', text: undefined, role: 'assistant', toolCalls: [] }, redact).text,
      undefined,
    );
  });
});
