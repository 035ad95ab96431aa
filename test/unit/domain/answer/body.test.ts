import * as assert from 'node:assert/strict';
import { decodeBase64Vector, describeShapes, readAnswer } from '../../../../src/domain/answer';
import { embed, embeddingToBase64 } from '../../../server/generation';

describe('answer reader: whole answers', () => {
  it("Chat Completions: the first choice's text, role, tool calls, usage, id, model and finish reason", () => {
    const answer = readAnswer({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'aurora-2',
      choices: [
        { index: 1, message: { role: 'assistant', content: 'second' }, finish_reason: 'stop' },
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
              { type: 'function', function: { name: 'now', arguments: { tz: 'UTC' } } },
              'not a call',
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
    assert.deepEqual(answer, {
      shape: 'chat',
      text: 'Checking.',
      role: 'assistant',
      toolCalls: [
        { id: 'call_a', name: 'weather', arguments: '{"city":"Oslo"}' },
        { id: 'call_1', name: 'now', arguments: '{"tz":"UTC"}' },
      ],
      usage: { input: 3, output: 4, total: 7 },
      id: 'chatcmpl-1',
      model: 'aurora-2',
      finishReason: 'tool_calls',
    });
  });

  it('Chat: a refusal is text; content parts are joined; null content with tool calls has no text; legacy text', () => {
    assert.equal(readAnswer({ choices: [{ message: { content: null, refusal: 'I cannot.' } }] }).text, 'I cannot.');
    assert.equal(
      readAnswer({
        choices: [{ message: { content: [{ type: 'text', text: 'a' }, { type: 'image_url' }, { text: 'b' }] } }],
      }).text,
      'ab',
    );
    const calls = readAnswer({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [] } }] });
    assert.equal(calls.text, undefined);
    assert.equal(readAnswer({ choices: [{ text: 'legacy', finish_reason: 'length' }] }).text, 'legacy');
    assert.equal(readAnswer({ choices: [] }).text, undefined);
    assert.equal(readAnswer({ choices: [null, 3] }).text, undefined);
    assert.equal(readAnswer({ choices: [{ message: { role: 'tool', content: 'x' } }] }).role, 'tool');
  });

  it('Chat: a content-filter stop is a blocked error', () => {
    const answer = readAnswer({ choices: [{ index: 0, message: { content: '' }, finish_reason: 'content_filter' }] });
    assert.deepEqual(answer.error, {
      message: 'The service stopped the answer: its content filter blocked it.',
      code: 'content_filter',
      blocked: true,
    });
  });

  it("Responses: output_text wins; else message items' text; function calls; reasoning skipped; status", () => {
    assert.equal(readAnswer({ object: 'response', output_text: 'direct', output: [] }).text, 'direct');
    const answer = readAnswer({
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'aurora-2',
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hel', annotations: [] }] },
        { type: 'message', content: [{ type: 'refusal', refusal: 'lo' }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call', name: 'g' },
        null,
      ],
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
      error: null,
    });
    assert.deepEqual(answer, {
      shape: 'responses',
      text: 'Hello',
      role: 'assistant',
      toolCalls: [
        { id: 'call_1', name: 'f', arguments: '{}' },
        { id: 'call_1', name: 'g', arguments: '' },
      ],
      usage: { input: 1, output: 2, total: 3 },
      id: 'resp_1',
      model: 'aurora-2',
      finishReason: 'completed',
    });
    assert.equal(readAnswer({ object: 'response', output: [] }).text, undefined);
  });

  it('Responses: a failed response carries its error; a response.* event wrapping one is read as the response', () => {
    assert.deepEqual(
      readAnswer({ object: 'response', status: 'failed', error: { code: 'server_error', message: 'Boom' }, output: [] })
        .error,
      {
        message: 'Boom',
        code: 'server_error',
        blocked: false,
      },
    );
    assert.equal(
      readAnswer({ object: 'response', status: 'failed', error: null }).error?.message,
      'The service reported an error in its answer.',
    );
    assert.equal(
      readAnswer({ type: 'response.completed', response: { output_text: 'inside', id: 'resp_9' } }).text,
      'inside',
    );
    assert.equal(readAnswer({ type: 'response.completed', response: { id: 'resp_9', output: [] } }).id, 'resp_9');
  });

  it('embeddings: float and base64 vectors, in index order', () => {
    const a = embed('nimbus-embed-1', 'cat', 8);
    const b = embed('nimbus-embed-1', 'dog', 8);
    const floats = readAnswer({
      object: 'list',
      data: [
        { index: 1, embedding: b },
        { index: 0, embedding: a },
      ],
      model: 'x',
    });
    assert.equal(floats.shape, 'embeddings');
    assert.deepEqual(floats.vectors, [a, b]);
    assert.equal(floats.text, undefined);
    const base64 = readAnswer({ data: [{ embedding: embeddingToBase64(a) }] });
    assert.equal(base64.vectors?.[0].length, 8);
    base64.vectors?.[0].forEach((v, i) => assert.ok(Math.abs(v - a[i]) < 1e-6));
    assert.deepEqual(readAnswer({ data: [] }).vectors, []);
    assert.equal(readAnswer({ data: [{ embedding: [1] }, { other: 1 }] }).vectors, undefined);
    assert.equal(readAnswer({ data: [{ embedding: ['1'] }] }).vectors, undefined);
    assert.equal(decodeBase64Vector('not base64!'), undefined);
    assert.equal(decodeBase64Vector('AAA='), undefined, 'two bytes are no float32');
  });

  it('other services: Anthropic content blocks, Gemini candidates, Ollama messages, top-level strings, plain text', () => {
    const anthropic = readAnswer({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'x' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 4, output_tokens: 5 },
    });
    assert.equal(anthropic.shape, 'message');
    assert.equal(anthropic.text, 'Let me look.');
    assert.deepEqual(anthropic.toolCalls, [{ id: 'toolu_1', name: 'search', arguments: '{"q":"x"}' }]);
    assert.equal(anthropic.finishReason, 'tool_use');
    const gemini = readAnswer({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Gem' }, { text: 'ini' }] }, finishReason: 'STOP' }],
      usageMetadata: { totalTokenCount: 9 },
      modelVersion: 'gemini-2.0-flash',
    });
    assert.deepEqual(
      [gemini.text, gemini.role, gemini.finishReason, gemini.model],
      ['Gemini', 'assistant', 'STOP', 'gemini-2.0-flash'],
    );
    assert.equal(readAnswer({ candidates: [{ finishReason: 'SAFETY' }] }).error?.blocked, true);
    const ollama = readAnswer({ model: 'llama', message: { role: 'assistant', content: 'ollama' }, done: true });
    assert.deepEqual([ollama.shape, ollama.text, ollama.model], ['message', 'ollama', 'llama']);
    for (const key of ['message', 'output', 'text', 'response', 'content', 'answer', 'completion']) {
      assert.equal(readAnswer({ [key]: `via ${key}` }).text, `via ${key}`, key);
    }
    assert.deepEqual(readAnswer('plain words'), {
      shape: 'text',
      text: 'plain words',
      role: 'assistant',
      toolCalls: [],
    });
  });

  it("anything else: no text, and an error body's message", () => {
    assert.deepEqual(readAnswer(null), { shape: 'unknown', text: undefined, role: 'assistant', toolCalls: [] });
    assert.equal(readAnswer([1, 2]).shape, 'unknown');
    assert.equal(readAnswer({ something: 1 }).text, undefined);
    assert.deepEqual(readAnswer({ error: { message: 'Bad key', type: 'invalid_request_error' } }).error, {
      message: 'Bad key',
      code: 'invalid_request_error',
      blocked: false,
    });
    assert.deepEqual(readAnswer({ error: 'blocked by moderation' }).error, {
      message: 'blocked by moderation',
      blocked: true,
    });
    assert.deepEqual(readAnswer({ error: { code: 7 } }).error, {
      message: 'The service reported an error in its answer.',
      code: '7',
      blocked: false,
    });
    assert.match(describeShapes(), /choices\[\]\.message\.content.*output_text.*plain-text body/);
  });
});
