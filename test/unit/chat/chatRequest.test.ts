import * as assert from 'node:assert/strict';
import { classifyPart, toChatPayload, ToolMode, type RequestMessageLike } from '../../../src/chat/core/chatRequest';
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
