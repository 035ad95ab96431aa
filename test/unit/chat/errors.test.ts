import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../src/api/errors';
import { classifyChatError } from '../../../src/chat/core/errors';
import { ChatStreamError } from '../../../src/chat/core/chatAnswer';

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

  it('each kind of failure is told apart by status alone, by kind alone, or by an error code or type', () => {
    assert.equal(classifyChatError({ status: 401 }).kind, 'noPermissions');
    assert.equal(classifyChatError({ kind: 'unauthorized' }).kind, 'noPermissions');
    assert.equal(classifyChatError({ status: 404 }).kind, 'notFound');
    assert.equal(classifyChatError({ kind: 'notFound' }).kind, 'notFound');
    assert.equal(classifyChatError({ status: 429 }).kind, 'blocked');
    assert.equal(classifyChatError({ kind: 'rateLimited' }).kind, 'blocked');
    assert.equal(classifyChatError({ status: 400, type: 'moderation' }).kind, 'blocked');
    assert.equal(classifyChatError({ status: '401', kind: 'http' }).kind, 'other', 'a status that is not a number');
    assert.equal(classifyChatError({ status: 400, code: '', type: 'invalid_request' }).kind, 'other');
  });

  it('a 403 without a model name says "this model"; a cancelled fetch is a cancellation', () => {
    assert.equal(
      classifyChatError({ kind: 'unauthorized', status: 403, message: 'Forbidden' }).message,
      "Forbidden. Your organization's key may not use this model.",
    );
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    assert.deepEqual(classifyChatError(abort), { kind: 'cancelled', message: 'The chat request was cancelled.' });
    assert.equal(classifyChatError(new Error('This operation was aborted')).kind, 'other');
  });

  it('the hint follows the message after one full stop, whatever the message ended with', () => {
    const notFound = (message: string) => classifyChatError({ status: 404, message }).message;
    const hint = 'Refresh the models ("Model Access: Refresh Models").';
    assert.equal(notFound('No such model'), `No such model. ${hint}`);
    assert.equal(notFound('No such model.  \n'), `No such model. ${hint}`);
    assert.equal(notFound('Really?'), `Really? ${hint}`);
    assert.equal(notFound('Gone (see docs)'), `Gone (see docs) ${hint}`);
    assert.equal(notFound('v1.2 removed'), `v1.2 removed. ${hint}`);
  });

  it('a thrown string is the message; anything without one says the chat request failed', () => {
    assert.deepEqual(classifyChatError('the socket closed'), { kind: 'other', message: 'the socket closed' });
    assert.deepEqual(classifyChatError({ message: '  ' }), { kind: 'other', message: 'The chat request failed.' });
    assert.deepEqual(classifyChatError(42), { kind: 'other', message: 'The chat request failed.' });
  });
});
