// JSON paths with indexes of two digits, a bracket that cannot be read before one that can, and keys that
// are not names: read exactly, and the place a path stopped written back so it can be pasted.
import * as assert from 'node:assert/strict';
import { parseJsonPath, select } from '../../../src/checks/core/jsonPath';

describe('checks/core/jsonPath: indexes, brackets and odd keys', () => {
  it('reads indexes of several digits', () => {
    const p = parseJsonPath('$.items[12]');
    assert.ok(p.ok);
    assert.deepEqual(p.path.steps, [{ key: 'items' }, { index: 12 }]);
  });

  it('says where a bracket cannot be read, even when a readable one follows', () => {
    const p = parseJsonPath('$[x]["b"]');
    assert.ok(!p.ok);
    assert.match(p.message, /the JSON path \$\[x\]\["b"\] cannot be read at character 2/);
  });

  it('writes a key that is not a name in brackets when it says how far a path got', () => {
    const p = parseJsonPath('$["1st"].b');
    assert.ok(p.ok);
    assert.deepEqual(select({ '1st': {} }, p.path), { values: [], reached: '$["1st"]' });
  });
});
