import * as assert from 'node:assert/strict';
import { describeFailure } from '../../../../src/domain/failure';
import { isServiceFailure, wayOut } from '../../../../src/requests/send/core/wayOut';

describe('requests: the way out of a failed request', () => {
  it('a rejected key offers Set API Key… and Retry, and the status bar follows it', () => {
    const failure = describeFailure({ kind: 'unauthorized', status: 401, message: 'nope' });
    assert.deepEqual(wayOut(failure), ['setApiKey', 'retry']);
    assert.equal(isServiceFailure(failure), true);
  });

  it('a refused connection or a timeout offers Retry and Diagnose Connection', () => {
    const refused = describeFailure({ kind: 'network', message: 'Could not connect to http://h: refused' });
    assert.deepEqual(wayOut(refused), ['retry', 'diagnose']);
    assert.deepEqual(wayOut(describeFailure({ kind: 'timeout' })), ['retry', 'diagnose']);
    assert.equal(isServiceFailure(refused), true);
  });

  it('a failing service or a rate limit offers Retry; a refused payload offers nothing and is its own', () => {
    assert.deepEqual(wayOut(describeFailure({ kind: 'http', status: 503 })), ['retry']);
    assert.deepEqual(wayOut(describeFailure({ kind: 'http', status: 429 })), ['retry']);
    const refused = describeFailure({ kind: 'http', status: 400, message: 'bad payload' });
    assert.deepEqual(wayOut(refused), []);
    assert.equal(isServiceFailure(refused), false);
    assert.equal(isServiceFailure(describeFailure({ kind: 'http', status: 503 })), false);
  });

  it('a key not allowed, a missing URL or an unknown failure offers the action that helps', () => {
    assert.deepEqual(wayOut(describeFailure({ kind: 'config', code: 'keyNotAllowed' })), ['allowKey']);
    assert.deepEqual(wayOut(describeFailure({ kind: 'config' })), ['setBaseUrl']);
    assert.deepEqual(wayOut(describeFailure(new Error('boom'))), ['showLog']);
  });
});
