import * as assert from 'node:assert/strict';
import { parsePayload, payloadModel, wantsStream } from '../../../../src/domain/payload/parse';

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

  it('names each kind of JSON mistake in words, where it is', () => {
    const problem = (text: string) => {
      const r = parsePayload(text);
      return r.ok ? 'ok' : `${r.problem.line}:${r.problem.column}+${r.problem.length} ${r.problem.message}`;
    };
    assert.equal(problem('{ "a": @ }'), '1:8+1 unexpected character');
    assert.equal(problem('{ 1: 2 }'), '1:3+1 a property name in double quotes is expected');
    assert.equal(problem('{ "a": }'), '1:8+1 a value is expected');
    assert.equal(problem('{ "a" 1 }'), '1:7+1 a colon is expected');
    assert.equal(problem('{ "a": 1 "b": 2 }'), '1:10+3 a comma is expected');
    assert.equal(problem('{ "a": 1'), '1:9+1 a closing } is expected');
    assert.equal(problem('[1, 2'), '1:6+1 a closing ] is expected');
    assert.equal(problem('{}\n{}'), '2:1+1 nothing more is expected after the value');
    assert.equal(problem('{ "a": "x'), '1:8+2 unterminated string');
    assert.equal(problem('{ "a": "\\u12" }'), '1:8+6 invalid unicode escape');
    assert.equal(problem('{ "a": "\\q" }'), '1:8+4 invalid escape character');
    assert.equal(problem('{ "a": "x\ty" }'), '1:8+5 invalid character in a string');
    assert.equal(problem('{ /* open'), '1:3+7 unterminated comment');
    assert.equal(problem('{ "a": 1e }'), '1:8+2 unterminated number');
  });

  it('reads the model only from an object, and a stream only when it is true', () => {
    assert.equal(payloadModel({ model: 'm' }), 'm');
    assert.equal(payloadModel({ model: 7 }), undefined);
    assert.equal(payloadModel(['m']), undefined);
    assert.equal(payloadModel(null), undefined);
    assert.equal(payloadModel('model'), undefined);
    assert.equal(wantsStream({ stream: true }), true);
    assert.equal(wantsStream({ stream: 'true' }), false);
    assert.equal(wantsStream(null), false);
    assert.equal(wantsStream([true]), false);
  });
});
