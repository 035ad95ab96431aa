import * as assert from 'node:assert/strict';
import {
  formatRateLimits,
  nextRateLimits,
  parseDurationText,
  readRateLimits,
  requestsLeft,
  resetTime,
} from '../../../../src/domain/cost/rateLimits';

const NOW = Date.UTC(2026, 10, 29, 10, 0, 0);

describe('cost: rate limits from headers', () => {
  it('reads the OpenAI headers with Go durations', () => {
    const limits = readRateLimits(
      {
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-limit-tokens': '150000',
        'x-ratelimit-remaining-tokens': '149984',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-reset-tokens': '6m0s',
      },
      NOW,
    );
    assert.deepEqual(limits, {
      seenAt: NOW,
      limitRequests: 60,
      remainingRequests: 59,
      limitTokens: 150000,
      remainingTokens: 149984,
      resetRequestsAt: NOW + 1000,
      resetTokensAt: NOW + 360_000,
    });
    assert.equal(
      formatRateLimits(limits, NOW),
      'requests: 59 of 60 left (resets in 1 s); tokens: 149984 of 150000 left (resets in 6 min 0 s)',
    );
  });

  it('reads durations, seconds, epoch times and dates as reset times', () => {
    assert.equal(parseDurationText('20ms'), 20);
    assert.equal(parseDurationText('1h2m3.5s'), 3_723_500);
    assert.equal(parseDurationText('soon'), undefined);
    assert.equal(resetTime('30', NOW), NOW + 30_000);
    assert.equal(resetTime('0.5', NOW), NOW + 500);
    assert.equal(resetTime(String(NOW / 1000 + 60), NOW), NOW + 60_000);
    assert.equal(resetTime(String(NOW + 5000), NOW), NOW + 5000);
    assert.equal(resetTime(new Date(NOW + 120_000).toUTCString(), NOW), NOW + 120_000);
    assert.equal(resetTime(new Date(NOW + 120_000).toISOString(), NOW), NOW + 120_000);
  });

  it('the unsuffixed GitHub-style headers count requests; retry-after in seconds or as a date', () => {
    const limits = readRateLimits(
      {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-reset': String(NOW / 1000 + 3600),
        'retry-after': '2',
      },
      NOW,
    );
    assert.equal(limits?.limitRequests, 5000);
    assert.equal(limits?.remainingRequests, 4999);
    assert.equal(limits?.resetRequestsAt, NOW + 3_600_000);
    assert.equal(limits?.retryAfterMs, 2000);
    assert.equal(readRateLimits({ 'retry-after': new Date(NOW + 3000).toUTCString() }, NOW)?.retryAfterMs, 3000);
  });

  it('never makes up a number from malformed or lying headers', () => {
    assert.equal(readRateLimits({}, NOW), undefined);
    assert.equal(readRateLimits({ 'content-type': 'application/json' }, NOW), undefined);
    const bad = readRateLimits(
      {
        'x-ratelimit-limit-requests': '-5',
        'x-ratelimit-remaining-requests': '1.5',
        'x-ratelimit-limit-tokens': 'many',
        'x-ratelimit-remaining-tokens': '99999999999999999999',
        'x-ratelimit-reset-requests': new Date(NOW - 60_000).toUTCString(),
        'x-ratelimit-reset-tokens': '-3s',
        'retry-after': new Date(NOW - 1000).toUTCString(),
      },
      NOW,
    );
    assert.equal(bad, undefined);
    const more = readRateLimits({ 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '11' }, NOW);
    assert.deepEqual(more, { seenAt: NOW, limitRequests: 10 }, 'more remaining than the limit is not believed');
    assert.equal(resetTime('999999999999999999', NOW), undefined, 'a reset centuries away is not believed');
    assert.equal(readRateLimits({ 'x-ratelimit-remaining-requests': ['3', '900'] }, NOW)?.remainingRequests, 3);
  });

  it('a remaining count that grows within its window keeps the earlier, lower count', () => {
    const first = readRateLimits({ 'x-ratelimit-remaining-requests': '5', 'x-ratelimit-reset-requests': '10s' }, NOW);
    const grown = readRateLimits(
      { 'x-ratelimit-remaining-requests': '50', 'x-ratelimit-reset-requests': '10s' },
      NOW + 1000,
    );
    const kept = nextRateLimits(first, grown);
    assert.equal(kept?.remainingRequests, 5);
    assert.equal(kept?.resetRequestsAt, NOW + 10_000);
    const later = readRateLimits({ 'x-ratelimit-remaining-requests': '50' }, NOW + 11_000);
    assert.equal(nextRateLimits(first, later)?.remainingRequests, 50, 'after the reset the count may grow');
    assert.equal(nextRateLimits(first, undefined), first);
    assert.equal(requestsLeft(first, NOW + 1), 5);
    assert.equal(requestsLeft(first, NOW + 10_000), undefined, 'a count from a finished window is not used');
    assert.equal(formatRateLimits(undefined, NOW), 'no rate limits reported');
  });
});
