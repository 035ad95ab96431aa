// Registry text is data (issue 44, items 1, 2 and 10): a model id the registry lists as `{{$env NAME}}`,
// `{{name}}` or any other reference is written by every writer so that the next Send sends it as listed and
// reads nothing; `{{model}}` copies obey the model's own `{{$env}}` policy and redaction; and a `{{$env}}`
// value a service echoes in a response header comes back redacted. Driven against the local service: its
// hostile registry (family `vars`) and its `x-end-user` echo.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../../src/api/client';
import type { ModelEntry } from '../../../src/api/types';
import { displayEnds, displayText } from '../../../src/common/text';
import { runCheckFile } from '../../../src/checks/core/fileRun';
import { parsePayload } from '../../../src/domain/payload/parse';
import {
  literalStringContent,
  resolvePayload,
  type EnvPolicy,
  type VariableContext,
} from '../../../src/domain/payload/variables';
import { payloadFor } from '../../../src/requests/compare/core/comparison';
import { readParameters, setParameter } from '../../../src/requests/conversation/core/panelEdits';
import { readConversation } from '../../../src/requests/conversation/core/turns';
import { modelProblem } from '../../../src/requests/payloads/core/modelProblems';
import { starterPayload } from '../../../src/requests/payloads/core/templates';
import { END_USER_HEADER, HOSTILE_IDS, startServer, type RunningServer } from '../../server';

const CANARY = 'canary-registry-read-me-7f3a9c';
const READABLE = new Set(['HOSTILE_ENV_CANARY', 'MODEL_ACCESS_HOSTILE_CANARY']);
const F = { insertSpaces: true, tabSize: 2, eol: '\n' };

/** The process environment as a test sees it: every name a hostile id names holds the canary; reads are kept. */
function contextWith(asked: string[], envPolicy?: EnvPolicy): VariableContext {
  return {
    variables: { region: `eu-${CANARY}` },
    environment: 'test',
    env: (name) => {
      asked.push(name);
      return READABLE.has(name) ? CANARY : undefined;
    },
    envPolicy,
    uuid: () => 'u',
    now: () => 0,
  };
}

/** What Send sends for `text`, in a scratch payload of a trusted window (every `{{$env}}` name readable). */
function sent(text: string): { json: string; model: unknown; asked: string[] } {
  const parsed = parsePayload(text);
  assert.ok(parsed.ok, `the payload stays JSON: ${text}`);
  const asked: string[] = [];
  const r = resolvePayload(parsed.value, contextWith(asked));
  assert.deepEqual(r.problems, [], text);
  assert.deepEqual(r.secrets, [], `no secret went into ${r.json}`);
  assert.ok(!r.json.includes(CANARY), `a variable's value went out: ${r.json}`);
  return { json: r.json, model: (r.value as { model?: unknown }).model, asked };
}

describe('security: registry text goes into payloads as data', function () {
  this.timeout(20_000);
  let server: RunningServer;
  let client: ServiceClient;
  let models: ModelEntry[];
  const vars = HOSTILE_IDS.variables;

  before(async () => {
    server = await startServer({ hostile: { models: true } });
    client = new ServiceClient({ baseUrl: server.url, apiKey: async () => server.keys.hostile, retries: { max: 0 } });
    models = (await client.listModels()).models;
    for (const id of [...vars, HOSTILE_IDS.variablesRetiring]) {
      assert.ok(
        models.some((m) => m.id === id),
        `the hostile registry lists ${id}`,
      );
    }
  });

  after(async () => {
    await client.dispose();
    await server.close();
  });

  /** Sends `json` to the service and returns the model it received. */
  async function received(json: string): Promise<unknown> {
    const r = await client.post('/v1/responses', json);
    assert.equal(r.status, 200, `the service knows the id: ${r.error?.message ?? ''}`);
    return server.lastReceived('/v1/responses', 'POST').json?.model;
  }

  it('New Request writes each id so that Send sends it as listed, reading no variable', async () => {
    for (const id of vars) {
      const out = sent(starterPayload('/v1/responses', id));
      assert.equal(out.model, id);
      assert.deepEqual(out.asked, []);
      assert.equal(await received(out.json), id);
    }
  });

  it('Compare Models sends each id as listed, and {{model}} in the payload is that id too', async () => {
    for (const id of vars) {
      const value = payloadFor({ model: 'plain-1', input: 'about {{model}}' }, id);
      const out = sent(JSON.stringify(value));
      assert.equal(out.model, id);
      assert.ok(out.json.includes(JSON.stringify(`about ${id}`)), out.json);
      assert.equal(await received(out.json), id);
    }
  });

  it('Run Checks on Several Models sends each id as listed', async () => {
    const asked: string[] = [];
    const text = '// POST /v1/responses\n// @expect status 200\n{"model": "plain-1", "input": "hi {{model}}"}';
    const result = await runCheckFile(text, {
      target: async () => ({ client, variables: contextWith(asked) }),
      readText: () => undefined,
      concurrency: 1,
      maxRows: 10,
      models: vars,
      signal: new AbortController().signal,
    });
    assert.deepEqual(asked, [], 'no environment variable was read');
    const sentModels = server.received('/v1/responses', 'POST').map((r) => r.json?.model);
    for (const id of vars) {
      assert.ok(sentModels.includes(id), `sent ${id} (sent: ${JSON.stringify(sentModels)})`);
    }
    const rows = result.rows.map((r) => (r.kind === 'run' ? [r.result.model, r.result.passed] : [r.message]));
    assert.deepEqual(
      rows,
      vars.map((id) => [id, true]),
    );
  });

  it('the successor and did-you-mean quick fixes (and completion) write the id so it is sent as listed', async () => {
    const retiring = modelProblem(HOSTILE_IDS.variablesRetiring, models, Date.parse('2026-06-01'));
    assert.equal(retiring?.fixes[0]?.id, vars[0], 'the successor is offered');
    const typo = modelProblem('v-{{regio}}', models, Date.parse('2026-06-01'));
    assert.ok(
      typo?.fixes.some((f) => f.id === vars[2]),
      `did you mean ${vars[2]}: ${JSON.stringify(typo?.fixes)}`,
    );
    for (const id of [retiring.fixes[0].id, vars[2], ...vars]) {
      // What the fix (and completion) puts between the quotes of "model".
      const out = sent(`// POST /v1/responses\n{ "model": "${literalStringContent(id)}", "input": "hi" }`);
      assert.equal(out.model, id);
      assert.equal(await received(out.json), id);
    }
  });

  it("the conversation panel's model picker writes a listed id literally, and leaves the payload's own reference alone", async () => {
    const payload =
      '// POST /v1/responses\n{\n  "model": "plain-1",\n  "input": [{ "role": "user", "content": "hi" }]\n}';
    for (const id of vars) {
      const r = setParameter(payload, 'model', id, F);
      assert.ok(r.ok, r.ok ? '' : r.problem);
      const out = sent(r.text);
      assert.equal(out.model, id);
      // The panel shows it as the listed id (so its picker finds it), and picking it again changes nothing.
      const read = readConversation(r.text);
      assert.ok(read.ok);
      assert.equal(readParameters(read.conversation).model, id);
      const again = setParameter(r.text, 'model', id, F);
      assert.ok(again.ok && again.text === r.text);
      assert.equal(await received(out.json), id);
    }
    const own = payload.replace('"plain-1"', '"{{region}}"');
    const kept = setParameter(own, 'model', '{{region}}', F);
    assert.ok(kept.ok && kept.text === own, "the person's own {{region}} stays a reference");
  });

  it('a pick list shows the end of a long id, where its reference is, and marks the cut', () => {
    const long = vars[3];
    const shown = displayEnds(long, 60);
    assert.ok(shown.length <= 60, shown);
    assert.ok(shown.includes('\u2026'), 'the cut is marked');
    assert.ok(shown.endsWith(long.slice(-20)), `the end is shown: ${shown}`);
    assert.ok(shown.startsWith('v-xxx'), shown);
    // Short ids are shown whole, as before.
    assert.equal(displayEnds('plain-1', 60), displayText('plain-1'));
  });
});

describe('security: {{model}} and derived values do not launder secrets', () => {
  const payload = { model: '{{$env GITHUB_TOKEN}}', input: 'model: {{model}}', metadata: { m: '{{model}}' } };
  const reader = (asked: string[]) => ({
    ...contextWith(asked),
    env: (name: string) => {
      asked.push(name);
      return name === 'GITHUB_TOKEN' ? CANARY : undefined;
    },
  });

  it('a copy of a secret model is a secret: sent, registered for redaction, never shown', () => {
    const asked: string[] = [];
    const r = resolvePayload(payload, reader(asked));
    assert.deepEqual(r.problems, []);
    assert.equal(JSON.parse(r.json).input, `model: ${CANARY}`, 'sent as the model is');
    assert.ok(r.secrets.includes(CANARY));
    assert.ok(!r.shownJson.includes(CANARY), `shown (history, Copy as Code): ${r.shownJson}`);
    assert.equal(JSON.parse(r.shownJson).input, 'model: {{model}}');
  });

  it('a copy obeys the policy of the model: refused there, refused in the copy, never read', () => {
    const asked: string[] = [];
    const r = resolvePayload(payload, {
      ...reader(asked),
      envPolicy: { limited: 'outsideScratch', allowed: new Set() },
    });
    assert.deepEqual(asked, [], 'GITHUB_TOKEN was read');
    assert.ok(r.problems.some((p) => p.refusedEnv === 'GITHUB_TOKEN'));
    assert.ok(!r.json.includes(CANARY) && !r.shownJson.includes(CANARY));
  });

  it('a check names a model read from {{$env}} by its reference, never by its value', async () => {
    const sentJson: string[] = [];
    const client = {
      post: async (_endpoint: string, json: string) => {
        sentJson.push(json);
        return { status: 200, statusText: 'OK', headers: {}, elapsedMs: 1, contentType: 'application/json' };
      },
    } as unknown as ServiceClient;
    const result = await runCheckFile(
      '// POST /v1/responses\n// @expect status 200\n{"model": "{{$env GITHUB_TOKEN}}", "input": "{{model}}"}',
      {
        target: async () => ({ client, variables: reader([]) }),
        readText: () => undefined,
        concurrency: 1,
        maxRows: 10,
        signal: new AbortController().signal,
      },
    );
    assert.equal(JSON.parse(sentJson[0]).model, CANARY, 'sent with the value');
    const row = result.rows[0];
    assert.ok(row.kind === 'run');
    assert.equal(row.result.model, '{{$env GITHUB_TOKEN}}', 'named in results and reports by its reference');
  });

  it('a literal id in the model is literal in its copies too (resolved once, never twice)', () => {
    const asked: string[] = [];
    const r = resolvePayload({ model: '\\{{$env GITHUB_TOKEN}}', input: '{{model}}' }, reader(asked));
    assert.deepEqual(asked, []);
    assert.deepEqual(JSON.parse(r.json), { model: '{{$env GITHUB_TOKEN}}', input: '{{$env GITHUB_TOKEN}}' });
    assert.deepEqual(r.secrets, []);
  });
});

describe('security: {{$env}} values echoed in response headers are redacted', function () {
  this.timeout(20_000);
  let server: RunningServer;
  let client: ServiceClient;
  const SECRET = `env-${CANARY}/+"x`;

  before(async () => {
    server = await startServer();
    client = new ServiceClient({ baseUrl: server.url, apiKey: async () => server.keys.acme, retries: { max: 0 } });
  });

  after(async () => {
    await client.dispose();
    await server.close();
  });

  for (const stream of [false, true]) {
    it(`the ${stream ? 'streamed' : 'whole'} answer's headers carry no secret the request sent`, async () => {
      const model = server.registry.models.find((m) => m.organization === 'acme')?.id;
      const body = { model, input: 'hi', user: SECRET, stream };
      // The service does echo it: without the request's secrets, the header holds it.
      const plain = await client.post('/v1/responses', body);
      assert.ok(plain.headers[END_USER_HEADER]?.includes(SECRET), 'the service echoes the user');
      await drain(plain.events);
      const r = await client.post('/v1/responses', body, { secrets: [SECRET] });
      assert.equal(r.status, 200);
      const headers = JSON.stringify(r.headers);
      assert.ok(r.headers[END_USER_HEADER]?.includes('[redacted]'), headers);
      for (const form of [SECRET, JSON.stringify(SECRET).slice(1, -1), encodeURIComponent(SECRET)]) {
        assert.ok(!headers.includes(form) && !Object.values(r.headers).some((v) => v.includes(form)), headers);
      }
      await drain(r.events);
    });
  }
});

async function drain(events: AsyncIterable<unknown> | undefined): Promise<void> {
  if (events) {
    for await (const _ of events) {
      // read to the end, so the connection is free
    }
  }
}
