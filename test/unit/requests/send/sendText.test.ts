import * as assert from 'node:assert/strict';
import { isJsonObjectOrArray, textToSend } from '../../../../src/requests/send/core/sendText';
import { INPUT_PLACEHOLDER, starterPayload } from '../../../../src/requests/payloads/core/templates';
import { withEndpoint } from '../../../../src/domain/payload/endpointHeader';
function select(text: string, needle: string): { start: number; end: number } {
  const start = text.indexOf(needle);
  assert.ok(start >= 0, `${needle} is in the text`);
  return { start, end: start + needle.length };
}

describe('requests: which text is sent', () => {
  const newChat = `${withEndpoint(starterPayload('/v1/chat', 'aurora-2'), '/v1/chat')}\n`;

  it('a new request with its prompt placeholder still selected sends the whole template', () => {
    const sent = textToSend(newChat, select(newChat, INPUT_PLACEHOLDER));
    assert.equal(sent.text, newChat);
    assert.equal(sent.offset, 0);
    assert.equal(sent.fromSelection, false);
  });

  it('nothing selected sends the whole payload', () => {
    assert.deepEqual(textToSend(newChat), { text: newChat, offset: 0, fromSelection: false });
    assert.deepEqual(textToSend(newChat, { start: 5, end: 5 }), { text: newChat, offset: 0, fromSelection: false });
  });

  it('a selected complete JSON object or array is sent alone, with its offset', () => {
    const text = '// POST /v1/chat\n{"model": "a", "input": "one"}\n\n{"model": "b", "input": "two"}\n';
    const second = '{"model": "b", "input": "two"}';
    assert.deepEqual(textToSend(text, select(text, second)), {
      text: second,
      offset: text.indexOf(second),
      fromSelection: true,
    });
    const withLines = `\n${second}\n`;
    const padded = `// POST /v1/chat\n${withLines}`;
    assert.equal(textToSend(padded, select(padded, withLines)).text, withLines, 'white space around it is fine');
    const arr = '[{"role": "user", "content": "x"}]';
    assert.equal(textToSend(`{"messages": ${arr}}`, select(`{"messages": ${arr}}`, arr)).fromSelection, true);
  });

  it('part of a value, a lone string or number, or broken JSON selected sends the whole payload', () => {
    for (const part of ['"aurora-2"', 'aurora', '"model": "aurora-2"', '{\n  "model": "aurora-2"', 'false']) {
      const sent = textToSend(newChat, select(newChat, part));
      assert.equal(sent.fromSelection, false, part);
      assert.equal(sent.text, newChat, part);
    }
  });

  it('isJsonObjectOrArray: objects and arrays, with comments allowed; nothing else', () => {
    assert.ok(isJsonObjectOrArray('{}'));
    assert.ok(isJsonObjectOrArray(' // note\n[1, 2]\n'));
    assert.ok(!isJsonObjectOrArray('"x"'));
    assert.ok(!isJsonObjectOrArray('12'));
    assert.ok(!isJsonObjectOrArray('null'));
    assert.ok(!isJsonObjectOrArray('{} {}'));
    assert.ok(!isJsonObjectOrArray('{"a": 1,}'));
    assert.ok(!isJsonObjectOrArray(INPUT_PLACEHOLDER));
  });
});
