import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import {
  apply,
  appendReply,
  dropLastAnswer,
  forkAt,
  pretty,
  turnsAfterCursor,
  type EditResult,
  type ReplyAnswer,
} from '../../../../src/requests/conversation/core/edits';

const SPACES = { insertSpaces: true, tabSize: 2, eol: '\n' };
const answer = (text: string | undefined, toolCalls: ReplyAnswer['toolCalls'] = [], id?: string): ReplyAnswer => ({
  text,
  toolCalls,
  id,
});

function ok(r: EditResult): Extract<EditResult, { ok: true }> {
  assert.ok(r.ok, r.ok ? '' : r.problem);
  return r;
}

/** The text with `|` where the cursor is. */
function withBar(r: Extract<EditResult, { ok: true }>): string {
  return `${r.text.slice(0, r.cursor)}|${r.text.slice(r.cursor)}`;
}

const CHAT = `// POST /v1/chat
// @env staging
{
  "model": "{{model}}", // the model
  "messages": [
    { "role": "system", "content": "Be brief." },
    /* the question */
    { "role": "user", "content": "Hi" }
  ],
  "stream": true
}
`;

describe('conversation edits', () => {
  describe('appendReply', () => {
    it('appends the answer and an empty user turn after the last turn, touching nothing else', () => {
      const r = ok(appendReply(CHAT, answer('Hello!\nHow can I help?'), SPACES));
      assert.equal(
        withBar(r),
        `// POST /v1/chat
// @env staging
{
  "model": "{{model}}", // the model
  "messages": [
    { "role": "system", "content": "Be brief." },
    /* the question */
    { "role": "user", "content": "Hi" },
    {
      "role": "assistant",
      "content": "Hello!\\nHow can I help?"
    },
    {
      "role": "user",
      "content": "|"
    }
  ],
  "stream": true
}
`,
      );
      // One change: an insertion right after the last turn.
      assert.equal(r.change.length, 0);
      assert.equal(r.change.offset, CHAT.indexOf('"Hi" }') + '"Hi" }'.length);
      assert.equal(apply(CHAT, r.change), r.text);
      assert.equal(r.already, undefined);
    });

    it('indents with tabs and writes the document line ending when the editor does', () => {
      const text = '{\r\n\t"messages": [\r\n\t\t{"role": "user", "content": "q"}\r\n\t]\r\n}';
      const r = ok(appendReply(text, answer('a'), { insertSpaces: false, tabSize: 4, eol: '\r\n' }));
      assert.equal(
        withBar(r),
        '{\r\n\t"messages": [\r\n\t\t{"role": "user", "content": "q"},\r\n\t\t{\r\n\t\t\t"role": "assistant",\r\n\t\t\t"content": "a"\r\n\t\t},\r\n\t\t{\r\n\t\t\t"role": "user",\r\n\t\t\t"content": "|"\r\n\t\t}\r\n\t]\r\n}',
      );
    });

    it('keeps a list written on one line on one line', () => {
      const text = '{"messages": [{"role": "user", "content": "q"}]}';
      const r = ok(appendReply(text, answer('a'), SPACES));
      assert.equal(
        withBar(r),
        '{"messages": [{"role": "user", "content": "q"}, {"role":"assistant","content":"a"}, {"role":"user","content":"|"}]}',
      );
    });

    it('fills an empty list', () => {
      const r = ok(appendReply('{\n  "messages": []\n}', answer('a'), SPACES));
      assert.deepEqual(parse(r.text), {
        messages: [
          { role: 'assistant', content: 'a' },
          { role: 'user', content: '' },
        ],
      });
      assert.equal(
        r.text,
        '{\n  "messages": [\n    {\n      "role": "assistant",\n      "content": "a"\n    },\n    {\n      "role": "user",\n      "content": ""\n    }\n  ]\n}',
      );
    });

    it('appends tool calls as the answer gave them and one empty tool result per call, cursor in the first', () => {
      const calls = [
        { id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' },
        { id: 'call_2', name: 'other', arguments: '{}' },
      ];
      const r = ok(appendReply(CHAT, answer(undefined, calls), SPACES));
      const value = parse(r.text) as { messages: Record<string, unknown>[] };
      assert.deepEqual(value.messages.slice(2), [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
            { id: 'call_2', type: 'function', function: { name: 'other', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '' },
        { role: 'tool', tool_call_id: 'call_2', content: '' },
      ]);
      assert.match(withBar(r), /"tool_call_id": "call_1",\n\s+"content": "\|"/);
    });

    it('keeps the text of an answer that both says something and calls a tool', () => {
      const r = ok(appendReply(CHAT, answer('Let me look.', [{ id: 'c', name: 'f', arguments: '{}' }]), SPACES));
      const value = parse(r.text) as { messages: Record<string, unknown>[] };
      assert.equal(value.messages[2].content, 'Let me look.');
      assert.equal(value.messages[3].role, 'tool');
    });

    it('refuses an answer with neither text nor tool calls, and an unreadable payload', () => {
      const empty = appendReply(CHAT, answer(''), SPACES);
      assert.equal(empty.ok, false);
      assert.match(empty.ok ? '' : empty.problem, /no text and no tool calls/);
      const bad = appendReply('{"messages": "x"}', answer('a'), SPACES);
      assert.match(bad.ok ? '' : bad.problem, /not a list of turns/);
    });

    it('puts the cursor back in the empty turn instead of appending the same answer twice', () => {
      const first = ok(appendReply(CHAT, answer('Hello'), SPACES));
      const again = ok(appendReply(first.text, answer('Hello'), SPACES));
      assert.equal(again.already, true);
      assert.equal(again.text, first.text);
      assert.equal(again.change.length, 0);
      assert.equal(again.change.text, '');
      assert.equal(again.cursor, first.cursor);
      // Another answer is appended.
      const other = ok(appendReply(first.text, answer('Hello again'), SPACES));
      assert.equal(other.already, undefined);
      assert.equal((parse(other.text) as { messages: unknown[] }).messages.length, 6);
    });

    it('recognizes an appended tool call answer (Responses: text and calls as separate items)', () => {
      const text = '// POST /v1/responses\n{"input": [{"role": "user", "content": "q"}]}';
      const calls = [{ id: 'c1', name: 'f', arguments: '{}' }];
      const first = ok(appendReply(text, answer('Checking', calls), SPACES));
      const again = ok(appendReply(first.text, answer('Checking', calls), SPACES));
      assert.equal(again.already, true);
      assert.equal(again.cursor, first.cursor);
      const otherCall = ok(appendReply(first.text, answer('Checking', [{ ...calls[0], id: 'c2' }]), SPACES));
      assert.equal(otherCall.already, undefined);
    });

    it('appends again when the turns after the answer are not empty; adds only the empty turn when the answer ends the file', () => {
      const typed =
        '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "user", "content": "more"}]}';
      assert.equal(ok(appendReply(typed, answer('a'), SPACES)).already, undefined);
      // The conversation panel wrote the answer alone: Reply does not write it twice.
      const ends = '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}';
      const replied = ok(appendReply(ends, answer('a'), SPACES));
      assert.deepEqual(
        (parse(replied.text) as { messages: { role: string; content: string }[] }).messages.map((m) => m.role),
        ['user', 'assistant', 'user'],
      );
      assert.match(withBar(replied), /"content": ?"\|"\}\]\}$/, 'the cursor in the new empty turn');
      const calls = [{ id: 'c1', name: 'f', arguments: '{}' }];
      const endsInCall =
        '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}';
      const toolTurn = ok(appendReply(endsInCall, answer(undefined, calls), SPACES));
      assert.deepEqual((parse(toolTurn.text) as { messages: { role: string }[] }).messages.at(-1), {
        role: 'tool',
        tool_call_id: 'c1',
        content: '',
      });
      const noQuotes = '{"messages": [{"role": "assistant", "content": "a"}, {"role": "user"}]}';
      const r = ok(appendReply(noQuotes, answer('a'), SPACES));
      assert.equal(r.already, true);
      assert.equal(r.cursor, noQuotes.indexOf('{"role": "user"}'));
    });

    it('writes the answer alone for the panel (nextTurn false), once, in chat and Responses payloads', () => {
      const alone = ok(appendReply(CHAT, answer('Hello'), { ...SPACES, nextTurn: false }));
      const messages = (parse(alone.text) as { messages: { role: string; content: string }[] }).messages;
      assert.deepEqual(
        messages.map((m) => m.role),
        ['system', 'user', 'assistant'],
      );
      assert.equal(messages[2].content, 'Hello');
      assert.ok(alone.text.includes('// @env staging') && alone.text.includes('/* the question */'));
      const again = ok(appendReply(alone.text, answer('Hello'), { ...SPACES, nextTurn: false }));
      assert.equal(again.already, true);
      assert.equal(again.text, alone.text);
      const single = ok(
        appendReply('// POST /v1/responses\n{"model": "m", "input": "q"}', answer('A'), { ...SPACES, nextTurn: false }),
      );
      assert.deepEqual((parse(single.text) as { input: unknown }).input, [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'A' },
      ]);
      // Tool calls still get their empty result turns: the person fills them.
      const calls = [{ id: 'c1', name: 'f', arguments: '{}' }];
      const tools = ok(appendReply(CHAT, answer(undefined, calls), { ...SPACES, nextTurn: false }));
      assert.equal((parse(tools.text) as { messages: { role: string }[] }).messages.at(-1)?.role, 'tool');
    });

    it('keeps what arrived of a stopped answer, marked as cut inside its turn; Send and Regenerate see a plain turn', () => {
      const stopped = ok(appendReply(CHAT, answer('Half an ans'), { ...SPACES, nextTurn: false, cut: 'cancelled' }));
      assert.ok(
        stopped.text.includes(
          `    { "role": "user", "content": "Hi" },
    {
      // cut (cancelled): stopped before the answer was complete; this is what arrived
      "role": "assistant",
      "content": "Half an ans"
    }
  ],`,
        ),
        stopped.text,
      );
      const messages = (parse(stopped.text) as { messages: { role: string; content: string }[] }).messages;
      assert.deepEqual(messages.at(-1), { role: 'assistant', content: 'Half an ans' });
      // Written once: the same answer again changes nothing.
      assert.equal(
        ok(appendReply(stopped.text, answer('Half an ans'), { ...SPACES, nextTurn: false, cut: 'cancelled' })).text,
        stopped.text,
      );
      // Regenerate takes the turn out with its mark.
      const dropped = dropLastAnswer(stopped.text);
      assert.ok(dropped.ok);
      assert.equal(dropped.text, CHAT);
      // A list on one line: a block comment in the turn.
      const oneLine = ok(
        appendReply('{"messages": [{"role": "user", "content": "q"}]}', answer('A'), {
          ...SPACES,
          nextTurn: false,
          cut: 'failed',
        }),
      );
      assert.equal(
        oneLine.text,
        '{"messages": [{"role": "user", "content": "q"}, {/* cut (failed): the service failed while the answer was arriving; this is what arrived */ "role":"assistant","content":"A"}]}',
      );
      // Responses with `input` as a string: the mark goes into the answer's turn, not the question's.
      const single = ok(
        appendReply('// POST /v1/responses\n{\n  "model": "m",\n  "input": "q"\n}', answer('A'), {
          ...SPACES,
          nextTurn: false,
          cut: 'length',
        }),
      );
      assert.ok(
        single.text.includes(`    {
      "role": "user",
      "content": "q"
    },
    {
      // cut (length): the model stopped before the answer was complete
      "role": "assistant",`),
        single.text,
      );
      // A complete answer carries no mark.
      assert.ok(!ok(appendReply(CHAT, answer('A'), { ...SPACES, nextTurn: false })).text.includes('cut ('));
    });

    it('leaves the cursor after the answer it wrote alone, and where it was when the answer is already there', () => {
      const alone = ok(appendReply(CHAT, answer('Hello'), { ...SPACES, nextTurn: false }));
      assert.equal(alone.text.slice(alone.cursor), '\n  ],\n  "stream": true\n}\n');
      const again = ok(appendReply(alone.text, answer('Hello'), { ...SPACES, nextTurn: false }));
      assert.equal(again.cursor, alone.cursor);
      assert.deepEqual(again.change, { offset: alone.cursor, length: 0, text: '' });
    });

    it('writes new turns at the indentation of a last turn spread over lines', () => {
      const spread = '{\n  "messages": [\n    {\n      "role": "user",\n      "content": "q"\n    }\n  ]\n}';
      const r = ok(appendReply(spread, answer('A'), { ...SPACES, nextTurn: false }));
      assert.equal(
        r.text,
        '{\n  "messages": [\n    {\n      "role": "user",\n      "content": "q"\n    },\n    {\n      "role": "assistant",\n      "content": "A"\n    }\n  ]\n}',
      );
    });

    it('Reply after an answer with tool calls the panel wrote alone adds one empty result turn per call', () => {
      const calls = [
        { id: 'c1', name: 'f', arguments: '{}' },
        { id: 'c2', name: 'g', arguments: '{}' },
      ];
      const chat =
        '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}]}';
      const r = ok(appendReply(chat, answer(undefined, calls), SPACES));
      assert.deepEqual((parse(r.text) as { messages: unknown[] }).messages.slice(2), [
        { role: 'tool', tool_call_id: 'c1', content: '' },
        { role: 'tool', tool_call_id: 'c2', content: '' },
      ]);
      // The cursor in the first result.
      assert.equal(
        r.text.slice(r.text.lastIndexOf('"tool_call_id"', r.cursor), r.cursor + 1),
        '"tool_call_id":"c1","content":""',
      );
      const responses =
        '{"input": [{"role": "user", "content": "q"}, {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}, {"type": "function_call", "call_id": "c2", "name": "g", "arguments": "{}"}]}';
      const rr = ok(appendReply(responses, answer(undefined, calls), SPACES));
      assert.deepEqual((parse(rr.text) as { input: unknown[] }).input.slice(3), [
        { type: 'function_call_output', call_id: 'c1', output: '' },
        { type: 'function_call_output', call_id: 'c2', output: '' },
      ]);
      assert.equal(
        rr.text.slice(rr.text.lastIndexOf('"call_id"', rr.cursor), rr.cursor + 1),
        '"call_id":"c1","output":""',
      );
    });

    it('appends an answer that says what the question said, and knows one already there after earlier tool calls', () => {
      const echo = ok(appendReply('{"messages": [{"role": "user", "content": "Echo"}]}', answer('Echo'), SPACES));
      assert.deepEqual((parse(echo.text) as { messages: { role: string; content: string }[] }).messages, [
        { role: 'user', content: 'Echo' },
        { role: 'assistant', content: 'Echo' },
        { role: 'user', content: '' },
      ]);
      const earlier = JSON.stringify({
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c0', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c0', content: '42' },
          { role: 'assistant', content: 'Done' },
        ],
      });
      const again = ok(appendReply(earlier, answer('Done'), { ...SPACES, nextTurn: false }));
      assert.equal(again.already, true);
      assert.equal(again.text, earlier);
    });

    it('picks a cursor marker the payload does not hold', () => {
      const text = '{"messages": [{"role": "user", "content": "__model_access_cursor_0__ __model_access_cursor_1__"}]}';
      const r = ok(appendReply(text, answer('a'), SPACES));
      assert.ok(r.text.includes('"content": "__model_access_cursor_0__ __model_access_cursor_1__"'));
      assert.ok(!r.text.includes('__model_access_cursor_2__'));
      assert.equal(r.text.slice(r.cursor - 1, r.cursor + 1), '""');
    });

    describe('Responses', () => {
      const LIST = `// POST /v1/responses
{
  "model": "m",
  "input": [
    { "role": "user", "content": "q" }
  ]
}`;

      it('appends the assistant item and a user item to an input list', () => {
        const r = ok(appendReply(LIST, answer('a', [], 'resp_1'), SPACES));
        assert.deepEqual((parse(r.text) as { input: unknown[] }).input, [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { role: 'user', content: '' },
        ]);
        assert.ok(!r.text.includes('previous_response_id'));
        assert.equal(r.text.slice(r.cursor - 1, r.cursor + 1), '""');
      });

      it('turns an input string into the list: the first prompt, the answer, the follow-up', () => {
        const text = '// POST /v1/responses\n{\n  "model": "m",\n  "input": "Tell me a joke",\n  "stream": false\n}\n';
        const r = ok(appendReply(text, answer('Why…'), SPACES));
        assert.equal(
          withBar(r),
          '// POST /v1/responses\n{\n  "model": "m",\n  "input": [\n    {\n      "role": "user",\n      "content": "Tell me a joke"\n    },\n    {\n      "role": "assistant",\n      "content": "Why…"\n    },\n    {\n      "role": "user",\n      "content": "|"\n    }\n  ],\n  "stream": false\n}\n',
        );
      });

      it('appends function calls and one empty output per call', () => {
        const calls = [
          { id: 'c1', name: 'f', arguments: '{"x":1}' },
          { id: 'c2', name: 'g', arguments: '{}' },
        ];
        const r = ok(appendReply(LIST, answer(undefined, calls), SPACES));
        assert.deepEqual((parse(r.text) as { input: unknown[] }).input.slice(1), [
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"x":1}' },
          { type: 'function_call', call_id: 'c2', name: 'g', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: '' },
          { type: 'function_call_output', call_id: 'c2', output: '' },
        ]);
        assert.match(withBar(r), /"call_id": "c1",\n\s+"output": "\|"/);
      });

      it('with previous_response_id: sets it to the answer id and leaves only the new prompt', () => {
        const r = ok(appendReply(LIST, answer('a', [], 'resp_9'), { ...SPACES, previousResponseId: true }));
        assert.equal(
          withBar(r),
          '// POST /v1/responses\n{\n  "model": "m",\n  "input": "|",\n  "previous_response_id": "resp_9"\n}',
        );
        // Replaced on the next turn.
        const next = ok(appendReply(r.text, answer('b', [], 'resp_10'), { ...SPACES, previousResponseId: true }));
        assert.deepEqual(parse(next.text), { model: 'm', input: '', previous_response_id: 'resp_10' });
      });

      it('with previous_response_id after the panel wrote the answer: Reply still chains by the answer id', () => {
        const written = ok(appendReply(LIST, answer('a', [], 'resp_9'), { ...SPACES, nextTurn: false }));
        assert.equal((parse(written.text) as { input: { role: string }[] }).input.at(-1)?.role, 'assistant');
        const r = ok(appendReply(written.text, answer('a', [], 'resp_9'), { ...SPACES, previousResponseId: true }));
        assert.deepEqual(parse(r.text), { model: 'm', input: '', previous_response_id: 'resp_9' });
        // Chat has no response ids; an answer without an id cannot chain: only the empty turn is added.
        const chat = ok(
          appendReply(CHAT.replace(']', ', {"role": "assistant", "content": "a"}]'), answer('a', [], 'resp_9'), {
            ...SPACES,
            previousResponseId: true,
          }),
        );
        assert.equal((parse(chat.text) as { previous_response_id?: string }).previous_response_id, undefined);
        assert.equal((parse(chat.text) as { messages: unknown[] }).messages.length, 4);
        const noId = ok(appendReply(written.text, answer('a'), { ...SPACES, previousResponseId: true }));
        assert.equal((parse(noId.text) as { input: unknown[] }).input.length, 3);
        // A list keeps every turn when the answer is written alone.
        const kept = ok(
          appendReply(written.text.replace('"content": "a"', '"content": "b"'), answer('c'), {
            ...SPACES,
            nextTurn: false,
          }),
        );
        assert.deepEqual(
          (parse(kept.text) as { input: { content: string }[] }).input.map((t) => t.content),
          ['q', 'b', 'c'],
        );
        // Without the setting, only the empty turn is added after the answer already there.
        const plain = ok(appendReply(written.text, answer('a', [], 'resp_9'), SPACES));
        assert.deepEqual((parse(plain.text) as { input: { role: string; content: string }[] }).input, [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { role: 'user', content: '' },
        ]);
      });

      it('with previous_response_id and tool calls: only the outputs are sent', () => {
        const r = ok(
          appendReply(
            '{"input": "q", "previous_response_id": "old"}',
            answer(undefined, [{ id: 'c1', name: 'f', arguments: '{}' }], 'resp_2'),
            { ...SPACES, previousResponseId: true, endpoint: '/v1/responses' },
          ),
        );
        assert.deepEqual(parse(r.text), {
          input: [{ type: 'function_call_output', call_id: 'c1', output: '' }],
          previous_response_id: 'resp_2',
        });
      });

      it('with previous_response_id and tool calls in a list spread over lines: the outputs at its indentation', () => {
        const r = ok(
          appendReply(
            '{\n  "input": [\n    {"role": "user", "content": "q"}\n  ],\n  "previous_response_id": "old"\n}',
            answer(undefined, [{ id: 'c1', name: 'f', arguments: '{}' }], 'resp_2'),
            { ...SPACES, previousResponseId: true },
          ),
        );
        assert.equal(
          r.text,
          '{\n  "input": [\n    {\n      "type": "function_call_output",\n      "call_id": "c1",\n      "output": ""\n    }\n  ],\n  "previous_response_id": "resp_2"\n}',
        );
      });

      it('keeps every item of a longer input list as written', () => {
        const text =
          '{\n  "input": [\n    {"role": "user", "content": "q"},\n    {"role": "assistant", "content": "a"},\n    {"role": "user", "content": "q2"}\n  ]\n}';
        const r = ok(appendReply(text, answer('a2'), { ...SPACES, endpoint: '/v1/responses' }));
        assert.ok(r.text.startsWith(text.slice(0, text.indexOf('"q2"}') + 5)));
        assert.equal((parse(r.text) as { input: unknown[] }).input.length, 5);
      });

      it('with previous_response_id: written once, wherever it is, and on the same line in a one-line payload', () => {
        const before = ok(
          appendReply('{\n  "previous_response_id": "old",\n  "input": "q"\n}', answer('a', [], 'resp_2'), {
            ...SPACES,
            previousResponseId: true,
            endpoint: '/v1/responses',
          }),
        );
        assert.equal(before.text, '{\n  "previous_response_id": "resp_2",\n  "input": ""\n}');
        assert.equal(before.text.slice(before.cursor - 1, before.cursor + 1), '""');
        const oneLine = ok(
          appendReply('{"input": "q", "model": "m"}', answer('a', [], 'resp_3'), {
            ...SPACES,
            previousResponseId: true,
            endpoint: '/v1/responses',
          }),
        );
        assert.equal(oneLine.text, '{"input": "", "model": "m", "previous_response_id": "resp_3"}');
        const replaced = ok(
          appendReply('{"input": "q", "previous_response_id": "old"}', answer('a', [], 'resp_4'), {
            ...SPACES,
            previousResponseId: true,
            endpoint: '/v1/responses',
          }),
        );
        assert.equal(replaced.text.split('previous_response_id').length, 2, 'one previous_response_id');
      });

      it('finds the cursor when the text between the edits holds the first marker', () => {
        const text = '{"input": "q", "note": "__model_access_cursor_0__", "stream": true}';
        const r = ok(
          appendReply(text, answer('a', [], 'resp_5'), {
            ...SPACES,
            previousResponseId: true,
            endpoint: '/v1/responses',
          }),
        );
        assert.equal(
          r.text,
          '{"input": "", "note": "__model_access_cursor_0__", "stream": true, "previous_response_id": "resp_5"}',
        );
        assert.equal(r.cursor, '{"input": "'.length);
      });

      it('sends the whole conversation when the answer has no response id, even with the setting on', () => {
        const r = ok(appendReply(LIST, answer('a'), { ...SPACES, previousResponseId: true }));
        assert.equal((parse(r.text) as { input: unknown[] }).input.length, 3);
      });
    });
  });

  describe('dropLastAnswer', () => {
    const TURNS = `{
  "messages": [
    {"role": "system", "content": "s"},
    {"role": "user", "content": "q"},
    {"role": "assistant", "content": "a"},
    {"role": "user", "content": ""}
  ]
}`;

    it('takes out the last assistant turn and the empty turn after it', () => {
      const r = dropLastAnswer(TURNS);
      assert.ok(r.ok);
      assert.equal(
        r.text,
        '{\n  "messages": [\n    {"role": "system", "content": "s"},\n    {"role": "user", "content": "q"}\n  ]\n}',
      );
      assert.equal(r.dropped, 2);
      assert.equal(apply(TURNS, r.change), r.text);
    });

    it('drops nothing when a turn after the answer holds text (a question typed after it)', () => {
      const typed = dropLastAnswer(TURNS.replace('"content": ""', '"content": "typed"'));
      assert.match(typed.ok ? '' : typed.problem, /does not end with an answer/);
      const toolResult = dropLastAnswer(
        '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "tool", "content": "42"}]}',
      );
      assert.equal(toolResult.ok, false);
    });

    it('takes out a Responses answer written as several items (text, calls) with their outputs', () => {
      const text = JSON.stringify({
        input: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c', output: '' },
        ],
      });
      const r = dropLastAnswer(text, '/v1/responses');
      assert.ok(r.ok);
      assert.deepEqual(JSON.parse(r.text), { input: [{ role: 'user', content: 'q' }] });
      assert.equal(r.dropped, 3);
    });

    it('drops an empty assistant turn, and says so when every turn is empty', () => {
      const empty = dropLastAnswer(
        '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": ""}, {"role": "user", "content": ""}]}',
      );
      assert.ok(empty.ok);
      assert.equal(empty.dropped, 2);
      const blank = dropLastAnswer('{"messages": [{"role": "user", "content": ""}]}');
      assert.match(blank.ok ? '' : blank.problem, /does not end with an answer/);
    });

    it('refuses a conversation without an answer, one that is only an answer, and a bad payload', () => {
      const none = dropLastAnswer('{"messages": [{"role": "user", "content": "q"}]}');
      assert.match(none.ok ? '' : none.problem, /does not end with an answer/);
      const only = dropLastAnswer('{"messages": [{"role": "assistant", "content": "a"}]}');
      assert.match(only.ok ? '' : only.problem, /starts with the assistant turn/);
      const bad = dropLastAnswer('{"messages": [1]}');
      assert.match(bad.ok ? '' : bad.problem, /not an object/);
    });
  });

  describe('forkAt', () => {
    const text = `// POST /v1/chat
{
  "messages": [
    {"role": "user", "content": "one"},
    {"role": "assistant", "content": "two"},
    {"role": "user", "content": "three"}
  ] // end
}`;

    it('keeps the turns up to the one under the cursor', () => {
      const r = forkAt(text, text.indexOf('"two"'));
      assert.ok(r.ok);
      assert.equal(r.turns, 2);
      assert.equal(
        r.text,
        '// POST /v1/chat\n{\n  "messages": [\n    {"role": "user", "content": "one"},\n    {"role": "assistant", "content": "two"}\n  ] // end\n}',
      );
    });

    it('keeps the whole conversation when the cursor is in the last turn or in no turn', () => {
      for (const at of [text.indexOf('"three"'), 0, text.length]) {
        const r = forkAt(text, at);
        assert.ok(r.ok);
        assert.equal(r.text, text);
        assert.equal(r.turns, 3);
      }
      const single = forkAt('{"input": "q"}', 11, '/v1/responses');
      assert.ok(single.ok && single.text === '{"input": "q"}' && single.turns === 1);
    });

    it('passes the problem of a bad payload on', () => {
      const r = forkAt('{"messages": {}}', 3);
      assert.match(r.ok ? '' : r.problem, /not a list of turns/);
    });
  });

  describe('turnsAfterCursor', () => {
    const text = JSON.stringify(
      {
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'edited' },
          { role: 'assistant', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      },
      null,
      2,
    );

    it('offers to drop the turns after an earlier user turn', () => {
      const later = turnsAfterCursor(text, text.indexOf('edited'));
      assert.ok(later);
      assert.equal(later.index, 1);
      assert.equal(later.later, 2);
      assert.deepEqual((JSON.parse(apply(text, later.change)) as { messages: unknown[] }).messages, [
        { role: 'system', content: 's' },
        { role: 'user', content: 'edited' },
      ]);
    });

    it('offers nothing in the last turn, in a turn that is not the user’s, outside the turns, or in a bad payload', () => {
      assert.equal(turnsAfterCursor(text, text.indexOf('"b"')), undefined);
      assert.equal(turnsAfterCursor(text, text.indexOf('"a"')), undefined);
      assert.equal(turnsAfterCursor(text, text.indexOf('"s"')), undefined);
      assert.equal(turnsAfterCursor(text, 0), undefined);
      assert.equal(turnsAfterCursor('{"messages": 1}', 3), undefined);
    });
  });

  it('pretty-prints a value at an indentation', () => {
    assert.equal(pretty({ a: [1] }, '  ', SPACES), '{\n    "a": [\n      1\n    ]\n  }');
    assert.equal(pretty('x', '\t', { insertSpaces: false, tabSize: 8, eol: '\r\n' }), '"x"');
  });
});
