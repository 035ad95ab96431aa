// The edges of the expectation syntax that a person meets by a slip of the keyboard: a word glued to another,
// text left after a value, a space missing or doubled. Each either reads as meant or is refused with the
// message that says what to write — never read as something else.
import * as assert from 'node:assert/strict';
import { bad, ok } from '../helpers/checks';
import { compare, parseDuration } from '../../../src/checks/core/expectations';

describe('checks/core/expectations: slips of the keyboard', () => {
  it('reads an expectation with white space around it, and refuses one that does not start with its word', () => {
    assert.deepEqual(ok('  status 200  '), { kind: 'status', op: '==', value: 200 });
    assert.match(bad('5 status 200'), /"5 status 200" is not an expectation this extension knows/);
  });

  it('does not drop what follows a line separator inside the line', () => {
    // U+2028 ends a line for a regular expression's "."; the 500 after it must not vanish unread.
    assert.match(bad('status 200\u2028500'), /is not an expectation this extension knows/);
    assert.match(bad('first token < 2s\u2028500'), /is not an expectation this extension knows/);
  });

  it('reads "first token" only as two words, and asks for the comparison when it is missing', () => {
    assert.match(bad('first xtoken < 2s'), /"first xtoken < 2s" is not an expectation/);
    assert.match(bad('first token'), /first token needs a comparison such as "first token < 2s"/);
  });

  it('refuses numbers written as anything but digits, and reads a whole number with a zero decimal part', () => {
    assert.match(bad('status 2e2'), /status needs a whole number after the comparison, not "2e2"/);
    assert.match(bad('status +200'), /status needs a whole number after the comparison, not "\+200"/);
    assert.match(bad('dimension 0x10'), /dimension needs a whole number after the comparison, not "0x10"/);
    assert.deepEqual(ok('status 200.0'), { kind: 'status', op: '==', value: 200 });
    assert.deepEqual(ok('dimension 1536.00'), { kind: 'dimension', op: '==', value: 1536 });
    assert.match(bad('tokens < 1.5'), /tokens needs a whole number after the comparison, not "1.5"/);
  });

  it('reads durations with two decimals and refuses a unit spelt out', () => {
    assert.deepEqual(ok('time < 1.25s'), { kind: 'time', op: '<', ms: 1250 });
    assert.match(bad('time < 2 seconds'), /time needs a duration such as 2s or 800ms, not "2 seconds"/);
    assert.equal(parseDuration(' 2s '), 2000);
  });

  it('reads the token count only as a word of its own', () => {
    assert.match(bad('tokens xinput < 5'), /tokens needs a comparison such as "tokens < 500"/);
    assert.deepEqual(ok('tokens output <= 5'), { kind: 'tokens', count: 'output', op: '<=', value: 5 });
  });

  it('reads a schema file name with quotes inside it as written', () => {
    assert.deepEqual(ok('schema a"b"'), { kind: 'schema', of: 'answer', file: 'a"b"' });
    assert.deepEqual(ok('schema "a"b'), { kind: 'schema', of: 'answer', file: '"a"b' });
    assert.deepEqual(ok('schema "my schemas/answer.json"'), {
      kind: 'schema',
      of: 'answer',
      file: 'my schemas/answer.json',
    });
  });

  it('reads text that mentions a schema, or an operator, as text', () => {
    assert.deepEqual(ok('text contains "use the schema now"'), {
      kind: 'text',
      op: 'contains',
      value: 'use the schema now',
    });
    assert.match(bad('text xcontains "a"'), /text needs contains, matches, == or !=/);
    assert.deepEqual(ok('text =="Paris"'), { kind: 'text', op: '==', value: 'Paris' });
    assert.deepEqual(ok('text contains"Paris"'), { kind: 'text', op: 'contains', value: 'Paris' });
  });

  it('reads "exists" only when it is the whole rest of the line', () => {
    // "not exists" read as "exists" would pass exactly when the person wanted a failure.
    assert.match(bad('json $.error not exists'), /after the path \$\.error write ==, !=, <, >, contains/);
    assert.match(bad('json $.error exists == true'), /after the path \$\.error write/);
  });

  it('reads contains and matches after a path only as words of their own', () => {
    const eq = ok('json $.a == "contains x"');
    assert.ok(eq.kind === 'json' && eq.op === '==');
    assert.equal(eq.value, 'contains x');
    assert.match(bad('json $.tags contains'), /json … contains needs a JSON value, .*\(nothing is written\)/);
    assert.match(bad('json $.a matches'), /matches needs a regular expression between slashes/);
  });

  it('refuses a regular expression with text around it', () => {
    assert.match(bad('text matches /par/i please'), /matches needs a regular expression between slashes/);
    assert.match(bad('text matches par/is/'), /matches needs a regular expression between slashes/);
  });

  it('"!=" holds for a larger and a smaller number alike', () => {
    assert.equal(compare(500, '!=', 200), true);
    assert.equal(compare(100, '!=', 200), true);
    assert.equal(compare(200, '!=', 200), false);
  });
});
