// JSON paths of `json` expectations: what they read, what they reach, and where a path that reaches nothing stops.
import * as assert from 'node:assert/strict';
import { parseJsonPath, select, type JsonPath } from '../../../src/checks/core/jsonPath';

function path(text: string): JsonPath {
  const p = parseJsonPath(text);
  assert.ok(p.ok, text);
  return p.path;
}

describe('checks/core/jsonPath', () => {
  it('reads names, indexes, quoted keys and [*], and stops at a space', () => {
    const p = parseJsonPath(`$.a[0]['b c']["d\\"e"][-1][*]._x$ == 1`);
    assert.ok(p.ok);
    assert.deepEqual(p.path.steps, [
      { key: 'a' },
      { index: 0 },
      { key: 'b c' },
      { key: 'd"e' },
      { index: -1 },
      { every: true },
      { key: '_x$' },
    ]);
    assert.equal(p.length, p.path.text.length);
    assert.equal(p.path.text, `$.a[0]['b c']["d\\"e"][-1][*]._x$`);
    assert.deepEqual(path('$').steps, []);
    assert.deepEqual(path('$.a-b').steps, [{ key: 'a-b' }]);
  });

  it('says where a path cannot be read', () => {
    const cases: [string, RegExp][] = [
      ['a.b', /starts with \$/],
      ['$a', /\$a cannot be read at character 2/],
      ['$.', /at character 2/],
      ['$.1a', /at character 2/],
      ['$[x]', /at character 2/],
      ['$[0', /at character 2/],
      ["$['a]", /at character 2/],
    ];
    for (const [text, message] of cases) {
      const p = parseJsonPath(text);
      assert.ok(!p.ok, text);
      assert.match(p.message, message, text);
      assert.match(p.message, /use \.name, \[0\], \[-1\], \[\*\] or \["name"\]|starts with/);
    }
  });

  it('selects values, from the end with negative indexes, every element or value with [*]', () => {
    const v = { a: [{ b: 1 }, { b: 2 }], o: { x: 1, y: 2 }, 'k k': 3 };
    assert.deepEqual(select(v, path('$.a[1].b')), { values: [2], reached: '$.a[1].b' });
    assert.deepEqual(select(v, path('$.a[-1].b')).values, [2]);
    assert.deepEqual(select(v, path('$.a[-2].b')).values, [1]);
    assert.deepEqual(select(v, path('$.a[*].b')).values, [1, 2]);
    assert.deepEqual(select(v, path('$.o[*]')).values, [1, 2]);
    assert.deepEqual(select(v, path('$["k k"]')), { values: [3], reached: '$["k k"]' });
    assert.deepEqual(select(v, path('$')).values, [v]);
  });

  it('reaches nothing past the end, through the wrong type or an inherited name, and says how far it got', () => {
    const v = { a: [{ b: 1 }], s: 'text', n: null };
    assert.deepEqual(select(v, path('$.a[1].b')), { values: [], reached: '$.a' });
    assert.deepEqual(select(v, path('$.a[-2]')), { values: [], reached: '$.a' });
    assert.deepEqual(select(v, path('$.a.b')), { values: [], reached: '$.a' });
    assert.deepEqual(select(v, path('$.s[0]')), { values: [], reached: '$.s' });
    assert.deepEqual(select(v, path('$.s[*]')), { values: [], reached: '$.s' });
    assert.deepEqual(select(v, path('$.n.x')), { values: [], reached: '$.n' });
    assert.deepEqual(select(v, path('$.toString')), { values: [], reached: '$' });
    assert.deepEqual(select([1], path('$.length')), { values: [], reached: '$' });
    assert.deepEqual(select(v, path('$.a[*].c')), { values: [], reached: '$.a[*]' });
  });
});
