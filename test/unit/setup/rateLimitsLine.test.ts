import * as assert from 'node:assert/strict';
import { rateLimitsLine, seenAgo } from '../../../src/setup/core/rateLimitsLine';

describe('the last rate limits, as the status bar and Diagnose say them', () => {
  it('says the requests and tokens left, when they reset, and how long ago they were seen', () => {
    const now = 1_000_000;
    const line = rateLimitsLine(
      {
        remainingRequests: 57,
        limitRequests: 60,
        remainingTokens: 900,
        resetRequestsAt: now + 12_000,
        seenAt: now - 3 * 60_000,
      },
      now,
    );
    assert.match(line, /^Rate limits \(seen 3 min ago\): /);
    assert.match(line, /57 of 60 left \(resets in 12 s\)/);
    assert.match(line, /900 left/);
  });

  it('"just now", minutes, hours; a time in the future is "just now"', () => {
    assert.equal(seenAgo(10_000, 10_000), 'just now');
    assert.equal(seenAgo(20_000, 10_000), 'just now');
    assert.equal(seenAgo(0, 59 * 60_000), '59 min ago');
    assert.equal(seenAgo(0, 125 * 60_000), '2 h ago');
  });

  it('keeps what the service sent as text: no Markdown or link comes of it', () => {
    const line = rateLimitsLine({ retryAfterMs: 2000, seenAt: 0 }, 0);
    assert.match(line, /retry after 2 s/);
  });
});
