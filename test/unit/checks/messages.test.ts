// Check results read as sentences: every kind of expectation, failing, says what it says here, word for word
// (each test's name is the message read aloud), and every run's line in Test Results names what was sent, the
// model, the status, the time and the start of the answer.
import * as assert from 'node:assert/strict';
import { evaluate, type Observed, type SchemaSource } from '../../../src/checks/core/evaluate';
import { parseExpectation } from '../../../src/checks/core/expectations';
import { answerStart, nearMatch, runRecord } from '../../../src/checks/core/messages';

const FRANCE =
  'The capital of France is Paris. It sits on the Seine, and about two million people live in the city itself.';

function observed(over: Partial<Observed> = {}): Observed {
  return {
    status: 200,
    elapsedMs: 412,
    streamed: false,
    body: { model: 'aurora-2', choices: [{ message: { content: FRANCE } }], usage: { total_tokens: 40 } },
    answer: { text: FRANCE, usage: { input: 12, output: 28, total: 40 } },
    ...over,
  };
}

const schemas: SchemaSource = (file) =>
  file === 'person.json'
    ? { ok: true, schema: { type: 'object', required: ['name'] } }
    : { ok: false, message: `The schema file ${file} cannot be read` };

/** The message an expectation's failure gives for `o`. */
function said(source: string, o: Observed = observed()): { message: string; diff: boolean } {
  const parsed = parseExpectation(source);
  assert.ok(parsed.ok, source);
  const outcome = evaluate(parsed.expectation, o, schemas);
  assert.equal(outcome.passed, false, `${source} fails`);
  return { message: outcome.message ?? '', diff: outcome.diff === true };
}

const BEGINS =
  'It begins: "The capital of France is Paris. It sits on the Seine, and about two million people live in the city itself."';

const CASES: { source: string; o?: Observed; message: string; diff?: boolean }[] = [
  { source: 'status == 201', message: 'The status was 200, expected == 201' },
  {
    source: 'status == 200',
    o: observed({ status: 404, errorMessage: 'The model "x" does not exist.' }),
    message: 'The status was 404, expected == 200: The model "x" does not exist.',
  },
  { source: 'text contains "London"', message: `The answer's text does not contain "London". ${BEGINS}` },
  {
    source: 'text contains "paris"',
    message: `The answer's text does not contain "paris"; it has "Paris" at character 26. ${BEGINS}`,
  },
  { source: 'text not contains "Paris"', message: `The answer's text contains "Paris" at character 26. ${BEGINS}` },
  {
    source: 'text matches /^Paris/',
    message: `The answer's text does not match /^Paris/. The text it ran on: "${FRANCE}"`,
  },
  {
    source: 'text == "Paris"',
    message: `The answer's text is not "Paris". ${BEGINS}`,
    diff: true,
  },
  { source: `text != "${FRANCE}"`, message: `The answer's text is exactly "${FRANCE}"` },
  { source: 'json $.model == "meridian-4"', message: 'json $.model is "aurora-2", expected "meridian-4"', diff: true },
  { source: 'json $.model != "aurora-2"', message: 'json $.model is "aurora-2"' },
  { source: 'json $.missing exists', message: 'json $.missing: the path matches nothing in the answer' },
  { source: 'time < 100ms', message: 'The answer took 412ms, expected < 100ms' },
  {
    source: 'first token < 1s',
    message: 'first token is measured on streamed answers: add "stream": true to the payload',
  },
  { source: 'tokens total < 10', message: 'total tokens: 40, expected < 10' },
  {
    source: 'schema person.json',
    message: 'Not valid against person.json: $: the required property "name" is missing',
  },
  { source: 'dimension == 64', message: 'The answer holds no embeddings' },
  {
    source: 'dimension == 64',
    o: observed({ answer: { text: undefined, vectors: [[0.6, 0.8]] } }),
    message: 'Embedding 0 has 2 dimensions, expected == 64',
  },
  {
    source: 'text contains "Paris"',
    o: { elapsedMs: 30, streamed: false, failure: 'connection refused' },
    message: 'No answer: connection refused',
  },
];

describe('checks/core/messages: each failure read aloud', () => {
  for (const c of CASES) {
    it(`${c.source} → ${c.message}`, () => {
      const got = said(c.source, c.o);
      assert.equal(got.message, c.message);
      assert.equal(got.diff, c.diff === true, c.diff ? 'an equality shows a diff' : 'no diff: a sentence says it');
    });
  }
});

describe('checks/core/messages: pieces', () => {
  it('the start of a long answer is cut at a word, with "…"', () => {
    const start = answerStart(`${'word '.repeat(40)}end`, 30);
    assert.equal(start, 'word word word word word word…');
  });

  it('a near match is found in another case or with other spacing, and nothing is made up', () => {
    assert.deepEqual(nearMatch('The capital is PARIS.', 'Paris'), { found: 'PARIS', at: 16 });
    assert.deepEqual(nearMatch('New   York city', 'new york'), { found: 'New   York', at: 1 });
    assert.equal(nearMatch('The capital is Paris.', 'London'), undefined);
  });

  it('a run in Test Results says: POST /v1/chat to aurora-2: status 200 in 412 ms. Answer: "The capital…"', () => {
    assert.equal(
      runRecord('/v1/chat', 'aurora-2', observed()),
      `POST /v1/chat to aurora-2: status 200 in 412 ms. Answer: "${FRANCE}"`,
    );
  });

  it('a dataset row’s run starts with its row: cases.jsonl:3  POST /v1/responses to kestrel-reasoner-1: status 500 …', () => {
    const line = runRecord(
      '/v1/responses',
      'kestrel-reasoner-1',
      observed({ status: 500, errorMessage: 'The server had an error.' }),
      'cases.jsonl:3',
    );
    assert.equal(
      line,
      'cases.jsonl:3  POST /v1/responses to kestrel-reasoner-1: status 500 in 412 ms. The service said: "The server had an error."',
    );
  });

  it('a run that got no answer says so: POST /v1/chat to aurora-2: no answer after 30 ms (connection refused)', () => {
    assert.equal(
      runRecord('/v1/chat', 'aurora-2', { elapsedMs: 30, failure: 'connection refused' }),
      'POST /v1/chat to aurora-2: no answer after 30 ms (connection refused)',
    );
  });

  it('an embeddings run counts its vectors: POST /v1/embeddings to cirrus-embed-2: status 200 in 412 ms. 3 vectors', () => {
    assert.equal(
      runRecord(
        '/v1/embeddings',
        'cirrus-embed-2',
        observed({ answer: { text: undefined, vectors: [[1], [1], [1]] } }),
      ),
      'POST /v1/embeddings to cirrus-embed-2: status 200 in 412 ms. 3 vectors',
    );
  });
});
