import * as assert from 'node:assert/strict';
import { AnswerStream } from '../../../../src/domain/answer';

const ev = (json: unknown, event?: string) => ({ event, data: JSON.stringify(json), json });

describe('answer reader: streams', () => {
  it('Chat chunks: text at once, id, model, usage chunk as the final event, [DONE] ends it', () => {
    const s = new AnswerStream();
    assert.deepEqual(
      s.push(ev({ id: 'c1', model: 'aurora-2', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })),
      [],
    );
    assert.deepEqual(s.push(ev({ choices: [{ index: 0, delta: { content: 'Hi' } }] })), [{ kind: 'text', text: 'Hi' }]);
    s.push(ev({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
    assert.deepEqual(s.final, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    assert.equal(s.done, false);
    s.push(ev({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }));
    assert.deepEqual(s.final, { choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } });
    s.push({ data: '[DONE]' });
    assert.equal(s.done, true);
    assert.deepEqual(s.answer(), {
      shape: 'chat',
      text: 'Hi',
      role: 'assistant',
      toolCalls: [],
      usage: { input: 1, output: 2, total: 3 },
      id: 'c1',
      model: 'aurora-2',
      finishReason: 'stop',
    });
  });

  it('nothing read yet: no text, unknown shape; what is not JSON or not an object is skipped', () => {
    const s = new AnswerStream();
    assert.deepEqual(s.answer(), { shape: 'unknown', text: undefined, role: 'assistant', toolCalls: [] });
    assert.deepEqual(s.push({ data: 'not json' }), []);
    assert.deepEqual(s.push(ev('a string')), []);
    assert.equal(s.text, '');
  });

  it('Responses: failed and incomplete responses end the stream with their status and error', () => {
    const failed = new AnswerStream();
    failed.push(
      ev({
        type: 'response.failed',
        response: { id: 'r1', status: 'failed', error: { code: 'server_error', message: 'Down' } },
      }),
    );
    assert.equal(failed.done, true);
    assert.deepEqual(failed.answer().error, { message: 'Down', code: 'server_error', blocked: false });
    assert.equal(failed.answer().finishReason, 'failed');
    const bare = new AnswerStream();
    bare.push(ev({ type: 'response.failed' }));
    assert.equal(bare.answer().error?.message, 'The service reported an error in the middle of its answer.');
    const incomplete = new AnswerStream();
    incomplete.push(ev({ type: 'response.output_text.delta', delta: 'Par' }));
    incomplete.push(
      ev({ type: 'response.incomplete', response: { status: 'incomplete', output_text: 'Partial whole' } }),
    );
    assert.deepEqual([incomplete.answer().text, incomplete.answer().finishReason], ['Par', 'incomplete']);
  });

  it("Responses: the text of a stream that only sent the completed response is that response's", () => {
    const s = new AnswerStream();
    s.push(ev({ type: 'response.created', response: { id: 'resp_1', model: 'm' } }));
    s.push(
      ev({
        type: 'response.completed',
        response: { id: 'resp_1', output_text: 'All at once', usage: { output_tokens: 3 } },
      }),
    );
    assert.deepEqual(
      [s.answer().text, s.answer().id, s.answer().model, s.answer().usage?.output],
      ['All at once', 'resp_1', 'm', 3],
    );
  });

  it('error events, flat or nested, and error chunks; blocked ones say so', () => {
    const flat = new AnswerStream();
    flat.push(ev({ type: 'error', code: 'rate_limit', message: 'Slow down' }));
    assert.deepEqual(flat.answer().error, { message: 'Slow down', code: 'rate_limit', blocked: false });
    assert.equal(flat.done, false);
    const nested = new AnswerStream();
    nested.push(ev({ type: 'error', error: { type: 'content_policy_violation', message: 'No' } }));
    assert.equal(nested.answer().error?.blocked, true);
    const chunk = new AnswerStream();
    chunk.push(ev({ error: "model 'x' not found" }));
    assert.equal(chunk.answer().error?.message, "model 'x' not found");
    const filtered = new AnswerStream();
    filtered.push(ev({ choices: [{ index: 0, delta: { content: 'part' }, finish_reason: 'content_filter' }] }));
    assert.deepEqual([filtered.text, filtered.answer().error?.blocked], ['part', true]);
  });

  it('Ollama lines and any event with a delta or text string (but not a .done text)', () => {
    const s = new AnswerStream();
    s.push(ev({ model: 'llama', message: { role: 'assistant', content: 'ol' }, done: false }));
    s.push(ev({ model: 'llama', message: { content: 'la' }, done: true }));
    s.push(ev({ type: 'message.delta', delta: 'ma' }));
    s.push(ev({ type: 'message', text: '!' }));
    s.push(ev({ type: 'content.done', text: 'not again' }));
    assert.equal(s.text, 'ollama!');
    assert.equal(s.answer().shape, 'message');
  });

  it('Chat tool calls: fragments joined by index; unfinished ones come out at the end', () => {
    const s = new AnswerStream();
    s.push(
      ev({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: 'call_a', function: { name: 'get', arguments: '{"a"' } }] },
          },
        ],
      }),
    );
    assert.deepEqual(s.answer().toolCalls, [{ id: 'call_a', name: 'get', arguments: '{"a"' }], 'what arrived so far');
    s.push(ev({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }] }));
    assert.deepEqual(s.end(), [{ kind: 'toolCall', call: { id: 'call_a', name: 'get', arguments: '{"a":1}' } }]);
    assert.deepEqual(s.end(), [], 'a call comes out once');
    assert.deepEqual(s.answer().toolCalls, [{ id: 'call_a', name: 'get', arguments: '{"a":1}' }]);
  });
});
