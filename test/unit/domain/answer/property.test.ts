/**
 * Property: an answer read whole and the same answer read as a stream give the same text and tool calls,
 * and a stream cut after any event gives a beginning of that text — for every answer the local service
 * produces (Chat Completions and Responses, text and tool calls) and for OpenAI-shaped answers built from
 * random pieces.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { AnswerStream, readAnswer, type Answer } from '../../../../src/domain/answer';
import { chatAnswer, responsesAnswer } from '../../../server/conversation';
import type { SseEvent } from '../../../server/streaming';

function parse(e: SseEvent): { event?: string; data: string; json?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(e.data);
  } catch {
    json = undefined;
  }
  return { event: e.event, data: e.data, json };
}

function streamed(events: SseEvent[]): Answer {
  const stream = new AnswerStream();
  for (const e of events) {
    stream.push(parse(e));
  }
  stream.end();
  return stream.answer();
}

function textAfter(events: SseEvent[], cut: number): string {
  const stream = new AnswerStream();
  events.slice(0, cut).forEach((e) => stream.push(parse(e)));
  return stream.text;
}

function assertSame(json: unknown, events: SseEvent[]): void {
  const whole = readAnswer(json);
  const stream = streamed(events);
  assert.equal(stream.text ?? '', whole.text ?? '', 'the same text whole and streamed');
  assert.deepEqual(stream.toolCalls, whole.toolCalls, 'the same tool calls whole and streamed');
  assert.equal(stream.shape, whole.shape);
  for (let cut = 0; cut <= events.length; cut++) {
    assert.ok((whole.text ?? '').startsWith(textAfter(events, cut)), `cut after ${cut} events is a beginning`);
  }
}

const prompt = fc.string({ minLength: 1, maxLength: 80 });
const pieces = fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 20 });
const model = fc.constantFrom('aurora-2', 'nimbus-embed-1', 'm');

describe('answer reader: whole and streamed agree', () => {
  it("property: the local service's Chat answers (text and tool calls)", () => {
    fc.assert(
      fc.property(model, prompt, fc.option(pieces, { nil: undefined }), fc.boolean(), (m, p, hostile, tools) => {
        const body: Record<string, unknown> = {
          model: m,
          messages: [{ role: 'user', content: p }],
          stream_options: { include_usage: true },
        };
        if (tools) {
          body.tools = [{ type: 'function', function: { name: 'lookup' } }];
        }
        const answer = chatAnswer(m, body, hostile);
        assertSame(answer.json, answer.events);
      }),
      { numRuns: 150 },
    );
  });

  it("property: the local service's Responses answers", () => {
    fc.assert(
      fc.property(model, prompt, fc.option(pieces, { nil: undefined }), (m, p, hostile) => {
        const answer = responsesAnswer(m, { model: m, input: p }, hostile);
        assertSame(answer.json, answer.events);
        assert.equal(
          streamed(answer.events).id,
          readAnswer(answer.json).id,
          'the response id, for previous_response_id',
        );
      }),
      { numRuns: 150 },
    );
  });

  it('property: Responses streams with function calls and text, in any split of their arguments', () => {
    fc.assert(
      fc.property(pieces, fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 }), (textPieces, argPieces) => {
        const text = textPieces.join('');
        const args = argPieces.join('');
        const call = { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'lookup', arguments: args };
        const message = { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text }] };
        const json = {
          id: 'resp_1',
          object: 'response',
          status: 'completed',
          output: [{ type: 'reasoning', id: 'rs_1', summary: [] }, message, call],
        };
        const ev = (type: string, fields: Record<string, unknown>): SseEvent => ({
          event: type,
          data: JSON.stringify({ type, ...fields }),
        });
        const events: SseEvent[] = [
          ev('response.created', { response: { ...json, status: 'in_progress', output: [] } }),
          ...textPieces.map((delta) => ev('response.output_text.delta', { item_id: 'msg_1', output_index: 1, delta })),
          ev('response.output_item.added', { output_index: 2, item: { ...call, arguments: '' } }),
          ...argPieces.map((delta) =>
            ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 2, delta }),
          ),
          ev('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 2, arguments: args }),
          ev('response.output_item.done', { output_index: 2, item: call }),
          ev('response.completed', { response: json }),
        ];
        assertSame(json, events);
        assert.deepEqual(readAnswer(json).toolCalls, [{ id: 'call_9', name: 'lookup', arguments: args }]);
      }),
      { numRuns: 150 },
    );
  });

  it('property: Chat chunks of any split, with refusals and content part lists', () => {
    fc.assert(
      fc.property(pieces, fc.boolean(), (textPieces, asParts) => {
        const text = textPieces.join('');
        const json = {
          id: 'c1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        };
        const events: SseEvent[] = textPieces.map((p) => ({
          data: JSON.stringify({
            id: 'c1',
            choices: [{ index: 0, delta: { content: asParts ? [{ type: 'text', text: p }] : p } }],
          }),
        }));
        events.push({ data: JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) });
        events.push({ data: '[DONE]' });
        assertSame(json, events);
      }),
      { numRuns: 150 },
    );
  });
});
