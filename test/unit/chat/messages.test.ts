import * as assert from 'node:assert/strict';
import {
  ChatStreamError,
  ChatStreamReader,
  classifyPart,
  readCompletion,
  toChatPayload,
  ToolMode,
  type OutputPart,
  type RequestMessageLike,
} from '../../../src/chat/core/messages';
const textPart = (value: string) => ({ value });
const callPart = (callId: string, name: string, input: object) => ({ callId, name, input });
const resultPart = (callId: string, content: unknown[]) => ({ callId, content });
const dataPart = (mimeType: string, data: Uint8Array) => ({ mimeType, data });
/**
 * vscode.LanguageModelChatMessageRole's values (System from the proposed API, as Copilot sends it), written out
 * here: expectations taken from messages.ts's own table would agree with a swap made there.
 */
const Role = { User: 1, Assistant: 2, System: 3 } as const;
const msg = (role: number, content: unknown[], name?: string): RequestMessageLike => ({ role, content, name });

const plain = { supportsTools: false, supportsImages: false };
const capable = { supportsTools: true, supportsImages: true };

describe('chat: request payload', () => {
  it('maps roles and joins text parts into one content string, with stream: true', () => {
    const payload = toChatPayload(
      'aurora-2',
      [
        msg(Role.System, [textPart('Be brief.')]),
        msg(Role.User, [textPart('Hello, '), textPart('world')], 'ana'),
        msg(Role.Assistant, [textPart('Hi!')]),
      ],
      plain,
    );
    assert.deepEqual(payload, {
      model: 'aurora-2',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello, world', name: 'ana' },
        { role: 'assistant', content: 'Hi!' },
      ],
    });
  });

  it('sends tools, tool calls and tool results in the Chat Completions shape when the model supports tools', () => {
    const tools = [
      {
        name: 'getWeather',
        description: 'Weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'now', description: 'The time' },
    ];
    const payload = toChatPayload(
      'm',
      [
        msg(Role.User, [textPart('Weather in Oslo?')]),
        msg(Role.Assistant, [textPart('Let me check.'), callPart('call_1', 'getWeather', { city: 'Oslo' })]),
        msg(Role.User, [resultPart('call_1', [textPart('12 °C, '), textPart('rain')]), textPart('And tomorrow?')]),
      ],
      { ...capable, tools, toolMode: ToolMode.Required },
    );
    assert.deepEqual(payload.messages, [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '12 °C, rain' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
    assert.deepEqual(payload.tools, [
      {
        type: 'function',
        function: { name: 'getWeather', description: 'Weather for a city', parameters: tools[0].inputSchema },
      },
      {
        type: 'function',
        function: { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } },
      },
    ]);
    assert.equal(payload.tool_choice, 'required');
    const auto = toChatPayload('m', [msg(Role.User, [textPart('x')])], {
      ...capable,
      tools,
      toolMode: ToolMode.Auto,
    });
    assert.equal(auto.tool_choice, undefined, 'auto is the default and not sent');
  });

  it('an assistant turn with only tool calls has null content; a user turn with only results adds no empty message', () => {
    const payload = toChatPayload(
      'm',
      [msg(Role.Assistant, [callPart('c', 'f', {})]), msg(Role.User, [resultPart('c', ['done'])])],
      capable,
    );
    assert.deepEqual(payload.messages, [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'done' },
    ]);
  });

  it('without tool support: no tools are sent and tool parts are kept as text', () => {
    const payload = toChatPayload(
      'm',
      [
        msg(Role.Assistant, [callPart('c', 'lookup', { q: 1 })]),
        msg(Role.User, [resultPart('c', [textPart('found')])]),
      ],
      { ...plain, tools: [{ name: 'lookup', description: 'd' }], toolMode: ToolMode.Required },
    );
    assert.equal(payload.tools, undefined);
    assert.equal(payload.tool_choice, undefined);
    assert.deepEqual(payload.messages, [
      { role: 'assistant', content: '[called tool lookup with {"q":1}]' },
      { role: 'user', content: '[tool result c] found' },
    ]);
  });

  it('images go as data URLs only to models that take images; textual data becomes text; other data is dropped', () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const content = [
      textPart('What is this?'),
      dataPart('image/png', png),
      dataPart('cache_control', new TextEncoder().encode('ephemeral')),
      dataPart('application/octet-stream', png),
    ];
    assert.deepEqual(toChatPayload('m', [msg(Role.User, content)], capable).messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
        ],
      },
    ]);
    assert.deepEqual(toChatPayload('m', [msg(Role.User, content)], plain).messages, [
      { role: 'user', content: 'What is this?' },
    ]);
    const json = dataPart('application/json', new TextEncoder().encode('{"a":1}'));
    assert.deepEqual(toChatPayload('m', [msg(Role.User, [json])], plain).messages, [
      { role: 'user', content: '{"a":1}' },
    ]);
  });

  it('passes model options through, but never over the fields it owns', () => {
    const payload = toChatPayload('m', [msg(Role.User, ['hi'])], {
      ...plain,
      modelOptions: { temperature: 0.2, max_tokens: 50, model: 'other', stream: false, messages: [] },
    });
    assert.equal(payload.temperature, 0.2);
    assert.equal(payload.max_tokens, 50);
    assert.equal(payload.model, 'm');
    assert.equal(payload.stream, true);
    assert.deepEqual(payload.messages, [{ role: 'user', content: 'hi' }]);
  });

  it('recognises parts by shape; unknown parts are ignored', () => {
    assert.deepEqual(classifyPart({ value: 'x' }), { kind: 'text', text: 'x' });
    assert.deepEqual(classifyPart({ callId: 'a', name: 'n', input: { k: 1 } }), {
      kind: 'toolCall',
      callId: 'a',
      name: 'n',
      input: { k: 1 },
    });
    assert.deepEqual(classifyPart({ callId: 'a', content: [{ value: 'r' }, { value: { tsx: true } }] }), {
      kind: 'toolResult',
      callId: 'a',
      text: 'r{"tsx":true}',
    });
    assert.deepEqual(classifyPart(42), { kind: 'unknown' });
    assert.deepEqual(classifyPart(null), { kind: 'unknown' });
    assert.deepEqual(classifyPart({ name: 'n', input: {} }), { kind: 'unknown' }, 'a tool call needs its call id');
    assert.deepEqual(classifyPart({ something: 'else' }), { kind: 'unknown' });
    const payload = toChatPayload('m', [msg(Role.User, [{ something: 'else' }, textPart('ok')])], plain);
    assert.deepEqual(payload.messages, [{ role: 'user', content: 'ok' }]);
  });

  it('a tool result sends the text of its parts: text, textual data, a summary of binary data, prompt values', () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const payload = toChatPayload(
      'm',
      [
        msg(Role.Assistant, [callPart('c1', 'read', {})]),
        msg(Role.User, [
          resultPart('c1', [
            textPart('a'),
            dataPart('text/plain', new TextEncoder().encode('b')),
            dataPart('image/png', png),
            dataPart('application/octet-stream', new Uint8Array([0])),
            { value: { node: 'tsx' } },
            { value: 7n },
            { value: undefined },
          ]),
          { callId: 'c2', content: 'as a string' },
          { callId: 'c3', content: { not: 'a list' } },
          textPart('Thanks'),
        ]),
      ],
      capable,
    );
    assert.deepEqual(payload.messages.slice(1), [
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: 'ab[image/png data, 4 bytes][application/octet-stream data, 1 byte]{"node":"tsx"}',
      },
      { role: 'tool', tool_call_id: 'c2', content: 'as a string' },
      { role: 'tool', tool_call_id: 'c3', content: '' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('only the assistant sends structured tool calls and only the user sends images; a tool call without input is {}', () => {
    const png = new Uint8Array([1]);
    const payload = toChatPayload(
      'm',
      [
        msg(Role.User, [callPart('u', 'f', { a: 1 })]),
        msg(Role.Assistant, [
          dataPart('image/png', png),
          textPart('Here'),
          { callId: 'x', name: 'g', input: undefined },
        ]),
        msg(Role.User, [dataPart('IMAGE/JPEG', png), dataPart('x-image/png', png)]),
        msg(Role.User, [
          dataPart('CACHE_CONTROL', new Uint8Array([1])),
          dataPart('application/yaml', new TextEncoder().encode('k: v')),
        ]),
      ],
      { ...capable, tools: [] },
    );
    assert.equal(payload.tools, undefined, 'an empty tool list sends no tools');
    assert.deepEqual(payload.messages, [
      { role: 'user', content: '[called tool f with {"a":1}]' },
      {
        role: 'assistant',
        content: 'Here',
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'g', arguments: '{}' } }],
      },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:IMAGE/JPEG;base64,AQ==' } }] },
      { role: 'user', content: 'k: v' },
    ]);
  });

  it('an image from the assistant is not sent; an empty turn is kept; arguments that JSON cannot write are {}', () => {
    const payload = toChatPayload(
      'm',
      [
        msg(Role.Assistant, [dataPart('image/png', new Uint8Array([1])), textPart('Here')]),
        msg(Role.User, []),
        msg(Role.Assistant, [callPart('c', 'count', { n: 10n })]),
      ],
      capable,
    );
    assert.deepEqual(payload.messages, [
      { role: 'assistant', content: 'Here' },
      { role: 'user', content: '' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'count', arguments: '{}' } }],
      },
    ]);
  });

  it('a model option left undefined is not sent; a tool without a schema takes an empty object schema', () => {
    const payload = toChatPayload('m', [msg(Role.User, ['hi'])], {
      ...capable,
      modelOptions: { temperature: undefined, top_p: 0.5 },
      tools: [{ name: 'now', description: 'The time' }],
      toolMode: ToolMode.Auto,
    });
    assert.ok(!('temperature' in payload));
    assert.equal(payload.top_p, 0.5);
    assert.deepEqual(payload.tools, [
      {
        type: 'function',
        function: { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } },
      },
    ]);
    assert.equal(payload.tool_choice, undefined);
  });
});

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
    assert.deepEqual(reader.usage, { total_tokens: 9 });
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
    assert.deepEqual(reader.usage, { total_tokens: 5 });
  });
});
