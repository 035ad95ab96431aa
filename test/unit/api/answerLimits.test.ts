// How much of one answer is kept, the same for Send and checks: a stream stops once what it kept passes the
// limit (not at it), each event counted as the response document writes it, and the limit as people read it
// in "stopped at N MB".
import * as assert from 'node:assert/strict';
import { DEFAULT_MAX_RESPONSE_BYTES, limitText, pastAnswerLimit, rawEventText } from '../../../src/api/answerLimits';

describe('api/answerLimits', () => {
  it('a stream passes the limit only beyond it: an answer of exactly the limit is whole', () => {
    assert.equal(pastAnswerLimit(60, 40, 100), false);
    assert.equal(pastAnswerLimit(60, 41, 100), true);
    assert.equal(pastAnswerLimit(0, 0, 0), false);
    assert.equal(DEFAULT_MAX_RESPONSE_BYTES, 32 * 1024 * 1024);
  });

  it('counts an event as the response document writes it, with its name when it has one', () => {
    assert.equal(rawEventText({ data: '{"a":1}' }), 'data: {"a":1}');
    assert.equal(rawEventText({ event: 'delta', data: 'x' }), 'event: delta\ndata: x');
    assert.equal(rawEventText({ event: '', data: 'x' }), 'data: x');
  });

  it('the limit in MB: whole from 10 MB, one decimal below', () => {
    const mb = 1024 * 1024;
    assert.equal(limitText(32 * mb), '32 MB');
    assert.equal(limitText(10 * mb), '10 MB');
    assert.equal(limitText(10.4 * mb), '10 MB');
    assert.equal(limitText(9.96 * mb), '10 MB');
    assert.equal(limitText(9.94 * mb), '9.9 MB');
    assert.equal(limitText(0.5 * mb), '0.5 MB');
    assert.equal(limitText(1 * mb), '1 MB');
    assert.equal(limitText(12.6 * mb), '13 MB');
  });
});
