// The JSON Schema subset where keywords meet: $ref beside other keywords, loops through allOf/anyOf/oneOf/not,
// every additional property, items after prefixItems, characters beyond the BMP, and values of another type.
import * as assert from 'node:assert/strict';
import { deepEqual, validate } from '../../../src/checks/core/jsonSchema';

function valid(value: unknown, schema: unknown): void {
  assert.equal(validate(value, schema), undefined, JSON.stringify({ value, schema }));
}

function invalid(value: unknown, schema: unknown, message: string): void {
  assert.equal(validate(value, schema), message, JSON.stringify({ value, schema }));
}

describe('checks/core/jsonSchema: where keywords meet', () => {
  it('a $ref does not hide the keywords beside it', () => {
    const schema = { $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s', maxLength: 2 } } };
    valid({ a: 'ab' }, schema);
    invalid({ a: 'abcd' }, schema, '$.a: the text has 4 characters, more than maxLength 2');
  });

  it('reads only "#…" references: a relative one points at nothing', () => {
    const schema = { $defs: { s: { type: 'string' } }, properties: { a: { $ref: './$defs/s' } } };
    invalid({ a: 1 }, schema, '$.a: $ref ./$defs/s points at nothing in the schema (only "#/…" references are read)');
  });

  it('a schema that loops through allOf, anyOf, oneOf or not fails by name, never overflows', () => {
    invalid(1, { allOf: [{ $ref: '#' }] }, '$: the schema refers to itself too deeply');
    invalid(1, { anyOf: [{ $ref: '#' }] }, '$: the value matches none of anyOf');
    invalid(1, { oneOf: [{ $ref: '#' }] }, '$: the value matches 0 of oneOf, not exactly one');
    invalid(1, { not: { not: { $ref: '#' } } }, '$: the value matches the schema under "not"');
  });

  it('reads a schema nested 64 levels deep', () => {
    let schema: unknown = { type: 'integer' };
    let value: unknown = 1;
    for (let i = 0; i < 64; i++) {
      schema = { items: schema };
      value = [value];
    }
    valid(value, schema);
  });

  it('checks every additional property, not only the first', () => {
    invalid({ a: 1, b: 'x' }, { additionalProperties: { type: 'number' } }, '$.b: expected number, found string');
  });

  it('items after prefixItems are checked against items', () => {
    invalid(
      ['a', 'b'],
      { prefixItems: [{ type: 'string' }], items: { type: 'number' } },
      '$[1]: expected number, found string',
    );
  });

  it('"number" takes integers and decimals, not text', () => {
    invalid('5', { type: 'number' }, '$: expected number, found string');
  });

  it('a pattern reads characters, as the lengths do', () => {
    valid('😀', { pattern: '^.$', maxLength: 1 });
  });

  it('number bounds say nothing about values that are not numbers', () => {
    valid('5', { minimum: 10 });
    valid(null, { maximum: -1 });
  });

  it('compares arrays and objects element by element', () => {
    assert.equal(deepEqual([1, 2], [1, 3]), false);
    assert.equal(deepEqual({ x: 1 }, { x: 2 }), false);
    invalid([], { const: { length: 0 } }, '$: expected {"length":0}, found []');
  });
});
