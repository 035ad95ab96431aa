// The JSON Schema subset of `schema FILE`: each keyword that holds and fails, where the first problem is, and a
// keyword outside the subset failing by name rather than passing.
import * as assert from 'node:assert/strict';
import { deepEqual, typeOf, validate } from '../../../src/checks/core/jsonSchema';

function valid(value: unknown, schema: unknown): void {
  assert.equal(validate(value, schema), undefined, JSON.stringify({ value, schema }));
}

function invalid(value: unknown, schema: unknown, message: string | RegExp): void {
  const problem = validate(value, schema);
  assert.ok(problem !== undefined, `${JSON.stringify({ value, schema })} should be invalid`);
  if (typeof message === 'string') {
    assert.equal(problem, message);
  } else {
    assert.match(problem, message);
  }
}

describe('checks/core/jsonSchema', () => {
  it('boolean schemas and annotations', () => {
    valid(1, true);
    invalid(1, false, '$: no value is allowed here');
    invalid(1, 'x', '$: the schema here is not an object or a boolean');
    valid(1, {
      $schema: 'x',
      title: 't',
      description: 'd',
      default: 1,
      examples: [],
      format: 'date',
      $id: 'i',
      $comment: 'c',
    });
    invalid(1, { if: {} }, '$: the schema keyword "if" is not supported by this checker (see the README)');
  });

  it('type, with integer inside number and a list of types', () => {
    valid(1, { type: 'integer' });
    valid(1.5, { type: 'number' });
    valid(1, { type: 'number' });
    invalid(1.5, { type: 'integer' }, '$: expected integer, found number');
    valid(null, { type: ['string', 'null'] });
    invalid(true, { type: ['string', 'null'] }, '$: expected string or null, found boolean');
    invalid([], { type: 'object' }, '$: expected object, found array');
    assert.deepEqual([null, [], 1, 1.5, 's', true, {}].map(typeOf), [
      'null',
      'array',
      'integer',
      'number',
      'string',
      'boolean',
      'object',
    ]);
  });

  it('const and enum', () => {
    valid({ a: [1] }, { const: { a: [1] } });
    invalid(2, { const: 1 }, '$: expected 1, found 2');
    valid('b', { enum: ['a', 'b'] });
    invalid('c', { enum: ['a', 'b'] }, '$: "c" is not one of "a", "b"');
  });

  it('strings: length in characters, pattern', () => {
    valid('éé', { minLength: 2, maxLength: 2 });
    invalid('a', { minLength: 2 }, '$: the text has 1 characters, fewer than minLength 2');
    invalid('abc', { maxLength: 2 }, '$: the text has 3 characters, more than maxLength 2');
    valid('abc', { pattern: '^a' });
    invalid('xbc', { pattern: '^a' }, '$: "xbc" does not match the pattern ^a');
    valid(5, { minLength: 9, pattern: 'x' });
  });

  it('numbers: bounds and multipleOf', () => {
    valid(5, { minimum: 5, maximum: 5 });
    invalid(4, { minimum: 5 }, '$: 4 breaks minimum 5');
    invalid(6, { maximum: 5 }, '$: 6 breaks maximum 5');
    invalid(5, { exclusiveMinimum: 5 }, '$: 5 breaks exclusiveMinimum 5');
    invalid(5, { exclusiveMaximum: 5 }, '$: 5 breaks exclusiveMaximum 5');
    valid(6, { exclusiveMinimum: 5, exclusiveMaximum: 7 });
    valid(0.3, { multipleOf: 0.1 });
    invalid(0.35, { multipleOf: 0.1 }, '$: 0.35 breaks multipleOf 0.1');
    valid('x', { minimum: 5 });
  });

  it('arrays: size, unique items, items and prefixItems, with the index in the path', () => {
    invalid([], { minItems: 1 }, '$: 0 items, fewer than minItems 1');
    invalid([1, 2], { maxItems: 1 }, '$: 2 items, more than maxItems 1');
    valid([1, 2], { minItems: 2, maxItems: 2, uniqueItems: true });
    invalid([1, 2, 1], { uniqueItems: true }, '$: item 2 repeats an earlier one (uniqueItems)');
    valid([1, 1], { uniqueItems: false });
    invalid([1, 'x'], { items: { type: 'integer' } }, '$[1]: expected integer, found string');
    valid(['a', 1, 2], { prefixItems: [{ type: 'string' }], items: { type: 'integer' } });
    invalid([1], { prefixItems: [{ type: 'string' }] }, '$[0]: expected string, found integer');
    valid({}, { minItems: 3 });
  });

  it('objects: required, properties, additionalProperties, size, with the property in the path', () => {
    const person = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    valid({ name: 'Ada', age: 3 }, person);
    invalid({}, person, '$: the required property "name" is missing');
    invalid({ name: 1 }, person, '$.name: expected string, found integer');
    invalid(
      { name: 'a', x: 1 },
      { ...person, additionalProperties: false },
      '$: the property "x" is not allowed (additionalProperties is false)',
    );
    invalid(
      { name: 'a', x: 1 },
      { ...person, additionalProperties: { type: 'string' } },
      '$.x: expected string, found integer',
    );
    valid({ name: 'a', x: 'y' }, { ...person, additionalProperties: { type: 'string' } });
    invalid({}, { minProperties: 1 }, '$: 0 properties, fewer than minProperties 1');
    invalid({ a: 1, b: 2 }, { maxProperties: 1 }, '$: 2 properties, more than maxProperties 1');
    valid({ a: 1 }, { minProperties: 1, maxProperties: 1 });
    valid([], { required: ['a'] });
    invalid(
      { toString: 1 },
      { properties: { toString: { type: 'string' } } },
      '$.toString: expected string, found integer',
    );
    valid({ constructor: 1 }, { required: [] });
  });

  it('allOf, anyOf, oneOf, not', () => {
    invalid(1, { allOf: [{ type: 'integer' }, { minimum: 2 }] }, '$: 1 breaks minimum 2');
    valid(2, { allOf: [{ type: 'integer' }, { minimum: 2 }] });
    valid('x', { anyOf: [{ type: 'integer' }, { type: 'string' }] });
    invalid(true, { anyOf: [{ type: 'integer' }, { type: 'string' }] }, '$: the value matches none of anyOf');
    valid(1, { oneOf: [{ type: 'integer' }, { type: 'string' }] });
    invalid(
      1,
      { oneOf: [{ type: 'integer' }, { type: 'number' }] },
      '$: the value matches 2 of oneOf, not exactly one',
    );
    invalid(true, { oneOf: [{ type: 'integer' }] }, '$: the value matches 0 of oneOf, not exactly one');
    valid(1, { not: { type: 'string' } });
    invalid('x', { not: { type: 'string' } }, '$: the value matches the schema under "not"');
  });

  it('$ref to the root, $defs and definitions (with ~ escapes); other refs and loops fail by name', () => {
    const schema = {
      $defs: { name: { type: 'string' }, 'a/b': { type: 'integer' } },
      definitions: { n: { type: 'number' } },
      properties: {
        n: { $ref: '#/$defs/name' },
        m: { $ref: '#/definitions/n' },
        s: { $ref: '#/$defs/a~1b' },
        self: { $ref: '#' },
      },
    };
    valid({ n: 'x', m: 1.5, s: 2, self: { n: 'y' } }, schema);
    invalid({ n: 1 }, schema, '$.n: expected string, found integer');
    invalid({ s: 1.5 }, schema, '$.s: expected integer, found number');
    invalid({ self: { n: 2 } }, schema, '$.self.n: expected string, found integer');
    invalid(
      1,
      { $ref: 'other.json' },
      '$: $ref other.json points at nothing in the schema (only "#/…" references are read)',
    );
    invalid(1, { $ref: '#/$defs/none' }, /points at nothing/);
    invalid(1, { $ref: '#/$defs/x~0', $defs: { 'x~': { type: 'string' } } }, '$: expected string, found integer');
    invalid(1, { $ref: '#' }, '$: the schema refers to itself too deeply');
  });

  it('deepEqual compares arrays and objects by value', () => {
    assert.equal(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
    assert.equal(deepEqual({ a: 1 }, { a: 1, b: undefined }), false);
    assert.equal(deepEqual({ a: 1, c: 2 }, { a: 1, b: 2 }), false);
    assert.equal(deepEqual([1], [1, 2]), false);
    assert.equal(deepEqual([1], { 0: 1 }), false);
    assert.equal(deepEqual(1, '1'), false);
  });
});
