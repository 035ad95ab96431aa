// A hostile answer or schema fails its own expectation with the reason, within a budget; the other
// expectations and the run go on (issue 35, items 7 and 8).
import * as assert from 'node:assert/strict';
import type { ModelService } from '../../../src/api/types';
import { runCheckFile } from '../../../src/checks/core/fileRun';
import { StepBudget, testWithin } from '../../../src/checks/core/budget';

function fakeService(body: unknown, text = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'): ModelService {
  return {
    post: async () => ({
      status: 200,
      statusText: 'OK',
      headers: {},
      elapsedMs: 1,
      contentType: 'application/json',
      body: {
        json: body,
        text: JSON.stringify({ choices: [{ message: { content: text } }] }),
        bytes: 10,
        truncated: false,
      },
    }),
  } as unknown as ModelService;
}

async function run(expectations: string[], body: unknown, files: Record<string, string> = {}) {
  const text = `// POST /v1/chat\n// @expect status 200\n${expectations.map((e) => `// @expect ${e}`).join('\n')}\n{"model": "m", "messages": []}`;
  const result = await runCheckFile(text, {
    target: async () => ({
      client: fakeService(body),
      variables: { variables: {}, env: () => undefined, uuid: () => '', now: () => 0 },
    }),
    readText: (f) => files[f],
    concurrency: 1,
    maxRows: 1,
    signal: new AbortController().signal,
  });
  const row = result.rows[0];
  assert.ok(row.kind === 'run');
  return row.result.results.map((r) => r.outcome);
}

describe('checks: hostile answers and schemas (budgets, failures of their own)', function () {
  this.timeout(60_000);

  it('[*] over 600,000 elements, a 200,000-deep answer, a bad $ref and a pattern invalid in Unicode mode each fail (or pass) alone', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) {
      deep = { x: deep };
    }
    const big = { choices: [{ message: { content: 'hi' } }], items: Array.from({ length: 600_000 }, (_, i) => i) };
    const outcomes = await run(['json $.items[*] == 599999'], big);
    assert.deepEqual(
      outcomes.map((o) => o.passed),
      [true, true],
    );

    const deepOutcomes = await run(['json $.x.x.y exists', 'json $.nothing exists'], { x: deep });
    assert.equal(deepOutcomes[0].passed, true, 'status still passes');
    assert.match(
      deepOutcomes[1].message ?? '',
      /could not be evaluated: the answer or the schema is too deeply nested or too large/,
    );

    const schemas = await run(
      ['schema ref.json', 'schema pattern.json'],
      { a: 'x' },
      {
        'ref.json': '{"$ref": "#/%E0"}',
        'pattern.json': '{"properties": {"a": {"type": "string", "pattern": "\\\\p"}}}',
      },
    );
    assert.equal(schemas[0].passed, true);
    assert.match(schemas[1].message ?? '', /could not be evaluated: URI malformed/);
    assert.match(schemas[2].message ?? '', /could not be evaluated: Invalid regular expression/);
  });

  it('a catastrophic pattern on the answer is stopped after its time, the status expectation still passes', async () => {
    const started = Date.now();
    const outcomes = await run(['text matches /^(a+)+$/'], {
      choices: [{ message: { content: `${'a'.repeat(40)}b` } }],
    });
    assert.equal(outcomes[0].passed, true);
    assert.match(
      outcomes[1].message ?? '',
      /could not be evaluated: the pattern \/\^\(a\+\)\+\$\/ was stopped after 2 s/,
    );
    assert.ok(Date.now() - started < 15_000);
    // The worker is replaced: the next pattern runs.
    assert.equal(testWithin(/^a+$/, 'aaa'), true);
    assert.equal(testWithin(/^b/, 'aaa'), false);
  });

  it('a schema that refers to itself two ways ({"anyOf":[{"$ref":"#"},{"$ref":"#"}]}) is stopped by its step budget', async () => {
    const started = Date.now();
    const outcomes = await run(
      ['schema loop.json'],
      { a: 1 },
      { 'loop.json': '{"anyOf":[{"$ref":"#"},{"$ref":"#"}]}' },
    );
    assert.match(outcomes[1].message ?? '', /the schema check was stopped after 200000 steps/);
    assert.ok(Date.now() - started < 15_000);
    const b = new StepBudget(3, 1000);
    b.step();
    b.step();
    b.step();
    assert.throws(() => b.step(), /stopped after 3 steps/);
  });
});
