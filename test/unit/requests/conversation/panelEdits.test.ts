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
    const text = ok(addUserMessage(CHAT, 'And {{other}}?\nTwo lines', F));
    assert.deepEqual(messages(text).at(-1), { role: 'user', content: 'And {{other}}?\nTwo lines' });
    assert.ok(text.startsWith('// POST /v1/chat\n'));
    assert.ok(text.includes('// kept'));
    assert.ok(text.includes('"Hi {{name}}"'));
    // Written at the indentation of the turn before it.
    assert.match(
      text,
      /\n {4}\{\n {6}"role": "user",\n {6}"content": "And \{\{other\}\}\?\\nTwo lines"\n {4}\}\n {2}\]/,
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
});
