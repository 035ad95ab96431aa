import * as assert from 'node:assert/strict';
import { describeFailure } from '../../../../src/domain/failure';
import { isServiceFailure, panelWayOut, wayOut } from '../../../../src/requests/send/core/wayOut';

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

  describe('in the conversation panel, whose error is the only one shown', () => {
    const unknownModel = describeFailure({
      kind: 'http',
      status: 404,
      code: 'model_not_found',
      serverMessage: 'The model `nope` does not exist or you do not have access to it.',
    });

    it('an unknown model (404 model_not_found) offers Pick a Model… only: Retry would fail the same way', () => {
      assert.deepEqual(panelWayOut(unknownModel), ['pickModel']);
      assert.deepEqual(panelWayOut(unknownModel, true), ['pickModel']);
      assert.equal(unknownModel.code, 'model_not_found');
    });

    it('a 404 without the code is about the model when the catalog does not list it, else it offers nothing', () => {
      const bare = describeFailure({ kind: 'http', status: 404 });
      assert.deepEqual(panelWayOut(bare, false), ['pickModel']);
      assert.deepEqual(panelWayOut(bare, true), []);
      assert.deepEqual(panelWayOut(bare), []);
      // Another refusal of an unlisted model is not about the model's existence.
      assert.deepEqual(panelWayOut(describeFailure({ kind: 'http', status: 400, code: 'model_not_found' }), false), []);
    });

    it('a stopped or unreachable service offers Retry, Switch Environment… and Diagnose Connection, in that order', () => {
      const refused = describeFailure({ kind: 'network', message: 'Could not connect to http://h: refused' });
      assert.deepEqual(panelWayOut(refused), ['retry', 'switchEnvironment', 'diagnose']);
      assert.deepEqual(panelWayOut(describeFailure({ kind: 'timeout' })), ['retry', 'switchEnvironment', 'diagnose']);
      // A TLS failure leads with its diagnosis, and another service may still be reachable.
      const tls = describeFailure({ kind: 'network', code: 'CERT_HAS_EXPIRED', message: 'The certificate expired.' });
      assert.deepEqual(panelWayOut(tls), ['diagnose', 'retry', 'switchEnvironment']);
    });

    it('every other failure offers what a notification offers', () => {
      for (const e of [
        { kind: 'unauthorized', status: 401 },
        { kind: 'http', status: 503 },
        { kind: 'http', status: 400, message: 'bad payload' },
        { kind: 'config', code: 'keyNotAllowed' },
        new Error('boom'),
      ]) {
        const failure = describeFailure(e);
        assert.deepEqual(panelWayOut(failure, false), wayOut(failure), JSON.stringify(e));
      }
    });
  });
});
