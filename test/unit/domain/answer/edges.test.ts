/** The corners of the answer reader that the shape tests do not reach: each assertion is one a person would see differ. */
import * as assert from 'node:assert/strict';
import { AnswerStream, decodeBase64Vector, readAnswer } from '../../../../src/domain/answer';

const ev = (json: unknown, event?: string) => ({ event, data: JSON.stringify(json), json });

describe('answer reader: corners', () => {
  it('an answer lists only the fields it has (no id, model or usage keys when the answer has none)', () => {
    assert.deepEqual(readAnswer({ output_text: 'x' }), {
      shape: 'responses',
      text: 'x',
      role: 'assistant',
      toolCalls: [],
    });
    assert.deepEqual(readAnswer({ choices: [{ message: { content: 'x' } }] }), {
      shape: 'chat',
      text: 'x',
      role: 'assistant',
      toolCalls: [],
    });
    assert.deepEqual(readAnswer({ something: 1, error: null }), {
      shape: 'unknown',
      text: undefined,
      role: 'assistant',
      toolCalls: [],
    });
    assert.deepEqual(readAnswer({ error: { message: 'Bad' } }).error, { message: 'Bad', blocked: false });
    assert.equal(readAnswer({ object: 'response', output: [], error: null }).error, undefined);
  });

  it('roles as the answer gives them; Gemini\'s "model" is the assistant', () => {
    assert.equal(readAnswer({ choices: [{ message: { role: 'tool', content: 'x' } }] }).role, 'tool');
    assert.equal(readAnswer({ role: 'user', content: [{ type: 'text', text: 'x' }] }).role, 'user');
    assert.equal(readAnswer({ content: [{ type: 'text', text: 'x' }] }).role, 'assistant');
    assert.equal(readAnswer({ candidates: [{ content: { role: 'model', parts: [] } }] }).role, 'assistant');
    assert.equal(readAnswer({ candidates: [{ content: { role: 'user', parts: [] } }] }).role, 'user');
    assert.equal(readAnswer({ candidates: [{ content: { parts: [{ text: 'g' }] } }] }).role, 'assistant');
    assert.equal(readAnswer({ message: { role: 'system', content: 'x' } }).role, 'system');
    assert.equal(readAnswer({ message: { content: 'x' } }).role, 'assistant');
    assert.equal(readAnswer({ candidates: [null] }).text, undefined);
    assert.equal(readAnswer({ candidates: [{ finishReason: 'STOP' }] }).error, undefined);
  });

  it('a response.* wrapper only when it is one; content blocks when some are blocks; text parts only', () => {
    assert.equal(readAnswer({ type: 'other', response: { output_text: 'inner' } }).text, undefined);
    assert.equal(readAnswer({ type: 7, response: { output_text: 'inner' } }).text, undefined);
    assert.equal(readAnswer({ content: ['a', { type: 'text', text: 'b' }] }).text, 'b');
    assert.equal(readAnswer({ content: ['a'] }).text, undefined);
    assert.equal(readAnswer({ choices: [{ message: { content: [null, { type: 'image_url' }] } }] }).text, undefined);
    assert.equal(readAnswer({ choices: [{ message: { content: [null, { text: 'k' }] } }] }).text, 'k');
    assert.equal(readAnswer({ object: 'response', output: [{ type: 'message', content: [] }] }).text, undefined);
    assert.equal(
      readAnswer({ object: 'response', output: [{ type: 'web_search_call', content: [{ text: 'no' }] }] }).text,
      undefined,
      "only message items hold the answer's text",
    );
    assert.deepEqual(
      readAnswer({ choices: [{ message: { tool_calls: [{ function: { arguments: null } }] } }] }).toolCalls,
      [{ id: 'call_0', name: '', arguments: '' }],
    );
    assert.deepEqual(readAnswer({ content: [{ type: 'tool_use' }] }).toolCalls, [
      { id: 'call_0', name: '', arguments: '' },
    ]);
    assert.equal(readAnswer({ error: { code: Number.POSITIVE_INFINITY, message: 'x' } }).error?.code, undefined);
  });

  it('base64 vectors: only base64 text of whole float32 values', () => {
    assert.deepEqual(decodeBase64Vector('AACAPw=='), [1]);
    assert.equal(decodeBase64Vector('AACAPw==x'), undefined);
    assert.equal(decodeBase64Vector('x=AACAPw=='), undefined);
    assert.equal(decodeBase64Vector('AACAPw==='), undefined);
    assert.deepEqual(readAnswer({ data: [{ embedding: 'AACAPw==' }] }).vectors, [[1]]);
    assert.equal(readAnswer({ data: [{ embedding: '!!' }] }).vectors, undefined);
  });

  it('Responses stream: a function call from argument deltas alone, shown as it grows, whole at the end', () => {
    const s = new AnswerStream();
    s.push(
      ev({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get' },
      }),
    );
    s.push(ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"a"' }));
    assert.deepEqual(s.answer().toolCalls, [{ id: 'call_1', name: 'get', arguments: '{"a"' }]);
    s.push(ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: ':1}' }));
    s.push(ev({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: 7 }));
    const pieces = s.push(
      ev({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_1' } }),
    );
    assert.deepEqual(pieces, [{ kind: 'toolCall', call: { id: 'call_1', name: 'get', arguments: '{"a":1}' } }]);
    assert.deepEqual(s.answer().toolCalls, [{ id: 'call_1', name: 'get', arguments: '{"a":1}' }]);
  });

  it('Responses stream: .done arguments are the whole arguments; a delta after them adds nothing', () => {
    const s = new AnswerStream();
    s.push(ev({ type: 'response.function_call_arguments.delta', output_index: 3, delta: '{"par' }));
    s.push(ev({ type: 'response.function_call_arguments.done', output_index: 3, arguments: '{"whole":true}' }));
    s.push(ev({ type: 'response.function_call_arguments.delta', output_index: 3, delta: 'late' }));
    s.push(ev({ type: 'response.function_call_arguments.done', output_index: 3 }));
    assert.deepEqual(s.end(), [{ kind: 'toolCall', call: { id: 'call_3', name: '', arguments: '{"whole":true}' } }]);
    const named = new AnswerStream();
    named.push(
      ev({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_2', name: 'n', arguments: '{}' },
      }),
    );
    named.push(ev({ type: 'response.output_item.added', output_index: 1, item: { type: 'message', id: 'msg_1' } }));
    named.push(
      ev({
        type: 'response.output_item.done',
        item: { type: 'function_call', id: 'fc_2', call_id: 'call_x', arguments: '{"b":2}' },
      }),
    );
    named.push(ev({ type: 'response.output_item.done', item: { type: 'message', id: 'msg_1' } }));
    assert.deepEqual(named.answer().toolCalls, [{ id: 'call_x', name: 'n', arguments: '{"b":2}' }]);
    const noId = new AnswerStream();
    noId.push(ev({ type: 'response.output_item.done', item: { type: 'function_call', name: 'z' } }));
    assert.deepEqual(noId.answer().toolCalls, [{ id: 'call_0', name: 'z', arguments: '' }]);
  });

  it("Responses stream: refusal deltas are text; the final response's calls when none streamed; its error", () => {
    const s = new AnswerStream();
    s.push(ev({ type: 'response.refusal.delta', delta: 'No.' }));
    s.push(ev({ type: 'response.output_text.delta', delta: 5 }));
    s.push(
      ev({
        type: 'response.completed',
        response: {
          status: 'completed',
          output: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }],
          usage: { output_tokens: 1 },
        },
      }),
    );
    assert.deepEqual([s.text, s.answer().toolCalls], ['No.', [{ id: 'c', name: 'f', arguments: '{}' }]]);
    const failed = new AnswerStream();
    failed.push(ev({ type: 'response.completed', response: { status: 'failed', error: { message: 'Gone' } } }));
    assert.equal(failed.answer().error?.message, 'Gone');
    const ok = new AnswerStream();
    ok.push(ev({ type: 'response.completed', response: { status: 'completed', error: null } }));
    assert.equal(ok.answer().error, undefined);
    ok.push(ev({ type: 'response.completed', response: { status: 'completed' } }));
    assert.equal(ok.answer().usage, undefined);
    const usage = new AnswerStream();
    usage.push(ev({ choices: [], usage: { total_tokens: 2 } }));
    usage.push(ev({ type: 'response.completed', response: { status: 'completed' } }));
    assert.equal(usage.answer().usage?.total, 2, 'a completed response without usage keeps the usage seen');
  });

  it("Chat stream: the delta's role, an error chunk, usage that is null or not an object, unknown shape until read", () => {
    const s = new AnswerStream();
    s.push(ev({ choices: [{ index: 0, delta: { role: 'tool' } }] }));
    s.push(ev({ choices: [{ index: 0, delta: {} }] }));
    assert.equal(s.answer().role, 'tool');
    s.push(ev({ choices: [], usage: null }));
    assert.equal(s.final, undefined, 'usage: null is no usage chunk');
    s.push(ev({ choices: [], usage: 'lots' }));
    assert.equal(s.answer().usage, undefined, 'usage that is not an object has no counts');
    s.push(ev({ choices: [], error: { message: 'Mid-way' } }));
    assert.equal(s.answer().error?.message, 'Mid-way');
    const clean = new AnswerStream();
    clean.push(ev({ choices: [], error: null }));
    assert.equal(clean.answer().error, undefined);
    assert.equal(clean.answer().shape, 'chat');
  });

  it('Ollama and other services: shape message, the done line is the final event, a chat stays chat', () => {
    const s = new AnswerStream();
    s.push(ev({ message: { content: 'a' }, done: false }));
    assert.equal(s.final, undefined);
    s.push(ev({ message: { content: 'b' }, done: true }));
    assert.deepEqual(s.final, { message: { content: 'b' }, done: true });
    assert.equal(s.answer().shape, 'message');
    const mixed = new AnswerStream();
    mixed.push(ev({ choices: [{ delta: { content: 'c' } }] }));
    mixed.push(ev({ message: { content: 'd' } }));
    mixed.push(ev({ delta: 'e' }));
    mixed.push(ev({ text: 'f' }));
    assert.deepEqual([mixed.text, mixed.answer().shape], ['cdef', 'chat']);
    for (const line of [{ delta: 'x' }, { text: 'x' }]) {
      const one = new AnswerStream();
      one.push(ev(line));
      assert.equal(one.answer().shape, 'message');
    }
    const err = new AnswerStream();
    err.push(ev({ error: null, text: 'fine' }));
    assert.deepEqual([err.text, err.answer().error], ['fine', undefined]);
  });

  it('calls of several indexes come out in index order, ids in name order after them', () => {
    const s = new AnswerStream();
    s.push(
      ev({
        choices: [
          {
            delta: {
              tool_calls: [
                { index: 10, function: { name: 'ten' } },
                { index: 2, function: { name: 'two' } },
              ],
            },
          },
        ],
      }),
    );
    assert.deepEqual(
      s.end().map((p) => (p.kind === 'toolCall' ? p.call.name : '')),
      ['two', 'ten'],
    );
    const r = new AnswerStream();
    r.push(ev({ type: 'response.function_call_arguments.delta', item_id: 'b', delta: '1' }));
    r.push(ev({ type: 'response.function_call_arguments.delta', item_id: 'a', delta: '2' }));
    assert.deepEqual(
      r.answer().toolCalls.map((c) => c.arguments),
      ['2', '1'],
    );
  });
});
