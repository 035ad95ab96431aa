// `model-access check` against the local service: the summary, the JUnit report, the exit codes (0 passed,
// 1 a check failed, 2 could not run), environments and secret headers, and no key or secret in any output.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { secretHeaderVariable } from '../../../src/cli/check';
import { startServer, type RunningServer } from '../../server';
import { runCli } from '../helpers/cli';

const FIXTURES = path.resolve(__dirname, '../../fixtures/checks');

const cli = (args: string[], env: Record<string, string | undefined>, cwd = FIXTURES) => runCli(args, env, cwd);

describe('cli/check (model-access check)', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let key: string;
  let tmp: string;

  before(async () => {
    server = await startServer();
    key = server.keys.acme;
  });
  after(() => server.close());
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-check-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const env = (over: Record<string, string | undefined> = {}) => ({
    MODEL_ACCESS_BASE_URL: server.url,
    MODEL_ACCESS_API_KEY: key,
    ...over,
  });

  it('runs a folder: exit 1 for the one failure, a readable summary, JUnit XML with the failure, and no key anywhere', async () => {
    const junit = path.join(tmp, 'reports', 'checks.xml');
    const r = await cli(['check', '**/*.jsonc', '--junit', junit], env());
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^model-access check: 4 payload files$/m);
    assert.match(r.out, /^ {2}PASS {2}capitals\/paris\.jsonc {2}\(\d+(ms|\.\d+s|s)\)$/m);
    assert.match(r.out, /^ {2}PASS {2}capitals\/cities\.jsonc {2}5\/5 passed {2}\(median /m);
    assert.match(r.out, /^ {2}FAIL {2}capitals\/london\.jsonc/m);
    assert.match(r.out, /^ {8}line 4 {2}text contains "London"$/m);
    assert.match(
      r.out,
      /^ {10}The answer's text does not contain "London". It begins: "The capital of France is Paris."$/m,
    );
    assert.match(r.out, /^ {10}expected: London$/m);
    assert.match(r.out, /^ {10}actual: {3}The capital of France is Paris\.$/m);
    assert.match(r.out, /^7 passed, 1 failed in /m);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.match(xml, /<testsuites name="model-access check" tests="8" failures="1" /);
    assert.match(
      xml,
      /<testsuite name="capitals\/london\.jsonc" file="capitals\/london\.jsonc" tests="1" failures="1"/,
    );
    assert.match(
      xml,
      /<failure message="The answer&apos;s text does not contain &quot;London&quot;. It begins: &quot;The capital of France is Paris.&quot;">capitals\/london\.jsonc:4 {2}text contains/,
    );
    assert.equal((xml.match(/<failure /g) ?? []).length, 1);
    // Dataset rows named by their first value, in the file's order (not the names'), each with its line.
    assert.deepEqual(
      [...xml.matchAll(/<testcase [^>]* name="cities\.jsonl: (\w+)"[^]*?<property name="line" value="(\d+)"/g)].map(
        (m) => `${m[1]}:${m[2]}`,
      ),
      ['Paris:1', 'Rome:2', 'Oslo:3', 'Lisbon:4', 'Vienna:5'],
    );
    for (const text of [r.out, r.err, xml]) {
      assert.ok(!text.includes(key), 'the key is in the output');
    }
    // Every request carried a key (the service answered 200: the right one).
    assert.ok(server.received('/v1/chat', 'POST').every((q) => q.authorization));
  });

  it('a request with two failing expectations: both on stdout and in the JUnit failure', async () => {
    fs.writeFileSync(
      path.join(tmp, 'two.jsonc'),
      [
        '// POST /v1/chat',
        '// @expect status 200',
        '// @expect text contains "London"',
        '// @expect json $.model == "basalt-code-2"',
        '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "What is the capital of France?" }] }',
      ].join('\n'),
    );
    const junit = path.join(tmp, 'two.xml');
    const r = await cli(['check', 'two.jsonc', '--junit', junit], env(), tmp);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^ {8}line 3 {2}text contains "London"\n {10}The answer's text does not contain "London"/m);
    assert.match(r.out, /^ {8}line 4 {2}json \$\.model == "basalt-code-2"\n {10}.*aurora-1/m);
    assert.match(r.out, /^0 passed, 1 failed in /m);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.equal((xml.match(/<failure /g) ?? []).length, 1, 'one test case, one failure element');
    const failure = /<failure message="([^"]*)">([^<]*)<\/failure>/.exec(xml);
    assert.ok(failure, xml);
    assert.match(
      failure[1],
      /^2 expectations failed: line 3: The answer&apos;s text does not contain &quot;London&quot;.*; line 4: /,
    );
    assert.match(failure[2], /two\.jsonc:3 {2}text contains &quot;London&quot;\n/);
    assert.match(failure[2], /\n\ntwo\.jsonc:4 {2}json \$\.model == &quot;basalt-code-2&quot;\n.*aurora-1/);
  });

  it('exits 0 when every check passes, and caps dataset rows', async () => {
    const r = await cli(
      ['check', 'capitals/paris.jsonc', 'capitals/cities.jsonc', '--concurrency', '2', '--max-rows', '3'],
      env(),
    );
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /capitals\/cities\.jsonc {2}3\/3 passed/);
    assert.match(r.out, /2 more dataset rows were not run \(--max-rows 3\)/);
    assert.match(r.out, /^4 passed, 0 failed in /m);
  });

  it('a wrong key: exit 2 and a clear message, the key in no output', async () => {
    const wrong = 'ma-wrong-key-0123456789';
    const r = await cli(['check', '.'], env({ MODEL_ACCESS_API_KEY: wrong }));
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /the checks could not run: the service at http:\/\/127\.0\.0\.1:\d+ refused the API key \(HTTP 401\); check MODEL_ACCESS_API_KEY/,
    );
    assert.ok(!`${r.out}${r.err}`.includes(wrong));
  });

  it('cannot run (exit 2) without a key, a URL, a file, or with a bad option, and says why', async () => {
    const cases: [string[], Record<string, string | undefined>, RegExp][] = [
      [['check', '.'], env({ MODEL_ACCESS_API_KEY: undefined }), /MODEL_ACCESS_API_KEY is not set/],
      [
        ['check', 'nothing/**/*.jsonc'],
        env(),
        /no file matches nothing\/\*\*\/\*\.jsonc[\s\S]*no payload with a \/\/ @expect line was found/,
      ],
      [['check'], env(), /name the payloads to check/],
      [['check', '.', '--concurrency', '0'], env(), /--concurrency needs a whole number of at least 1/],
      [['check', '.', '--junit'], env(), /--junit needs a value/],
      [['check', '.', '--bogus'], env(), /unknown option --bogus/],
      [['lint'], env(), /unknown command "lint"/],
      [['check', '.', '--env', 'prod'], env(), /no environment is called prod/],
      [
        ['check', '.', '--environments', 'missing.json'],
        env(),
        /the environments file missing\.json cannot be read as JSON/,
      ],
      [
        ['check', '.'],
        env({ MODEL_ACCESS_BASE_URL: 'http://127.0.0.1:9' }),
        /the service at http:\/\/127\.0\.0\.1:9 cannot be reached: .*connect/i,
      ],
    ];
    for (const [args, e, message] of cases) {
      const r = await cli(args, e);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
      assert.match(r.err, message, args.join(' '));
    }
    assert.equal((await cli([], env())).code, 2);
    const help = await cli(['--help'], env());
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: model-access check/);
  });

  it('a payload without a URL for it fails with the reason (no MODEL_ACCESS_BASE_URL, no --env)', async () => {
    const r = await cli(['check', 'capitals/paris.jsonc'], env({ MODEL_ACCESS_BASE_URL: undefined }));
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      /FAIL {2}capitals\/paris\.jsonc:1 {2}no service: set MODEL_ACCESS_BASE_URL, or --env NAME with --environments FILE/,
    );
  });

  it('// @env reads the environments file: its URL, headers and variables; a secret header from the environment, never printed', async () => {
    const secret = 'org-secret-value-98765';
    const envSecret = 'env-secret-word-4242';
    fs.writeFileSync(
      path.join(tmp, 'settings.json'),
      JSON.stringify({
        'modelAccess.environments': [
          {
            name: 'staging',
            baseUrl: server.url,
            headers: { 'X-Team': 'checks', 'X-Org-Token': '{{secret}}' },
            variables: { city: 'Paris' },
          },
        ],
      }),
    );
    fs.writeFileSync(
      path.join(tmp, 'pinned.jsonc'),
      [
        '// POST /v1/chat',
        '// @env staging',
        '// @expect text contains "{{city}}"',
        '// @expect text contains "nowhere"',
        '{ "model": "aurora-1", "messages": [{ "role": "user", "content": "{{city}} and {{$env WORD}}" }] }',
      ].join('\n'),
    );
    const missing = await cli(['check', '.', '--environments', 'settings.json'], env({ WORD: envSecret }), tmp);
    assert.equal(missing.code, 2);
    assert.match(
      missing.err,
      /the environment staging sends the secret header X-Org-Token: set MODEL_ACCESS_SECRET_X_ORG_TOKEN/,
    );

    const junit = path.join(tmp, 'j.xml');
    const r = await cli(
      ['check', '.', '--environments', 'settings.json', '--junit', junit],
      env({
        MODEL_ACCESS_BASE_URL: undefined,
        // No MODEL_ACCESS_BASE_URL: the environment's own key (MODEL_ACCESS_API_KEY serves no other URL).
        MODEL_ACCESS_API_KEY_STAGING: key,
        [secretHeaderVariable('X-Org-Token')]: secret,
        WORD: envSecret,
      }),
      tmp,
    );
    assert.equal(r.code, 1, r.out + r.err);
    // The answer echoes the prompt, which carried the $env value: it is removed from the summary and the report.
    assert.match(r.out, /actual: {3}This is aurora-1, a demo model .* You asked: "Paris and \[redacted\]"/);
    const sent = server.lastReceived('/v1/chat', 'POST');
    assert.equal(sent.headers['x-team'], 'checks');
    assert.equal(sent.headers['x-org-token'], secret);
    const xml = fs.readFileSync(junit, 'utf8');
    for (const text of [r.out, r.err, xml]) {
      for (const s of [key, secret, envSecret]) {
        assert.ok(!text.includes(s), `a secret is in the output: ${s}`);
      }
    }
    assert.equal(secretHeaderVariable('x-org.token'), 'MODEL_ACCESS_SECRET_X_ORG_TOKEN');
  });

  it('a payload that cannot be read, an expectation that cannot be read, a missing dataset or schema: failures naming file and line', async () => {
    fs.writeFileSync(path.join(tmp, 'a-bad-json.jsonc'), '// POST /v1/chat\n// @expect status 200\n{ "model": }\n');
    fs.writeFileSync(
      path.join(tmp, 'b-bad-line.jsonc'),
      '// POST /v1/chat\n// @expect answer is nice\n{ "model": "aurora-1", "messages": [] }\n',
    );
    fs.writeFileSync(
      path.join(tmp, 'c-no-data.jsonc'),
      '// POST /v1/chat\n// @each rows.jsonl\n// @expect status 200\n{ "model": "aurora-1" }\n',
    );
    fs.writeFileSync(
      path.join(tmp, 'd-schema.jsonc'),
      '// POST /v1/chat\n// @expect schema none.json\n{ "model": "aurora-1", "messages": [{"role": "user", "content": "x"}] }\n',
    );
    fs.writeFileSync(
      path.join(tmp, 'e-rows.jsonc'),
      '// POST /v1/chat\n// @each rows.csv\n// @expect status 200\n{ "model": "aurora-1", "messages": [{"role": "user", "content": "{{q}}"}] }\n',
    );
    fs.writeFileSync(path.join(tmp, 'rows.csv'), 'q\nhello\n"open\n');
    fs.writeFileSync(path.join(tmp, 'f-no-header.jsonc'), '// @expect status 200\n{}\n');
    const r = await cli(['check', '.'], env(), tmp);
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      /FAIL {2}a-bad-json\.jsonc:3 {2}The payload is not valid JSON at line 3, column 12: a value is expected/,
    );
    assert.match(
      r.out,
      /line 2 {2}answer is nice\n {10}This expectation cannot be read: "answer is nice" is not an expectation/,
    );
    assert.match(
      r.out,
      /FAIL {2}c-no-data\.jsonc:2 {2}The dataset rows\.jsonl cannot be read \(the path is relative to the payload, and files outside the workspace are not read\)/,
    );
    assert.match(r.out, /line 2 {2}schema none\.json\n {10}The schema file none\.json cannot be read/);
    assert.match(r.out, /FAIL {2}e-rows\.jsonc {2}1\/2 passed/);
    assert.match(r.out, /rows\.csv \(line 3\): line 2\n {10}rows\.csv:3: a quoted field is never closed/);
    assert.match(
      r.out,
      /FAIL {2}f-no-header\.jsonc:1 {2}The first line must name the endpoint, as in: \/\/ POST \/v1\/chat/,
    );
  });

  it('runs on several models: a request per model, each named', async () => {
    const r = await cli(['check', 'capitals/paris.jsonc', '--model', 'aurora-1', '--model', 'aurora-2'], env());
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /capitals\/paris\.jsonc {2}2\/2 passed/);
    const models = server
      .received('/v1/chat', 'POST')
      .slice(-2)
      .map((q) => (q.json as { model: string }).model);
    assert.deepEqual(models.sort(), ['aurora-1', 'aurora-2']);
  });

  it('as a process: exit code 2 for a wrong key, the message on stderr, no stack trace', async () => {
    // Asynchronously: the service answering it runs in this process.
    const p = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['-r', 'tsx/cjs', path.resolve(__dirname, '../../../src/cli/check.ts'), 'check', '.'],
        {
          cwd: FIXTURES,
          env: { ...process.env, MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: 'ma-wrong-key-0123456789' },
          encoding: 'utf8',
          timeout: 25_000,
        },
        (_e, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });
    assert.equal(p.status, 2, p.stderr);
    assert.match(p.stderr, /refused the API key \(HTTP 401\)/);
    assert.doesNotMatch(p.stderr, /\n\s+at /);
    assert.ok(!`${p.stdout}${p.stderr}`.includes('ma-wrong-key-0123456789'));
  });
});
