// What an answer writes into a payload is literal text: a model (or a service) that answers `{{$env NAME}}`
// must not make the next Send read the person's environment. Every path that writes answer-derived text into
// a payload is driven here, then the payload is resolved as Send resolves it, with the secret set.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePayload } from '../../../src/domain/payload/parse';
import {
  literalText,
  literalValue,
  resolvePayload,
  resolveString,
  type VariableContext,
} from '../../../src/domain/payload/variables';
import { appendReply, forkAt, type ReplyAnswer } from '../../../src/requests/conversation/core/edits';
import { runCheckFile } from '../../../src/checks/core/fileRun';
import type { ModelService } from '../../../src/api/types';

const SECRET = 'hunter2-aws-secret-value';
const HOSTILE = '{{$env SECRET_NAME}} and {{ $env SECRET_NAME }} and {{greeting}} and \\{{$env SECRET_NAME}}';
const context: VariableContext = {
  variables: { greeting: 'hello' },
  env: (name) => (name === 'SECRET_NAME' ? SECRET : undefined),
  uuid: () => 'u',
  now: () => 0,
};
const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' };

/** The JSON the next Send would send for `text`. */
function nextSend(text: string): { json: string; secrets: string[] } {
  const parsed = parsePayload(text);
  assert.ok(parsed.ok, 'the payload stays JSON');
  const r = resolvePayload(parsed.value, context);
  return { json: r.json, secrets: r.secrets };
}

function replied(payload: string, answer: ReplyAnswer, previousResponseId = false): string {
  const r = appendReply(payload, answer, { ...FORMAT, previousResponseId });
  assert.ok(r.ok, r.ok ? '' : r.problem);
  return r.text;
}

function assertLiteral(text: string, expected: readonly string[]): void {
  const sent = nextSend(text);
  assert.ok(!sent.json.includes(SECRET), 'the environment variable went out');
  assert.deepEqual(sent.secrets, []);
  for (const e of expected) {
    assert.ok(sent.json.includes(JSON.stringify(e).slice(1, -1)), `sent without ${e}: ${sent.json}`);
  }
}

describe('security: what answers write back stays literal', () => {
  it('literalText: resolving gives back any text exactly, with no reference read', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', '\\', '$', 'e', 'n', 'v', ' ', 'S', 'x') }), (s) => {
        const r = resolveString(literalText(s), context);
        assert.equal(r.sent, s);
        assert.deepEqual(r.secrets, []);
        assert.deepEqual(r.problems, []);
      }),
    );
    assert.equal(resolveString(literalText(HOSTILE), context).sent, HOSTILE);
    assert.deepEqual(literalValue({ '{{$env A}}': ['{{x}}', 1] }), { '\\{{$env A}}': ['\\{{x}}', 1] });
    // An answer's JSON holds nulls and booleans (tool arguments): kept as they are.
    assert.deepEqual(literalValue({ a: null, b: [null, true, '{{y}}'], c: { d: null } }), {
      a: null,
      b: [null, true, '\\{{y}}'],
      c: { d: null },
    });
  });

  it('Reply on Chat: the answer text and the tool calls (id, name, arguments) go out as written', () => {
    const payload =
      '// POST /v1/chat\n{\n  "model": "m",\n  "messages": [\n    { "role": "user", "content": "hi" }\n  ]\n}';
    const text = replied(payload, { text: HOSTILE, toolCalls: [] });
    assertLiteral(text, [HOSTILE]);
    const tools = replied(payload, {
      text: undefined,
      toolCalls: [
        { id: '{{$env SECRET_NAME}}', name: '{{$env SECRET_NAME}}', arguments: `{"q":"${'{{$env SECRET_NAME}}'}"}` },
      ],
    });
    assertLiteral(tools, ['{{$env SECRET_NAME}}', '{"q":"{{$env SECRET_NAME}}"}']);
  });

  it('Reply on Responses: text, function calls and previous_response_id go out as written', () => {
    const payload =
      '// POST /v1/responses\n{\n  "model": "m",\n  "input": [\n    { "role": "user", "content": "hi" }\n  ]\n}';
    assertLiteral(
      replied(payload, {
        text: HOSTILE,
        toolCalls: [{ id: 'c{{$env SECRET_NAME}}', name: 'n', arguments: '{{$env SECRET_NAME}}' }],
      }),
      [HOSTILE, 'c{{$env SECRET_NAME}}'],
    );
    const previous = replied(payload, { text: 'ok', toolCalls: [], id: 'resp_{{$env SECRET_NAME}}' }, true);
    assert.match(previous, /"previous_response_id"/);
    assertLiteral(previous, ['resp_{{$env SECRET_NAME}}']);
  });

  it('Reply twice finds the escaped answer already there; Fork keeps it literal', () => {
    const payload =
      '// POST /v1/chat\n{\n  "model": "m",\n  "messages": [\n    { "role": "user", "content": "hi" }\n  ]\n}';
    const once = replied(payload, { text: HOSTILE, toolCalls: [] });
    const again = appendReply(once, { text: HOSTILE, toolCalls: [] }, FORMAT);
    assert.ok(again.ok && again.already, 'Reply run twice appends nothing');
    const forked = forkAt(once, once.length);
    assert.ok(forked.ok);
    assertLiteral(forked.text, [HOSTILE]);
  });

  it('a dataset row (answers saved from an earlier run) fills {{…}} as literal text', async () => {
    const sent: string[] = [];
    const client = {
      post: async (_endpoint: string, json: string) => {
        sent.push(json);
        return { status: 200, statusText: 'OK', headers: {}, elapsedMs: 1, contentType: 'application/json' };
      },
    } as unknown as ModelService;
    const text =
      '// POST /v1/chat\n// @each rows.jsonl\n// @expect status 200\n{"model": "m", "messages": [{"role": "user", "content": "{{q}}"}]}';
    const rows = `${JSON.stringify({ q: '{{$env SECRET_NAME}}' })}\n`;
    await runCheckFile(text, {
      target: async () => ({ client, variables: context }),
      readText: (f) => (f === 'rows.jsonl' ? rows : undefined),
      concurrency: 1,
      maxRows: 10,
      signal: new AbortController().signal,
    });
    assert.equal(sent.length, 1);
    assert.ok(!sent[0].includes(SECRET), sent[0]);
    assert.ok(sent[0].includes('{{$env SECRET_NAME}}'), sent[0]);
  });
});
