// `model-access check` at scale against the local service: graders (similar, judge) that pass and fail where
// they should, repeats and flakiness, 429s waited out, shards that cover a run once and merge back, the cache.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../server';
import { runCli } from '../helpers/cli';

const SCALE = path.resolve(__dirname, '../../fixtures/checks-scale');
const CHECKS = path.resolve(__dirname, '../../fixtures/checks');

/** The entry files of a cache folder. */
function cacheFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(folder, f))
    .filter((f) => fs.statSync(f).isFile());
}

const cli = runCli;

describe('cli/check at scale (graders, repeats, retries, shards, merge, cache)', function () {
  this.timeout(60_000);
  let server: RunningServer | undefined;
  let tmp: string;

  const start = async (options: ServerOptions) => {
    server = await startServer(options);
    return server;
  };
  const env = (s: RunningServer) => ({ MODEL_ACCESS_BASE_URL: s.url, MODEL_ACCESS_API_KEY: s.keys.acme });
  const posts = (s: RunningServer) => s.requests.filter((r) => r.method === 'POST');

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-scale-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('graders', () => {
    it('similar and judge pass on a fitting answer, with the score and the reason in the summary and JUnit; the service saw the grader requests', async () => {
      const s = await start({ grading: { embeddings: 'words', chatScript: ['Paris is the capital of France.'] } });
      const junit = path.join(tmp, 'graded.xml');
      const r = await cli(['check', 'graded.jsonc', '--junit', junit], env(s), SCALE);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(
        r.out,
        /^Graders: judge the payload's own model \(default\); embeddings cirrus-embed-2 \(default: the service's newest current embeddings model\)/m,
      );
      assert.match(
        r.out,
        /line 3 {2}similar "Paris is the capital of France\." >= 0\.8: similarity 1\.00 to the reference \(cirrus-embed-2\)/,
      );
      assert.match(
        r.out,
        /line 4 {2}judge "The answer names Paris as the capital": judge aurora-1: The answer mentions Paris\./,
      );
      const embeddings = s.received('/v1/embeddings', 'POST');
      assert.equal(embeddings.length, 1);
      assert.deepEqual(embeddings[0].json, {
        model: 'cirrus-embed-2',
        input: ['Paris is the capital of France.', 'Paris is the capital of France.'],
      });
      const judged = s.received('/v1/chat', 'POST').filter((q) => q.json?.response_format !== undefined);
      assert.equal(judged.length, 1);
      assert.equal(judged[0].json?.model, 'aurora-1');
      const xml = fs.readFileSync(junit, 'utf8');
      assert.match(
        xml,
        /<property name="grade" value="line 3 {2}similar &quot;Paris is the capital of France\.&quot; &gt;= 0\.8: similarity 1\.00/,
      );
      assert.match(
        xml,
        /<property name="grade" value="line 4 {2}judge &quot;The answer names Paris as the capital&quot;: judge aurora-1: The answer mentions Paris\."/,
      );
    });

    it("similar and judge fail on an answer that does not fit, with the models of // @grader, the score and the judge's reason", async () => {
      const s = await start({ grading: { embeddings: 'words', chatScript: ['Paris is the capital of France.'] } });
      const junit = path.join(tmp, 'misgraded.xml');
      const r = await cli(['check', 'misgraded.jsonc', '--junit', junit], env(s), SCALE);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /^ {2}FAIL {2}misgraded\.jsonc/m);
      assert.match(
        r.out,
        /line 3 {2}similar "Bananas are a yellow fruit\." >= 0\.5\n {10}The similarity to the reference is 0\.\d\d, expected >= 0\.5 \(cirrus-embed-2\)/,
      );
      assert.equal(s.lastReceived('/v1/embeddings', 'POST').json?.model, 'cirrus-embed-2');
      const judged = s.received('/v1/chat', 'POST').filter((q) => q.json?.response_format !== undefined);
      assert.equal(judged[0].json?.model, 'aurora-2');
      const xml = fs.readFileSync(junit, 'utf8');
      assert.match(xml, /judge aurora-2: The answer does not mention London\./);
    });

    it('a judge that answers in the wrong shape, refuses or does not exist fails the expectation with that reason', async () => {
      const s = await start({
        grading: { chatScript: ['Paris is the capital of France.'], judgeScript: ['Sure! It passes.'] },
      });
      const payload = path.join(tmp, 'judged.jsonc');
      fs.writeFileSync(
        payload,
        [
          '// POST /v1/chat',
          '// @expect judge "The answer names Paris"',
          '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "Capital of France?" }] }',
        ].join('\n'),
      );
      const shape = await cli(['check', 'judged.jsonc'], env(s), tmp);
      assert.equal(shape.code, 1, shape.out + shape.err);
      assert.match(
        shape.out,
        /The judge aurora-1 gave no usable verdict: the judge did not answer in the verdict format: Sure! It passes\./,
      );
      const missing = await cli(['check', 'judged.jsonc', '--grader-judge', 'no-such-judge'], env(s), tmp);
      assert.equal(missing.code, 1, missing.out + missing.err);
      assert.match(missing.out, /the grader model no-such-judge answered HTTP 404/);
      assert.match(missing.out, /^Graders: judge no-such-judge;/m);
    });

    it('a similarity threshold outside 0–1 or an unknown grader role fails the payload at its line', async () => {
      const s = await start({});
      fs.writeFileSync(
        path.join(tmp, 'bad.jsonc'),
        '// POST /v1/chat\n// @grader critic=aurora-1\n// @expect similar "x" >= 1.5\n{ "model": "aurora-1", "messages": [] }\n',
      );
      const r = await cli(['check', 'bad.jsonc'], env(s), tmp);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /FAIL {2}bad\.jsonc:2 {2}"critic" is not a grader role; the roles are judge, embeddings/);
      assert.equal(posts(s).length, 0);
    });
  });

  describe('graders over a dataset', () => {
    it('similar embeds each reference once per run and each answer once, with the scores of one request per row; --cache then sends nothing', async () => {
      const s = await start({ grading: { embeddings: 'words' } });
      const cities = ['Paris', 'Rome', 'Paris', 'Oslo', 'Rome', 'Paris'];
      const payload = (each: string, content: string) =>
        [
          '// POST /v1/chat',
          each,
          '// @expect similar "{{city}} is a city of Europe." >= 0.3',
          JSON.stringify({ model: 'aurora-1', messages: [{ role: 'user', content }] }),
        ].join('\n');
      fs.writeFileSync(path.join(tmp, 'rows.jsonl'), cities.map((city, n) => JSON.stringify({ city, n })).join('\n'));
      fs.writeFileSync(
        path.join(tmp, 'cities.jsonc'),
        payload('// @each rows.jsonl', 'Row {{n}}: tell me about {{city}}.'),
      );
      // The same rows as single payloads: one request with the answer and the reference, as before.
      cities.forEach((city, n) =>
        fs.writeFileSync(
          path.join(tmp, `single-${n}.jsonc`),
          payload('', `Row ${n}: tell me about ${city}.`).replace(/\{\{city\}\}/g, city),
        ),
      );
      const scores = (out: string, label: (n: number) => RegExp) =>
        cities.map((_, n) => {
          const at = out.search(label(n));
          assert.ok(at >= 0, `row ${n} is missing:\n${out}`);
          const score = /similarity (\d\.\d\d)/.exec(out.slice(at))?.[1];
          assert.ok(score, `no score for row ${n}:\n${out}`);
          return score;
        });
      const singles = await cli(['check', ...cities.map((_, n) => `single-${n}.jsonc`)], env(s), tmp);
      s.clearRecords();
      const cache = path.join(tmp, 'cache');
      const rows = await cli(['check', 'cities.jsonc', '--cache-dir', cache], env(s), tmp);
      assert.equal(rows.code, singles.code, rows.out + rows.err);
      const inputs = s.received('/v1/embeddings', 'POST').map((q) => (q.json?.input as string[]).join(' | '));
      // Six answers and three distinct references: nine texts in nine requests (not twelve texts in six).
      assert.equal(inputs.length, 9, inputs.join('\n'));
      assert.deepEqual(inputs.filter((i) => i.endsWith('is a city of Europe.')).sort(), [
        'Oslo is a city of Europe.',
        'Paris is a city of Europe.',
        'Rome is a city of Europe.',
      ]);
      assert.deepEqual(
        scores(rows.out, (n) => new RegExp(`rows\\.jsonl: ${cities[n]}, ${n}\\b`)),
        scores(singles.out, (n) => new RegExp(`single-${n}\\.jsonc`)),
      );
      s.clearRecords();
      const again = await cli(['check', 'cities.jsonc', '--cache-dir', cache], env(s), tmp);
      assert.equal(again.code, rows.code);
      assert.equal(posts(s).length, 0, 'the second run sent a POST');
    });
  });

  describe('repeats', () => {
    it('--repeat 5 on a service whose answers alternate: "3 of 5", flaky, failed at the default pass rate; flaky in JUnit', async () => {
      const s = await start({ grading: { chatScript: ['Paris, surely.', 'Lyon, I think.'] } });
      const payload = path.join(tmp, 'once.jsonc');
      fs.copyFileSync(path.join(SCALE, 'repeated.jsonc'), payload);
      // The payload's own @repeat is taken out: --repeat is what this test is about.
      fs.writeFileSync(payload, fs.readFileSync(payload, 'utf8').replace('// @repeat 5\n', ''));
      const junit = path.join(tmp, 'flaky.xml');
      const r = await cli(['check', 'once.jsonc', '--repeat', '5', '--junit', junit], env(s), tmp);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /^ {2}FAIL {2}once\.jsonc {2}3 of 5, flaky/m);
      assert.equal(s.received('/v1/chat', 'POST').length, 5);
      const xml = fs.readFileSync(junit, 'utf8');
      assert.match(xml, /<testsuites name="model-access check" tests="1" failures="1"/);
      assert.match(xml, /<property name="attempts" value="3 of 5"\/>/);
      assert.match(xml, /<property name="flaky" value="true"\/>/);
    });

    it('// @repeat with // @pass-rate 0.6 passes at 3 of 5, still marked flaky', async () => {
      const s = await start({ grading: { chatScript: ['Paris, surely.', 'Lyon, I think.'] } });
      const r = await cli(['check', 'tolerant.jsonc'], env(s), SCALE);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^ {2}PASS {2}tolerant\.jsonc {2}3 of 5, flaky/m);
      assert.match(r.out, /^1 passed, 0 failed in /m);
    });

    it('@repeat 0 fails the payload at its line, sending nothing', async () => {
      const s = await start({});
      fs.writeFileSync(
        path.join(tmp, 'zero.jsonc'),
        '// POST /v1/chat\n// @repeat 0\n// @expect status 200\n{ "model": "aurora-1", "messages": [] }\n',
      );
      const r = await cli(['check', 'zero.jsonc'], env(s), tmp);
      assert.equal(r.code, 1);
      assert.match(r.out, /zero\.jsonc:2 {2}@repeat needs a whole number from 1 to 100, not "0"/);
      assert.equal(posts(s).length, 0);
    });
  });

  describe('rate limits', () => {
    it('a service that answers 429 with retry-after: 1 to the first requests: the run passes and reports the waits', async () => {
      const s = await start({ faults: { rateLimit: { first: 2, retryAfterSeconds: 1 }, paths: ['/v1/chat'] } });
      const started = Date.now();
      const r = await cli(
        ['check', 'capitals/paris.jsonc', 'capitals/cities.jsonc', '--concurrency', '4'],
        env(s),
        CHECKS,
      );
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^6 passed, 0 failed in /m);
      assert.match(r.out, /^Waited 2 times for the service \(429\/503\), 2\.0s in all; concurrency halved 2 times$/m);
      // Each wait says the limits the refusal reported.
      assert.equal(
        r.out.match(/^ {8}waiting 1 s after HTTP 429 \(requests: 0 of 60 left \(resets in 1 s\); retry after 1 s\)$/gm)
          ?.length,
        2,
        r.out,
      );
      assert.equal(s.received('/v1/chat', 'POST').filter((q) => q.status === 429).length, 2);
      assert.ok(Date.now() - started >= 1000, 'the run did not wait');
    });

    it('a 500 is not retried: nothing but 429 and 503 is', async () => {
      const s = await start({ faults: { serverError: { first: 1 }, paths: ['/v1/chat'] } });
      const r = await cli(['check', 'capitals/paris.jsonc'], env(s), CHECKS);
      assert.equal(r.code, 1, r.out + r.err);
      assert.equal(s.received('/v1/chat', 'POST').length, 1);
      assert.doesNotMatch(r.out, /^Waited/m);
    });
  });

  describe('shards and merge', () => {
    it('--shard 1/3, 2/3, 3/3 run every test exactly once, and merge gives the counts of the whole run', async () => {
      const s = await start({});
      const whole = await cli(['check', '**/*.jsonc', '--junit', path.join(tmp, 'whole.xml')], env(s), CHECKS);
      assert.equal(whole.code, 1, whole.out + whole.err);
      const wholeCount = /^(\d+) passed, (\d+) failed/m.exec(whole.out)!;
      const wholePosts = posts(s).length;
      s.clearRecords();
      const sent: string[] = [];
      for (const i of [1, 2, 3]) {
        const r = await cli(
          ['check', '**/*.jsonc', '--shard', `${i}/3`, '--junit', path.join(tmp, `shard-${i}.xml`)],
          env(s),
          CHECKS,
        );
        assert.ok(r.code === 0 || r.code === 1, r.out + r.err);
        assert.match(r.out, new RegExp(`^model-access check: 4 payload files, shard ${i}/3$`, 'm'));
        sent.push(...posts(s).map((q) => JSON.stringify(q.json)));
        s.clearRecords();
      }
      assert.equal(sent.length, wholePosts, 'the shards together sent as many requests as the whole run');
      assert.equal(new Set(sent).size, sent.length, 'a request was sent by two shards');
      const merged = await cli(['merge', 'shard-*.xml', '--junit', 'all.xml'], {}, tmp);
      assert.equal(merged.code, 1, merged.out + merged.err);
      assert.match(merged.out, new RegExp(`^${wholeCount[1]} passed, ${wholeCount[2]} failed$`, 'm'));
      const xml = fs.readFileSync(path.join(tmp, 'all.xml'), 'utf8');
      const wholeXml = fs.readFileSync(path.join(tmp, 'whole.xml'), 'utf8');
      const head = (x: string) =>
        /<testsuites name="model-access check" tests="(\d+)" failures="(\d+)"/.exec(x)!.slice(1);
      assert.deepEqual(head(xml), head(wholeXml));
      const names = (x: string) =>
        [...x.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map((m) => `${m[1]} ${m[2]}`).sort();
      assert.deepEqual(names(xml), names(wholeXml));
    });

    it('shards whose requests all timed out merge to errors, never a pass: exit 1; a shard stopped at its deadline: exit 2', async () => {
      const s = await start({ faults: { hang: { rate: 1 }, paths: ['/v1/chat', '/v1/responses'] } });
      const files = ['capitals/paris.jsonc', 'capitals/cities.jsonc'];
      for (const i of [1, 2]) {
        const r = await cli(
          ['check', ...files, '--shard', `${i}/2`, '--timeout', '0.3', '--junit', path.join(tmp, `t-${i}.xml`)],
          env(s),
          CHECKS,
        );
        assert.equal(r.code, 1, r.out + r.err);
      }
      const merged = await cli(['merge', 't-*.xml', '--junit', 'all.xml'], {}, tmp);
      assert.equal(merged.code, 1, merged.out + merged.err);
      assert.match(merged.out, /^0 passed, 0 failed, 6 errors$/m);
      assert.match(merged.err, /6 tests did not run to the end/);
      assert.match(fs.readFileSync(path.join(tmp, 'all.xml'), 'utf8'), /tests="6" failures="0" errors="6"/);
      for (const i of [1, 2]) {
        await cli(
          ['check', ...files, '--shard', `${i}/2`, '--run-timeout', '0.5', '--junit', path.join(tmp, `d-${i}.xml`)],
          env(s),
          CHECKS,
        );
      }
      const stopped = await cli(['merge', 'd-*.xml'], {}, tmp);
      assert.equal(stopped.code, 2, stopped.out + stopped.err);
      assert.match(stopped.out, /run deadline: error: the run was stopped at its deadline \(--run-timeout 0\.5 s\)/);
    });

    it('a shard whose service cannot be reached writes its report with the error; merging it exits 2 and says why', async () => {
      const gone = await startServer({});
      const url = gone.url;
      await gone.close();
      const s = await start({});
      const files = ['capitals/paris.jsonc', 'capitals/cities.jsonc'];
      const ok = await cli(['check', ...files, '--shard', '1/2', '--junit', path.join(tmp, 'u-1.xml')], env(s), CHECKS);
      assert.equal(ok.code, 0, ok.out + ok.err);
      const down = await cli(
        ['check', ...files, '--shard', '2/2', '--junit', path.join(tmp, 'u-2.xml')],
        { MODEL_ACCESS_BASE_URL: url, MODEL_ACCESS_API_KEY: s.keys.acme },
        CHECKS,
      );
      assert.equal(down.code, 2, down.out + down.err);
      assert.match(
        fs.readFileSync(path.join(tmp, 'u-2.xml'), 'utf8'),
        /<error message="the checks could not run: the service at /,
      );
      const merged = await cli(['merge', 'u-*.xml'], {}, tmp);
      assert.equal(merged.code, 2, merged.out + merged.err);
      assert.match(
        merged.out,
        /^ {8}service: error: the checks could not run: the service at http:\/\/127\.0\.0\.1:\d+ cannot be reached/m,
      );
    });

    it('a shard spec like 3/2 or 0/4 exits 2 with the reason; merging different runs or a missing shard says so', async () => {
      const s = await start({});
      const over = await cli(['check', '**/*.jsonc', '--shard', '3/2'], env(s), CHECKS);
      assert.equal(over.code, 2);
      assert.match(over.err, /--shard 3\/2: shard 3 does not exist in a run of 2 shards/);
      const zero = await cli(['check', '**/*.jsonc', '--shard', '0/4'], env(s), CHECKS);
      assert.equal(zero.code, 2);
      assert.match(zero.err, /--shard 0\/4: shards are counted from 1, as in 1\/4/);
      assert.equal(posts(s).length, 0);
      await cli(['check', '**/*.jsonc', '--shard', '1/2', '--junit', path.join(tmp, 'a1.xml')], env(s), CHECKS);
      await cli(['check', 'capitals/*.jsonc', '--shard', '2/2', '--junit', path.join(tmp, 'b2.xml')], env(s), CHECKS);
      const mixed = await cli(['merge', 'a1.xml', 'b2.xml'], {}, tmp);
      assert.equal(mixed.code, 2);
      assert.match(mixed.err, /a1\.xml and b2\.xml come from different runs \(different payload sets/);
      const alone = await cli(['merge', 'a1.xml'], {}, tmp);
      assert.equal(alone.code, 2);
      assert.match(alone.err, /shard 2\/2 missing/);
    });
  });

  describe('cache', () => {
    it('--cache is bound to the key: another key at the same service reuses nothing, and no file holds the key', async () => {
      const keyA = 'ma-cache-key-A-7f3c91';
      const keyB = 'ma-cache-key-B-2d80e4';
      const cache = path.join(tmp, 'cache');
      const run = (s: RunningServer, key: string) =>
        cli(
          ['check', 'capitals/paris.jsonc', '--cache-dir', cache],
          { MODEL_ACCESS_BASE_URL: s.url, MODEL_ACCESS_API_KEY: key },
          CHECKS,
        );
      const a = await start({ keys: { acme: keyA } });
      assert.match((await run(a, keyA)).out, /^Cache: 0 answers reused, 1 sent$/m);
      assert.match((await run(a, keyA)).out, /^Cache: 1 answer reused, 0 sent$/m);
      const port = a.port;
      await a.close();
      // The same service (same origin, same organization), now with another key.
      const b = await start({ port, keys: { acme: keyB } });
      const other = await run(b, keyB);
      assert.equal(other.code, 0, other.out + other.err);
      assert.match(other.out, /^Cache: 0 answers reused, 1 sent$/m);
      assert.equal(posts(b).length, 1, "the other key's run reused the first key's answer");
      assert.match((await run(b, keyB)).out, /^Cache: 1 answer reused, 0 sent$/m);
      const files = fs.readdirSync(cache, { recursive: true, encoding: 'utf8' });
      const texts = files.map(
        (f) => f + (fs.statSync(path.join(cache, f)).isFile() ? fs.readFileSync(path.join(cache, f), 'utf8') : ''),
      );
      for (const key of [keyA, keyB]) {
        const forms = [
          key,
          Buffer.from(key).toString('base64'),
          Buffer.from(key).toString('hex'),
          createHash('sha256').update(key).digest('hex'),
        ];
        for (const form of forms) {
          assert.ok(!texts.some((t) => t.includes(form)), `the cache holds ${form}`);
        }
      }
    });

    it('--cache: the folder and its files are private (0700/0600); a folder others can read is made private, with a note', async function () {
      if (process.platform === 'win32') {
        this.skip();
      }
      const s = await start({});
      const cache = path.join(tmp, 'cache');
      fs.mkdirSync(cache);
      fs.chmodSync(cache, 0o755);
      const first = await cli(['check', 'capitals/paris.jsonc', '--cache-dir', cache], env(s), CHECKS);
      assert.equal(first.code, 0, first.out + first.err);
      assert.match(
        first.err,
        /The cache folder .*cache could be read by other users \(mode 755\); it is now private to you \(700\)/,
      );
      assert.equal(fs.statSync(cache).mode & 0o777, 0o700);
      const file = cacheFiles(cache)[0];
      assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      const fresh = path.join(tmp, 'fresh', 'answers');
      await cli(['check', 'capitals/paris.jsonc', '--cache-dir', fresh], env(s), CHECKS);
      assert.equal(fs.statSync(fresh).mode & 0o777, 0o700);
      assert.equal(fs.statSync(cacheFiles(fresh)[0]).mode & 0o777, 0o600);
    });

    it('--cache: an entry changed on disk fails its integrity check: a note, the request sent again, the entry replaced', async () => {
      const s = await start({});
      const cache = path.join(tmp, 'cache');
      const first = await cli(['check', 'capitals/paris.jsonc', '--cache-dir', cache], env(s), CHECKS);
      assert.equal(first.code, 0, first.out + first.err);
      const file = cacheFiles(cache)[0];
      // Someone rewrites the answer (keeping the file's shape): the check must see the service's answer again.
      const stored = fs.readFileSync(file, 'utf8');
      assert.match(stored, /Paris/);
      fs.writeFileSync(file, stored.replaceAll('Paris', 'Lyon'));
      s.clearRecords();
      const second = await cli(['check', 'capitals/paris.jsonc', '--cache-dir', cache], env(s), CHECKS);
      assert.equal(second.code, 0, second.out + second.err);
      assert.match(
        second.err,
        /^model-access check: a cached answer for \/v1\/chat \(model aurora-1\) failed its integrity check \(changed, or not written with this key\); it was not used and the request was sent again$/m,
      );
      assert.match(
        second.out,
        /^Cache: 0 answers reused, 1 sent; 1 failed the integrity check .* and was sent again$/m,
      );
      assert.equal(posts(s).length, 1);
      assert.match(fs.readFileSync(file, 'utf8'), /Paris/, 'the entry was written again');
      s.clearRecords();
      const third = await cli(['check', 'capitals/paris.jsonc', '--cache-dir', cache], env(s), CHECKS);
      assert.match(third.out, /^Cache: 1 answer reused, 0 sent$/m);
      assert.equal(third.err, '');
    });

    it('--cache refuses a folder that belongs to another user; the run goes on uncached', async function () {
      if (process.platform === 'win32') {
        this.skip();
      }
      const s = await start({});
      let foreign = '/';
      if (process.getuid?.() === 0) {
        foreign = path.join(tmp, 'foreign');
        fs.mkdirSync(foreign, { mode: 0o700 });
        fs.chownSync(foreign, 65534, 65534);
      }
      const r = await cli(['check', 'capitals/paris.jsonc', '--cache-dir', foreign], env(s), CHECKS);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(
        r.err,
        /The cache folder .* cannot be used \(it belongs to another user; choose a folder of your own with --cache-dir\); this run goes on without the cache/,
      );
      assert.equal(posts(s).length, 1);
      if (foreign !== '/') {
        assert.deepEqual(fs.readdirSync(foreign), [], 'nothing was written there');
      }
    });

    it('--cache: the second run sends no POST; a changed body sends one; an unwritable folder runs uncached with a warning', async () => {
      const s = await start({ grading: { embeddings: 'words', chatScript: ['Paris is the capital of France.'] } });
      const cache = path.join(tmp, 'cache');
      fs.copyFileSync(path.join(SCALE, 'graded.jsonc'), path.join(tmp, 'graded.jsonc'));
      const first = await cli(['check', 'graded.jsonc', '--cache-dir', cache], env(s), tmp);
      assert.equal(first.code, 0, first.out + first.err);
      assert.equal(posts(s).length, 3, 'the check, the embeddings and the judge');
      assert.match(first.out, /^Cache: 0 answers reused, 3 sent$/m);
      s.clearRecords();
      const second = await cli(['check', 'graded.jsonc', '--cache-dir', cache], env(s), tmp);
      assert.equal(second.code, 0, second.out + second.err);
      assert.equal(posts(s).length, 0, 'the second run sent a POST');
      assert.match(second.out, /^Cache: 3 answers reused, 0 sent$/m);
      s.clearRecords();
      const file = path.join(tmp, 'graded.jsonc');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('capital of France?', 'capital of France ?'));
      const changed = await cli(['check', 'graded.jsonc', '--cache-dir', cache], env(s), tmp);
      assert.equal(changed.code, 0, changed.out + changed.err);
      assert.equal(s.received('/v1/chat', 'POST').filter((q) => q.json?.response_format === undefined).length, 1);
      assert.equal(
        fs.readdirSync(tmp).filter((f) => f !== 'cache' && f !== 'graded.jsonc').length,
        0,
        'the cache wrote next to the payload',
      );
      s.clearRecords();
      const blocked = path.join(tmp, 'blocked');
      fs.writeFileSync(blocked, 'a file, not a folder');
      const uncached = await cli(['check', 'graded.jsonc', '--cache-dir', path.join(blocked, 'cache')], env(s), tmp);
      assert.equal(uncached.code, 0, uncached.out + uncached.err);
      assert.match(
        uncached.err,
        /The cache folder .* cannot be used \(it cannot be written: \w+\); this run goes on without the cache/,
      );
      assert.equal(posts(s).length, 3);
    });
  });
});
