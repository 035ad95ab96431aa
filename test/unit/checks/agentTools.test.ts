// The agent tools (src/checks/agentTools/core) against the local service, through the command line's host
// (src/cli/mcpHost.ts): what an agent reads from each tool, and what an agent cannot make them do — read outside
// the workspace, send to another service, read the environment, run without bounds, see the key.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Redactor } from '../../../src/api/redact';
import { invokeTool, planSending } from '../../../src/checks/agentTools/core/tools';
import { TOOL_NAMES, type ToolName } from '../../../src/checks/agentTools/core/definitions';
import type { Environment } from '../../../src/domain/environments';
import { CARD_MARKER, startServer, type RunningServer } from '../../server';
import { nodeToolHost, type NodeHost } from '../../../src/cli/mcpHost';
import { baseUrlEnvironment } from '../../../src/cli/keys';

/** A result as the agent reads it: any JSON, its fields asserted one by one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

const FIXTURES = path.resolve(__dirname, '../../fixtures/checks');
const KEY = `ma-canary-${Math.random().toString(36).slice(2)}-tools`;

describe('checks/agentTools (the agent tools against the local service)', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let workspace: string;
  let host: NodeHost;
  let redactor: Redactor;

  before(async () => {
    server = await startServer({ keys: { acme: KEY }, localCards: true });
  });
  after(() => server.close());
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-tools-'));
    fs.cpSync(FIXTURES, workspace, { recursive: true });
    host = makeHost({});
    server.clearRecords();
  });
  afterEach(async () => {
    await host.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  function makeHost(env: Record<string, string>, environments: Environment[] = []): NodeHost {
    redactor = new Redactor();
    redactor.add(KEY);
    const h = nodeToolHost({
      env: { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: KEY, ...env },
      root: workspace,
      redactor,
      environments,
      fallback: baseUrlEnvironment(server.url),
      baseUrl: server.url,
    });
    // Lifecycle stages on a fixed day: aurora-1 retires 2027-01-31, so it is "retiring" then.
    h.now = () => Date.parse('2026-10-01T00:00:00Z');
    return h;
  }

  const call = async (name: ToolName, input: unknown) => {
    const r = await invokeTool(name, input, host, new AbortController().signal);
    assert.ok(!r.text.includes(KEY), `${name}: the key is in the result`);
    return { ...r, json: r.isError ? undefined : (JSON.parse(r.text) as Loose) };
  };
  const posts = () => server.received().filter((r) => r.method === 'POST');

  it('list_models: every model with its lifecycle (state, dates, successor), capabilities, context window and card', async () => {
    const r = await call('list_models', {});
    assert.equal(r.isError, false, r.text);
    const models = r.json!.serviceSays.models as Loose[];
    assert.equal(r.json!.total, server.registry.models.filter((m) => m.organization === 'acme').length);
    assert.match(r.json!.note, /service's own words.*never instructions/);
    const aurora1 = models.find((m) => m.id === 'aurora-1')!;
    assert.deepEqual(aurora1.lifecycle, {
      state: 'retiring',
      status: 'deprecated',
      deprecated: '2026-06-30',
      retires: '2027-01-31',
      successor: 'aurora-2',
    });
    assert.deepEqual(aurora1.capabilities, ['chat']);
    assert.equal(aurora1.contextWindow, 16384);
    assert.equal(aurora1.family, 'aurora');
    assert.match(aurora1.card, /\/cards\/aurora-1\.md$/);
    assert.equal(models.find((m) => m.id === 'aurora-10')!.lifecycle.state, 'preview');
    assert.equal(models.find((m) => m.id === 'aurora-2')!.lifecycle.state, 'active');
  });

  it('list_models filters by family, capability, lifecycle state and text, and says how many more there are', async () => {
    const ids = async (input: unknown) =>
      ((await call('list_models', input)).json!.serviceSays.models as { id: string }[]).map((m) => m.id);
    assert.deepEqual(await ids({ capability: 'embeddings' }), [
      'cirrus-embed-1',
      'cirrus-embed-2',
      'cirrus-embed-2-large',
    ]);
    assert.deepEqual(await ids({ family: 'AURORA', lifecycle: 'retiring' }), ['aurora-1', 'aurora-1.5']);
    assert.deepEqual(await ids({ text: 'sable-7b', capability: 'chat' }), [
      'acme/sable-7b:q4_k_m',
      'acme/sable-7b:fp16',
    ]);
    const capped = await call('list_models', { limit: 2 });
    assert.equal(capped.json!.shown, 2);
    assert.match(capped.json!.more, /^\d+ more: narrow the filters or raise limit$/);
    const bad = await call('list_models', { lifecycle: 'ancient' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /lifecycle must be one of: preview, active, deprecated, retiring, retired/);
    const unknown = await call('list_models', { apiKey: 'x' });
    assert.match(unknown.text, /unknown input field "apiKey"; the fields are: family, capability/);
  });

  it('get_model: the entry and its Model Card as plain text, read without the key; an unknown id says what to call', async () => {
    const r = await call('get_model', { id: 'aurora-2' });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.json!.serviceSays.model.id, 'aurora-2');
    assert.ok(r.json!.serviceSays.modelCard.includes(CARD_MARKER), r.text);
    assert.ok(r.json!.serviceSays.modelCard.split('\n').length > 3, 'the card keeps its lines');
    const card = server.lastReceived('/cards/aurora-2.md', 'GET');
    assert.equal(card.headers.authorization, undefined, 'the card was fetched with the key');
    const missing = await call('get_model', { id: 'no-such-model' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /has no model "no-such-model": call list_models for the ids it has/);
    const empty = await call('get_model', {});
    assert.match(empty.text, /^Error: get_model: id is required$/);
  });

  it('run_checks: per case pass or fail with the failure sentences, and a summary; one request per case', async () => {
    const r = await call('run_checks', { files: ['capitals/paris.jsonc', 'capitals/london.jsonc'] });
    assert.equal(r.isError, false, r.text);
    assert.match(r.json!.summary, /^1 passed, 1 failed in \d+\.\d s$/);
    assert.match(r.json!.budget, /organization's Model Access Service, on its budget/);
    const [paris, london] = r.json!.serviceSays.files as Loose[];
    assert.equal(paris.file, 'capitals/paris.jsonc');
    assert.equal(paris.passed, true);
    assert.equal(london.passed, false);
    assert.equal(london.cases[0].status, 200);
    assert.match(london.cases[0].failures[0], /^line 4: The answer's text does not contain "London"/);
    assert.equal(posts().length, 2);
  });

  it('run_checks takes globs and datasets, capped by maxRows, and skips files without checks', async () => {
    fs.writeFileSync(path.join(workspace, 'capitals', 'notes.json'), '{"not": "a check"}');
    const r = await call('run_checks', { files: ['capitals/*.json*'], maxRows: 2 });
    assert.equal(r.isError, false, r.text);
    const files = r.json!.serviceSays.files as Loose[];
    const cities = files.find((f) => f.file === 'capitals/cities.jsonc')!;
    assert.equal(cities.cases.length, 2);
    assert.match(cities.rowsNotRun, /^3 more dataset rows were not run \(maxRows 2\)$/);
    assert.equal(files.find((f) => f.file === 'capitals/notes.json')!.skipped, 'it has no // @expect line');
    assert.equal(posts().length, 2 + 1 + 1);
  });

  it('send_payload: the answer text, status and usage, one request, and says it spent the budget', async () => {
    const plan = await planSending('send_payload', { file: 'capitals/paris.jsonc' }, host);
    assert.equal(plan?.problem, undefined);
    assert.deepEqual(plan?.files, ['capitals/paris.jsonc']);
    assert.equal(plan?.requests, 1);
    assert.match(plan!.services[0], new RegExp(`^${server.url.replace(/[.]/g, '\\.')} \\(environment `));
    assert.equal(posts().length, 0, 'planning sends nothing');
    const r = await call('send_payload', { file: 'capitals/paris.jsonc' });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.json!.status, 200);
    assert.match(r.json!.serviceSays.answer, /Paris/);
    assert.equal(typeof r.json!.usage.total, 'number');
    assert.match(r.json!.budget, /spent its budget/);
    assert.equal(posts().length, 1);
  });

  it('the key is in no result, even when an answer echoes it (a payload that holds it)', async () => {
    fs.writeFileSync(
      path.join(workspace, 'leak.jsonc'),
      `// POST /v1/chat\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "say ${KEY} please" }] }\n`,
    );
    const r = await call('send_payload', { file: 'leak.jsonc' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.json!.serviceSays.answer, /\[redacted\]/);
  });

  it('paths stay inside the workspace: absolute, .. and a symlink out are refused, and nothing is sent', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'p.jsonc'), fs.readFileSync(path.join(FIXTURES, 'capitals/paris.jsonc')));
      fs.writeFileSync(path.join(outside, 'rows.jsonl'), '{"city":"SECRET-ROW"}\n');
      fs.symlinkSync(path.join(outside, 'p.jsonc'), path.join(workspace, 'linked.jsonc'));
      for (const file of [path.join(outside, 'p.jsonc'), '../p.jsonc', 'capitals/../../p.jsonc', '~/p.jsonc']) {
        const r = await call('send_payload', { file });
        assert.equal(r.isError, true, file);
        assert.match(r.text, /is not a path inside the workspace/, file);
      }
      const linked = await call('send_payload', { file: 'linked.jsonc' });
      assert.match(linked.text, /no payload file linked\.jsonc in the workspace/);
      // A payload inside whose dataset lies outside: the row is not read, the check fails saying why.
      fs.writeFileSync(
        path.join(workspace, 'each.jsonc'),
        `// POST /v1/chat\n// @each ${path.relative(workspace, path.join(outside, 'rows.jsonl'))}\n// @expect status 200\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "{{city}}" }] }\n`,
      );
      const each = await call('run_checks', { files: ['each.jsonc'] });
      assert.match(each.text, /cannot be read: it lies outside the workspace folder/);
      assert.equal(posts().length, 0);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('{{$env}} reads only MODEL_ACCESS_* names, never a key: a payload cannot send the environment along', async () => {
    host = makeHost({ CLOUD_SECRET: 'cloud-secret-value-123', MODEL_ACCESS_REGION: 'eu' });
    fs.writeFileSync(
      path.join(workspace, 'env.jsonc'),
      '// POST /v1/chat\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "{{$env CLOUD_SECRET}}" }] }\n',
    );
    const refused = await call('send_payload', { file: 'env.jsonc' });
    assert.ok(!refused.text.includes('cloud-secret-value-123'));
    assert.match(refused.text, /CLOUD_SECRET/);
    assert.equal(posts().length, 0, refused.text);
    fs.writeFileSync(
      path.join(workspace, 'key.jsonc'),
      '// POST /v1/chat\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "{{$env MODEL_ACCESS_API_KEY}}" }] }\n',
    );
    await call('send_payload', { file: 'key.jsonc' });
    assert.ok(
      posts().every((p) => !JSON.stringify(p.json ?? '').includes(KEY)),
      'the key went into a body',
    );
    fs.writeFileSync(
      path.join(workspace, 'own.jsonc'),
      '// POST /v1/chat\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "region {{$env MODEL_ACCESS_REGION}}" }] }\n',
    );
    const own = await call('send_payload', { file: 'own.jsonc' });
    assert.equal(own.json!.status, 200, own.text);
    // Sent along (an own name), and still kept out of what the agent reads, as every `{{$env}}` value is.
    assert.match(JSON.stringify(server.lastReceived('/v1/chat', 'POST').json), /region eu/);
    assert.match(own.json!.serviceSays.answer, /region \[redacted\]/);
  });

  it('a payload goes only to its own environment: another one named in the input is refused', async () => {
    fs.writeFileSync(
      path.join(workspace, 'pinned.jsonc'),
      '// POST /v1/chat\n// @env staging\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "hi" }] }\n',
    );
    const r = await call('send_payload', { file: 'pinned.jsonc', environment: 'production' });
    assert.equal(r.isError, true);
    assert.match(r.text, /pinned to environment staging \(\/\/ @env\) and is sent only there/);
    const unknown = await call('list_models', { environment: 'nowhere' });
    assert.match(unknown.text, /no environment is called nowhere \(the server has no environments file\)/);
    assert.equal(posts().length, 0);
  });

  it('counts are bounded: too many files, too many requests, too many paths; nothing is sent', async () => {
    for (let i = 0; i < 12; i++) {
      fs.copyFileSync(path.join(FIXTURES, 'capitals/paris.jsonc'), path.join(workspace, `p${i}.jsonc`));
    }
    const many = await call('run_checks', { files: ['p*.jsonc'] });
    assert.match(many.text, /name more than 10 payload files/);
    fs.writeFileSync(path.join(workspace, 'rows.jsonl'), '{"city":"x"}\n'.repeat(30));
    const repeat = (n: number) =>
      `// POST /v1/chat\n// @each rows.jsonl\n// @repeat ${n}\n// @expect status 200\n{ "model": "aurora-2", "messages": [{ "role": "user", "content": "{{city}}" }] }\n`;
    fs.writeFileSync(path.join(workspace, 'big.jsonc'), repeat(5));
    const big = await call('run_checks', { files: ['big.jsonc'], maxRows: 20 });
    assert.match(big.text, /would send more requests than one call may \(100, at most 60\)/);
    const paths = await call('run_checks', { files: Array.from({ length: 11 }, (_, i) => `p${i}.jsonc`) });
    assert.match(paths.text, /files names 11 paths; at most 10/);
    const rows = await call('run_checks', { files: ['big.jsonc'], maxRows: 500 });
    assert.match(rows.text, /maxRows must be a whole number from 1 to 20/);
    assert.equal(posts().length, 0);
  });

  it('a service that cannot be reached is an error result, never a throw', async () => {
    redactor = new Redactor();
    host = nodeToolHost({
      env: { MODEL_ACCESS_BASE_URL: 'http://127.0.0.1:9', MODEL_ACCESS_API_KEY: KEY },
      root: workspace,
      redactor,
      environments: [],
      fallback: baseUrlEnvironment('http://127.0.0.1:9'),
      baseUrl: 'http://127.0.0.1:9',
    });
    for (const name of TOOL_NAMES) {
      const input = {
        list_models: {},
        get_model: { id: 'x' },
        run_checks: { files: ['capitals/paris.jsonc'] },
        send_payload: { file: 'capitals/paris.jsonc' },
      }[name];
      const r = await call(name, input);
      assert.equal(r.isError, name === 'run_checks' ? false : true, `${name}: ${r.text}`);
      assert.match(r.text, /cannot be reached/, name);
    }
  });
});

describe('checks/agentTools against a hostile service', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let workspace: string;
  let host: NodeHost;
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
  const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

  before(async () => {
    server = await startServer({ hostile: true });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-tools-hostile-'));
    const redactor = new Redactor();
    redactor.add(server.hostile!.key);
    host = nodeToolHost({
      env: { MODEL_ACCESS_BASE_URL: server.url, MODEL_ACCESS_API_KEY: server.hostile!.key },
      root: workspace,
      redactor,
      environments: [],
      fallback: baseUrlEnvironment(server.url),
      baseUrl: server.url,
    });
  });
  after(async () => {
    await host.dispose();
    await server.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  /** Every string of a result, as the agent reads it once the JSON is parsed. */
  const strings = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value.flatMap(strings)
        : typeof value === 'object' && value !== null
          ? Object.values(value).flatMap(strings)
          : [];

  it('registry text reaches the agent as inert text: no control or invisible characters, no live link or icon', async () => {
    const r = await invokeTool('list_models', { limit: 200 }, host, new AbortController().signal);
    assert.equal(r.isError, false, r.text.slice(0, 300));
    const read = JSON.parse(r.text) as Loose;
    assert.ok((read.serviceSays.models as unknown[]).length > 0);
    for (const s of strings(read)) {
      assert.doesNotMatch(s, CONTROL, JSON.stringify(s));
      // The display function's own mark: a word joiner keeps `$(icon)` from being an icon.
      assert.doesNotMatch(s.replace(/\$\u2060\(/g, '$'), INVISIBLE, JSON.stringify(s));
      assert.doesNotMatch(s, /\]\(|\$\(/, s);
    }
    assert.ok(!r.text.includes(server.hostile!.key));
  });

  it('a hostile card and a hostile model id come back as text, never a crash', async () => {
    const listed = JSON.parse(
      (await invokeTool('list_models', { limit: 200 }, host, new AbortController().signal)).text,
    ) as Loose;
    for (const m of (listed.serviceSays.models as { id: string }[]).slice(0, 8)) {
      const r = await invokeTool('get_model', { id: m.id.slice(0, 200) }, host, new AbortController().signal);
      assert.ok(r.text.startsWith('{') || r.text.startsWith('Error: '), r.text.slice(0, 200));
      for (const s of r.isError ? [r.text] : strings(JSON.parse(r.text))) {
        assert.doesNotMatch(s.replace(/\$\u2060\(/g, '$'), INVISIBLE, JSON.stringify(s));
        assert.doesNotMatch(s, /<script|<img/i, s.slice(0, 200));
      }
      assert.ok(!r.text.includes(server.hostile!.key));
    }
  });
});
