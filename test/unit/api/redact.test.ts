import * as assert from 'node:assert/strict';
import { redact } from '../../../src/api/redact';

describe('api/redact', () => {
  it('removes a key verbatim, URL-encoded and JSON-escaped, leaving the rest', () => {
    const key = 'sk-a/b"c+d';
    const text = `k=${key} u=${encodeURIComponent(key)} j=${JSON.stringify(key)}`;
    const out = redact(text, key);
    assert.ok(!out.includes(key) && !out.includes(encodeURIComponent(key)) && !out.includes('a/b\\"c'));
    assert.ok(out.startsWith('k=[redacted] u=[redacted]'));
    assert.equal(redact('nothing', undefined), 'nothing');
  });
});
