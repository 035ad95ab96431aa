// The verdicts that depend on more than one value: a path through [*] that reaches several, "contains" between
// values of different kinds, an answer without text, usage or embeddings, the first embedding of several.
import * as assert from 'node:assert/strict';
import { evaluate, type Observed, type Outcome } from '../../../src/checks/core/evaluate';
import { parseExpectation } from '../../../src/checks/core/expectations';

const BODY = {
  tags: ['fast', 'small'],
  meta: { a: 1, b: 'two' },
  items: [{ n: 1 }, { n: 5 }],
  nothing: null,
};

function observed(over: Partial<Observed> = {}): Observed {
  return { status: 200, elapsedMs: 10, streamed: false, body: BODY, answer: { text: '{}' }, ...over };
}

function run(source: string, o: Observed = observed()): Outcome {
  const p = parseExpectation(source);
  assert.ok(p.ok, source);
  return evaluate(p.expectation, o, () => ({ ok: true, schema: { type: 'object' } }));
}

function passes(source: string, o?: Observed): void {
  assert.deepEqual(run(source, o), { passed: true }, source);
}

function failsWith(source: string, message: string, o?: Observed): Outcome {
  const r = run(source, o);
  assert.equal(r.passed, false, `${source} should fail`);
  assert.equal(r.message, message, source);
  return r;
}

describe('checks/core/evaluate: several values, mixed kinds, missing parts', () => {
  it('a path through [*] holds when one of the values it reaches meets the expectation', () => {
    passes('json $.items[*].n != 1');
    passes('json $.items[*] contains {"n": 1}');
    passes('json $.tags[*] matches /fast/');
    passes('json $.items[*].n > 3');
    failsWith('json $.items[*].n > 5', 'json $.items[*].n is [1,5], expected > 5');
  });

  it('matches reads only strings: a number is not text', () => {
    const r = failsWith('json $.items[*].n matches /5/', 'json $.items[*].n does not match /5/');
    assert.equal(r.actual, '[1,5]');
  });

  it('an object contains the given properties, all of them, with equal values', () => {
    passes('json $.meta contains {"a": 1}');
    failsWith('json $.meta contains {"a": 1, "b": "zzz"}', 'json $.meta does not contain {"a":1,"b":"zzz"}');
  });

  it('contains between values of different kinds is a failure, never a pass or a crash', () => {
    failsWith('json $.meta.a contains {}', 'json $.meta.a does not contain {}');
    failsWith('json $.nothing contains {"a": 1}', 'json $.nothing does not contain {"a":1}');
    failsWith('json $.meta contains 5', 'json $.meta does not contain 5');
    failsWith('json $.meta contains null', 'json $.meta does not contain null');
  });

  it('an answer with a status but nothing read from it fails with what is missing', () => {
    const unread = observed({ status: 502, answer: undefined, body: undefined });
    failsWith(
      'tokens < 5',
      'The answer reports no token usage (a streamed chat answer reports it with "stream_options": {"include_usage": true})',
      unread,
    );
    failsWith('text schema answer.json', 'The answer has no text', unread);
    failsWith('dimension 3', 'The answer holds no embeddings', unread);
  });

  it('names the first embedding of the wrong dimension, even when it is the first', () => {
    const r = failsWith(
      'dimension 3',
      'Embedding 0 has 2 dimensions, expected == 3',
      observed({
        answer: {
          text: undefined,
          vectors: [
            [1, 2],
            [1, 2, 3],
          ],
        },
      }),
    );
    assert.equal(r.actual, '2');
    passes(
      'dimension 3',
      observed({
        answer: {
          text: undefined,
          vectors: [
            [1, 2, 3],
            [4, 5, 6],
          ],
        },
      }),
    );
  });
});
