import * as assert from 'node:assert/strict';
import { describeFailure } from '../../../../src/domain/failure';
import { modelListed, wayButtons } from '../../../../src/requests/conversation/core/panelWays';

const listed = [{ id: 'aurora-2' }, { id: 'meridian-4' }];

describe('conversation panel: the buttons under a failed answer', () => {
  it('a 404 for a model the catalog does not list reads "Pick a Model…"', () => {
    const failure = describeFailure({ kind: 'http', status: 404 });
    assert.deepEqual(wayButtons(failure, '{"model":"nope","messages":[]}', listed), [
      { action: 'pickModel', title: 'Pick a Model…' },
    ]);
    // The same status for a listed model is not about the model: nothing to offer.
    assert.deepEqual(wayButtons(failure, '{"model":"aurora-2"}', listed), []);
  });

  it('a stopped service reads Retry, Switch Environment…, Diagnose Connection', () => {
    const failure = describeFailure({ kind: 'network', message: 'Could not connect to http://127.0.0.1:9: refused' });
    assert.deepEqual(
      wayButtons(failure, '{"model":"aurora-2"}', listed).map((b) => b.title),
      ['Retry', 'Switch Environment…', 'Diagnose Connection'],
    );
  });

  it('a rejected key keeps its own action first; no failure, no buttons', () => {
    const failure = describeFailure({ kind: 'unauthorized', status: 401 });
    assert.deepEqual(
      wayButtons(failure, '{}', listed).map((b) => [b.action, b.title]),
      [
        ['setApiKey', 'Set API Key…'],
        ['retry', 'Retry'],
      ],
    );
    assert.deepEqual(wayButtons(undefined, '{}', listed), []);
  });

  it('whether the request’s model is listed: unknown without a catalog, a model, or readable JSON', () => {
    assert.equal(modelListed('{"model":"aurora-2"}', listed), true);
    assert.equal(modelListed('{"model":"nope"}', listed), false);
    assert.equal(modelListed('{"model":"nope"}', []), undefined);
    assert.equal(modelListed('{"messages":[]}', listed), undefined);
    assert.equal(modelListed('{not json', listed), undefined);
    assert.equal(modelListed(undefined, listed), undefined);
  });
});
