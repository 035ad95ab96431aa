import * as assert from 'node:assert/strict';
import { header, rateLimitHeaders } from '../../../src/api/headers';

describe('api/headers', () => {
  it('gives a header as sent, and the first copy of a repeated one', () => {
    assert.equal(header({ 'content-type': 'application/json' }, 'content-type'), 'application/json');
    assert.equal(header({ location: ['/first', '/injected'] }, 'location'), '/first');
    assert.equal(header({}, 'location'), undefined);
  });

  it("keeps an answer's rate-limit headers only (first copy, cut), and nothing when it sent none", () => {
    assert.deepEqual(
      rateLimitHeaders({
        'x-ratelimit-remaining-requests': '57',
        'RateLimit-Reset': ['20', '99'],
        'retry-after': 'x'.repeat(500),
        authorization: 'Bearer sk-secret',
        'x-request-id': 'r1',
      }),
      { 'x-ratelimit-remaining-requests': '57', 'ratelimit-reset': '20', 'retry-after': 'x'.repeat(200) },
    );
    assert.equal(rateLimitHeaders({ 'content-type': 'application/json' }), undefined);
  });
});
