// Running the graders: what each sends, and every way a grader cannot grade fails the expectation with the
// reason (never a pass).
import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import type { ModelService, PostResult } from '../../../src/api/types';
import type { Observed } from '../../../src/checks/core/evaluate';
import type { ModelEntry } from '../../../src/api/types';
import {
  defaultEmbeddingsModel,
  grade,
  graderModel,
  newestCurrentEmbeddingsModel,
} from '../../../src/checks/core/graderRun';

const observed = (text: string | undefined): Observed => ({
  status: 200,
  elapsedMs: 1,
  streamed: false,
  answer: { text },
});

function ok(value: unknown): PostResult {
  const text = JSON.stringify(value);
  return {
    status: 200,
    statusText: 'OK',
    headers: {},
    elapsedMs: 1,
    contentType: 'application/json',
    body: { json: value, text, bytes: text.length, truncated: false },
  };
}

function client(answer: (endpoint: string, body: Record<string, unknown>) => PostResult | Error) {
  const sent: Array<[string, Record<string, unknown>]> = [];
  const s = {
    sent,
    endpointUrl: (p: string) => p,
    listModels: async () => ({
      models: [
        { id: 'aurora-1', raw: { id: 'aurora-1' } },
        { id: 'cirrus-embed-1', raw: { id: 'cirrus-embed-1' } },
      ],
      skipped: 0,
      warnings: [],
      pages: 1,
    }),
    getModel: async () => ({ id: 'x', raw: {} }),
    post: async (endpoint: string, body: unknown) => {
      sent.push([endpoint, body as Record<string, unknown>]);
      const a = answer(endpoint, body as Record<string, unknown>);
      if (a instanceof Error) {
        throw a;
      }
      return a;
    },
    uploadFile: async () => ok({}),
    dispose: async () => undefined,
  } satisfies ModelService & { sent: unknown };
  return s;
}

const vectors = (...v: number[][]) =>
  ok({ data: v.map((embedding, index) => ({ object: 'embedding', index, embedding })) });
const verdict = (v: unknown) => ok({ choices: [{ message: { role: 'assistant', content: JSON.stringify(v) } }] });
const signal = new AbortController().signal;
const similar = { kind: 'similar', reference: 'Paris', op: '>=', threshold: 0.8 } as const;
const judge = { kind: 'judge', criterion: 'Names Paris' } as const;

describe('checks/core/graderRun', () => {
  it('similar: one embeddings request with the answer and the reference; the score and reason on pass and fail', async () => {
    const c = client(() => vectors([1, 0], [1, 0]));
    const pass = await grade(similar, observed('Paris.'), 'aurora-1', {
      client: c,
      models: { embeddings: 'e' },
      signal,
    });
    assert.deepEqual(pass, { passed: true, score: 1, reason: 'similarity 1.00 to the reference (e)' });
    assert.deepEqual(c.sent, [['/v1/embeddings', { model: 'e', input: ['Paris.', 'Paris'] }]]);
    const far = client(() => vectors([1, 0], [1, 1]));
    const fail = await grade(similar, observed('x'), undefined, { client: far, models: { embeddings: 'e' }, signal });
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The similarity to the reference is 0.70, expected >= 0.8 (e)');
    assert.equal(fail.expected, '>= 0.8');
    assert.equal(fail.actual, '0.70');
    assert.ok(Math.abs(fail.score! - Math.SQRT1_2) < 1e-12);
  });

  it('similar over many rows: each reference embedded once for the run, the answer per row; the same scores', async () => {
    // Word-count vectors: "Paris" -> [1, 0], "Rome" -> [0, 1]; an answer is scored against its own reference.
    const vec = (t: string) => [t.includes('Paris') ? 1 : 0, t.includes('Rome') ? 1 : 0];
    const c = client((_e, body) => vectors(...(body.input as string[]).map(vec)));
    const references = new Map();
    const ctx = { client: c, models: { embeddings: 'e' }, signal, references };
    const rome = { ...similar, reference: 'Rome' };
    const outcomes = await Promise.all([
      grade(similar, observed('Paris.'), undefined, ctx),
      grade(similar, observed('Rome, not Paris.'), undefined, ctx),
      grade(rome, observed('Rome.'), undefined, ctx),
      grade(rome, observed('Paris.'), undefined, ctx),
    ]);
    assert.deepEqual(
      outcomes.map((o) => [o.passed, o.reason]),
      [
        [true, 'similarity 1.00 to the reference (e)'],
        [false, 'similarity 0.70 to the reference (e)'],
        [true, 'similarity 1.00 to the reference (e)'],
        [false, 'similarity 0.00 to the reference (e)'],
      ],
    );
    const inputs = c.sent.map(([, b]) => (b.input as string[]).join('|')).sort();
    assert.deepEqual(inputs, ['Paris', 'Paris.', 'Paris.', 'Rome', 'Rome, not Paris.', 'Rome.']);
    // A later row asks for the answer only.
    c.sent.length = 0;
    await grade(similar, observed('Paris!'), undefined, ctx);
    assert.deepEqual(c.sent, [['/v1/embeddings', { model: 'e', input: ['Paris!'] }]]);
  });

  it('similar over many rows: a reference that failed is asked for again by the next row, and fails only its row', async () => {
    let down = true;
    const c = client((_e, body) =>
      down && (body.input as string[])[0] === 'Paris' ? new Error('connection reset') : vectors([1, 0]),
    );
    const ctx = { client: c, models: { embeddings: 'e' }, signal, references: new Map() };
    const first = await grade(similar, observed('Paris.'), undefined, ctx);
    assert.equal(first.passed, false);
    assert.equal(first.message, 'the grader model e could not be reached: connection reset');
    down = false;
    const second = await grade(similar, observed('Paris.'), undefined, ctx);
    assert.equal(second.passed, true);
    assert.equal(c.sent.filter(([, b]) => (b.input as string[])[0] === 'Paris').length, 2);
  });

  it('similar over many rows fails with the reason when a single-text request gets no single vector', async () => {
    const c = client(() => vectors([1, 0], [1, 0]));
    const ctx = { client: c, models: { embeddings: 'e' }, signal, references: new Map() };
    const r = await grade(similar, observed('Paris.'), undefined, ctx);
    assert.equal(r.passed, false);
    assert.match(r.message ?? '', /^the grader model e did not answer with one embedding per text/);
  });

  it('a grader never passes what it could not grade: no answer at all, HTTP 300, no judge model, a failed answer embedding', async () => {
    const failed: Observed = { elapsedMs: 1, streamed: false, failure: 'connection refused' };
    for (const e of [similar, judge]) {
      const r = await grade(e, failed, 'aurora-1', {
        client: client(() => vectors([1])),
        models: { embeddings: 'e' },
        signal,
      });
      assert.deepEqual(r, { passed: false, message: 'The answer has no text to grade' });
    }
    const moved = await grade(similar, observed('x'), undefined, {
      client: client(() => ({ ...vectors([1], [1]), status: 300 })),
      models: { embeddings: 'e' },
      signal,
    });
    assert.deepEqual(moved, { passed: false, message: 'the grader model e answered HTTP 300' });
    const noJudge = await grade(judge, observed('x'), undefined, { client: client(() => ok({})), models: {}, signal });
    assert.equal(noJudge.passed, false);
    const down = await grade(judge, observed('x'), 'aurora-1', {
      client: client(() => new Error('connection reset')),
      models: {},
      signal,
    });
    assert.deepEqual(down, {
      passed: false,
      message: 'the grader model aurora-1 could not be reached: connection reset',
    });
    // Over many rows: the reference is embedded, the answer's request fails: that row fails with the reason.
    const half = client((_e, body) => ((body.input as string[])[0] === 'Paris' ? vectors([1, 0]) : new Error('reset')));
    const row = await grade(similar, observed('Paris.'), undefined, {
      client: half,
      models: { embeddings: 'e' },
      signal,
      references: new Map(),
    });
    assert.deepEqual(row, { passed: false, message: 'the grader model e could not be reached: reset' });
  });

  it("a grader's request carries the run's signal, so Cancel stops it", async () => {
    const run = new AbortController();
    const seen: unknown[] = [];
    const c = client(() => vectors([1], [1]));
    const spy = {
      ...c,
      post: async (e: string, b: unknown, o?: { signal?: AbortSignal }) => (seen.push(o?.signal), c.post(e, b)),
    };
    await grade(similar, observed('x'), undefined, { client: spy, models: { embeddings: 'e' }, signal: run.signal });
    await grade(judge, observed('x'), 'aurora-1', { client: spy, models: {}, signal: run.signal });
    assert.deepEqual(seen, [run.signal, run.signal]);
  });

  it('similar fails with the reason: no text, no model, an error status, not two vectors, unusable vectors, unreachable', async () => {
    const cases: Array<[ReturnType<typeof client>, string | undefined, Observed, RegExp]> = [
      [client(() => vectors([1], [1])), 'e', observed(undefined), /^The answer has no text to grade$/],
      [
        client(() => vectors([1], [1])),
        undefined,
        observed('x'),
        /similar needs an embeddings model, and the service lists no current one \(a deprecated or retiring one is never taken by default\): name one with \/\/ @grader embeddings=MODEL/,
      ],
      [
        client(() => ({
          ...ok({}),
          status: 404,
          error: new ServiceError({
            kind: 'notFound',
            status: 404,
            message: 'm',
            serverMessage: 'The model `e` does not exist',
          }),
        })),
        'e',
        observed('x'),
        /^the grader model e answered HTTP 404: The model `e` does not exist$/,
      ],
      [
        client(() => ({ ...ok({}), status: 500, body: undefined })),
        'e',
        observed('x'),
        /^the grader model e answered HTTP 500$/,
      ],
      [
        client(() => vectors([1, 0])),
        'e',
        observed('x'),
        /did not answer with one embedding per text \(is it an embeddings model\?\)/,
      ],
      [
        client(() => ok({ choices: [{ message: { content: 'hi' } }] })),
        'e',
        observed('x'),
        /did not answer with one embedding per text/,
      ],
      [
        client(() => vectors([1, 0], [1])),
        'e',
        observed('x'),
        /^the grader model e: the embeddings have different lengths \(2 and 1\)$/,
      ],
      [
        client(() => new Error('ECONNREFUSED')),
        'e',
        observed('x'),
        /^the grader model e could not be reached: ECONNREFUSED$/,
      ],
    ];
    for (const [c, model, o, message] of cases) {
      const r = await grade(similar, o, 'aurora-1', { client: c, models: { embeddings: model }, signal });
      assert.equal(r.passed, false);
      assert.match(r.message ?? '', message);
    }
  });

  it("judge: asks the payload's model by default, @grader's when named; pass and fail carry the reason", async () => {
    const c = client(() => verdict({ verdict: 'pass', reason: 'It names Paris.' }));
    const pass = await grade(judge, observed('Paris.'), 'aurora-1', { client: c, models: {}, signal });
    assert.deepEqual(pass, { passed: true, score: 1, reason: 'judge aurora-1: It names Paris.' });
    assert.equal(c.sent[0][0], '/v1/chat');
    assert.equal(c.sent[0][1].model, 'aurora-1');
    const no = client(() => verdict({ verdict: 'fail', reason: 'It names Lyon.' }));
    const fail = await grade(judge, observed('Lyon.'), 'aurora-1', {
      client: no,
      models: { judge: 'aurora-2' },
      signal,
    });
    assert.deepEqual(fail, {
      passed: false,
      score: 0,
      reason: 'judge aurora-2: It names Lyon.',
      message: 'The judge aurora-2 failed the answer: It names Lyon.',
      expected: 'Names Paris',
      actual: 'Lyon.',
    });
  });

  it('judge fails with the reason: no model, a wrong shape, a refusal, an error status', async () => {
    const none = await grade(judge, observed('x'), undefined, { client: client(() => ok({})), models: {}, signal });
    assert.match(none.message ?? '', /^judge needs a chat model: name one with \/\/ @grader judge=MODEL/);
    const shape = await grade(judge, observed('x'), 'j', {
      client: client(() => ok({ choices: [{ message: { content: 'Looks fine to me' } }] })),
      models: {},
      signal,
    });
    assert.equal(
      shape.message,
      'The judge j gave no usable verdict: the judge did not answer in the verdict format: Looks fine to me',
    );
    const refused = await grade(judge, observed('x'), 'j', {
      client: client(() =>
        ok({ choices: [{ message: { content: null, refusal: 'I cannot help' }, finish_reason: 'content_filter' }] }),
      ),
      models: {},
      signal,
    });
    assert.equal(refused.passed, false);
    assert.match(refused.message ?? '', /^The judge j gave no usable verdict: /);
    const missing = await grade(judge, observed('x'), 'nope', {
      client: client(() => ({ ...ok({}), status: 404, body: undefined })),
      models: {},
      signal,
    });
    assert.equal(missing.message, 'the grader model nope answered HTTP 404');
  });

  it('graderModel and the default embeddings model (the only embeddings model listed)', async () => {
    assert.equal(graderModel('judge', {}, 'run'), 'run');
    assert.equal(graderModel('judge', { judge: 'j' }, 'run'), 'j');
    assert.equal(graderModel('embeddings', {}, 'run'), undefined);
    assert.equal(graderModel('embeddings', { embeddings: 'e' }, 'run'), 'e');
    assert.equal(await defaultEmbeddingsModel(client(() => ok({}))), 'cirrus-embed-1');
    const down = client(() => ok({}));
    down.listModels = async () => {
      throw new Error('down');
    };
    assert.equal(await defaultEmbeddingsModel(down), undefined);
  });

  describe('the default embeddings model of similar: the newest current one', () => {
    const now = Date.parse('2026-11-29T00:00:00Z');
    const entry = (id: string, raw: Record<string, unknown>, version?: string): ModelEntry => ({
      id,
      version,
      raw: { id, capabilities: { embeddings: true, chat: false }, ...raw },
    });
    const chat: ModelEntry = { id: 'aurora-9', raw: { id: 'aurora-9', created: 1_900_000_000 } };

    it('never a deprecated or retiring model, even listed first and newest', () => {
      const models = [
        entry('old-embed', { lifecycle_status: 'deprecated', created: 1_800_000_000 }),
        entry('retiring-embed', { retirement_date: '2027-02-01', created: 1_800_000_000 }),
        entry('embed-a', { lifecycle_status: 'generally-available', created: 1_600_000_000 }),
        entry('embed-b', { created: 1_700_000_000 }),
        chat,
      ];
      assert.equal(newestCurrentEmbeddingsModel(models, now), 'embed-b');
    });

    it('the latest created, then the highest version, then the first listed', () => {
      assert.equal(
        newestCurrentEmbeddingsModel([entry('a', { created: 5 }, '9'), entry('b', { created: 6 }, '1')], now),
        'b',
      );
      assert.equal(
        newestCurrentEmbeddingsModel([entry('a', { created: 5 }, '1.9'), entry('b', { created: 5 }, '1.10')], now),
        'b',
      );
      assert.equal(
        newestCurrentEmbeddingsModel([entry('a', { created: 5 }, '2'), entry('b', { created: 5 }, '2')], now),
        'a',
      );
      assert.equal(newestCurrentEmbeddingsModel([entry('a', {}), entry('b', { created: 'soon' })], now), 'a');
    });

    it('none when every embeddings model is going away, or none is listed', () => {
      assert.equal(newestCurrentEmbeddingsModel([entry('old', { deprecated: true }), chat], now), undefined);
      assert.equal(newestCurrentEmbeddingsModel([chat], now), undefined);
    });

    it('from the service: the deprecated first-listed one is passed over', async () => {
      const c: ModelService = client(() => ok({}));
      c.listModels = async () => ({
        models: [entry('cirrus-embed-1', { lifecycle_status: 'deprecated' }), entry('cirrus-embed-2', {})],
        skipped: 0,
        warnings: [],
        pages: 1,
      });
      assert.equal(await defaultEmbeddingsModel(c, undefined, now), 'cirrus-embed-2');
    });
  });
});
