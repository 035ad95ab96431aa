import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { readConversation } from '../../../../src/requests/conversation/core/turns';
import {
  addUserMessage,
  editUserTurn,
  readParameters,
  setParameter,
  type PanelEdit,
} from '../../../../src/requests/conversation/core/panelEdits';
import { literalOf } from '../../../../src/domain/payload/variables';

const F = { insertSpaces: true, tabSize: 2, eol: '\n' };

const CHAT = `// POST /v1/chat
{
  "model": "m1",
  "messages": [
    { "role": "system", "content": "Be brief." },
    { "role": "user", "content": "Hi {{name}}" },
    { "role": "assistant", "content": "Hello." }
  ],
  // kept
  "stream": false
}`;

function ok(r: PanelEdit): string {
  assert.ok(r.ok, r.ok ? '' : r.problem);
  // The change applied to the text gives the same text (one replacement: one undo step).
  return r.text;
}

function messages(text: string): { role: string; content: unknown }[] {
  return (parse(text) as { messages: { role: string; content: unknown }[] }).messages;
}

describe('conversation panel edits', () => {
  it('appends a message as a user turn, leaving comments, the POST line and variables as written', () => {
    const text = ok(addUserMessage(CHAT, 'And more?\nTwo lines', F));
    assert.deepEqual(messages(text).at(-1), { role: 'user', content: 'And more?\nTwo lines' });
    assert.ok(text.startsWith('// POST /v1/chat\n'));
    assert.ok(text.includes('// kept'));
    assert.ok(text.includes('"Hi {{name}}"'));
    // Written at the indentation of the turn before it.
    assert.match(text, /\n {4}\{\n {6}"role": "user",\n {6}"content": "And more\?\\nTwo lines"\n {4}\}\n {2}\]/);
  });

  it('writes the typed message literally: "{{French}}" is the person’s words, sent as typed, never a reference', () => {
    const typed = 'And in {{French}}? Or {{$env HOME}}';
    const sent = (text: string, at: number) => {
      const content = messages(text).at(at)?.content;
      const words = typeof content === 'string' ? content : (content as { text: string }[])[0].text;
      // What Send makes of the turn: every `{{` escaped, so nothing is resolved and the words arrive as typed.
      assert.equal(literalOf(words), typed, words);
      return words;
    };
    const appended = ok(addUserMessage(CHAT, typed, F));
    assert.equal(sent(appended, -1), 'And in \\{{French}}? Or \\{{$env HOME}}');
    assert.ok(appended.includes('"Hi {{name}}"'), 'the turns already written keep their references');
    sent(ok(addUserMessage('{ "messages": [{ "role": "user", "content": "" }] }', typed, F)), -1);
    sent(
      ok(addUserMessage('{ "messages": [{ "role": "user", "content": [{ "type": "text", "text": "" }] }] }', typed, F)),
      -1,
    );
    const single = parse(ok(addUserMessage('{ "model": "m", "input": "First" }', typed, F))) as {
      input: { content: string }[];
    };
    assert.equal(literalOf(single.input[1].content), typed);
    assert.equal(
      ok(addUserMessage('{ "input": "" }', typed, F)),
      '{ "input": "And in \\\\{{French}}? Or \\\\{{$env HOME}}" }',
    );
    // Edit and resend: the same, for a turn as a string, one of parts, and a single Responses input.
    sent(ok(editUserTurn(CHAT, 1, typed, F)), 1);
    const image = JSON.stringify({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url: 'u' } },
          ],
        },
      ],
    });
    sent(ok(editUserTurn(image, 0, typed, F)), 0);
    assert.equal(
      ok(editUserTurn('{"input": "First"}', 0, typed, F)),
      '{"input": "And in \\\\{{French}}? Or \\\\{{$env HOME}}"}',
    );
  });

  it("writes into the user turn nobody wrote yet (New Request's placeholder, Reply's empty turn)", () => {
    const starter =
      '{\n  "model": "m",\n  "messages": [\n    { "role": "user", "content": "Write your prompt here." }\n  ]\n}';
    assert.deepEqual(messages(ok(addUserMessage(starter, 'Hello', F))), [{ role: 'user', content: 'Hello' }]);
    const replied = CHAT.replace('"Hello." }', '"Hello." },\n    { "role": "user", "content": "" }');
    const text = ok(addUserMessage(replied, 'Next', F));
    assert.equal(messages(text).length, 4);
    assert.deepEqual(messages(text)[3], { role: 'user', content: 'Next' });
  });

  it('turns a Responses input written as one string into a list', () => {
    const text = ok(addUserMessage('{ "model": "m", "input": "First" }', 'Second', F));
    assert.deepEqual((parse(text) as { input: unknown }).input, [
      { role: 'user', content: 'First' },
      { role: 'user', content: 'Second' },
    ]);
  });

  it('refuses a payload it cannot read, naming the problem', () => {
    const r = addUserMessage('{ "messages": [ ', 'x', F);
    assert.ok(!r.ok);
    assert.match(r.problem, /not valid JSON/);
  });

  it('edits a user turn and drops the turns after it in one change', () => {
    const longer = CHAT.replace(
      '"Hello." }',
      '"Hello." },\n    { "role": "user", "content": "More" },\n    { "role": "assistant", "content": "Sure" }',
    );
    const r = editUserTurn(longer, 1, 'Hi again', F);
    const text = ok(r);
    assert.ok(r.ok);
    assert.equal(
      longer.slice(0, r.change.offset) + r.change.text + longer.slice(r.change.offset + r.change.length),
      text,
    );
    assert.deepEqual(messages(text), [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi again' },
    ]);
    assert.ok(text.includes('// kept'));
  });

  it('keeps the images of an edited turn', () => {
    const text = JSON.stringify({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          ],
        },
        { role: 'assistant', content: 'A cat' },
      ],
    });
    const edited = ok(editUserTurn(text, 0, 'Look closer', F));
    assert.deepEqual(messages(edited), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look closer' },
          { type: 'image_url', image_url: { url: 'https://x/y.png' } },
        ],
      },
    ]);
  });

  it('refuses to edit a turn that is not the user’s', () => {
    const r = editUserTurn(CHAT, 2, 'x', F);
    assert.ok(!r.ok);
    assert.match(r.problem, /Turn 3 is not a user turn/);
  });

  it('sets, changes and removes the header parameters by the endpoint’s names', () => {
    let text = ok(setParameter(CHAT, 'temperature', 0.3, F));
    text = ok(setParameter(text, 'maxTokens', 200, F));
    text = ok(setParameter(text, 'stream', true, F));
    text = ok(setParameter(text, 'model', 'm2', F));
    const value = parse(text) as Record<string, unknown>;
    assert.equal(value.temperature, 0.3);
    assert.equal(value.max_tokens, 200);
    assert.equal(value.stream, true);
    assert.equal(value.model, 'm2');
    assert.ok(text.includes('// kept'));
    text = ok(setParameter(text, 'temperature', undefined, F));
    assert.equal((parse(text) as Record<string, unknown>).temperature, undefined);
    const read = readConversation(text);
    assert.ok(read.ok);
    assert.deepEqual(readParameters(read.conversation), {
      model: 'm2',
      temperature: undefined,
      maxTokens: 200,
      stream: true,
      system: 'Be brief.',
    });
    const responses = ok(setParameter('{\n  "model": "m",\n  "input": "Hi"\n}', 'maxTokens', 50, F));
    assert.equal((parse(responses) as Record<string, unknown>).max_output_tokens, 50);
  });

  it('writes the system prompt as the first Chat turn and as Responses instructions', () => {
    const changed = ok(setParameter(CHAT, 'system', 'Be kind.', F));
    assert.deepEqual(messages(changed)[0], { role: 'system', content: 'Be kind.' });
    const removed = ok(setParameter(CHAT, 'system', '', F));
    assert.deepEqual(
      messages(removed).map((m) => m.role),
      ['user', 'assistant'],
    );
    const added = ok(setParameter(removed, 'system', 'New', F));
    assert.deepEqual(messages(added)[0], { role: 'system', content: 'New' });
    assert.equal(messages(added).length, 3);
    const responses = ok(setParameter('{\n  "model": "m",\n  "input": "Hi"\n}', 'system', 'Terse', F));
    assert.equal((parse(responses) as Record<string, unknown>).instructions, 'Terse');
  });

  describe('the header shows what the payload holds', () => {
    const header = (text: string) => {
      const read = readConversation(text);
      assert.ok(read.ok, read.ok ? '' : read.problem);
      return readParameters(read.conversation);
    };

    it('reads only top-level values of the right type; anything else is shown as not set', () => {
      assert.deepEqual(
        header(
          '{"model": 7, "temperature": "0.5", "max_tokens": {"n": 1}, "stream": "true", "messages": [{"role": "user", "content": "q", "model": "inner"}]}',
        ),
        { model: undefined, temperature: undefined, maxTokens: undefined, stream: false, system: undefined },
      );
      assert.deepEqual(header('{"model": "m", "temperature": 0, "max_tokens": 9, "stream": true, "messages": []}'), {
        model: 'm',
        temperature: 0,
        maxTokens: 9,
        stream: true,
        system: undefined,
      });
      // Responses names the limit max_output_tokens; max_tokens there is not its limit.
      assert.equal(header('{"model": "m", "input": "q", "max_tokens": 9}').maxTokens, undefined);
      assert.equal(header('{"model": "m", "input": "q", "max_output_tokens": 9}').maxTokens, 9);
    });

    it('shows the system prompt: a first system or developer turn in Chat, instructions (a string) in Responses', () => {
      assert.equal(
        header('{"messages": [{"role": "developer", "content": "Dev"}, {"role": "user", "content": "q"}]}').system,
        'Dev',
      );
      assert.equal(
        header('{"messages": [{"role": "user", "content": "q"}, {"role": "system", "content": "Late"}]}').system,
        undefined,
      );
      assert.equal(header('{"messages": []}').system, undefined);
      assert.equal(
        header('{"input": [{"role": "system", "content": "In input"}], "instructions": "Terse"}').system,
        'Terse',
      );
      assert.equal(header('{"input": [{"role": "system", "content": "In input"}]}').system, undefined);
      assert.equal(header('{"input": "q", "instructions": 5}').system, undefined);
    });
  });

  describe('the message box writes into the turn nobody wrote yet, else after the last', () => {
    it('fills an empty or placeholder Responses input string, keeping it a string', () => {
      assert.equal(
        ok(addUserMessage('{ "model": "m", "input": "Write your prompt here." }', 'Hello', F)),
        '{ "model": "m", "input": "Hello" }',
      );
      assert.equal(ok(addUserMessage('{ "input": "  " }', 'Hello', F)), '{ "input": "Hello" }');
    });

    it('appends after a user turn that holds text, an image or a file, and after an empty answer', () => {
      const image = JSON.stringify({
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }],
      });
      assert.equal(messages(ok(addUserMessage(image, 'What is it?', F))).length, 2);
      const file = JSON.stringify({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f1' }] }] });
      assert.equal((parse(ok(addUserMessage(file, 'Sum it up', F))) as { input: unknown[] }).input.length, 2);
      const answer = '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": ""}]}';
      assert.deepEqual(messages(ok(addUserMessage(answer, 'Again', F))).at(-1), { role: 'user', content: 'Again' });
      const written = '{"messages": [{"role": "user", "content": "Mine"}]}';
      assert.deepEqual(
        messages(ok(addUserMessage(written, 'More', F))).map((m) => m.content),
        ['Mine', 'More'],
      );
    });

    it('writes into an empty turn whose content is a list of parts, as a text part of the list’s type', () => {
      // A part the panel does not know (audio) stays, after the text.
      const audio = JSON.stringify({
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: '' },
              { type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } },
            ],
          },
        ],
      });
      assert.deepEqual((parse(ok(addUserMessage(audio, 'Hear this', F))) as { input: unknown[] }).input, [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Hear this' },
            { type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } },
          ],
        },
      ]);
      const parts = JSON.stringify({ input: [{ role: 'user', content: [{ type: 'input_text', text: '' }] }] });
      assert.deepEqual((parse(ok(addUserMessage(parts, 'Hi', F))) as { input: unknown[] }).input, [
        { role: 'user', content: 'Hi' },
      ]);
    });
  });

  it('edits a Responses user turn with its file parts, the text part keeping its type', () => {
    const text = JSON.stringify({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Read' },
            { type: 'input_file', file_id: 'f1' },
          ],
        },
        { role: 'assistant', content: 'Done' },
      ],
    });
    assert.deepEqual((parse(ok(editUserTurn(text, 0, 'Read again', F))) as { input: unknown[] }).input, [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Read again' },
          { type: 'input_file', file_id: 'f1' },
        ],
      },
    ]);
    // The image first: the text part is still written as text.
    const imageFirst = JSON.stringify({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'u' } },
            { type: 'text', text: 'Old' },
          ],
        },
      ],
    });
    assert.deepEqual(messages(ok(editUserTurn(imageFirst, 0, 'New', F)))[0].content, [
      { type: 'text', text: 'New' },
      { type: 'image_url', image_url: { url: 'u' } },
    ]);
    // A part without a type: the text part is written as "text".
    const untyped = JSON.stringify({
      messages: [{ role: 'user', content: [{ text: 'Old' }, { type: 'image_url', image_url: { url: 'u' } }] }],
    });
    assert.deepEqual(messages(ok(editUserTurn(untyped, 0, 'New', F)))[0].content, [
      { type: 'text', text: 'New' },
      { type: 'image_url', image_url: { url: 'u' } },
    ]);
    assert.equal(
      ok(editUserTurn('{"input": "First"}', 0, 'Changed', F)),
      '{"input": "Changed"}',
      'a Responses input string stays one',
    );
    const bad = editUserTurn('{ "messages": [ ', 0, 'x', F);
    assert.ok(!bad.ok && /not valid JSON/.test(bad.problem));
  });

  describe('the header writes each parameter where it belongs, touching nothing else', () => {
    it('adds a property after the last one, on its line or on the one line the object is written on', () => {
      assert.equal(
        ok(setParameter('{\n  "model": "m",\n  "messages": []\n}', 'temperature', 0.5, F)),
        '{\n  "model": "m",\n  "messages": [],\n  "temperature": 0.5\n}',
      );
      assert.equal(
        ok(setParameter('{"model": "m", "messages": []}', 'stream', true, F)),
        '{"model": "m", "messages": [], "stream": true}',
      );
      assert.equal(
        ok(setParameter('{\n\t"messages": []\n}', 'model', 'm', { insertSpaces: false, tabSize: 4, eol: '\n' })),
        '{\n\t"messages": [],\n\t"model": "m"\n}',
      );
    });

    it('removes a property with its comma, wherever it is, and removing an absent one changes nothing', () => {
      const text = '{\n  "model": "m",\n  "temperature": 1,\n  "messages": []\n}';
      assert.equal(ok(setParameter(text, 'temperature', undefined, F)), '{\n  "model": "m",\n  "messages": []\n}');
      assert.equal(ok(setParameter(text, 'model', undefined, F)), '{\n  "temperature": 1,\n  "messages": []\n}');
      assert.equal(ok(setParameter('{"messages": [], "stream": true}', 'stream', undefined, F)), '{"messages": []}');
      const absent = setParameter(text, 'maxTokens', undefined, F);
      assert.ok(absent.ok);
      assert.equal(absent.text, text);
      assert.deepEqual(absent.change, { offset: 0, length: 0, text: '' });
    });

    it('refuses a payload that is not an object, or not readable', () => {
      const list = setParameter('[{"role": "user", "content": "q"}]', 'model', 'm', F);
      assert.ok(!list.ok);
      const bad = setParameter('{ "messages": [ ', 'model', 'm', F);
      assert.ok(!bad.ok && /not valid JSON/.test(bad.problem));
    });

    it('adds, rewrites and removes the Chat system turn as the first turn, at its indentation', () => {
      const first = '{\n  "messages": [\n    { "role": "user", "content": "q" }\n  ]\n}';
      assert.equal(
        ok(setParameter(first, 'system', 'Be brief.', F)),
        '{\n  "messages": [\n    {\n      "role": "system",\n      "content": "Be brief."\n    },\n    { "role": "user", "content": "q" }\n  ]\n}',
      );
      assert.equal(
        ok(setParameter('{"messages": [{"role": "user", "content": "q"}]}', 'system', 'S', F)),
        '{"messages": [{\n  "role": "system",\n  "content": "S"\n}, {"role": "user", "content": "q"}]}',
      );
      assert.equal(
        ok(setParameter('{\n  "messages": []\n}', 'system', 'S', F)),
        '{\n  "messages": [\n    {\n      "role": "system",\n      "content": "S"\n    }\n  ]\n}',
      );
      const spread = '{\n  "messages": [\n    {\n      "role": "user",\n      "content": "q"\n    }\n  ]\n}';
      assert.equal(
        ok(setParameter(spread, 'system', 'S', F)),
        '{\n  "messages": [\n    {\n      "role": "system",\n      "content": "S"\n    },\n    {\n      "role": "user",\n      "content": "q"\n    }\n  ]\n}',
      );
      const developer = '{"messages": [{"role": "developer", "content": "Old"}, {"role": "user", "content": "q"}]}';
      assert.equal(
        ok(setParameter(developer, 'system', 'New', F)),
        '{"messages": [{"role": "developer", "content": "New"}, {"role": "user", "content": "q"}]}',
      );
      assert.equal(ok(setParameter(developer, 'system', '', F)), '{"messages": [{"role": "user", "content": "q"}]}');
      const only = '{"messages": [{"role": "system", "content": "Alone"}]}';
      assert.equal(ok(setParameter(only, 'system', undefined, F)), '{"messages": []}');
      const none = setParameter(first, 'system', '', F);
      assert.ok(none.ok);
      assert.equal(none.text, first, 'no system prompt to remove: nothing changes');
      assert.deepEqual(none.change, { offset: 0, length: 0, text: '' });
      // A non-string value (the page sends strings) removes it too.
      assert.equal(ok(setParameter(developer, 'system', 5, F)), '{"messages": [{"role": "user", "content": "q"}]}');
    });
  });
});
