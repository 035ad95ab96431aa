// The SARIF log of `model-access references` (issue 45) is valid SARIF 2.1.0 against the official schema:
// a rule per lifecycle state, one result per reference at its place, the successor in the message.
import * as assert from 'node:assert/strict';
import { sarifLog } from '../../../src/cli/sarif';
import { DEFAULT_WARN_DAYS, judgeReference } from '../../../src/references/core/referenceState';
import type { ModelReference } from '../../../src/references/core/types';
import { sarifErrors } from '../helpers/sarifSchema';

const NOW = Date.UTC(2026, 10, 29);
const ref = (id: string, line: number, character: number, extra: Partial<ModelReference> = {}): ModelReference => ({
  id,
  line,
  character,
  length: id.length,
  listed: true,
  ...extra,
});
const judge = (r: ModelReference, raw?: Record<string, unknown>, gone = false) =>
  judgeReference(r, raw ? { id: r.id, raw: { id: r.id, ...raw } } : undefined, {
    now: NOW,
    warnDays: DEFAULT_WARN_DAYS,
    goneIds: new Set(gone ? [r.id] : []),
  });

interface Log {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string; defaultConfiguration: { level: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      kind?: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
      properties: Record<string, string>;
    }[];
  }[];
}

describe('cli: references SARIF 2.1.0', () => {
  const refs = [
    { file: 'app.py', ref: ref('basalt-code-2', 2, 19) },
    { file: 'config/models.yaml', ref: ref('tern-asr-3', 1, 7) },
    { file: 'src/a b#c.ts', ref: ref('kestrel-reasoner-1', 0, 15) },
    { file: 'x.py', ref: ref('aurora-3', 4, 0, { listed: false, nearest: 'aurora-2' }) },
    { file: 'y.py', ref: ref('old-1', 0, 0) },
    { file: 'z.py', ref: ref('soon-1', 0, 0) },
    { file: 'p.py', ref: ref('new-1', 0, 0) },
  ];
  const verdicts = [
    judge(refs[0].ref, { deprecated: true, deprecation_date: '2026-01-31', replacement: 'basalt-code-2.1' }),
    judge(refs[1].ref, undefined, true),
    judge(refs[2].ref, {}),
    judge(refs[3].ref),
    judge(refs[4].ref, { retirement_date: '2026-01-01', replacement: 'new-1' }),
    judge(refs[5].ref, { retirement_date: '2027-06-30' }),
    judge(refs[6].ref, { lifecycle_status: 'preview' }),
  ];
  const log = sarifLog(refs.map((r, i) => ({ ...r, verdict: verdicts[i] }))) as Log;

  it('validates against the official SARIF 2.1.0 schema', () => {
    assert.deepEqual(sarifErrors(log), []);
    assert.equal(log.version, '2.1.0');
  });

  it('the schema check itself refuses a broken log (so a pass means something)', () => {
    assert.notDeepEqual(sarifErrors({ version: '2.1.0', runs: [{ results: [] }] }), []);
    assert.notDeepEqual(sarifErrors({ ...log, version: '2.0.0' }), []);
    const badRegion = structuredClone(log);
    badRegion.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    assert.notDeepEqual(sarifErrors(badRegion), []);
  });

  it('a rule per lifecycle state; one result per reference, its level, place (1-based) and message', () => {
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'model-access');
    assert.deepEqual(
      run.tool.driver.rules.map((r) => [r.id, r.defaultConfiguration.level]),
      [
        ['model-access/retired', 'error'],
        ['model-access/gone', 'error'],
        ['model-access/retiring', 'warning'],
        ['model-access/deprecated', 'warning'],
        ['model-access/unknown', 'note'],
        ['model-access/preview', 'none'],
        ['model-access/current', 'none'],
      ],
    );
    assert.equal(run.results.length, 7);
    for (const r of run.results) {
      assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
    }
    assert.deepEqual(
      run.results.map((r) => [r.ruleId, r.level, r.kind]),
      [
        ['model-access/deprecated', 'warning', undefined],
        ['model-access/gone', 'error', undefined],
        ['model-access/current', 'none', 'pass'],
        ['model-access/unknown', 'note', undefined],
        ['model-access/retired', 'error', undefined],
        ['model-access/retiring', 'warning', undefined],
        ['model-access/preview', 'none', 'pass'],
      ],
    );
    const first = run.results[0];
    assert.equal(first.message.text, 'Model basalt-code-2 is deprecated since 2026-01-31. Use basalt-code-2.1.');
    assert.deepEqual(first.locations[0].physicalLocation.region, {
      startLine: 3,
      startColumn: 20,
      endLine: 3,
      endColumn: 33,
    });
    assert.deepEqual(first.properties, {
      model: 'basalt-code-2',
      state: 'deprecated',
      successor: 'basalt-code-2.1',
      date: '2026-01-31T00:00:00.000Z',
    });
    assert.equal(run.results[2].locations[0].physicalLocation.artifactLocation.uri, 'src/a%20b%23c.ts');
    assert.equal(run.results[3].properties.didYouMean, 'aurora-2');
    assert.match(run.results[4].message.text, /Use new-1\.$/);
  });
});
