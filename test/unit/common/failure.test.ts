import * as assert from 'node:assert/strict';
import { describeFailure } from '../../../src/common/failure';

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
});
