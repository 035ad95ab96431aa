import * as assert from 'node:assert/strict';
import { flatJson, prettyJson } from '../../../src/common/prettyJson';

/** `depth` arrays, one inside the other, around `inner`. */
function nestedArrays(depth: number, inner: unknown = 1): unknown {
  let v = inner;
  for (let i = 0; i < depth; i++) {
    v = [v];
  }
  return v;
}

describe('common/prettyJson', () => {
  it('indents an ordinary answer by two spaces', () => {
    assert.deepEqual(prettyJson({ id: 'm', tags: ['a'] }), {
      text: '{\n  "id": "m",\n  "tags": [\n    "a"\n  ]\n}',
      flat: false,
    });
    assert.deepEqual(prettyJson(undefined), { text: 'null', flat: false });
    assert.deepEqual(prettyJson(null), { text: 'null', flat: false });
  });

  it('writes an answer nested 65 levels or more on one line, and indents one of 64', () => {
    const deep = nestedArrays(65);
    assert.deepEqual(prettyJson(deep), { text: JSON.stringify(deep), flat: true });
    assert.equal(prettyJson(nestedArrays(64)).flat, false);
    assert.equal(prettyJson(nestedArrays(64, null)).flat, false, 'a null is no level');
    let objects: unknown = { leaf: true };
    for (let i = 0; i < 64; i++) {
      objects = { a: 1, child: objects };
    }
    assert.deepEqual(prettyJson(objects), { text: JSON.stringify(objects), flat: true });
    assert.equal(prettyJson({ a: [1, 2], b: { c: null } }).flat, false);
  });

  it('writes 20 KB of nesting without a stack overflow', () => {
    const deep = nestedArrays(20_000, { x: 'y' });
    const { text, flat } = prettyJson(deep);
    assert.equal(flat, true);
    assert.equal(text, `${'['.repeat(20_000)}{"x":"y"}${']'.repeat(20_000)}`);
  });

  it('writes what JSON.stringify would, for every kind of value', () => {
    const values: unknown[] = [
      null,
      0,
      -1.5,
      Number.NaN,
      Number.NEGATIVE_INFINITY,
      true,
      false,
      'a "quoted" \\ line\n',
      [],
      {},
      [1, 'two', null, undefined, () => 3, [[]], { a: {} }],
      { s: 'x', n: 1, u: undefined, f: () => 1, nested: { list: [true, { deep: ['z'] }] }, empty: [] },
    ];
    for (const v of values) {
      assert.equal(flatJson(v), JSON.stringify(v), JSON.stringify(v));
    }
    assert.equal(flatJson(undefined), 'null');
  });

  it('shows what JSON.stringify cannot write instead of failing: cycles and big integers', () => {
    const cyclic: Record<string, unknown> = { id: 'm' };
    cyclic.self = cyclic;
    assert.deepEqual(prettyJson(cyclic), { text: '{"id":"m","self":"[circular]"}', flat: true });
    assert.deepEqual(prettyJson({ tokens: 10n }), { text: '{"tokens":null}', flat: true });
  });
});
