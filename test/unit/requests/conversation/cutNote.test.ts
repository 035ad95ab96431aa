import * as assert from 'node:assert/strict';
import { cutComment, cutText, readCut, withCutComment } from '../../../../src/requests/conversation/core/cutNote';

describe('the cut mark of a kept answer', () => {
  it('is read back from the turn it was written into, by its kind', () => {
    for (const cut of ['cancelled', 'limit', 'truncated', 'length', 'failed'] as const) {
      const turn = withCutComment('{\n  "role": "assistant",\n  "content": "A"\n}', cut, '\n');
      assert.equal(readCut(turn), cut, turn);
      assert.ok(turn.startsWith(`{\n  // ${cutComment(cut)}\n  "role"`), turn);
    }
    assert.equal(readCut('{/* cut (failed): x */ "role":"assistant"}'), 'failed');
    assert.equal(readCut('{\r\n    // cut (limit): x\r\n    "role": "assistant"}'), 'limit');
  });

  it('is not read from the answer’s own words, an unknown kind or a turn without one', () => {
    assert.equal(readCut('{ "role": "assistant", "content": "// cut (cancelled): quoted" }'), undefined);
    assert.equal(readCut('{ // cut (later): x\n "role": "assistant" }'), undefined);
    assert.equal(readCut('{ // cut cancelled\n "role": "assistant" }'), undefined);
    assert.equal(readCut('{ "role": "assistant" }'), undefined);
    assert.equal(readCut('// cut (cancelled)'), 'cancelled', 'a turn of comments only still says so');
  });

  it('goes into the last assistant turn of what is written, with the line ending of the file', () => {
    const list = '[\r\n    {\r\n      "role": "user"\r\n    },\r\n    {\r\n      "role": "assistant"\r\n    }\r\n  ]';
    const marked = withCutComment(list, 'cancelled', '\r\n');
    assert.equal(
      marked,
      `[\r\n    {\r\n      "role": "user"\r\n    },\r\n    {\r\n      // ${cutComment('cancelled')}\r\n      "role": "assistant"\r\n    }\r\n  ]`,
    );
    assert.equal(withCutComment('{"role": "user"}', 'failed', '\n'), '{"role": "user"}', 'no answer, no mark');
  });

  it('says why in words, naming the setting of the size limit and the model’s finish reason', () => {
    assert.match(cutText('cancelled'), /stopped before it was complete/);
    assert.match(cutText('limit'), /modelAccess\.limits\.maxResponseMegabytes/);
    assert.equal(cutText('truncated'), cutText('limit'));
    assert.match(cutText('length', 'length'), /complete \(length\)\.$/);
    assert.match(cutText('length'), /complete\.$/);
    assert.match(cutText('failed'), /service failed/);
  });
});
