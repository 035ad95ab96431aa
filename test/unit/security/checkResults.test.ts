// Check results never keep a {{$env}} value a service echoes: not in the expectation's message, its actual
// value (cut at 2,000 characters after redaction, so a secret straddling the cut leaves nothing), the results
// table or the saved CSV; short values go where they stand as a whole token.
import * as assert from 'node:assert/strict';
import type { ModelService } from '../../../src/api/types';
import { firstFailure, runCheckFile } from '../../../src/checks/core/fileRun';
import { resultsTable, tableAsCsv, tableAsText } from '../../../src/checks/core/resultsTable';

/** A service answering with the prompt it was sent, as text. */
const echo = {
  post: async (_endpoint: string, json: string) => {
    const content = (JSON.parse(json) as { messages: { content: string }[] }).messages[0].content;
    const body = { choices: [{ message: { content } }] };
    return {
      status: 200,
      statusText: 'OK',
      headers: {},
      elapsedMs: 1,
      contentType: 'application/json',
      body: { json: body, text: JSON.stringify(body), bytes: 1, truncated: false },
    };
  },
} as unknown as ModelService;

describe('security: check results hold no echoed secret', () => {
  it('redacted before the cut, in messages, the table and the CSV; short values as whole tokens', async () => {
    const long = 'Sup3r-Secret-Value-0123456789';
    const short = 'k9z';
    const text = `// POST /v1/chat\n// @expect text contains "nowhere"\n// @expect json $.choices[0].message.content == "y"\n${JSON.stringify(
      {
        model: 'm',
        messages: [{ role: 'user', content: `${'x'.repeat(1990)}{{$env LONG}} and {{$env SHORT}}, not k9zebra` }],
      },
    )}`;
    const result = await runCheckFile(text, {
      target: async () => ({
        client: echo,
        variables: {
          variables: {},
          env: (n) => (n === 'LONG' ? long : n === 'SHORT' ? short : undefined),
          uuid: () => '',
          now: () => 0,
        },
      }),
      readText: () => undefined,
      concurrency: 1,
      maxRows: 1,
      signal: new AbortController().signal,
    });
    const row = result.rows[0];
    assert.ok(row.kind === 'run');
    const failure = firstFailure(row);
    const shown = [
      ...row.result.results.flatMap((r) => [r.outcome.message ?? '', r.outcome.actual ?? '', r.outcome.expected ?? '']),
      tableAsText(resultsTable(result.rows)),
      tableAsCsv(resultsTable(result.rows)),
      failure?.actual ?? '',
    ].join('\n');
    for (const part of [long, long.slice(0, 10), long.slice(0, 5)]) {
      assert.ok(!shown.includes(part), `the secret shows as ${part}`);
    }
    assert.doesNotMatch(shown, /\bk9z\b/);
    assert.match(shown, /k9zebra/, 'a short value inside a word is left');
    assert.match(
      row.result.results[0].outcome.actual ?? '',
      /x\[reda/,
      'the cut falls inside the mark, not the secret',
    );
  });
});
