// One planned request of a check against a stand-in client: what the person sees of it when the answer has
// no body, when it streams (the first token's time), when it is cancelled or the client fails, when the
// payload cannot be sent, and how dataset values fill the expectations.
import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import type { ModelService, PostResult, ServerSentEvent } from '../../../src/api/types';
import { readUsage } from '../../../src/domain/answer';
import { evaluate } from '../../../src/checks/core/evaluate';
import { parseExpectation, type Expectation } from '../../../src/checks/core/expectations';
import {
  bindExpectation,
  isNotRunnable,
  prepareCheck,
  runPlanned,
  totalTokens,
  withModel,
  type PreparedCheck,
  type RunDeps,
  type RunResult,
} from '../../../src/checks/core/runCheck';
import { variables } from '../helpers/checks';

function check(...lines: string[]): PreparedCheck {
  const p = prepareCheck(['// POST /v1/responses', ...lines].join('\n'));
  assert.ok(!isNotRunnable(p), isNotRunnable(p) ? p.message : '');
  return p;
}

function clientOf(post: (signal: AbortSignal) => Promise<PostResult>): ModelService {
  return {
    post: (_endpoint: string, _body: unknown, options?: { signal?: AbortSignal }) =>
      post(options?.signal ?? new AbortController().signal),
  } as unknown as ModelService;
}

function answer(over: Partial<PostResult>): PostResult {
  return { status: 200, statusText: 'OK', headers: {}, elapsedMs: 1, contentType: 'application/json', ...over };
}

/** A stream whose events arrive at the given times of the fake clock. */
function stream(clock: { now: number }, timed: [number, ServerSentEvent][], after?: () => void): PostResult {
  const batches = async function* () {
    for (const [at, event] of timed) {
      clock.now = at;
      yield [event];
    }
    after?.();
  };
  return answer({
    contentType: 'text/event-stream',
    events: { batches, [Symbol.asyncIterator]: () => batches()[Symbol.asyncIterator]() } as never,
  });
}

const textDelta = (delta: string): ServerSentEvent => {
  const json = { type: 'response.output_text.delta', delta };
  return { event: json.type, data: JSON.stringify(json), json };
};
const created: ServerSentEvent = {
  event: 'response.created',
  data: '{"type":"response.created","response":{"id":"r1"}}',
  json: { type: 'response.created', response: { id: 'r1' } },
};
const toolCall: ServerSentEvent = (() => {
  const json = {
    type: 'response.output_item.done',
    item: { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'f', arguments: '{}' },
  };
  return { event: json.type, data: JSON.stringify(json), json };
})();

async function run(c: PreparedCheck, client: ModelService, over: Partial<RunDeps> = {}): Promise<RunResult> {
  return runPlanned(
    c,
    {},
    {
      client,
      variables,
      schemas: () => ({ ok: false, message: 'none' }),
      signal: new AbortController().signal,
      ...over,
    },
  );
}

function messages(r: RunResult): (string | undefined)[] {
  return r.results.map((x) => x.outcome.message);
}

function expectation(source: string): Expectation {
  const p = parseExpectation(source);
  assert.ok(p.ok, source);
  return p.expectation;
}

describe('checks/core/runCheck', () => {
  it('a request passes only when every expectation holds', async () => {
    const c = check('// @expect status 200', '// @expect status 500', '{"stream": false}');
    const r = await run(
      c,
      clientOf(async () => answer({ body: { json: {}, text: '{}', bytes: 2, truncated: false } })),
    );
    assert.equal(r.passed, false);
    assert.deepEqual(messages(r), [undefined, 'The status was 200, expected == 500']);
    const ok = await run(
      check('// @expect status 200', '{}'),
      clientOf(async () => answer({})),
    );
    assert.equal(ok.passed, true);
  });

  it('an answer without a body is read as one without text, not a crash', async () => {
    const c = check('// @expect status 204', '// @expect text contains "x"', '{}');
    const r = await run(
      c,
      clientOf(async () => answer({ status: 204 })),
    );
    assert.deepEqual(messages(r), [undefined, `The answer has no text (looked for: ${r.observed.shapes})`]);
  });

  it('the first token is the first event with text, after events without it', async () => {
    const clock = { now: 0 };
    const c = check('// @expect first token < 60ms', '{"stream": true}');
    const r = await run(
      c,
      clientOf(async () =>
        stream(clock, [
          [10, created],
          [50, textDelta('Hel')],
          [90, textDelta('lo')],
        ]),
      ),
      { clock: () => clock.now },
    );
    assert.equal(r.observed.firstTokenMs, 50);
    assert.equal(r.observed.elapsedMs, 90);
    assert.equal(r.passed, true);
  });

  it('a tool call is not a first token', async () => {
    const clock = { now: 0 };
    const c = check('// @expect first token < 60ms', '{"stream": true}');
    const onlyTool = await run(
      c,
      clientOf(async () => stream(clock, [[10, toolCall]])),
      { clock: () => clock.now },
    );
    assert.deepEqual(messages(onlyTool), ['The streamed answer carried no text, so it has no first token']);
    clock.now = 0;
    const later = await run(
      c,
      clientOf(async () =>
        stream(clock, [
          [10, toolCall],
          [70, textDelta('Hi')],
        ]),
      ),
      {
        clock: () => clock.now,
      },
    );
    assert.equal(later.observed.firstTokenMs, 70);
  });

  it('a stream cut by Cancel is a cancelled run, not a short answer', async () => {
    const controller = new AbortController();
    const clock = { now: 100 };
    const c = check('// @expect text contains "Hel"', '{"stream": true}');
    const r = await run(
      c,
      clientOf(async () => stream(clock, [[130, textDelta('Hel')]], () => controller.abort())),
      { signal: controller.signal, clock: () => clock.now },
    );
    assert.equal(r.observed.failure, 'the run was cancelled');
    assert.equal(r.observed.elapsedMs, 30);
    assert.deepEqual(messages(r), ['No answer: the run was cancelled']);
  });

  it("a failed request says why, with its time: cancelled, the client's message, or unexpected", async () => {
    const clock = { now: 100 };
    const c = check('// @expect status 200', '{}');
    const failing = (e: unknown) =>
      clientOf(async () => {
        clock.now = 105;
        throw e;
      });
    const aborted = await run(c, failing(new ServiceError({ kind: 'aborted', message: 'The request was aborted' })), {
      clock: () => clock.now,
    });
    assert.deepEqual(messages(aborted), ['No answer: the run was cancelled']);
    assert.equal(aborted.observed.elapsedMs, 5);
    clock.now = 100;
    const down = await run(
      c,
      failing(new ServiceError({ kind: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9' })),
    );
    assert.deepEqual(messages(down), ['No answer: connect ECONNREFUSED 127.0.0.1:9']);
    const odd = await run(c, failing(new TypeError('boom')));
    assert.deepEqual(messages(odd), ['No answer: the request failed unexpectedly']);
  });

  it('a payload whose variables cannot be filled is not sent, and says every reason', async () => {
    let sent = 0;
    const c = check('// @expect status 200', '{"a": "{{nope}}", "b": "{{gone}}"}');
    const r = await run(
      c,
      clientOf(async () => {
        sent++;
        return answer({});
      }),
    );
    assert.equal(sent, 0);
    const [message] = messages(r);
    assert.match(message ?? '', /^No answer: nothing was sent: .*nope.*; .*gone/);
  });

  it('counts tokens as the answer reports them: the total, else input and output added', () => {
    assert.equal(totalTokens({ total: 5, input: 1, output: 1 }), 5);
    assert.equal(totalTokens({ input: 4, output: 8 }), 12);
    // As the answer reader gives it for a Chat Completions answer without total_tokens.
    assert.equal(totalTokens(readUsage({ prompt_tokens: 4, completion_tokens: 8 }) ?? {}), 12);
    assert.equal(totalTokens(readUsage({ prompt_tokens: 4 }) ?? {}), undefined);
    assert.equal(totalTokens({ input: 4 }), undefined);
    assert.equal(totalTokens({}), undefined);
  });

  it('sends another model only in a payload that is a JSON object', () => {
    assert.deepEqual(withModel({ model: 'a', x: 1 }, 'b'), { model: 'b', x: 1 });
    assert.equal(withModel('text', 'b'), 'text');
    assert.equal(withModel(null, 'b'), null);
    assert.deepEqual(withModel([1], 'b'), [1]);
  });

  it('fills a dataset value into ==, != and contains, inside objects and arrays, keeping other values', () => {
    const context = { ...variables, variables: { city: 'Lyon' } };
    const ne = bindExpectation(expectation('json $.city != "{{city}}"'), context);
    assert.ok(ne.kind === 'json' && ne.op === '!=');
    assert.equal(ne.value, 'Lyon');
    const obj = bindExpectation(expectation('json $.a == {"n": 5, "z": null, "l": [true, "{{city}}"]}'), context);
    assert.ok(obj.kind === 'json' && obj.op === '==');
    assert.deepEqual(obj.value, { n: 5, z: null, l: [true, 'Lyon'] });
    const body = { a: { n: 5, z: null, l: [true, 'Lyon'] } };
    const o = { status: 200, elapsedMs: 1, streamed: false, body };
    assert.deepEqual(
      evaluate(obj, o, () => ({ ok: false, message: '' })),
      { passed: true },
    );
  });
});
