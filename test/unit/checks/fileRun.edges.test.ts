// A payload file as a check run, against a stand-in client: what a run that cannot start reports (no rows),
// a schema file that is not JSON, and Test Explorer running one child row of a dataset with problems.
import * as assert from 'node:assert/strict';
import type { ModelService, PostResult } from '../../../src/api/types';
import { runCheckFile, type FileRunDeps } from '../../../src/checks/core/fileRun';

const variables = { variables: {}, environment: 'test', env: () => undefined, uuid: () => 'u', now: () => 0 };

const client = {
  post: async (): Promise<PostResult> => ({
    status: 200,
    statusText: 'OK',
    headers: {},
    elapsedMs: 1,
    contentType: 'application/json',
    body: { json: { output_text: '{"a": 1}' }, text: '{"output_text": "{\\"a\\": 1}"}', bytes: 10, truncated: false },
  }),
} as unknown as ModelService;

function deps(files: Record<string, string>, over: Partial<FileRunDeps> = {}): FileRunDeps {
  return {
    target: async () => ({ client, variables }),
    readText: (f) => files[f],
    concurrency: 2,
    maxRows: 100,
    signal: new AbortController().signal,
    ...over,
  };
}

describe('checks/core/fileRun: runs that cannot start, schema files, one row of a dataset', () => {
  it('a payload that cannot run reports the reason and no rows', async () => {
    const head = '// POST /v1/responses\n';
    assert.deepEqual(await runCheckFile(`${head}// @expect status 200\n{,}`, deps({})), {
      notRunnable: { message: 'The payload is not valid JSON at line 3, column 2: a value is expected', line: 2 },
      rows: [],
      skippedRows: 0,
    });
    assert.deepEqual(await runCheckFile(`${head}// @each x.jsonl\n// @expect status 200\n{}`, deps({})), {
      notRunnable: {
        message:
          'The dataset x.jsonl cannot be read (the path is relative to the payload, and files outside the workspace are not read)',
        line: 1,
      },
      rows: [],
      skippedRows: 0,
    });
    const noEnv = await runCheckFile(
      `${head}// @expect status 200\n{}`,
      deps({}, { target: async () => ({ problem: 'no environment' }) }),
    );
    assert.deepEqual(noEnv, { notRunnable: { message: 'no environment', line: 0 }, rows: [], skippedRows: 0 });
  });

  it('a schema file that is not JSON fails the check with that reason', async () => {
    const r = await runCheckFile('// POST /v1/responses\n// @expect text schema s.json\n{}', deps({ 's.json': '{' }));
    const [row] = r.rows;
    assert.ok(row.kind === 'run');
    assert.match(row.result.results[0].outcome.message ?? '', /^The schema file s\.json is not JSON$/);
  });

  it('running one row of a dataset reports that row only, not the problems of other rows', async () => {
    const text = '// POST /v1/responses\n// @each rows.jsonl\n// @expect status 200\n{"input": "{{q}}"}';
    const files = { 'rows.jsonl': '{"q": "a"}\nnot json\n' };
    const r = await runCheckFile(text, deps(files, { onlyRows: new Set([1]) }));
    assert.deepEqual(
      r.rows.map((x) => x.label),
      ['rows.jsonl: a'],
    );
  });
});
