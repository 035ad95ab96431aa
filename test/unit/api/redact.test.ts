import * as assert from 'node:assert/strict';
import { redact, Redactor } from '../../../src/api/redact';

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

describe('redaction', () => {
  it('removes registered secrets in plain, URL-encoded and JSON-escaped forms', () => {
    const r = new Redactor();
    const key = 'sk-canary/12+34"5';
    r.add(key);
    const text = `key ${key} url ?k=${encodeURIComponent(key)} json ${JSON.stringify(key)}`;
    const out = r.redact(text);
    assert.ok(!out.includes(key));
    assert.ok(!out.includes(encodeURIComponent(key)));
    assert.ok(!out.includes(JSON.stringify(key).slice(1, -1)));
  });

  it('removes bearer tokens and key-like parameters it was not told about', () => {
    const r = new Redactor();
    assert.equal(r.redact('Authorization: Bearer abc.def-123'), 'Authorization: Bearer [redacted]');
    assert.equal(r.redact('GET /x?api_key=abc123&y=1'), 'GET /x?api_key=[redacted]&y=1');
    assert.equal(r.redact('{"api_key": "zzz"}'), '{"api_key": "[redacted]"}');
  });
});
