// `model-access check` and money, against the local service (its demo registry has prices): a `cost` check
// fails naming the cost, the run's totals are printed, usage and cost are JUnit properties, `--prices` fills a
// price, and `--max-cost` stops the run with the rest reported as not run, never as passes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../server';
import { runCli } from '../helpers/cli';

describe('cli/check: cost, totals and --max-cost', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let tmp: string;

  before(async () => {
    server = await startServer();
  });
  after(() => server.close());
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-cost-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const env = (org = 'acme') => ({ MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.keys[org] });
  const write = (name: string, ...lines: string[]) => fs.writeFileSync(path.join(tmp, name), lines.join('\n'));
  const chat = (model: string, content = 'Hi') =>
    `{ "model": "${model}", "messages": [{ "role": "user", "content": "${content}" }] }`;

  it('a check with @expect cost <= 0.00001 fails naming the cost; totals and JUnit properties', async () => {
    write('cheap.jsonc', '// POST /v1/chat', '// @expect cost <= 0.00001', chat('aurora-2'));
    write('fine.jsonc', '// POST /v1/chat', '// @expect cost <= 1', chat('aurora-2-mini'));
    const junit = path.join(tmp, 'report.xml');
    const r = await runCli(['check', '*.jsonc', '--junit', junit], env(), tmp);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^ {2}FAIL {2}cheap\.jsonc/m);
    assert.match(r.out, /^ {8}line 2 {2}cost <= 0\.00001$/m);
    assert.match(r.out, /^ {10}cost 0\.\d+ USD, more than 0\.00001$/m);
    assert.match(r.out, /^ {2}PASS {2}fine\.jsonc/m);
    assert.match(r.out, /^1 passed, 1 failed in /m);
    assert.match(r.out, /^Usage: 2 requests, \d+ tokens \(\d+ in, \d+ out\), 0\.\d+ USD$/m);
    assert.match(r.out, /^ {2}aurora-2: 1 request, \d+ tokens/m);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.match(xml, /<property name="cost" value="0\.\d+ USD"\/>/);
    assert.match(xml, /<property name="tokens" value="\d+"\/>/);
    assert.match(xml, /<property name="time-to-first-byte-ms" value="\d+"\/>/);
  });

  it('a model without a price cannot be judged, and --prices FILE gives it one', async () => {
    // halo-guard-1 (globex) is the demo's chat model without a price.
    write('guard.jsonc', '// POST /v1/chat', '// @expect cost <= 1', chat('halo-guard-1'));
    const none = await runCli(['check', 'guard.jsonc'], env('globex'), tmp);
    assert.equal(none.code, 1, none.out + none.err);
    assert.match(none.out, /cannot be judged: no price for model halo-guard-1/);
    assert.match(none.out, /^Usage: 1 request, \d+ tokens .*cost unknown$/m);
    write('prices.json', JSON.stringify({ 'modelAccess.prices': { 'halo-guard-1': { input: 0.5, output: 1.5 } } }));
    const priced = await runCli(['check', 'guard.jsonc', '--prices', 'prices.json'], env('globex'), tmp);
    assert.equal(priced.code, 0, priced.out + priced.err);
    assert.match(priced.out, /^Usage: 1 request, .*, 0\.\d+ USD$/m);
    const missing = await runCli(['check', 'guard.jsonc', '--prices', 'nope.json'], env('globex'), tmp);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /the prices file nope\.json cannot be read \(no such file\)/);
  });

  it('total cost over a dataset; --max-cost stops the run and reports the rest as not run', async () => {
    write('cases.jsonl', ...Array.from({ length: 6 }, (_, i) => JSON.stringify({ q: `question ${i}` })));
    write(
      'many.jsonc',
      '// POST /v1/chat',
      '// @each cases.jsonl',
      '// @expect status 200',
      '// @expect total cost <= 1',
      chat('aurora-10', '{{q}} '.repeat(20)),
    );
    const all = await runCli(['check', 'many.jsonc', '--concurrency', '1'], env(), tmp);
    assert.equal(all.code, 0, all.out + all.err);
    assert.match(all.out, /total cost <= 1: passed/);
    assert.match(all.out, /^Usage: 6 requests, /m);
    const spent = Number(/^Usage: .*, (0\.\d+) USD$/m.exec(all.out)?.[1]);
    assert.ok(spent > 0);

    const junit = path.join(tmp, 'stopped.xml');
    const limit = (spent / 6) * 2.5;
    const stopped = await runCli(
      ['check', 'many.jsonc', '--concurrency', '1', '--max-cost', limit.toFixed(8), '--junit', junit],
      env(),
      tmp,
    );
    assert.equal(stopped.code, 2, stopped.out + stopped.err);
    assert.match(
      stopped.err,
      /the run was stopped: the run has spent 0\.\d+ USD, and another request .* would pass --max-cost/,
    );
    assert.match(stopped.out, /^ {2}FAIL {2}many\.jsonc {2}2\/2 passed/m);
    assert.match(stopped.out, /^2 passed, 1 failed, 4 not run in /m);
    assert.match(stopped.out, /cannot be judged: 4 of 6 requests did not run/);
    assert.match(stopped.out, /^Usage: 2 requests, /m);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.equal((xml.match(/<error message="not run: /g) ?? []).length, 4);
    assert.match(stopped.out, /4 requests not run \(--max-cost\)/);
    const bad = await runCli(['check', 'many.jsonc', '--max-cost', 'cheap'], env(), tmp);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--max-cost needs an amount/);
  });
});
