import * as assert from 'node:assert/strict';
import { header } from '../../../src/api/headers';

describe('api/headers', () => {
  it('gives a header as sent, and the first copy of a repeated one', () => {
    assert.equal(header({ 'content-type': 'application/json' }, 'content-type'), 'application/json');
    assert.equal(header({ location: ['/first', '/injected'] }, 'location'), '/first');
    assert.equal(header({}, 'location'), undefined);
  });
});
