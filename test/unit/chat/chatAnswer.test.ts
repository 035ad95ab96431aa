import * as assert from 'node:assert/strict';
import {
  ChatStreamError,
  ChatStreamReader,
  offeredCallsOnly,
  readCompletion,
  type OutputPart,
} from '../../../src/chat/core/chatAnswer';

/** `chat.completion.chunk` as the local service and OpenAI send it. */
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

function readAll(chunks: unknown[]): OutputPart[] {
  const reader = new ChatStreamReader();
  return [...chunks.flatMap((c) => reader.push(c)), ...reader.end()];
}

describe('chat: streamed answer', () => {
  it('yields each text delta as it comes, skipping the empty role chunk and the usage chunk', () => {
    const reader = new ChatStreamReader();
    assert.deepEqual(reader.push(chunk({ role: 'assistant', content: '', refusal: null })), []);
    assert.deepEqual(reader.push(chunk({ content: 'You ' })), [{ kind: 'text', text: 'You' + ' ' }]);
    assert.deepEqual(reader.push(chunk({ content: 'wrote' })), [{ kind: 'text', text: 'wrote' }]);
    assert.deepEqual(reader.push(chunk({}, 'stop')), []);
    assert.deepEqual(reader.push({ object: 'chat.completion.chunk', choices: [], usage: { total_tokens: 9 } }), []);
    assert.deepEqual(reader.end(), []);
    assert.equal(reader.finishReason, 'stop');
    assert.deepEqual(reader.usage, { input: undefined, output: undefined, total: 9 });
  });

  it('assembles tool calls from fragments and emits them when the choice finishes', () => {
    const parts = readAll([
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'getWeather', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'now', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    assert.deepEqual(parts, [
      { kind: 'toolCall', callId: 'call_a', name: 'getWeather', input: { city: 'Oslo' } },
      { kind: 'toolCall', callId: 'call_b', name: 'now', input: {} },
    ]);
  });

  it('emits unfinished tool calls at the end, with a made-up id when the service gave none', () => {
    assert.deepEqual(readAll([chunk({ tool_calls: [{ function: { name: 'f', arguments: '[1]' } }] })]), [
      { kind: 'toolCall', callId: 'call_0', name: 'f', input: { value: [1] } },
    ]);
  });

  it('fails on tool arguments that are not JSON', () => {
    assert.throws(
      () =>
        readAll([
          chunk({ tool_calls: [{ index: 0, id: 'x', function: { name: 'f', arguments: '{"a":' } }] }, 'tool_calls'),
        ]),
      ChatStreamError,
    );
  });

  it('a content-filter stop and error chunks throw, blocked or not', () => {
    assert.throws(
      () => readAll([chunk({ content: 'partial' }), chunk({}, 'content_filter')]),
      (e: unknown) => e instanceof ChatStreamError && e.kind === 'blocked',
    );
    assert.throws(
      () => readAll([{ error: { message: 'Model overloaded', code: 'server_error' } }]),
      (e: unknown) => e instanceof ChatStreamError && e.kind === 'error' && e.message === 'Model overloaded',
    );
    assert.throws(
      () => readAll([{ type: 'error', error: { type: 'content_policy_violation', message: 'Refused by policy' } }]),
      (e: unknown) => e instanceof ChatStreamError && e.kind === 'blocked' && e.message === 'Refused by policy',
    );
    assert.throws(() => readAll([{ error: "model 'x' not found" }]), ChatStreamError);
  });

  it('reads a non-streamed chat.completion, other choices ignored', () => {
    const parts = readCompletion({
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Whole answer',
            tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
          finish_reason: 'tool_calls',
        },
        { index: 1, message: { role: 'assistant', content: 'Second choice' }, finish_reason: 'stop' },
      ],
    });
    assert.deepEqual(parts, [
      { kind: 'text', text: 'Whole answer' },
      { kind: 'toolCall', callId: 't', name: 'f', input: { a: 1 } },
    ]);
  });

  it('ignores what is not a chunk', () => {
    assert.deepEqual(readAll([undefined, 'text', 3, { choices: 'no' }]), []);
  });

  it('reads text from content lists, refusals and Ollama-style lines; only choice 0 counts', () => {
    assert.deepEqual(
      readAll([
        chunk({
          content: [{ type: 'text', text: 'A' }, { type: 'text', text: '' }, { type: 'image' }, 'B', { text: 'C' }],
        }),
        chunk({ refusal: 'I cannot help with that.' }),
        chunk({ refusal: '' }),
        { choices: [{ index: 1, delta: { content: 'other choice' } }] },
        { choices: [{ delta: { content: 'no index' } }] },
        { model: 'llama', message: { role: 'assistant', content: 'ollama' }, done: false },
        { choices: [{ index: 0 }], message: { content: 'not read: the chunk has choices' } },
      ]),
      [
        { kind: 'text', text: 'A' },
        { kind: 'text', text: 'C' },
        { kind: 'text', text: 'I cannot help with that.' },
        { kind: 'text', text: 'no index' },
        { kind: 'text', text: 'ollama' },
      ],
    );
  });

  it('assembles tool calls in index order, with object arguments and blank arguments as {}', () => {
    assert.deepEqual(
      readAll([
        chunk({
          tool_calls: [
            { index: 2, id: 'c2', function: { name: 'second', arguments: { a: 1 } } },
            null,
            { index: 1, id: '', function: { name: 'fir', arguments: '  ' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 1, id: 'c1', function: { name: 'st' } }] }),
        chunk({}, 'tool_calls'),
      ]),
      [
        { kind: 'toolCall', callId: 'c1', name: 'first', input: {} },
        { kind: 'toolCall', callId: 'c2', name: 'second', input: { a: 1 } },
      ],
    );
  });

  it('a call whose id stays empty gets a made-up one; arguments that are not an object come wrapped', () => {
    assert.deepEqual(
      readAll([
        chunk({ tool_calls: [{ index: 0, id: '', function: { name: 'f', arguments: '"text"' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'c1', function: { name: 'g', arguments: '5' } }] }),
      ]),
      [
        { kind: 'toolCall', callId: 'call_0', name: 'f', input: { value: 'text' } },
        { kind: 'toolCall', callId: 'c1', name: 'g', input: { value: 5 } },
      ],
    );
  });

  it('says which tool got arguments that are not JSON', () => {
    assert.throws(
      () => readAll([chunk({ tool_calls: [{ id: 'x', function: { name: 'getWeather', arguments: '{"a":' } }] })]),
      (e: unknown) =>
        e instanceof ChatStreamError &&
        e.kind === 'error' &&
        e.message === 'The model called the tool "getWeather" with arguments that are not valid JSON.',
    );
  });

  it('an error in the stream keeps its code and message, or says the service reported an error', () => {
    const thrown = (chunkWithError: unknown): ChatStreamError => {
      try {
        readAll([chunkWithError]);
      } catch (e) {
        assert.ok(e instanceof ChatStreamError);
        return e;
      }
      assert.fail('no error was thrown');
    };
    const numeric = thrown({ error: { code: 500 } });
    assert.deepEqual(
      [numeric.kind, numeric.code, numeric.message],
      ['error', '500', 'The service reported an error in the middle of its answer.'],
    );
    const typed = thrown({ error: { code: ' ', type: 'server_error', message: ' ' } });
    assert.deepEqual(
      [typed.kind, typed.code, typed.message],
      ['error', 'server_error', 'The service reported an error in the middle of its answer.'],
    );
    const text = thrown({ error: 'Blocked by the safety system' });
    assert.deepEqual([text.kind, text.message], ['blocked', 'Blocked by the safety system']);
    assert.equal(thrown({ error: 'overloaded' }).kind, 'error');
    const filtered = thrown(chunk({}, 'content_filter'));
    assert.deepEqual(
      [filtered.name, filtered.code, filtered.message],
      ['ChatStreamError', 'content_filter', 'The service stopped the answer: its content filter blocked it.'],
    );
    assert.deepEqual(readAll([{ error: null, choices: [] }]), []);
  });

  it('keeps the usage the service sent, not an empty one after it', () => {
    const reader = new ChatStreamReader();
    reader.push({ choices: [], usage: { total_tokens: 5 } });
    reader.push({ choices: [], usage: null });
    reader.push({ choices: [] });
    assert.deepEqual(reader.usage, { input: undefined, output: undefined, total: 5 });
  });
});

describe('chat: only the tools offered', () => {
  const call = (name: string): OutputPart => ({ kind: 'toolCall', callId: 'c1', name, input: { city: 'Paris' } });

  it('passes on a call to a tool VS Code offered with the request', () => {
    assert.deepEqual(offeredCallsOnly(call('get_weather'), new Set(['get_weather'])), call('get_weather'));
  });

  it('turns a call to a tool never offered into a line of text saying so, its name shown as text', () => {
    const part = offeredCallsOnly(call('run_in_terminal'), new Set(['get_weather']));
    assert.equal(part.kind, 'text');
    assert.match(part.kind === 'text' ? part.text : '', /not offered, "run_in_terminal"; the call was left out/);
    const none = offeredCallsOnly(call('get_weather'), new Set());
    assert.equal(none.kind, 'text', 'no tools were sent: no call goes on');
    const hostile = offeredCallsOnly(call('x\u202e\u001b[2Kevil'), new Set());
    assert.doesNotMatch(hostile.kind === 'text' ? hostile.text : '', /[\u202e\u001b]/);
  });

  it('leaves text alone', () => {
    assert.deepEqual(offeredCallsOnly({ kind: 'text', text: 'hi' }, new Set()), { kind: 'text', text: 'hi' });
  });
});
