// Whether an answer meets each kind of expectation, and the message (expected, actual) of every failure.
import * as assert from 'node:assert/strict';
import {
  ACTUAL_LIMIT,
  evaluate,
  type Observed,
  type Outcome,
  type SchemaSource,
} from '../../../src/checks/core/evaluate';
import { parseExpectation } from '../../../src/checks/core/expectations';

const CHAT_BODY = {
  model: 'aurora-1',
  tags: ['fast', 'small'],
  meta: { a: 1, b: 'two' },
  items: [{ n: 1 }, { n: 5 }],
  usage: { total_tokens: 12 },
};

function answer(over: Partial<Observed> = {}): Observed {
  return {
    status: 200,
    elapsedMs: 1200,
    streamed: false,
    body: CHAT_BODY,
    answer: { text: 'The capital is Paris.', usage: { input: 4, output: 8, total: 12 } },
    ...over,
  };
}

const SCHEMAS: Record<string, unknown> = {
  'person.json': { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
  'answer.json': { type: 'object', required: ['model'] },
  'strict.json': { type: 'object', required: ['missing'] },
};
const schemas: SchemaSource = (file) =>
  Object.hasOwn(SCHEMAS, file)
    ? { ok: true, schema: SCHEMAS[file] }
    : { ok: false, message: `The schema file ${file} cannot be read` };

function run(source: string, o: Observed = answer()): Outcome {
  const p = parseExpectation(source);
  assert.ok(p.ok, source);
  return evaluate(p.expectation, o, schemas);
}

function passes(source: string, o?: Observed): void {
  const r = run(source, o);
  assert.deepEqual(r, { passed: true }, `${source}: ${r.message}`);
}

function fails(
  source: string,
  o: Observed | undefined,
  message: RegExp | string,
  expected?: string,
  actual?: string,
): Outcome {
  const r = run(source, o);
  assert.equal(r.passed, false, `${source} should fail`);
  if (typeof message === 'string') {
    assert.equal(r.message, message);
  } else {
    assert.match(r.message ?? '', message);
  }
  assert.equal(r.expected, expected, `${source}: expected`);
  assert.equal(r.actual, actual, `${source}: actual`);
  return r;
}

describe('checks/core/evaluate', () => {
  it('fails every kind with the connection message when no answer came', () => {
    for (const s of ['status 200', 'text contains "x"', 'time < 2s', 'json $.a exists']) {
      fails(
        s,
        { elapsedMs: 5, streamed: false, failure: 'connect ECONNREFUSED 127.0.0.1:9' },
        'No answer: connect ECONNREFUSED 127.0.0.1:9',
      );
    }
    fails('status 200', { elapsedMs: 5, streamed: false }, 'No answer: the request did not complete');
  });

  it('status: passes on the expected status, fails with both numbers and what the service said', () => {
    passes('status 200');
    passes('status < 300');
    fails('status 200', answer({ status: 500 }), 'The status was 500, expected == 200', '200', '500');
    fails(
      'status 200',
      answer({ status: 401, errorMessage: 'The API key was refused' }),
      'The status was 401, expected == 200: The API key was refused',
      '200',
      '401',
    );
  });

  it('text: contains, not contains, ==, !=, matches, on the answer text', () => {
    passes('text contains "Paris"');
    passes('text not contains "London"');
    passes('text == "The capital is Paris."');
    passes('text != "x"');
    passes('text matches /par(is)?/i');
    const text = 'The capital is Paris.';
    fails(
      'text contains "London"',
      undefined,
      'The answer\'s text does not contain "London". It begins: "The capital is Paris."',
      'London',
      text,
    );
    fails(
      'text not contains "Paris"',
      undefined,
      'The answer\'s text contains "Paris" at character 16. It begins: "The capital is Paris."',
      'not Paris',
      text,
    );
    fails('text == "x"', undefined, 'The answer\'s text is not "x". It begins: "The capital is Paris."', 'x', text);
    fails(
      'text != "The capital is Paris."',
      undefined,
      'The answer\'s text is exactly "The capital is Paris."',
      'not The capital is Paris.',
      text,
    );
    fails(
      'text matches /^london/i',
      undefined,
      'The answer\'s text does not match /^london/i. The text it ran on: "The capital is Paris."',
      'matches /^london/i',
      text,
    );
  });

  it('text: an answer without text says what was looked for', () => {
    fails('text contains "x"', answer({ answer: { text: undefined } }), 'The answer has no text');
    fails(
      'text contains "x"',
      answer({ answer: { text: undefined }, shapes: 'choices, output' }),
      'The answer has no text (looked for: choices, output)',
    );
    fails('text contains "x"', answer({ answer: undefined }), 'The answer has no text');
  });

  it('text: a long actual value is cut for the message', () => {
    const long = 'x'.repeat(ACTUAL_LIMIT + 10);
    const r = fails(
      'text contains "y"',
      answer({ answer: { text: long } }),
      /does not contain/,
      'y',
      `${'x'.repeat(ACTUAL_LIMIT)}…`,
    );
    assert.equal(r.actual?.length, ACTUAL_LIMIT + 1);
    const exact = 'x'.repeat(ACTUAL_LIMIT);
    assert.equal(run('text contains "y"', answer({ answer: { text: exact } })).actual, exact);
  });

  it('json: ==, !=, numbers, contains, matches, exists on the JSON body', () => {
    passes('json $.model == "aurora-1"');
    passes('json $.meta == {"b": "two", "a": 1}');
    passes('json $.model != "other"');
    passes('json $.usage.total_tokens < 20');
    passes('json $.usage.total_tokens >= 12');
    passes('json $.tags contains "fast"');
    passes('json $.model contains "aurora"');
    passes('json $.meta contains {"a": 1}');
    passes('json $.model matches /^aur/');
    passes('json $.meta.a exists');
    passes('json $.items[*].n == 5');
    passes('json $.items[-1].n > 4');
  });

  it('json: every failure names the path, the expected and the actual value', () => {
    fails('json $.model == "x"', undefined, 'json $.model is "aurora-1", expected "x"', '"x"', '"aurora-1"');
    fails('json $.model != "aurora-1"', undefined, 'json $.model is "aurora-1"', 'not "aurora-1"', '"aurora-1"');
    fails('json $.usage.total_tokens < 10', undefined, 'json $.usage.total_tokens is 12, expected < 10', '< 10', '12');
    fails('json $.model < 10', undefined, 'json $.model is "aurora-1", not a number', '< 10', '"aurora-1"');
    fails(
      'json $.tags contains "slow"',
      undefined,
      'json $.tags does not contain "slow"',
      '"slow"',
      '["fast","small"]',
    );
    fails('json $.model contains 1', undefined, 'json $.model does not contain 1', '1', '"aurora-1"');
    fails(
      'json $.meta contains {"a": 2}',
      undefined,
      'json $.meta does not contain {"a":2}',
      '{"a":2}',
      '{"a":1,"b":"two"}',
    );
    fails('json $.meta contains [1]', undefined, /does not contain \[1\]/, '[1]', '{"a":1,"b":"two"}');
    fails('json $.usage.total_tokens contains 1', undefined, /does not contain 1/, '1', '12');
    fails('json $.model matches /^x/', undefined, 'json $.model does not match /^x/', '/^x/', '"aurora-1"');
    fails('json $.usage matches /x/', undefined, 'json $.usage does not match /x/', '/x/', '{"total_tokens":12}');
    fails('json $.items[*].n == 7', undefined, 'json $.items[*].n is [1,5], expected 7', '7', '[1,5]');
  });

  it('json: a path that matches nothing says where it stopped', () => {
    const body = JSON.stringify(CHAT_BODY);
    fails('json $.nope exists', undefined, 'json $.nope: the path matches nothing in the answer', 'exists', body);
    fails(
      'json $.meta.c == 1',
      undefined,
      'json $.meta.c: the path matches nothing in the answer (it reaches $.meta, then nothing)',
      'json $.meta.c == 1',
      body,
    );
  });

  it('json and schema: a streamed or non-JSON answer is a failure that says so', () => {
    fails(
      'json $.a exists',
      answer({ streamed: true, body: undefined }),
      'json $.a reads a JSON answer, and this one was streamed: check it with text, or set "stream": false',
    );
    fails('json $.a exists', answer({ body: undefined }), 'json $.a: the answer is not JSON');
    fails(
      'schema answer.json',
      answer({ streamed: true, body: undefined }),
      'schema answer.json reads a JSON answer, and this one was streamed: use text schema answer.json',
    );
    fails('schema answer.json', answer({ body: undefined }), 'schema answer.json: the answer is not JSON');
  });

  it('time: the whole answer against the bound', () => {
    passes('time < 2s');
    fails('time < 1s', undefined, 'The answer took 1.2s, expected < 1s', '< 1s', '1.2s');
  });

  it('first token: only for streams, and only when text came', () => {
    passes('first token < 1s', answer({ streamed: true, firstTokenMs: 120 }));
    fails(
      'first token < 100ms',
      answer({ streamed: true, firstTokenMs: 120 }),
      'The first token came after 120ms, expected < 100ms',
      '< 100ms',
      '120ms',
    );
    fails(
      'first token < 1s',
      answer(),
      'first token is measured on streamed answers: add "stream": true to the payload',
    );
    fails(
      'first token < 1s',
      answer({ streamed: true }),
      'The streamed answer carried no text, so it has no first token',
    );
  });

  it('tokens: the reported count against the bound, and a message when none is reported', () => {
    passes('tokens < 20');
    passes('tokens output <= 8');
    passes('tokens input == 4');
    fails('tokens < 10', undefined, 'total tokens: 12, expected < 10', '< 10', '12');
    fails('tokens output < 5', undefined, 'output tokens: 8, expected < 5', '< 5', '8');
    fails(
      'tokens input < 5',
      answer({ answer: { text: 'x', usage: { total: 3 } } }),
      'The answer reports no input token count',
    );
    fails('tokens < 5', answer({ answer: { text: 'x' } }), /^The answer reports no token usage/);
  });

  it('schema: the body or the text parsed as JSON against the file', () => {
    passes('schema answer.json');
    passes('text schema person.json', answer({ answer: { text: '{"name": "Ada"}' } }));
    fails(
      'schema strict.json',
      undefined,
      'Not valid against strict.json: $: the required property "missing" is missing',
      'strict.json',
      JSON.stringify(CHAT_BODY),
    );
    fails(
      'text schema person.json',
      answer({ answer: { text: '{"name": 1}' } }),
      'Not valid against person.json: $.name: expected string, found integer',
      'person.json',
      '{"name":1}',
    );
    fails(
      'text schema person.json',
      answer({ answer: { text: 'no' } }),
      /^The answer's text is not JSON \(.+\), so it cannot match person\.json$/,
      undefined,
      'no',
    );
    fails('text schema person.json', answer({ answer: { text: undefined } }), 'The answer has no text');
    fails('schema missing.json', undefined, 'The schema file missing.json cannot be read');
  });

  it('dimension: every embedding, the first wrong one named', () => {
    const vectors = (lengths: number[]) =>
      answer({ answer: { text: undefined, vectors: lengths.map((n) => new Array<number>(n).fill(0)) } });
    passes('dimension 8', vectors([8, 8]));
    passes('dimension >= 4', vectors([8, 4]));
    fails('dimension 8', vectors([8, 4]), 'Embedding 1 has 4 dimensions, expected == 8', '== 8', '4');
    fails('dimension 8', vectors([]), 'The answer holds no embeddings');
    fails('dimension 8', answer(), 'The answer holds no embeddings');
  });
});
