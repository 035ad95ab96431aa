import * as assert from 'node:assert/strict';
import { addEvent, newStreamState } from '../../../src/requests/core/streamText';

const ev = (json: unknown, event?: string) => ({ event, data: JSON.stringify(json), json });

describe('requests: stream text', () => {
  it('grows with Responses deltas and keeps the completed event', () => {
    const s = newStreamState();
    addEvent(s, ev({ type: 'response.created' }, 'response.created'));
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 'Hel' }, 'response.output_text.delta'));
    assert.equal(s.text, 'Hel');
    addEvent(s, ev({ type: 'response.output_text.delta', delta: 'lo' }, 'response.output_text.delta'));
    addEvent(s, ev({ type: 'response.output_text.done', text: 'Hello' }, 'response.output_text.done'));
    addEvent(s, ev({ type: 'response.completed', response: { status: 'completed' } }, 'response.completed'));
    assert.equal(s.text, 'Hello');
    assert.ok(s.done);
    assert.deepEqual(s.final, { type: 'response.completed', response: { status: 'completed' } });
  });

  it('grows with Chat chunks and ends on [DONE]', () => {
    const s = newStreamState();
    addEvent(s, ev({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant' } }] }));
    addEvent(s, ev({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' } }] }));
    addEvent(
      s,
      ev({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }],
      }),
    );
    addEvent(s, { data: '[DONE]' });
    assert.equal(s.text, 'Hi there');
    assert.ok(s.done);
    assert.equal(s.events, 4);
  });

  it('records an error event, flat or nested', () => {
    assert.equal(addEvent(newStreamState(), ev({ type: 'error', message: 'boom' })).error, 'boom');
    assert.equal(addEvent(newStreamState(), ev({ type: 'error', error: { message: 'nested' } })).error, 'nested');
  });
});
