import * as assert from 'node:assert/strict';
import { parsePayload, payloadModel, wantsStream } from '../../../src/requests/core/payload';

describe('requests: payload parsing', () => {
  it('accepts comments (the header) and returns compact JSON to send', () => {
    const r = parsePayload('// POST /v1/chat\n{ "model": "m", /* note */ "stream": true }');
    assert.ok(r.ok);
    assert.equal(r.json, '{"model":"m","stream":true}');
    assert.equal(payloadModel(r.value), 'm');
    assert.equal(wantsStream(r.value), true);
  });

  it('reports the first problem with its 1-based line and column', () => {
    const r = parsePayload('// POST /v1/chat\n{\n  "model": "m"\n  "input": "x"\n}');
    assert.ok(!r.ok);
    assert.equal(r.problem.line, 4);
    assert.equal(r.problem.column, 3);
    assert.match(r.problem.message, /comma/);
  });

  it('refuses trailing commas and empty payloads', () => {
    assert.ok(!parsePayload('{"a":1,}').ok);
    const empty = parsePayload('// POST /v1/chat\n');
    assert.ok(!empty.ok);
    assert.match(empty.problem.message, /empty/);
  });
});
