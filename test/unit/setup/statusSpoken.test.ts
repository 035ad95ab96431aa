// What a screen reader hears for the status bar item: the state in words (the icon is not read), never the
// product's name twice, and a warning that says it is one.
import * as assert from 'node:assert/strict';
import { statusSpoken, type StatusKind } from '../../../src/setup/core/statusSpoken';
import { clean } from '../../../src/common/text';

describe('status bar: the spoken name', () => {
  const host = clean('127.0.0.1:8123');
  it('says each state in words', () => {
    const said = (kind: StatusKind, count = 0) => statusSpoken(kind, host, count);
    assert.equal(said('needsUrl'), 'Model Access: no service URL is set');
    assert.equal(said('needsKey'), 'Model Access: 127.0.0.1:8123, no API key is set');
    assert.equal(said('idle'), 'Model Access: 127.0.0.1:8123, models not loaded yet');
    assert.equal(said('loading'), 'Model Access: 127.0.0.1:8123, loading models');
    assert.equal(said('ready', 1), 'Model Access: 127.0.0.1:8123, 1 model');
    assert.equal(said('ready', 25), 'Model Access: 127.0.0.1:8123, 25 models');
  });

  it('a failure is spoken as a warning, with the last list when one is shown', () => {
    assert.equal(
      statusSpoken('error', host, 0),
      'Model Access warning: 127.0.0.1:8123, the model list could not be loaded',
    );
    assert.equal(
      statusSpoken('error', host, 25),
      'Model Access warning: 127.0.0.1:8123, the model list could not be loaded; showing the last list (25 models)',
    );
    assert.notEqual(statusSpoken('error', host, 25), statusSpoken('ready', host, 25));
  });

  it('before a URL is set it does not read "Model Access: Model Access"', () => {
    assert.doesNotMatch(statusSpoken('needsUrl', clean('Model Access'), 0), /Model Access:? Model Access/);
  });
});
