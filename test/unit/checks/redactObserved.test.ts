// What a check observed has its secrets removed before anything is evaluated or shown: the key the run knows
// and each {{$env}} value the request carried, in the answer's text, the JSON body, the failure and the
// service's error message. A value under 6 characters is removed only where it stands as a whole word.
import * as assert from 'node:assert/strict';
import type { Observed } from '../../../src/checks/core/evaluate';
import { redactObserved, secretRemover } from '../../../src/checks/core/redactObserved';

describe('checks/core/redactObserved', () => {
  it('removes long secrets anywhere, short ones only as whole words, and ignores empty ones', () => {
    const remove = secretRemover(['s3cr3t-value', 'pin42', '']);
    assert.equal(remove('a s3cr3t-value and xs3cr3t-valuex'), 'a [redacted] and x[redacted]x');
    assert.equal(remove('pin42, spin42 pin42x pin42_a (pin42)'), '[redacted], spin42 pin42x pin42_a ([redacted])');
    assert.equal(remove('nothing here'), 'nothing here');
    // A six-character value is long: removed inside words too.
    assert.equal(secretRemover(['abcdef'])('xabcdefx'), 'x[redacted]x');
    // Characters of a regular expression in a short value are taken literally.
    assert.equal(secretRemover(['a.b'])('a.b axb'), '[redacted] axb');
    assert.equal(secretRemover(['a+b|'])('a+b| aab'), '[redacted] aab');
  });

  it("applies the run's own redaction (the key) after the request's secrets", () => {
    const remove = secretRemover(['token-123456'], (t) => t.replace(/ma-key-\w+/g, '[key]'));
    assert.equal(remove('ma-key-abc token-123456'), '[key] [redacted]');
    assert.equal(secretRemover([])('as is'), 'as is');
  });

  it('removes them from the text, every string of the body, the failure and the error message', () => {
    const remove = secretRemover(['token-123456']);
    const o: Observed = {
      status: 400,
      elapsedMs: 3,
      streamed: false,
      body: { error: { message: 'bad token-123456' }, list: ['token-123456', 1, null], same: 'kept' },
      answer: { text: 'you sent token-123456' },
      failure: 'failed with token-123456',
      errorMessage: 'The service said: token-123456',
    };
    const r = redactObserved(o, remove);
    assert.deepEqual(r, {
      status: 400,
      elapsedMs: 3,
      streamed: false,
      body: { error: { message: 'bad [redacted]' }, list: ['[redacted]', 1, null], same: 'kept' },
      answer: { text: 'you sent [redacted]' },
      failure: 'failed with [redacted]',
      errorMessage: 'The service said: [redacted]',
    });
    // The original is left as it was.
    assert.equal(o.answer?.text, 'you sent token-123456');
  });

  it('leaves what holds no secret as it is, and absent parts absent', () => {
    const body = { a: 'b' };
    const o: Observed = { status: 200, elapsedMs: 1, streamed: false, body, answer: { text: undefined } };
    const r = redactObserved(o, secretRemover(['token-123456']));
    assert.equal(r.body, body);
    assert.deepEqual(r, { ...o, failure: undefined, errorMessage: undefined });
    const bare = redactObserved({ elapsedMs: 1, streamed: false }, secretRemover(['token-123456']));
    assert.deepEqual(bare, {
      elapsedMs: 1,
      streamed: false,
      body: undefined,
      answer: undefined,
      failure: undefined,
      errorMessage: undefined,
    });
  });

  it('a body too deep to write out is kept (its expectations fail with their own reason)', () => {
    let deep: unknown = 'token-123456';
    for (let i = 0; i < 200_000; i++) {
      deep = [deep];
    }
    const r = redactObserved({ elapsedMs: 1, streamed: false, body: deep }, secretRemover(['token-123456']));
    assert.equal(r.body, deep);
  });
});
