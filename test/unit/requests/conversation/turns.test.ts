import * as assert from 'node:assert/strict';
import { isBlank, readConversation, turnAt, type Conversation } from '../../../../src/requests/conversation/core/turns';

function read(text: string, endpoint?: string): Conversation {
  const r = readConversation(text, endpoint);
  assert.ok(r.ok, r.ok ? '' : r.problem);
  return r.conversation;
}

function problem(text: string, endpoint?: string): string {
  const r = readConversation(text, endpoint);
  assert.equal(r.ok, false);
  return r.ok ? '' : r.problem;
}

describe('conversation turns', () => {
  it('reads the messages of a Chat payload with their roles, text and places', () => {
    const text = `// POST /v1/chat
{
  "model": "m", // a comment
  "messages": [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi {{name}}"}
  ]
}`;
    const c = read(text);
    assert.equal(c.kind, 'chat');
    assert.equal(c.key, 'messages');
    assert.equal(c.single, false);
    assert.deepEqual(
      c.turns.map((t) => [t.index, t.role, t.text]),
      [
        [0, 'system', 'Be brief.'],
        [1, 'user', 'Hi {{name}}'],
      ],
    );
    const user = c.turns[1];
    assert.equal(text.slice(user.offset, user.offset + user.length), '{"role": "user", "content": "Hi {{name}}"}');
    assert.equal(text.slice(user.content!.offset, user.content!.offset + user.content!.length), '"Hi {{name}}"');
    assert.equal(user.content!.type, 'string');
    assert.equal(text.slice(c.offset, c.offset + 1), '[');
    assert.equal(text.slice(c.offset + c.length - 1, c.offset + c.length), ']');
    assert.equal(text.slice(c.lastProperty.offset, c.lastProperty.offset + 10), '"messages"');
    assert.equal(c.previousResponseId, undefined);
  });

  it('reads content parts of both APIs: text, refusal, images, files', () => {
    const c = read(
      JSON.stringify({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'one' },
              'two',
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
              { type: 'input_image', image_url: 'https://x.test/a.png' },
              { type: 'input_file', file_id: 'file-1' },
              { type: 'file', file: { file_id: 'file-2' } },
              { type: 'file', file: { filename: 'b.pdf' } },
              { type: 'input_file', filename: 'c.pdf' },
              { type: 'refusal', refusal: 'no' },
              7,
              null,
              { type: 'input_audio' },
            ],
          },
        ],
      }),
    );
    const t = c.turns[0];
    assert.equal(t.text, 'one\n\ntwo\n\nno');
    assert.deepEqual(t.images, ['data:image/png;base64,AAAA', 'https://x.test/a.png']);
    assert.deepEqual(t.files, ['file-1', 'file-2', 'b.pdf', 'c.pdf']);
    assert.equal(t.content!.type, 'array');
    assert.ok(t.content!.last);
  });

  it('reads an assistant turn with tool calls and a tool result turn', () => {
    const c = read(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
              { id: 2, function: { name: 'g', arguments: { b: 2 } } },
              { id: 'call_3' },
              'not a call',
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'result' },
          { content: 'no role', tool_call_id: 5 },
        ],
      }),
    );
    assert.deepEqual(c.turns[1].toolCalls, [
      { id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { id: '2', name: 'g', arguments: '{"b":2}' },
      { id: 'call_3', name: '', arguments: '' },
    ]);
    assert.equal(c.turns[1].text, '');
    assert.equal(c.turns[2].role, 'tool');
    assert.equal(c.turns[2].toolCallId, 'call_1');
    assert.equal(c.turns[3].role, 'unknown');
    assert.equal(c.turns[3].toolCallId, undefined);
  });

  it('reads a Responses input string as one user turn', () => {
    const text = '// POST /v1/responses\n{"model": "m", "input": "Hello"}';
    const c = read(text);
    assert.equal(c.kind, 'responses');
    assert.equal(c.key, 'input');
    assert.equal(c.single, true);
    assert.equal(c.turns.length, 1);
    assert.deepEqual(
      [c.turns[0].role, c.turns[0].text, c.turns[0].images, c.turns[0].files, c.turns[0].toolCalls],
      ['user', 'Hello', [], [], []],
    );
    assert.equal(text.slice(c.offset, c.offset + c.length), '"Hello"');
    assert.equal(c.turns[0].content?.type, 'string');
  });

  it('reads a Responses input list: messages, function calls and their outputs', () => {
    const c = read(
      JSON.stringify({
        previous_response_id: 'resp_1',
        input: [
          { role: 'user', content: [{ type: 'input_text', text: 'q' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'done' },
          { type: 'function_call_output', call_id: 'c2', output: { ok: true } },
          { type: 'function_call_output', call_id: 'c3' },
          { type: 'reasoning' },
          { content: 'neither' },
        ],
      }),
      '/v1/responses',
    );
    assert.deepEqual(
      c.turns.map((t) => [t.role, t.text]),
      [
        ['user', 'q'],
        ['assistant', 'a'],
        ['assistant', ''],
        ['tool', 'done'],
        ['tool', '{"ok":true}'],
        ['tool', ''],
        ['reasoning', ''],
        ['unknown', 'neither'],
      ],
    );
    assert.equal(c.key, 'input');
    assert.equal(c.single, false);
    assert.equal(c.turns[0].content?.type, 'array');
    assert.deepEqual(c.turns[2].toolCalls, [{ id: 'c1', name: 'f', arguments: '{}' }]);
    assert.deepEqual([c.turns[2].images, c.turns[2].files, c.turns[3].images, c.turns[3].files], [[], [], [], []]);
    assert.equal(c.turns[3].toolCallId, 'c1');
    assert.equal(c.turns[3].content?.type, 'string');
    assert.equal(c.turns[6].content, undefined);
    assert.ok(c.previousResponseId);
  });

  it('takes the endpoint from the header, the caller, or the payload keys', () => {
    assert.equal(read('{"messages": [], "input": "x"}').kind, 'chat');
    assert.equal(read('{"input": []}').kind, 'responses');
    assert.equal(read('{"messages": [], "input": "x"}', 'v1/responses/').kind, 'responses');
    assert.equal(read('// POST /v1/responses\n{"input": "x", "messages": []}').kind, 'responses');
    assert.equal(read('// POST /v1/chat\n{"messages": []}', '/v1/chat').turns.length, 0);
  });

  it('names each problem and the way out', () => {
    assert.match(problem('{"messages": [}'), /not valid JSON/);
    assert.match(problem(''), /not valid JSON/);
    assert.match(problem('[1]'), /not a JSON object/);
    assert.match(
      problem('// POST /v1/embeddings\n{"input": ["x"]}'),
      /\/v1\/chat or \/v1\/responses.*\/v1\/embeddings/,
    );
    assert.match(problem('{"model": "m"}'), /no "messages".*or "input"/);
    assert.match(problem('{"messages": "hi"}'), /"messages" is not a list of turns/);
    assert.match(problem('// POST /v1/chat\n{"model": "m"}'), /has no "messages" list/);
    assert.match(problem('{"messages": [{"role": "user"}, "hi"]}'), /Turn 2 of "messages" is not an object/);
    assert.match(problem('{"input": {"role": "user"}}'), /"input" is not a list of turns/);
    assert.match(problem('// POST /v1/responses\n{"model": "m"}'), /has no "input" list/);
    assert.match(problem('{"input": [null]}'), /Turn 1 of "input" is not an object/);
  });

  it('finds the turn under an offset, brackets included', () => {
    const text = '{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}';
    const c = read(text);
    const second = c.turns[1];
    assert.equal(turnAt(c, second.offset)?.index, 1);
    assert.equal(turnAt(c, second.offset + second.length)?.index, 1);
    assert.equal(turnAt(c, second.offset - 1), undefined);
    assert.equal(turnAt(c, second.offset + second.length + 1), undefined);
    assert.equal(turnAt(c, 0), undefined);
  });

  it('calls a turn blank only when it carries nothing', () => {
    const c = read(
      JSON.stringify({
        messages: [
          { role: 'user', content: '  ' },
          { role: 'user', content: 'x' },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://a' } }] },
          { role: 'user', content: [{ type: 'input_file', file_id: 'f' }] },
          { role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }] },
        ],
      }),
    );
    assert.deepEqual(
      c.turns.map((t) => isBlank(t)),
      [true, false, false, false, false],
    );
  });
});
