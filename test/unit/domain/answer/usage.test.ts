import * as assert from 'node:assert/strict';
import { AnswerStream, readAnswer, usageOf } from '../../../../src/domain/answer';

describe('answer reader: token usage', () => {
  it('reads token usage from Responses, a response.completed event, Chat Completions and Gemini', () => {
    assert.deepEqual(usageOf({ usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } }), {
      input: 5,
      output: 7,
      total: 12,
    });
    assert.deepEqual(
      usageOf({ type: 'response.completed', response: { usage: { input_tokens: 1, output_tokens: 2 } } }),
      { input: 1, output: 2, total: undefined },
    );
    assert.deepEqual(usageOf({ usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }), {
      input: 3,
      output: 4,
      total: 7,
    });
    assert.deepEqual(usageOf({ usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 } }), {
      input: 2,
      output: 3,
      total: 5,
    });
    assert.equal(usageOf({ usage: { input_tokens: 'many' } }), undefined);
    assert.equal(usageOf(undefined), undefined);
  });

  it('reads only counts that are whole and not negative', () => {
    assert.deepEqual(usageOf({ usage: { input_tokens: 0, output_tokens: -1, total_tokens: '3' } }), {
      input: 0,
      output: undefined,
      total: undefined,
    });
    assert.equal(usageOf({ usage: { input_tokens: Number.NaN } }), undefined);
    assert.equal(usageOf({ usage: { input_tokens: Number.POSITIVE_INFINITY } }), undefined);
    assert.deepEqual(usageOf({ usage: { total_tokens: 4 } }), { input: undefined, output: undefined, total: 4 });
    assert.deepEqual(usageOf({ usage: { completion_tokens: 4 } }), { input: undefined, output: 4, total: undefined });
    assert.equal(usageOf({ usage: 'lots' }), undefined);
    assert.equal(usageOf('x'), undefined);
    assert.equal(usageOf({ response: 'x' }), undefined);
  });
});

describe('answer reader: usage in every dialect, for costs', () => {
  it('reads the cached input of Chat Completions, Responses, Anthropic and Gemini', () => {
    assert.deepEqual(
      usageOf({
        usage: {
          prompt_tokens: 100,
          completion_tokens: 5,
          total_tokens: 105,
          prompt_tokens_details: { cached_tokens: 40 },
        },
      }),
      { input: 100, output: 5, total: 105, cachedInput: 40 },
    );
    assert.deepEqual(
      usageOf({ usage: { input_tokens: 10, output_tokens: 2, input_tokens_details: { cached_tokens: 0 } } }),
      {
        input: 10,
        output: 2,
        total: undefined,
        cachedInput: 0,
      },
    );
    // Anthropic counts cache reads and writes apart from input_tokens: input is every input token.
    assert.deepEqual(
      usageOf({
        usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 30, cache_creation_input_tokens: 5 },
      }),
      { input: 45, output: 2, total: undefined, cachedInput: 30 },
    );
    assert.deepEqual(
      usageOf({
        usageMetadata: {
          promptTokenCount: 50,
          candidatesTokenCount: 3,
          totalTokenCount: 53,
          cachedContentTokenCount: 20,
        },
      }),
      { input: 50, output: 3, total: 53, cachedInput: 20 },
    );
    // A cached count larger than the input it is part of is not believed.
    assert.equal(
      usageOf({ usage: { prompt_tokens: 5, prompt_tokens_details: { cached_tokens: 50 } } })?.cachedInput,
      undefined,
    );
  });

  it('reads embeddings usage and Ollama counts', () => {
    assert.deepEqual(
      readAnswer({ object: 'list', data: [{ embedding: [0.1] }], usage: { prompt_tokens: 8, total_tokens: 8 } }).usage,
      {
        input: 8,
        output: undefined,
        total: 8,
      },
    );
    assert.deepEqual(
      usageOf({ message: { role: 'assistant', content: 'hi' }, done: true, prompt_eval_count: 7, eval_count: 3 }),
      {
        input: 7,
        output: 3,
        total: undefined,
      },
    );
  });

  it('keeps unknown what is missing, partial, negative, a string, fractional or huge', () => {
    assert.equal(usageOf({}), undefined);
    assert.equal(usageOf({ usage: null }), undefined);
    assert.equal(usageOf({ usage: {} }), undefined);
    assert.deepEqual(usageOf({ usage: { prompt_tokens: 3 } }), { input: 3, output: undefined, total: undefined });
    assert.equal(usageOf({ usage: { prompt_tokens: -3, completion_tokens: '4', total_tokens: 1.5 } }), undefined);
    assert.equal(usageOf({ usage: { total_tokens: 1e300 } }), undefined);
    assert.equal(usageOf({ usage: { total_tokens: Number.MAX_SAFE_INTEGER + 2 } }), undefined);
    assert.equal(
      usageOf({ usage: { input_tokens: Number.MAX_SAFE_INTEGER, cache_read_input_tokens: 10 } })?.input,
      undefined,
    );
    assert.equal(
      usageOf({ usage: { prompt_tokens: 1, prompt_tokens_details: { cached_tokens: -1 } } })?.cachedInput,
      undefined,
    );
  });

  it("reads a stream's final usage event; a stream without one has no usage", () => {
    const chunk = (extra: object) => ({ data: '', json: { id: 'c', object: 'chat.completion.chunk', ...extra } });
    const withUsage = new AnswerStream();
    withUsage.push(chunk({ choices: [{ index: 0, delta: { content: 'Hi' } }] }));
    withUsage.push(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
    withUsage.push(chunk({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 } }));
    withUsage.push({ data: '[DONE]' });
    assert.deepEqual(withUsage.answer().usage, { input: 9, output: 1, total: 10 });

    const without = new AnswerStream();
    without.push(chunk({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] }));
    without.push({ data: '[DONE]' });
    assert.equal(without.answer().usage, undefined);

    const responses = new AnswerStream();
    responses.push({ data: '', json: { type: 'response.output_text.delta', delta: 'Hi' } });
    responses.push({
      data: '',
      json: {
        type: 'response.completed',
        response: { status: 'completed', output: [], usage: { input_tokens: 4, output_tokens: 2, total_tokens: 6 } },
      },
    });
    assert.deepEqual(responses.answer().usage, { input: 4, output: 2, total: 6 });

    const anthropic = new AnswerStream();
    anthropic.push({
      data: '',
      json: {
        type: 'message_start',
        message: { role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1 } },
      },
    });
    anthropic.push({
      data: '',
      json: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 30 } },
    });
    assert.deepEqual(anthropic.answer().usage, { input: 12, output: 30, total: undefined });

    const ollama = new AnswerStream();
    ollama.push({ data: '', json: { message: { role: 'assistant', content: 'Hi' }, done: false } });
    ollama.push({
      data: '',
      json: { message: { role: 'assistant', content: '' }, done: true, prompt_eval_count: 5, eval_count: 2 },
    });
    assert.deepEqual(ollama.answer().usage, { input: 5, output: 2, total: undefined });
  });
});
