// The answer cache keeps no streamed answer whose key was split across two events (no single event holds it,
// so the client's per-event redaction cannot remove it; the cache file would hold it whole).
import * as assert from 'node:assert/strict';
import { redactor } from '../../../src/api/redact';
import { entryHoldsSecret } from '../../../src/checks/core/secretFreeCache';

const KEY = 'sk-split-key-1234567890';
const delta = (content: string) => ({ data: JSON.stringify({ choices: [{ index: 0, delta: { content } }] }) });
const entry = (pieces: string[]) =>
  JSON.stringify({ v: 1, status: 200, statusText: 'OK', contentType: 'text/event-stream', events: pieces.map(delta) });

describe('checks/core/secretFreeCache', () => {
  const remove = redactor([KEY]);

  it('finds the key in a streamed answer once its events are read together, and nothing in a clean one', () => {
    assert.equal(entryHoldsSecret(entry(['API key: ', KEY.slice(0, 9), KEY.slice(9), '.']), remove), true);
    const b64 = Buffer.from(KEY).toString('base64');
    assert.equal(entryHoldsSecret(entry([b64.slice(0, 10), b64.slice(10)]), remove), true);
    assert.equal(entryHoldsSecret(entry(['Hello ', 'world.']), remove), false);
  });

  it('passes bodies and unreadable entries on (bodies are redacted whole by the client)', () => {
    assert.equal(entryHoldsSecret(JSON.stringify({ v: 1, body: { text: 'x' } }), remove), false);
    assert.equal(entryHoldsSecret('not json', remove), false);
  });
});
