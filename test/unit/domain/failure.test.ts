import * as assert from 'node:assert/strict';
import {
  describeFailure,
  FAILURE_ACTIONS,
  NO_KEY,
  type Failure,
  HEADER_SECRET_MISSING,
  waysOut,
} from '../../../src/domain/failure';
import { KEY_NOT_ALLOWED } from '../../../src/domain/keyConsent';

describe('failures as text', () => {
  it('401 asks for a new key', () => {
    const f = describeFailure({ kind: 'unauthorized', status: 401, message: 'invalid key', requestId: 'req_1' });
    assert.equal(f.message, 'The API key was rejected.');
    assert.equal(f.action, 'setApiKey');
    assert.match(f.detail, /req_1/);
  });

  it('network failures name the host and reason and offer Retry', () => {
    const f = describeFailure({ kind: 'network', message: 'connect ECONNREFUSED' }, '127.0.0.1:9');
    assert.equal(f.message, 'Cannot reach 127.0.0.1:9: connect ECONNREFUSED');
    assert.equal(f.action, 'retry');
    const g = describeFailure({
      kind: 'network',
      host: 'http://127.0.0.1:9',
      message: 'Could not connect to http://127.0.0.1:9: connection refused.',
    });
    assert.equal(g.message, 'Could not connect to http://127.0.0.1:9: connection refused.');
  });

  it('other statuses carry status, server message and request id', () => {
    const f = describeFailure({
      kind: 'http',
      status: 500,
      statusText: 'Internal Server Error',
      message: 'The server answered 500 Internal Server Error: upstream exploded (request id req_9)',
      serverMessage: 'upstream exploded',
      requestId: 'req_9',
    });
    assert.equal(f.message, 'The service answered 500 Internal Server Error: upstream exploded (request id req_9)');
    assert.equal(f.requestId, 'req_9');
    assert.equal(
      describeFailure({ kind: 'http', status: 502, message: 'The server answered 502 Bad Gateway' }).message,
      'The service answered 502',
    );
  });

  it('never passes control characters or huge messages through', () => {
    const f = describeFailure(new Error(`a\u0000\u202e${'x'.repeat(1000)}`));
    assert.ok(f.message.length <= 300);
    assert.ok(!/[\u0000\u202e]/.test(f.message));
  });

  /** What a person sees: the message, and the label and command of the one button offered. */
  const seen = (f: Failure) => ({
    message: f.message,
    button: FAILURE_ACTIONS[f.action].title,
    command: FAILURE_ACTIONS[f.action].command,
  });

  it('a rejected key asks for a new key, and a 403 says the key may not list models', () => {
    const asks = { button: 'Set API Key…', command: 'modelAccess.setApiKey' };
    assert.deepEqual(seen(describeFailure({ kind: 'unauthorized', message: 'nope' })), {
      message: 'The API key was rejected.',
      ...asks,
    });
    assert.deepEqual(seen(describeFailure({ kind: 'http', status: 401 })), {
      message: 'The API key was rejected.',
      ...asks,
    });
    assert.deepEqual(seen(describeFailure({ kind: 'http', status: 403, message: 'forbidden' })), {
      message: 'The API key was rejected (403): it is not allowed to list models.',
      ...asks,
    });
  });

  it('a TLS or proxy failure keeps its own message and offers Diagnose Connection', () => {
    const diagnose = { button: 'Diagnose Connection', command: 'modelAccess.diagnoseConnection' };
    assert.deepEqual(
      seen(describeFailure({ kind: 'network', code: 'CERT_HAS_EXPIRED', message: 'The certificate of gw expired.' })),
      { message: 'The certificate of gw expired.', ...diagnose },
    );
    assert.deepEqual(seen(describeFailure({ kind: 'config', code: 'PROXY_CONFIG' })), {
      message: 'The secure connection could not be set up.',
      ...diagnose,
    });
  });

  it('a network failure or timeout without details still says what happened, and where when known', () => {
    const retry = { button: 'Retry', command: 'modelAccess.refreshModels' };
    assert.deepEqual(seen(describeFailure({ kind: 'timeout' })), {
      message: 'Cannot reach the service: the request timed out',
      ...retry,
    });
    assert.deepEqual(seen(describeFailure({ kind: 'network' }, 'gw.example')), {
      message: 'Cannot reach gw.example: the connection failed',
      ...retry,
    });
    // The host the error names wins over the one the caller knows.
    assert.equal(
      describeFailure({ kind: 'timeout', host: 'other.example' }, 'gw.example').message,
      'Cannot reach other.example: the request timed out',
    );
  });

  it('configuration problems name what is missing and offer the command that sets it', () => {
    assert.deepEqual(seen(describeFailure({ kind: 'config', code: KEY_NOT_ALLOWED })), {
      message: "The key is not allowed for this workspace's service URL yet.",
      button: 'Allow Stored Key…',
      command: 'modelAccess.allowStoredKey',
    });
    assert.deepEqual(seen(describeFailure({ kind: 'config', code: NO_KEY })), {
      message: 'No API key is set for this service.',
      button: 'Set API Key…',
      command: 'modelAccess.setApiKey',
    });
    assert.deepEqual(seen(describeFailure({ kind: 'config', code: NO_KEY, message: 'No key for https://gw.' })), {
      message: 'No key for https://gw.',
      button: 'Set API Key…',
      command: 'modelAccess.setApiKey',
    });
    const setUrl = { button: 'Set Service URL…', command: 'modelAccess.setBaseUrl' };
    assert.deepEqual(seen(describeFailure({ kind: 'config' })), {
      message: 'The service is not configured.',
      ...setUrl,
    });
    assert.deepEqual(seen(describeFailure({ kind: 'config', message: 'The service URL has no host name.' })), {
      message: 'The service URL has no host name.',
      ...setUrl,
    });
    assert.deepEqual(seen(describeFailure({ kind: 'insecure' })), {
      message: 'Refused to send the key over an insecure connection.',
      ...setUrl,
    });
    assert.deepEqual(seen(describeFailure({ kind: 'insecure', message: 'http://gw is not encrypted.' })), {
      message: 'http://gw is not encrypted.',
      ...setUrl,
    });
    // The codes only count for configuration errors: a service that answers with one is still an answer.
    assert.equal(
      describeFailure({ kind: 'http', status: 400, code: KEY_NOT_ALLOWED }).message,
      'The service answered 400',
    );
    assert.equal(describeFailure({ kind: 'http', status: 400, code: NO_KEY }).action, 'retry');
  });

  it('a cancelled request says so, whatever the error said, and offers Retry', () => {
    assert.deepEqual(seen(describeFailure({ kind: 'aborted', message: 'AbortError: This operation was aborted' })), {
      message: 'The request was cancelled.',
      button: 'Retry',
      command: 'modelAccess.refreshModels',
    });
  });

  it('an answer from the service shows its status with what it said, its request id, both or neither', () => {
    const answered = (e: object) => describeFailure({ kind: 'http', ...e });
    assert.equal(
      answered({ status: 404, statusText: 'Not Found', serverMessage: 'no such model' }).message,
      'The service answered 404 Not Found: no such model',
    );
    assert.equal(answered({ status: 500, requestId: 'req_7' }).message, 'The service answered 500 (request id req_7)');
    assert.equal(answered({ status: 502 }).message, 'The service answered 502');
    assert.equal(answered({ status: 502 }).action, 'retry');
    // The client's own framing is not repeated; a message that merely mentions it is the service's words.
    assert.equal(
      answered({ status: 409, message: 'conflict: the server answered twice' }).message,
      'The service answered 409: conflict: the server answered twice',
    );
    assert.deepEqual(
      describeFailure({
        kind: 'http',
        status: 500,
        serverMessage: 'upstream exploded',
        requestId: 'req_9',
      }).detail.split('\n'),
      ['The service said: upstream exploded', 'Request id: req_9'],
    );
    assert.equal(answered({ status: 500 }).detail, '');
  });

  it('a status that is not a finite number is not shown as one', () => {
    for (const status of ['500', Number.NaN, Number.POSITIVE_INFINITY]) {
      const f = describeFailure({ status, message: 'boom' });
      assert.equal(f.message, 'boom');
      assert.equal(f.status, undefined);
      assert.equal(f.action, 'showLog');
    }
  });

  it('an unreadable answer offers Retry; anything else shows its message and offers the log', () => {
    assert.deepEqual(seen(describeFailure({ kind: 'invalidResponse' })), {
      message: 'The service sent a response that could not be read.',
      button: 'Retry',
      command: 'modelAccess.refreshModels',
    });
    assert.equal(
      describeFailure({ kind: 'invalidResponse', message: 'The list is not JSON.' }).message,
      'The list is not JSON.',
    );
    assert.deepEqual(seen(describeFailure({})), {
      message: 'Something went wrong while talking to the service.',
      button: 'Show Log',
      command: 'modelAccess.showLog',
    });
    const thrown = describeFailure(new TypeError('x is not a function'));
    assert.equal(thrown.message, 'x is not a function');
    assert.equal(thrown.kind, 'unknown');
    assert.equal(describeFailure('a string was thrown').message, 'a string was thrown');
  });

  it('a secret header without a value offers Set Environment Header Secret', () => {
    const failure = describeFailure({
      kind: 'config',
      code: HEADER_SECRET_MISSING,
      message: 'X-Org-Token has no value',
    });
    assert.equal(failure.action, 'setHeaderSecret');
    assert.equal(FAILURE_ACTIONS[failure.action].command, 'modelAccess.setHeaderSecret');
    assert.equal(failure.message, 'X-Org-Token has no value');
  });
});

describe('ways out of a failure', () => {
  it('an unreachable service offers Retry, Set Service URL… and Diagnose Connection', () => {
    assert.deepEqual(waysOut({ kind: 'network', action: 'retry' }), ['retry', 'setBaseUrl', 'diagnose']);
    assert.deepEqual(waysOut({ kind: 'timeout', action: 'retry' }), ['retry', 'setBaseUrl', 'diagnose']);
  });

  it('a TLS or proxy failure leads with the diagnosis', () => {
    assert.deepEqual(waysOut({ kind: 'network', action: 'diagnose' }), ['diagnose', 'setBaseUrl', 'retry']);
  });

  it('a rejected key offers only Set API Key…', () => {
    assert.deepEqual(waysOut({ kind: 'http', action: 'setApiKey' }), ['setApiKey']);
  });
});
