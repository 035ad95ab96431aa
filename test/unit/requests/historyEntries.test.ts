import * as assert from 'node:assert/strict';
import { addToHistory, HISTORY_LIMIT, type HistoryEntry } from '../../../src/requests/core/historyEntries';

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
});
