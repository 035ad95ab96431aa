import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import { environmentFromArg, environmentNameArg, modelFromArg } from '../../../src/domain/commandArgs';

const m = (id: string, family?: string, version?: string, cardUrl?: string): ModelEntry => ({
  id,
  family,
  version,
  cardUrl,
  raw: { id },
});

describe('command arguments', () => {
  const known = [m('a', 'f', '1')];
  it('accepts a tree node, an entry or an id', () => {
    assert.equal(modelFromArg({ model: known[0] }), known[0]);
    assert.equal(modelFromArg(known[0]), known[0]);
    assert.equal(modelFromArg('a', known), known[0]);
    assert.deepEqual(modelFromArg('zz', known), { id: 'zz', raw: undefined });
    assert.equal(modelFromArg(undefined), undefined);
    assert.equal(modelFromArg({}), undefined);
  });

  it('ignores null, a node whose model is null or has no id, and takes the entry itself then', () => {
    assert.equal(modelFromArg(null), undefined);
    assert.equal(modelFromArg({ model: null }), undefined);
    assert.deepEqual(modelFromArg({ model: { name: 'x' }, id: 'b', raw: {} }), {
      model: { name: 'x' },
      id: 'b',
      raw: {},
    });
    assert.equal(modelFromArg(''), undefined);
  });
});

describe('the environment of a command argument', () => {
  it('is the row’s environment, or none (the active one) for anything else', () => {
    assert.equal(environmentFromArg({ model: m('a'), environment: 'Staging' }), 'Staging');
    for (const arg of [undefined, null, 'a', m('a'), { model: m('a') }, { environment: '' }, { environment: 3 }]) {
      assert.equal(environmentFromArg(arg), undefined, JSON.stringify(arg));
    }
  });
});

describe('the environment named by an environment command’s argument', () => {
  it('is the name a caller passes, and nothing for a tree node, a model row or no argument', () => {
    assert.equal(environmentNameArg('Staging'), 'Staging');
    for (const arg of [undefined, null, 3, m('a'), { model: m('a'), environment: 'Staging' }, ['Staging']]) {
      assert.equal(environmentNameArg(arg), undefined, JSON.stringify(arg));
    }
  });
});
