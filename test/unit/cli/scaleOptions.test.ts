// The scale options of `model-access check` (graders, repeats, concurrency, shards, cache) as a person types
// them, the message the CLI prints for each mistake (it exits 2 with it), and the summary lines about graders,
// waits and the cache.
import * as assert from 'node:assert/strict';
import {
  cacheSummary,
  graderSummary,
  readScaleOption,
  waitSummary,
  type ScaleOptions,
} from '../../../src/cli/scaleOptions';

/** Reads every option of `args` as check.ts does; the options, or the first problem. */
function read(...args: string[]): ScaleOptions | string {
  const o: ScaleOptions = { graders: {} };
  for (let i = 0; i < args.length;) {
    const took = readScaleOption(args, i, o);
    if (typeof took === 'string') {
      return took;
    }
    assert.ok(took > 0, `${args[i]} was not read`);
    i += took;
  }
  return o;
}

describe('cli/scaleOptions', () => {
  it('reads the grader models, repeats, concurrency, shard and cache', () => {
    assert.deepEqual(
      read(
        '--grader-judge',
        'aurora-1',
        '--grader-embeddings',
        'cirrus-embed-1',
        '--repeat',
        '5',
        '--max-concurrency',
        '3',
      ),
      { graders: { judge: 'aurora-1', embeddings: 'cirrus-embed-1' }, repeat: 5, maxConcurrency: 3 },
    );
    assert.deepEqual(read('--shard', '2/3'), { graders: {}, shard: { index: 2, count: 3 } });
    assert.deepEqual(read('--repeat', '100', '--max-concurrency', '1000'), {
      graders: {},
      repeat: 100,
      maxConcurrency: 1000,
    });
  });

  it('--cache, --cache-dir and --no-cache: the last one given wins, and --cache keeps a folder named before it', () => {
    assert.deepEqual(read('--cache'), { graders: {}, cache: {} });
    assert.deepEqual(read('--cache-dir', '/tmp/c'), { graders: {}, cache: { dir: '/tmp/c' } });
    assert.deepEqual(read('--cache-dir', '/tmp/c', '--cache'), { graders: {}, cache: { dir: '/tmp/c' } });
    assert.deepEqual(read('--cache', '--no-cache'), { graders: {}, cache: false });
    assert.deepEqual(read('--no-cache', '--cache'), { graders: {}, cache: {} });
  });

  it('says what is wrong with a value, naming the option', () => {
    for (const option of [
      '--grader-judge',
      '--grader-embeddings',
      '--repeat',
      '--max-concurrency',
      '--shard',
      '--cache-dir',
    ]) {
      assert.equal(read(option), `${option} needs a value`);
    }
    for (const bad of ['0', '101', '2.5', 'five', '-1']) {
      assert.equal(read('--repeat', bad), '--repeat needs a whole number from 1 to 100');
    }
    for (const bad of ['0', '1001', '1.5']) {
      assert.equal(read('--max-concurrency', bad), '--max-concurrency needs a whole number from 1 to 1000');
    }
    assert.match(String(read('--shard', '3/2')), /3\/2/);
  });

  it('leaves other options to check.ts', () => {
    const o: ScaleOptions = { graders: {} };
    assert.equal(readScaleOption(['--junit', 'a.xml'], 0, o), 0);
    assert.deepEqual(o, { graders: {} });
  });

  it('the summary lines: graders, waits and the cache, in the singular and the plural', () => {
    assert.equal(
      graderSummary({}, false),
      "Graders: judge the payload's own model (default); embeddings none (the service lists no current embeddings model) (a payload's // @grader line goes first)",
    );
    assert.equal(
      graderSummary({ judge: 'j', embeddings: 'e' }, false),
      "Graders: judge j; embeddings e (a payload's // @grader line goes first)",
    );
    assert.equal(
      graderSummary({ embeddings: 'e' }, true),
      "Graders: judge the payload's own model (default); embeddings e (default: the service's newest current embeddings model) (a payload's // @grader line goes first)",
    );
    assert.equal(waitSummary({ waits: 0, waitedMs: 0, rateLimited: 0 }, 0), undefined);
    assert.equal(
      waitSummary({ waits: 1, waitedMs: 1250, rateLimited: 1 }, 1),
      'Waited 1 time for the service (429/503), 1.3s in all; concurrency halved 1 time',
    );
    assert.equal(
      waitSummary({ waits: 0, waitedMs: 0, rateLimited: 2 }, 2),
      'Waited 0 times for the service (429/503), 0.0s in all; concurrency halved 2 times',
    );
    assert.equal(cacheSummary({ hits: 1, misses: 2, unwritten: 0 }), 'Cache: 1 answer reused, 2 sent');
    assert.equal(
      cacheSummary({ hits: 0, misses: 1, unwritten: 1 }),
      'Cache: 0 answers reused, 1 sent; 1 could not be kept',
    );
  });
});
