import * as assert from 'node:assert/strict';
import {
  addToHistory,
  describeEntry,
  HISTORY_LIMIT,
  type HistoryEntry,
} from '../../../../src/requests/send/core/historyEntries';

describe('requests: history', () => {
  const entry = (i: number): HistoryEntry => ({
    id: `e${i}`,
    endpoint: '/v1/chat',
    at: new Date(i).toISOString(),
    payload: `{"i":${i}}`,
    summary: '',
  });

  it('keeps the newest 50, newest first, and clips very long payloads', () => {
    let h: HistoryEntry[] = [];
    for (let i = 0; i < 60; i++) {
      h = addToHistory(h, entry(i));
    }
    assert.equal(h.length, HISTORY_LIMIT);
    assert.equal(h[0].id, 'e59');
    assert.equal(h.at(-1)?.id, 'e10');
    const long = addToHistory([], { ...entry(1), payload: 'y'.repeat(100) }, 10);
    assert.equal(long[0].payload.length, 10);
  });

  it('one line per entry: endpoint, model, status or how it ended, environment', () => {
    const e = (over: Partial<HistoryEntry>): HistoryEntry => ({
      id: '1',
      endpoint: '/v1/chat',
      at: '2024-01-01T00:00:00Z',
      payload: '{}',
      summary: '',
      ...over,
    });
    assert.equal(
      describeEntry(e({ status: 200, model: 'aurora-2', environment: 'Prod' })),
      '/v1/chat · aurora-2 · 200 · Prod',
    );
    assert.equal(describeEntry(e({ status: 200 })), '/v1/chat · 200');
    assert.equal(describeEntry(e({})), '/v1/chat · no answer');
    assert.equal(describeEntry(e({ ended: 'cancelled' })), '/v1/chat · cancelled');
    assert.equal(describeEntry(e({ ended: 'failed' })), '/v1/chat · no answer');
    assert.equal(describeEntry(e({ status: 200, ended: 'cancelled' })), '/v1/chat · 200 (cancelled)');
    assert.equal(describeEntry(e({ status: 200, ended: 'limit' })), '/v1/chat · 200 (stopped at the size limit)');
    assert.equal(describeEntry(e({ status: 200, ended: 'failed' })), '/v1/chat · 200 (failed)');
    assert.equal(describeEntry(e({ status: 0 })), '/v1/chat · 0');
    assert.equal(
      describeEntry(e({ status: 200, model: '[x](command:evil)\nb' })),
      '/v1/chat · [x] (command:evil) b · 200',
    );
  });

  it('a repeated request replaces its old entry; a payload of exactly the limit is kept whole', () => {
    const e = (id: string, payload = '{}'): HistoryEntry => ({
      id,
      endpoint: '/v1/chat',
      at: '',
      payload,
      summary: '',
    });
    assert.deepEqual(
      addToHistory([e('a'), e('b')], e('b', 'new')).map((x) => [x.id, x.payload]),
      [
        ['b', 'new'],
        ['a', '{}'],
      ],
    );
    assert.equal(addToHistory([], e('x', 'p'.repeat(10)), 10)[0].payload, 'p'.repeat(10));
    assert.equal(addToHistory([], e('x', 'p'.repeat(65_536)))[0].payload.length, 65_536);
    assert.equal(addToHistory([], e('x', 'p'.repeat(65_537)))[0].payload.length, 65_536);
  });
});
