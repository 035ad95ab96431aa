/**
 * A careful subset of JSON Schema (draft 2020-12 / 07 keywords) for `// @expect schema FILE`: the keywords
 * structured-output schemas use. A keyword outside the subset is a failure that names it, never a silent
 * pass. Why not a full validator: the well-kept ones (ajv) compile schemas to code and add ~120 KB and four
 * packages to a bundle that loads with the extension; the subset is small enough to test completely.
 * Pure; no `vscode` import.
 */
import { BudgetSpent, StepBudget, testWithin } from './budget';
import { l10n } from '../../common/plainL10n';

/** Keywords that say nothing about validity. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'definitions',
  'title',
  'description',
  'default',
  'examples',
  'format',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
]);

const KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
]);

/** The first reason `value` is not valid against `schema` (with where), or undefined when it is valid. */
export function validate(value: unknown, schema: unknown): string | undefined {
  budget = new StepBudget();
  try {
    return check(value, schema, schema, '$', 0);
  } catch (e) {
    if (e instanceof BudgetSpent) {
      return e.message;
    }
    throw e;
  }
}

const MAX_DEPTH = 64;

/** The budget of the validation under way (validation is synchronous: one at a time). */
let budget = new StepBudget();

function check(value: unknown, schema: unknown, root: unknown, at: string, depth: number): string | undefined {
  budget.step();
  if (schema === true) {
    return undefined;
  }
  if (schema === false) {
    return l10n.t('{0}: no value is allowed here', at);
  }
  if (!isObject(schema)) {
    return l10n.t('{0}: the schema here is not an object or a boolean', at);
  }
  if (depth > MAX_DEPTH) {
    return l10n.t('{0}: the schema refers to itself too deeply', at);
  }
  for (const key of Object.keys(schema)) {
    if (!KEYWORDS.has(key) && !ANNOTATIONS.has(key)) {
      return l10n.t('{0}: the schema keyword "{1}" is not supported by this checker (see the README)', at, key);
    }
  }
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(root, schema.$ref);
    if (target === undefined) {
      return l10n.t('{0}: $ref {1} points at nothing in the schema (only "#/…" references are read)', at, schema.$ref);
    }
    const problem = check(value, target, root, at, depth + 1);
    if (problem) {
      return problem;
    }
  }
  return (
    typeProblem(value, schema, at) ??
    valueProblem(value, schema, at) ??
    stringProblem(value, schema, at) ??
    numberProblem(value, schema, at) ??
    arrayProblem(value, schema, root, at, depth) ??
    objectProblem(value, schema, root, at, depth) ??
    combinedProblem(value, schema, root, at, depth)
  );
}

function resolveRef(root: unknown, ref: string): unknown {
  if (ref === '#') {
    return root;
  }
  if (!ref.startsWith('#/')) {
    return undefined;
  }
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.hasOwn(node, key)) {
      return undefined;
    }
    node = node[key];
  }
  return node;
}

export function typeOf(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  return typeof value;
}

function typeProblem(value: unknown, schema: Record<string, unknown>, at: string): string | undefined {
  if (schema.type === undefined) {
    return undefined;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual = typeOf(value);
  const ok = types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
  return ok ? undefined : l10n.t('{0}: expected {1}, found {2}', at, types.join(' or '), actual);
}

function valueProblem(value: unknown, schema: Record<string, unknown>, at: string): string | undefined {
  if (Object.hasOwn(schema, 'const') && !deepEqual(value, schema.const)) {
    return l10n.t('{0}: expected {1}, found {2}', at, JSON.stringify(schema.const), JSON.stringify(value) ?? 'nothing');
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) {
    return l10n.t(
      '{0}: {1} is not one of {2}',
      at,
      JSON.stringify(value) ?? 'nothing',
      schema.enum.map((e) => JSON.stringify(e)).join(', '),
    );
  }
  return undefined;
}

function stringProblem(value: unknown, schema: Record<string, unknown>, at: string): string | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    return l10n.t('{0}: the text has {1} characters, fewer than minLength {2}', at, length, schema.minLength);
  }
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
    return l10n.t('{0}: the text has {1} characters, more than maxLength {2}', at, length, schema.maxLength);
  }
  if (typeof schema.pattern === 'string' && !testWithin(new RegExp(schema.pattern, 'u'), value)) {
    return l10n.t('{0}: {1} does not match the pattern {2}', at, JSON.stringify(value), schema.pattern);
  }
  return undefined;
}

function numberProblem(value: unknown, schema: Record<string, unknown>, at: string): string | undefined {
  if (typeof value !== 'number') {
    return undefined;
  }
  const bound = (key: string, fails: (limit: number) => boolean) =>
    typeof schema[key] === 'number' && fails(schema[key])
      ? l10n.t('{0}: {1} breaks {2} {3}', at, value, key, schema[key])
      : undefined;
  return (
    bound('minimum', (l) => value < l) ??
    bound('maximum', (l) => value > l) ??
    bound('exclusiveMinimum', (l) => value <= l) ??
    bound('exclusiveMaximum', (l) => value >= l) ??
    bound('multipleOf', (l) => l > 0 && !Number.isInteger(Number((value / l).toFixed(9))))
  );
}

function arrayProblem(
  value: unknown,
  schema: Record<string, unknown>,
  root: unknown,
  at: string,
  depth: number,
): string | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
    return l10n.t('{0}: {1} items, fewer than minItems {2}', at, value.length, schema.minItems);
  }
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    return l10n.t('{0}: {1} items, more than maxItems {2}', at, value.length, schema.maxItems);
  }
  if (schema.uniqueItems === true) {
    for (let i = 1; i < value.length; i++) {
      if (value.slice(0, i).some((v) => deepEqual(v, value[i]))) {
        return l10n.t('{0}: item {1} repeats an earlier one (uniqueItems)', at, i);
      }
    }
  }
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  for (let i = 0; i < value.length; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : schema.items;
    if (itemSchema !== undefined) {
      const problem = check(value[i], itemSchema, root, `${at}[${i}]`, depth + 1);
      if (problem) {
        return problem;
      }
    }
  }
  return undefined;
}

function objectProblem(
  value: unknown,
  schema: Record<string, unknown>,
  root: unknown,
  at: string,
  depth: number,
): string | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  const keys = Object.keys(value);
  if (typeof schema.minProperties === 'number' && keys.length < schema.minProperties) {
    return l10n.t('{0}: {1} properties, fewer than minProperties {2}', at, keys.length, schema.minProperties);
  }
  if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties) {
    return l10n.t('{0}: {1} properties, more than maxProperties {2}', at, keys.length, schema.maxProperties);
  }
  if (Array.isArray(schema.required)) {
    const missing = schema.required.find((k) => typeof k === 'string' && !Object.hasOwn(value, k));
    if (missing !== undefined) {
      return l10n.t('{0}: the required property "{1}" is missing', at, String(missing));
    }
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const key of keys) {
    const where = `${at}.${key}`;
    const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (own !== undefined) {
      const problem = check(value[key], own, root, where, depth + 1);
      if (problem) {
        return problem;
      }
    } else if (schema.additionalProperties === false) {
      return l10n.t('{0}: the property "{1}" is not allowed (additionalProperties is false)', at, key);
    } else if (isObject(schema.additionalProperties)) {
      const problem = check(value[key], schema.additionalProperties, root, where, depth + 1);
      if (problem) {
        return problem;
      }
    }
  }
  return undefined;
}

function combinedProblem(
  value: unknown,
  schema: Record<string, unknown>,
  root: unknown,
  at: string,
  depth: number,
): string | undefined {
  if (Array.isArray(schema.allOf)) {
    for (const s of schema.allOf) {
      const problem = check(value, s, root, at, depth + 1);
      if (problem) {
        return problem;
      }
    }
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => check(value, s, root, at, depth + 1) === undefined)) {
    return l10n.t('{0}: the value matches none of anyOf', at);
  }
  if (Array.isArray(schema.oneOf)) {
    const matching = schema.oneOf.filter((s) => check(value, s, root, at, depth + 1) === undefined).length;
    if (matching !== 1) {
      return l10n.t('{0}: the value matches {1} of oneOf, not exactly one', at, matching);
    }
  }
  if (schema.not !== undefined && check(value, schema.not, root, at, depth + 1) === undefined) {
    return l10n.t('{0}: the value matches the schema under "not"', at);
  }
  return undefined;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
