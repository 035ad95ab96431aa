import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { classifyChatError } from '../../../src/chat/core/errors';
import { ChatStreamError } from '../../../src/chat/core/messages';

describe('chat: errors', () => {
  const http = (status: number, extra: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}) =>
    new ServiceError({
      kind:
        status === 401 || status === 403
          ? 'unauthorized'
          : status === 404
            ? 'notFound'
            : status === 429
              ? 'rateLimited'
              : 'http',
      status,
      message: `The server answered ${status}: said so`,
      ...extra,
    });

  it('401/403 → no permission with what to do, 404 → not found', () => {
    const unauthorized = classifyChatError(http(401), 'aurora-2');
    assert.equal(unauthorized.kind, 'noPermissions');
    assert.match(
      unauthorized.message,
      /^The server answered 401: said so\. Check the API key with "Model Access: Set API Key"\.$/,
    );
    const forbidden = classifyChatError(http(403), 'aurora-2');
    assert.equal(forbidden.kind, 'noPermissions');
    assert.match(forbidden.message, /may not use "aurora-2"/);
    assert.equal(classifyChatError(http(404)).kind, 'notFound');
  });

  it('content filter, quota and rate limits → blocked; anything else → a plain error with the message', () => {
    assert.equal(classifyChatError(http(400, { code: 'content_filter' })).kind, 'blocked');
    assert.equal(classifyChatError(http(429, { code: 'insufficient_quota' })).kind, 'blocked');
    assert.equal(classifyChatError(http(429)).kind, 'blocked');
    assert.equal(classifyChatError(http(451)).kind, 'blocked');
    assert.deepEqual(classifyChatError(http(500)), { kind: 'other', message: 'The server answered 500: said so' });
    assert.equal(
      classifyChatError(new ServiceError({ kind: 'network', message: 'Could not connect' })).message,
      'Could not connect',
    );
    assert.equal(classifyChatError(new ServiceError({ kind: 'aborted', message: 'x' })).kind, 'cancelled');
    assert.equal(classifyChatError(new ChatStreamError('blocked', 'Filtered')).kind, 'blocked');
    assert.deepEqual(classifyChatError(new ChatStreamError('error', 'Broke')), { kind: 'other', message: 'Broke' });
    assert.equal(classifyChatError(undefined).kind, 'other');
  });
});
