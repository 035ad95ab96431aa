// A payload file as a check run against the local service: plain and streamed answers of both endpoints
// (text, first token, usage), dataset rows and their variables in expectations, the row filter, cancel,
// a service that is down, and the results tables.
import * as assert from 'node:assert/strict';
import type { ModelService } from '../../../src/api/types';
import {
  firstFailure,
  runCheckFile,
  runLabel,
  schemaSource,
  type FileRunDeps,
  type RowResult,
} from '../../../src/checks/core/fileRun';
import { modelTable, resultsTable, tableAsCsv, tableAsText } from '../../../src/checks/core/resultsTable';
import { bindExpectation } from '../../../src/checks/core/runCheck';
import { parseExpectation } from '../../../src/checks/core/expectations';
import { startServer, type RunningServer } from '../../server';
import { clientFor } from '../helpers/api';
import { variables } from '../helpers/checks';

function deps(client: ModelService, over: Partial<FileRunDeps> = {}, files: Record<string, string> = {}): FileRunDeps {
  return {
    target: async () => ({ client, variables }),
    readText: (f) => files[f],
    concurrency: 4,
    maxRows: 100,
    signal: new AbortController().signal,
    ...over,
  };
}

function passed(row: RowResult): boolean {
  return firstFailure(row) === undefined;
}

describe('checks/core/fileRun', function () {
  this.timeout(20_000);
  let server: RunningServer;
  let client: ModelService;

  before(async () => {
    server = await startServer();
    client = clientFor(server.url, server.keys.acme).client;
  });
  after(async () => {
    await client.dispose();
    await server.close();
  });

  for (const [endpoint, body] of [
    ['/v1/chat', '"messages": [{"role": "user", "content": "Tell me about {{city}}"}]'],
    ['/v1/responses', '"input": "Tell me about {{city}}"'],
  ] as const) {
    for (const stream of [false, true]) {
      it(`${endpoint}${stream ? ', streamed' : ''}: the text is read, timed, and its first token measured when streamed`, async () => {
        const text = [
          `// POST ${endpoint}`,
          '// @expect status 200',
          '// @expect text contains "about {{city}}"',
          '// @expect time < 10s',
          ...(stream ? ['// @expect first token < 10s'] : ['// @expect json $.model == "aurora-1"']),
          `{ "model": "aurora-1", "stream": ${stream}, ${body} }`,
        ].join('\n');
        const r = await runCheckFile(text, deps(client));
        assert.equal(r.rows.length, 1);
        const row = r.rows[0];
        assert.ok(row.kind === 'run');
        assert.deepEqual(
          row.result.results.filter((x) => !x.outcome.passed),
          [],
        );
        assert.equal(row.result.observed.streamed, stream);
        assert.equal(row.result.observed.firstTokenMs !== undefined, stream);
        assert.match(row.result.observed.answer?.text ?? '', /about Paris\./);
        assert.equal(row.label, 'the payload');
      });
    }
  }

  it('runs each dataset row with its fields as variables, problems as rows, only the rows asked for', async () => {
    const text = [
      '// POST /v1/chat',
      '// @each rows.jsonl',
      '// @expect text contains "{{city}}"',
      '{ "model": "aurora-1", "messages": [{"role": "user", "content": "About {{city}}"}] }',
    ].join('\n');
    const files = {
      'rows.jsonl': '{"city": "Rome"}\n{"city": "Oslo"}\nnot json\n{"city": "Bern"}\n{"city": "Rome"}\n',
    };
    const started: string[] = [];
    const r = await runCheckFile(text, deps(client, { onStart: (_run, label) => started.push(label) }, files));
    assert.equal(r.dataset, 'rows.jsonl');
    // Named by their first values; the two Rome rows and the row that cannot be read by their line as well.
    assert.deepEqual(r.rows.map((x) => [x.row?.line, x.label, passed(x)]).sort(), [
      [1, 'rows.jsonl: Rome (line 1)', true],
      [2, 'rows.jsonl: Oslo', true],
      [3, 'rows.jsonl (line 3)', false],
      [4, 'rows.jsonl: Bern', true],
      [5, 'rows.jsonl: Rome (line 5)', true],
    ]);
    assert.deepEqual(started.sort(), [
      'rows.jsonl: Bern',
      'rows.jsonl: Oslo',
      'rows.jsonl: Rome (line 1)',
      'rows.jsonl: Rome (line 5)',
    ]);
    const problem = r.rows.find((x) => x.kind === 'problem');
    assert.ok(
      problem?.kind === 'problem' && problem.line === 1 && /^rows\.jsonl:3: not valid JSON/.test(problem.message),
    );
    // A row is called the same whichever rows run (Test Explorer finds its child by the line, not the name).
    const some = await runCheckFile(text, deps(client, { onlyRows: new Set([1, 3]) }, files));
    assert.deepEqual(some.rows.map((x) => [x.row?.line, x.label]).sort(), [
      [1, 'rows.jsonl: Rome (line 1)'],
      [3, 'rows.jsonl (line 3)'],
    ]);
    const capped = await runCheckFile(text, deps(client, { maxRows: 1 }, files));
    assert.equal(capped.skippedRows, 3);
  });

  it('asks before sending with the number of requests, and sends none when told not to', async () => {
    const text = [
      '// POST /v1/chat',
      '// @each rows.jsonl',
      '// @expect status 200',
      '{ "model": "aurora-1", "messages": [{"role": "user", "content": "About {{city}}"}] }',
    ].join('\n');
    const files = { 'rows.jsonl': '{"city": "Rome"}\n{"city": "Oslo"}\n{"city": "Bern"}\n' };
    const asked: number[] = [];
    const started: string[] = [];
    const no = await runCheckFile(
      text,
      deps(
        client,
        {
          models: ['a', 'b'],
          beforeRequests: async (n) => (asked.push(n), false),
          onStart: (_r, l) => started.push(l),
        },
        files,
      ),
    );
    assert.deepEqual(asked, [6], 'three rows on two models');
    assert.deepEqual(started, []);
    assert.deepEqual(no.rows, []);
    const yes = await runCheckFile(text, deps(client, { beforeRequests: async () => true }, files));
    assert.equal(yes.rows.length, 3);
  });

  it('cannot run: no endpoint, not JSON, a dataset that cannot be read or is misnamed, an environment that is not there', async () => {
    const head = '// POST /v1/chat\n';
    assert.match(
      (await runCheckFile('// @expect status 200\n{}', deps(client))).notRunnable?.message ?? '',
      /The first line must name the endpoint/,
    );
    const bad = await runCheckFile(`${head}// @expect status 200\n{,}`, deps(client));
    assert.deepEqual(bad.notRunnable?.line, 2);
    const noData = await runCheckFile(`${head}// @each x.jsonl\n// @expect status 200\n{}`, deps(client));
    assert.deepEqual(noData.notRunnable, {
      message:
        'The dataset x.jsonl cannot be read (the path is relative to the payload, and files outside the workspace are not read)',
      line: 1,
    });
    const misnamed = await runCheckFile(`${head}// @each x.txt\n// @expect status 200\n{}`, deps(client));
    assert.deepEqual(misnamed.notRunnable, { message: '@each reads .jsonl or .csv files, not x.txt', line: 1 });
    const pinned: (string | undefined)[] = [];
    const noEnv = await runCheckFile(
      `${head}// @env prod\n// @expect status 200\n{}`,
      deps(client, { target: async (p) => (pinned.push(p), { problem: 'no such environment' }) }),
    );
    assert.deepEqual(pinned, ['prod']);
    assert.deepEqual(noEnv.notRunnable, { message: 'no such environment', line: 1 });
  });

  it('an unresolved variable sends nothing; a service that is down fails with the connection message', async () => {
    const text =
      '// POST /v1/chat\n// @expect status 200\n{ "model": "aurora-1", "messages": [{"role": "user", "content": "{{nope}}"}] }';
    const before = server.received('/v1/chat').length;
    const r = await runCheckFile(text, deps(client));
    assert.equal(server.received('/v1/chat').length, before);
    assert.match(
      firstFailure(r.rows[0])?.message ?? '',
      /^No answer: nothing was sent: \{\{nope\}\} is not defined in environment test$/,
    );
    const down = clientFor('http://127.0.0.1:9', 'k').client;
    const r2 = await runCheckFile(text.replace('{{nope}}', 'x'), deps(down));
    assert.match(firstFailure(r2.rows[0])?.message ?? '', /^No answer: .*127\.0\.0\.1:9.*connection refused/i);
    await down.dispose();
  });

  it('cancel stops what is in flight and starts nothing more', async () => {
    const controller = new AbortController();
    const text =
      '// POST /v1/chat\n// @each rows.jsonl\n// @expect status 200\n{ "model": "aurora-1", "messages": [{"role": "user", "content": "{{city}}"}] }';
    const rows = Array.from({ length: 20 }, (_, i) => JSON.stringify({ city: `c${i}` })).join('\n');
    server.setFaults({ latencyMs: 300 });
    try {
      setTimeout(() => controller.abort(), 100);
      const r = await runCheckFile(
        text,
        deps(client, { signal: controller.signal, concurrency: 2 }, { 'rows.jsonl': rows }),
      );
      assert.equal(r.rows.length, 2);
      assert.ok(
        r.rows.every((x) => /cancelled/.test(firstFailure(x)?.message ?? '')),
        JSON.stringify(r.rows.map(firstFailure)),
      );
    } finally {
      server.setFaults(undefined);
    }
  });

  it('several models: each request once per model, in the per-model table', async () => {
    const text =
      '// POST /v1/chat\n// @expect json $.model == "aurora-1"\n{ "model": "x", "messages": [{"role": "user", "content": "hi"}] }';
    const r = await runCheckFile(text, deps(client, { models: ['aurora-1', 'aurora-2'] }));
    const table = modelTable(r.rows);
    assert.deepEqual(table.columns, ['model', 'passed', 'pass rate', 'median time']);
    assert.deepEqual(table.rows.map((x) => x.slice(0, 3)).sort(), [
      ['aurora-1', '1/1', '100%'],
      ['aurora-2', '0/1', '0%'],
    ]);
    assert.match(table.rows[0][3], /^\d+(ms|(\.\d+)?s)$/);
  });

  it('labels, schema files read once, and expectations filled with the row', () => {
    assert.equal(runLabel({}, undefined), 'the payload');
    assert.equal(runLabel({ model: 'm' }, undefined), 'm');
    assert.equal(runLabel({ model: 'm' }, { line: 3, name: 'd.csv: 2, 3' }), 'm · d.csv: 2, 3');
    assert.equal(runLabel({}, { line: 3, name: 'd.csv: 2, 3' }), 'd.csv: 2, 3');
    let reads = 0;
    const source = schemaSource(
      (f) => (reads++, f === 'ok.json' ? '{"type": "object"}' : f === 'bad.json' ? '{' : undefined),
    );
    assert.deepEqual(source('ok.json'), { ok: true, schema: { type: 'object' } });
    source('ok.json');
    assert.equal(reads, 1);
    assert.match((source('bad.json') as { message: string }).message, /^The schema file bad\.json is not JSON$/);
    assert.deepEqual(source('none.json'), {
      ok: false,
      message:
        'The schema file none.json cannot be read (the path is relative to the payload, and files outside the workspace are not read)',
    });
    const ctx = { ...variables, variables: { city: 'Rome' }, env: (n: string) => (n === 'S' ? 'secret' : undefined) };
    const bind = (s: string) => {
      const p = parseExpectation(s);
      assert.ok(p.ok);
      return bindExpectation(p.expectation, ctx);
    };
    assert.deepEqual(bind('text contains "{{city}}!"'), { kind: 'text', op: 'contains', value: 'Rome!' });
    assert.deepEqual(bind('text contains "{{$env S}}"'), { kind: 'text', op: 'contains', value: '{{$env S}}' });
    assert.deepEqual((bind('json $.a == {"c": ["{{city}}"]}') as { value: unknown }).value, { c: ['Rome'] });
    assert.deepEqual((bind('json $.a contains "{{city}}"') as { value: unknown }).value, 'Rome');
    assert.equal(String((bind('text matches /{{city}}/') as { pattern: RegExp }).pattern), '/{{city}}/');
    assert.deepEqual(bind('status 200'), { kind: 'status', op: '==', value: 200 });
  });

  it('results tables as text and CSV (quoted, formulas defused)', () => {
    const rows: RowResult[] = [
      {
        kind: 'problem',
        label: 'd.csv (line 10)',
        row: { line: 10, name: 'd.csv (line 10)' },
        line: 1,
        message: 'd.csv:10: bad',
      },
      {
        kind: 'run',
        label: 'd.csv: Rome',
        row: { line: 2, name: 'd.csv: Rome' },
        result: {
          run: {},
          observed: { status: 200, elapsedMs: 1500, streamed: false },
          results: [{ line: 3, source: 'x', outcome: { passed: false, message: 'a, "b"\nc' } }],
          passed: false,
          tokens: 12,
        },
      },
      {
        kind: 'run',
        label: 'd.csv: Oslo',
        row: { line: 3, name: 'd.csv: Oslo' },
        result: { run: {}, observed: { elapsedMs: 5, streamed: false, failure: 'down' }, results: [], passed: true },
      },
    ];
    // In the file's order (line 2, 3, 10), not the names'.
    const table = resultsTable(rows);
    assert.deepEqual(table.rows, [
      ['d.csv: Rome', 'failed', '200', '1.5s', '12', 'line 4: a, "b"\nc'],
      ['d.csv: Oslo', 'passed', 'no answer', '5ms', '', ''],
      ['d.csv (line 10)', 'failed', 'not run', '', '', 'line 2: d.csv:10: bad'],
    ]);
    assert.equal(
      tableAsText({
        columns: ['a', 'bb'],
        rows: [
          ['xyz', 'q\nr'],
          ['', ''],
        ],
      }),
      'a    bb\n---  ---\nxyz  q⏎r\n',
    );
    assert.equal(
      tableAsCsv({
        columns: ['a', 'b'],
        rows: [
          ['=1+1', 'x,"y"'],
          ['-2', 'plain'],
        ],
      }),
      `a,b\r\n'=1+1,"x,""y"""\r\n'-2,plain\r\n`,
    );
  });
});
