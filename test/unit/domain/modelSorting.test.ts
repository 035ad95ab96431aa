import * as assert from 'node:assert/strict';
import type { ModelEntry } from '../../../src/api/types';
import {
  compareVersions,
  filterModels,
  groupByFamily,
  groupSorted,
  sortFamily,
  naturalCompare,
  OTHER_FAMILY,
  sortModels,
} from '../../../src/domain/modelSorting';

const m = (id: string, family?: string, version?: string, cardUrl?: string): ModelEntry => ({
  id,
  family,
  version,
  cardUrl,
  raw: { id },
});

describe('natural order', () => {
  it('compares digit runs as numbers', () => {
    const ids = ['aurora-10', 'aurora-2', 'aurora-1.5', 'aurora-1', 'aurora-2-mini'];
    assert.deepEqual([...ids].sort(naturalCompare), [
      'aurora-1',
      'aurora-1.5',
      'aurora-2',
      'aurora-2-mini',
      'aurora-10',
    ]);
  });

  it('orders versions naturally, pre-releases before their release', () => {
    const versions = ['1.10', '1.9', '2', '1.0.0', '1.0.0-rc1', '1.0.0-beta', '10', '2024-11-20', '2024-05-13'];
    assert.deepEqual([...versions].sort(compareVersions), [
      '1.0.0-beta',
      '1.0.0-rc1',
      '1.0.0',
      '1.9',
      '1.10',
      '2',
      '10',
      '2024-05-13',
      '2024-11-20',
    ]);
  });

  it('is case-insensitive, total and antisymmetric', () => {
    assert.ok(naturalCompare('Beta', 'alpha') > 0);
    assert.ok(naturalCompare('a', 'A') !== 0);
    assert.equal(Math.sign(naturalCompare('a', 'A')), -Math.sign(naturalCompare('A', 'a')));
    assert.equal(naturalCompare('x', 'x'), 0);
    assert.ok(naturalCompare('v007', 'v7') !== 0, 'leading zeros still break ties deterministically');
  });

  it('sorts accented letters among their base letters', () => {
    assert.deepEqual(['zeta-1', 'Émeraude-1', 'eagle-1', 'ezra-1'].sort(naturalCompare), [
      'eagle-1',
      'Émeraude-1',
      'ezra-1',
      'zeta-1',
    ]);
    assert.ok(naturalCompare('Émeraude-1', 'zeta-1') < 0);
    // Equal under the collation: next to each other, in a fixed order.
    const sorted = ['zeta', 'émeraude', 'ezra', 'emeraude', 'Emeraude', 'eagle'].sort(naturalCompare);
    assert.deepEqual(sorted.slice(1, 4).sort(), ['Emeraude', 'emeraude', 'émeraude']);
    assert.deepEqual([sorted[0], sorted[4], sorted[5]], ['eagle', 'ezra', 'zeta']);
  });

  it('is case-insensitive for letters and numeric for digit runs', () => {
    assert.deepEqual(['Model-B', 'model-a', 'MODEL-C'].sort(naturalCompare), ['model-a', 'Model-B', 'MODEL-C']);
    assert.ok(naturalCompare('model-2', 'model-10') < 0);
    assert.ok(naturalCompare('Model-2', 'model-10') < 0);
  });

  it('puts a pre-release before its release, also with accents or capitals in the tag', () => {
    assert.ok(compareVersions('1.0.0-rc1', '1.0.0') < 0);
    assert.ok(compareVersions('1.0.0-RC1', '1.0.0') < 0);
    assert.ok(compareVersions('1.0.0-rc2', '1.0.0-rc10') < 0);
    assert.ok(compareVersions('1.0.0-Été', '1.0.0-zeta') < 0);
    assert.ok(compareVersions('1.0.0', '1.0.1-beta') < 0);
  });

  it('handles digit runs longer than any number type', () => {
    assert.ok(naturalCompare('m-99999999999999999999999', 'm-100000000000000000000000') < 0);
  });
});

describe('sorting and grouping models', () => {
  const models = [
    m('zeta-2', 'zeta', '2'),
    m('aurora-10', 'aurora', '10'),
    m('loner'),
    m('aurora-2', 'aurora', '2'),
    m('Borealis', 'borealis', '1'),
    m('blank', '  '),
  ];

  it('sorts by family, then id, then version, with models without a family last', () => {
    assert.deepEqual(
      sortModels(models).map((x) => x.id),
      ['aurora-2', 'aurora-10', 'Borealis', 'zeta-2', 'blank', 'loner'],
    );
  });

  it('groups by family with "Other" last and counts', () => {
    const groups = groupSorted(sortModels(models));
    assert.deepEqual(
      groups.map((g) => [g.family, g.models.length]),
      [
        ['aurora', 2],
        ['borealis', 1],
        ['zeta', 1],
        [OTHER_FAMILY, 2],
      ],
    );
  });

  it('groups by family in one pass, families in order, each family sorted only when asked', () => {
    const groups = groupByFamily(models);
    assert.deepEqual(
      groups.map((g) => [g.family, g.models.map((x) => x.id)]),
      [
        ['aurora', ['aurora-10', 'aurora-2']],
        ['borealis', ['Borealis']],
        ['zeta', ['zeta-2']],
        [OTHER_FAMILY, ['loner', 'blank']],
      ],
    );
    assert.deepEqual(
      groups.flatMap((g) => sortFamily(g.models)),
      sortModels(models),
    );
  });

  it('filters on every word over id, family and version', () => {
    assert.deepEqual(
      filterModels(models, 'AURORA 10').map((x) => x.id),
      ['aurora-10'],
    );
    assert.deepEqual(filterModels(models, '  ').length, models.length);
    assert.deepEqual(filterModels(models, undefined).length, models.length);
    assert.deepEqual(filterModels(models, 'nothing-like-this'), []);
  });

  it('keeps duplicates (the view makes their ids unique)', () => {
    assert.equal(sortModels([m('a'), m('a')]).length, 2);
  });

  it('filters by a word of the family or the version too, not only the id', () => {
    const models = [m('x1', 'aurora', '2024-05'), m('x2', 'sable', '1')];
    assert.deepEqual(
      filterModels(models, 'aurora').map((x) => x.id),
      ['x1'],
    );
    assert.deepEqual(
      filterModels(models, '2024').map((x) => x.id),
      ['x1'],
    );
    assert.deepEqual(filterModels([m('y')], 'undefined'), []);
  });

  it('punctuation sorts before letters and digits, after the same prefix', () => {
    for (const [a, b] of [
      ['a{', 'ab'],
      ['a|', 'aZ'],
      ['a~', 'a0'],
      ['m-{x}', 'm-a'],
    ]) {
      assert.ok(naturalCompare(a, b) < 0, `${a} < ${b}`);
      assert.ok(naturalCompare(b, a) > 0, `${b} > ${a}`);
    }
  });
});
