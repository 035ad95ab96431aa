// The expectation lines of a payload: the five forms of the README exactly as written, every other form,
// and a message that says what to write for every line that cannot be read.
import * as assert from 'node:assert/strict';
import { bad, ok } from '../helpers/checks';
import {
  compare,
  describeExpectation,
  formatMs,
  parseDuration,
  parseRegExp,
} from '../../../src/checks/core/expectations';

describe('checks/core/expectations', () => {
  it('reads the five forms of the README exactly as written', () => {
    assert.deepEqual(ok('status 200'), { kind: 'status', op: '==', value: 200 });
    assert.deepEqual(ok('text contains "Paris"'), { kind: 'text', op: 'contains', value: 'Paris' });
    const m = ok('text matches /par(is)?/i');
    assert.ok(m.kind === 'text' && m.op === 'matches');
    assert.equal(String(m.pattern), '/par(is)?/i');
    const j = ok('json $.choices[0].message.role == "assistant"');
    assert.ok(j.kind === 'json' && j.op === '==');
    assert.equal(j.value, 'assistant');
    assert.deepEqual(j.path.steps, [{ key: 'choices' }, { index: 0 }, { key: 'message' }, { key: 'role' }]);
    assert.equal(j.path.text, '$.choices[0].message.role');
    assert.deepEqual(ok('time < 2s'), { kind: 'time', op: '<', ms: 2000 });
  });

  it('reads every comparison of status, with or without an operator', () => {
    for (const op of ['==', '!=', '<', '<=', '>', '>='] as const) {
      assert.deepEqual(ok(`status ${op} 300`), { kind: 'status', op, value: 300 });
      assert.deepEqual(ok(`status${op}300`), { kind: 'status', op, value: 300 });
    }
    assert.deepEqual(ok('STATUS 201'), { kind: 'status', op: '==', value: 201 });
    assert.match(bad('status ok'), /status needs a whole number after the comparison, not "ok"/);
    assert.match(bad('status 200.5'), /whole number/);
    assert.match(bad('status'), /not ""/);
  });

  it('reads text contains, not contains, ==, != and matches, with JSON escapes in the string', () => {
    assert.deepEqual(ok('text not contains "sorry"'), { kind: 'text', op: 'not contains', value: 'sorry' });
    assert.deepEqual(ok('text == "a \\"b\\""'), { kind: 'text', op: '==', value: 'a "b"' });
    assert.deepEqual(ok('text != "x"'), { kind: 'text', op: '!=', value: 'x' });
    assert.deepEqual(ok('text CONTAINS "é"'), { kind: 'text', op: 'contains', value: 'é' });
    assert.match(
      bad('text contains Paris'),
      /text contains needs a string in double quotes, as in: text contains "Paris"/,
    );
    assert.match(bad('text contains "Paris" extra'), /double quotes/);
    assert.match(bad('text contains 12'), /double quotes/);
    assert.match(bad('text has "x"'), /text needs contains, matches, == or !=/);
    assert.match(bad('text matches Paris'), /a regular expression between slashes/);
    assert.match(bad('text matches //'), /between slashes/);
    assert.match(bad('text matches /a/g'), /flags g and y/);
    assert.match(bad('text matches /a/y'), /flags g and y/);
    assert.match(bad('text matches /(/'), /\/\(\/ is not a valid regular expression: /);
    const m = ok('text matches /a b/');
    assert.ok(m.kind === 'text' && m.op === 'matches' && m.pattern.source === 'a b' && m.pattern.flags === '');
  });

  it('reads json paths with ==, !=, numbers, contains, matches and exists', () => {
    const eq = ok('json $.usage.total_tokens == 12');
    assert.ok(eq.kind === 'json' && eq.op === '==' && eq.value === 12);
    const ne = ok('json $.x != null');
    assert.ok(ne.kind === 'json' && ne.op === '!=' && ne.value === null);
    const deep = ok('json $.tags == ["a", 1]');
    assert.ok(deep.kind === 'json' && deep.op === '==');
    assert.deepEqual(deep.value, ['a', 1]);
    for (const op of ['<', '<=', '>', '>='] as const) {
      const n = ok(`json $.n ${op} 3.5`);
      assert.ok(n.kind === 'json' && n.op === op && n.value === 3.5);
    }
    const c = ok('json $.tags contains "fast"');
    assert.ok(c.kind === 'json' && c.op === 'contains' && c.value === 'fast');
    const co = ok('json $.obj contains {"a": 1}');
    assert.ok(co.kind === 'json' && co.op === 'contains');
    assert.deepEqual(co.value, { a: 1 });
    const mt = ok('json $.model matches /^aurora-/');
    assert.ok(mt.kind === 'json' && mt.op === 'matches' && mt.pattern.source === '^aurora-');
    const ex = ok('json $.id exists');
    assert.ok(ex.kind === 'json' && ex.op === 'exists' && ex.path.text === '$.id');
    assert.match(bad('json model == "x"'), /a JSON path starts with \$/);
    assert.match(bad('json $.a'), /after the path \$\.a write ==, !=, <, >, contains, matches or exists/);
    assert.match(
      bad('json $.a == assistant'),
      /the value after == is not JSON \("assistant" is not a JSON value\); strings need double quotes/,
    );
    assert.match(bad('json $.a =='), /the value after == is not JSON \(nothing is written\)/);
    assert.match(bad('json $.a < "x"'), /< compares numbers; write a number after it/);
    assert.match(bad('json $.a contains x'), /json … contains needs a JSON value/);
    assert.match(bad('json $.a matches x'), /between slashes/);
    assert.match(bad('json $.a..b == 1'), /cannot be read at character 4/);
  });

  it('reads durations for time and first token', () => {
    assert.deepEqual(ok('time <= 800ms'), { kind: 'time', op: '<=', ms: 800 });
    assert.deepEqual(ok('time < 1.5s'), { kind: 'time', op: '<', ms: 1500 });
    assert.deepEqual(ok('time < 1m'), { kind: 'time', op: '<', ms: 60000 });
    assert.deepEqual(ok('first token < 800ms'), { kind: 'firstToken', op: '<', ms: 800 });
    assert.deepEqual(ok('First Token >= 2S'), { kind: 'firstToken', op: '>=', ms: 2000 });
    assert.match(bad('time 2s'), /time needs a comparison such as "time < 2s"/);
    assert.match(bad('time < 2'), /time needs a duration such as 2s or 800ms, not "2"/);
    assert.match(bad('first token 2s'), /first token needs a comparison/);
    assert.match(bad('first tokens < 2s'), /is not an expectation/);
    assert.match(bad('first'), /is not an expectation/);
  });

  it('reads token bounds: total by default, or input / output / total', () => {
    assert.deepEqual(ok('tokens < 500'), { kind: 'tokens', count: 'total', op: '<', value: 500 });
    assert.deepEqual(ok('tokens output <= 200'), { kind: 'tokens', count: 'output', op: '<=', value: 200 });
    assert.deepEqual(ok('tokens INPUT > 1'), { kind: 'tokens', count: 'input', op: '>', value: 1 });
    assert.deepEqual(ok('tokens total == 3'), { kind: 'tokens', count: 'total', op: '==', value: 3 });
    assert.match(bad('tokens 500'), /tokens needs a comparison such as "tokens < 500"/);
    assert.match(bad('tokens < many'), /whole number/);
  });

  it('reads schema files for the answer and for its text, quoted or not', () => {
    assert.deepEqual(ok('schema answer.schema.json'), { kind: 'schema', of: 'answer', file: 'answer.schema.json' });
    assert.deepEqual(ok('schema "my schemas/a.json"'), { kind: 'schema', of: 'answer', file: 'my schemas/a.json' });
    assert.deepEqual(ok('text schema ./person.json'), { kind: 'schema', of: 'text', file: './person.json' });
    assert.match(bad('schema'), /schema needs the path of a JSON Schema file, relative to the payload/);
    assert.match(bad('text schema'), /schema needs the path/);
  });

  it('reads embedding dimensions', () => {
    assert.deepEqual(ok('dimension 1536'), { kind: 'dimension', op: '==', value: 1536 });
    assert.deepEqual(ok('dimension >= 8'), { kind: 'dimension', op: '>=', value: 8 });
    assert.match(bad('dimension big'), /dimension needs a whole number/);
  });

  it('says which forms exist for anything else', () => {
    const message = bad('answer is good');
    assert.match(message, /^"answer is good" is not an expectation this extension knows; write one of: status 200, /);
    assert.match(message, /dimension 1536, cost <= 0\.01, total cost <= 0\.50, similar "…" >= 0\.8, judge "…"$/);
    assert.match(bad(''), /^"" is not an expectation/);
    assert.match(bad('123'), /^"123" is not an expectation/);
    assert.match(bad('statusx 200'), /is not an expectation/);
  });

  it('writes every expectation back as it reads', () => {
    for (const source of [
      'status == 200',
      'text contains "Paris"',
      'text not contains "x"',
      'text matches /par(is)?/i',
      'json $.a[0]["b c"] == "x"',
      'json $.a exists',
      'json $.a matches /x/',
      'json $.n < 3',
      'time < 2s',
      'first token <= 800ms',
      'tokens output < 5',
      'schema a.json',
      'text schema b.json',
      'dimension == 8',
      'cost <= 0.01',
      'total cost < 2 EUR',
    ]) {
      assert.equal(describeExpectation(ok(source)), source);
    }
  });

  it('formats durations and compares numbers', () => {
    assert.equal(formatMs(999.6), '1000ms');
    assert.equal(formatMs(1000), '1s');
    assert.equal(formatMs(1234.5678), '1.235s');
    assert.equal(parseDuration('2 s'), 2000);
    assert.equal(parseDuration('2h'), undefined);
    assert.equal(parseDuration('.5s'), undefined);
    const table: [number, '==' | '!=' | '<' | '<=' | '>' | '>=', number, boolean][] = [
      [1, '==', 1, true],
      [1, '==', 2, false],
      [1, '!=', 2, true],
      [1, '!=', 1, false],
      [1, '<', 2, true],
      [2, '<', 2, false],
      [2, '<=', 2, true],
      [3, '<=', 2, false],
      [3, '>', 2, true],
      [2, '>', 2, false],
      [2, '>=', 2, true],
      [1, '>=', 2, false],
    ];
    for (const [a, op, b, expected] of table) {
      assert.equal(compare(a, op, b), expected, `${a} ${op} ${b}`);
    }
  });

  it('reads regular expressions with their flags', () => {
    const r = parseRegExp(' /a\\/b/is ');
    assert.ok(r instanceof RegExp && r.source === 'a\\/b' && r.flags === 'is');
    assert.equal(typeof parseRegExp('/a/q'), 'string');
  });
});
