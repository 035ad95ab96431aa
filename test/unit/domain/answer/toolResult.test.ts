import * as assert from 'node:assert/strict';
import { toolResultText } from '../../../../src/domain/answer';

describe('answer reader: a function_call_output item', () => {
  it('reads its output as text', () => {
    assert.equal(toolResultText({ type: 'function_call_output', call_id: 'c', output: '42' }), '42');
    assert.equal(toolResultText({ output: { ok: true } }), '{"ok":true}');
    assert.equal(toolResultText({ output: [1, 2] }), '[1,2]');
    assert.equal(toolResultText({ output: 0 }), '0');
  });

  it('reads nothing as an empty string', () => {
    assert.equal(toolResultText({ call_id: 'c' }), '');
    assert.equal(toolResultText({ output: null }), '');
    assert.equal(toolResultText('output'), '');
    assert.equal(toolResultText(null), '');
  });
});
