// --shard i/N: the spec read or refused with the reason, and slices that are disjoint, cover everything and
// stay put.
import * as assert from 'node:assert/strict';
import { fnv1a, inShard, parseShard, shardOf, testKey } from '../../../src/checks/core/shard';

describe('checks/core/shard', () => {
  it('reads i/N', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, count: 4 });
    assert.deepEqual(parseShard(' 1 / 1 '), { index: 1, count: 1 });
    assert.deepEqual(parseShard('1000/1000'), { index: 1000, count: 1000 });
  });

  it('refuses 3/2, 0/4, 0/0 and forms that are not i/N, saying why', () => {
    assert.equal(parseShard('3/2'), '--shard 3/2: shard 3 does not exist in a run of 2 shards');
    assert.equal(parseShard('0/4'), '--shard 0/4: shards are counted from 1, as in 1/4');
    assert.equal(parseShard('0/0'), '--shard 0/0: the number of shards is from 1 to 1000');
    assert.equal(parseShard('1/1001'), '--shard 1/1001: the number of shards is from 1 to 1000');
    // The spec as typed, without the spaces around it.
    assert.equal(parseShard(' 3/2 '), '--shard 3/2: shard 3 does not exist in a run of 2 shards');
    assert.equal(parseShard(' 0/4 '), '--shard 0/4: shards are counted from 1, as in 1/4');
    assert.equal(parseShard(' 0/0 '), '--shard 0/0: the number of shards is from 1 to 1000');
    for (const bad of ['2', '1/', '/3', 'a/b', '1.5/3', '-1/3', '1/3/5', '']) {
      assert.equal(parseShard(bad), `--shard takes the form i/N, as in --shard 2/4, not "${bad}"`);
    }
  });

  it('FNV-1a: the published values (UTF-8 bytes)', () => {
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.equal(fnv1a('foobar'), 0xbf9cf968);
    assert.equal(fnv1a('é'), fnv1a('\u00e9'));
    assert.notEqual(fnv1a('é'), fnv1a('e\u0301'));
  });

  it('a test is keyed by its file and row', () => {
    assert.equal(testKey('a/b.jsonc', undefined), 'a/b.jsonc');
    assert.equal(testKey('a/b.jsonc', 3), 'a/b.jsonc#3');
  });

  it('every test is in exactly one of N shards, the slices are near even, and a shard is stable', () => {
    const tests: Array<[string, number | undefined]> = [];
    for (let f = 0; f < 20; f++) {
      tests.push([`checks/p${f}.jsonc`, undefined]);
      for (let row = 1; row <= 50; row++) {
        tests.push([`checks/data${f}.jsonc`, row]);
      }
    }
    for (const count of [1, 2, 3, 7]) {
      const sizes = new Array<number>(count).fill(0);
      for (const [file, row] of tests) {
        const owners = Array.from({ length: count }, (_, i) => i + 1).filter((index) =>
          inShard({ index, count }, file, row),
        );
        assert.equal(owners.length, 1);
        assert.equal(owners[0], shardOf(file, row, count));
        sizes[owners[0] - 1]++;
      }
      const even = tests.length / count;
      assert.ok(
        sizes.every((n) => Math.abs(n - even) < even * 0.15),
        `${count}: ${sizes.join(',')}`,
      );
    }
    assert.equal(shardOf('checks/p1.jsonc', undefined, 3), shardOf('checks/p1.jsonc', undefined, 3));
  });
});
