// The graders' lines: `similar "…" >= 0.8`, `judge "…"`, `@grader judge=… embeddings=…`, read and refused
// with messages that say what to write.
import * as assert from 'node:assert/strict';
import { readCheckLines } from '../../../src/checks/core/checkFile';
import { describeExpectation, parseExpectation } from '../../../src/checks/core/expectations';
import { leadingString, parseGraderLine, parseJudge, parseSimilar } from '../../../src/checks/core/graders';

describe('checks/core/graders', () => {
  it('reads similar with a reference and a threshold, each comparison', () => {
    assert.deepEqual(parseSimilar(' "Paris is the capital of France." >= 0.8'), {
      ok: true,
      expectation: { kind: 'similar', reference: 'Paris is the capital of France.', op: '>=', threshold: 0.8 },
    });
    for (const [op, text] of [
      ['>', '> .5'],
      ['<=', '<= 1'],
      ['<', '<0'],
      ['>=', '>= 0'],
    ] as const) {
      const p = parseSimilar(`"x" ${text}`);
      assert.ok(p.ok && p.expectation.kind === 'similar' && p.expectation.op === op, text);
    }
    const escaped = parseSimilar('"say \\"hi\\"" >= 0.5');
    assert.ok(escaped.ok && escaped.expectation.kind === 'similar' && escaped.expectation.reference === 'say "hi"');
  });

  it('refuses a threshold outside 0–1, a missing threshold or text', () => {
    for (const bad of ['"x" >= 1.5', '"x" >= -0.1', '"x" >= abc', '"x" >= ', '"x" >= 1.', '"x" >= 0.8 extra']) {
      const p = parseSimilar(bad);
      assert.ok(!p.ok && /threshold is a number from 0 to 1/.test(p.message), `${bad}: ${JSON.stringify(p)}`);
    }
    const none = parseSimilar('"x"');
    assert.ok(!none.ok && /needs a threshold after the text/.test(none.message));
    const eq = parseSimilar('"x" == 0.5');
    assert.ok(!eq.ok && /needs a threshold/.test(eq.message));
    for (const bad of ['', 'Paris >= 0.8', '"" >= 0.8', '"  " >= 0.8', '"open >= 0.8']) {
      const p = parseSimilar(bad);
      assert.ok(!p.ok && /needs a reference text in double quotes/.test(p.message), bad);
    }
  });

  it('reads every way a person writes a threshold, and refuses what only looks like one', () => {
    for (const [text, threshold] of [
      ['0.85', 0.85],
      ['.85', 0.85],
      ['.125', 0.125],
      ['00.5', 0.5],
      ['1.0', 1],
    ] as const) {
      const p = parseSimilar(`"x" >= ${text}`);
      assert.ok(p.ok && p.expectation.kind === 'similar' && p.expectation.threshold === threshold, text);
    }
    // Numbers JavaScript reads but a threshold is not written as: refused, not read as 0.1 or 0.
    for (const bad of ['1e-1', '0x0', '0.8x', 'x0.8', '.5.5', '1e0', '+.5', '.5e-1']) {
      const p = parseSimilar(`"x" >= ${bad}`);
      assert.ok(!p.ok && p.message === `the similarity threshold is a number from 0 to 1, not "${bad}"`, bad);
    }
  });

  it('@grader: spaces, tabs and case around the roles; a part with a second "=" keeps it in the model', () => {
    assert.deepEqual(parseGraderLine('  judge=aurora-1 \t  EMBEDDINGS=cirrus-embed-1  '), {
      ok: true,
      models: { judge: 'aurora-1', embeddings: 'cirrus-embed-1' },
    });
    for (const bad of ['=aurora-1', 'judge=', 'judge']) {
      const p = parseGraderLine(bad);
      assert.ok(!p.ok && p.message === `write each grader as role=MODEL, not "${bad}"`, bad);
    }
  });

  it('reads judge with one criterion, and refuses anything else', () => {
    assert.deepEqual(parseJudge(' "The answer names Paris" '), {
      ok: true,
      expectation: { kind: 'judge', criterion: 'The answer names Paris' },
    });
    const trailing = parseJudge('"a" "b"');
    assert.ok(!trailing.ok && trailing.message === 'judge takes one criterion in double quotes; ""b"" follows it');
    for (const bad of ['', 'names Paris', '""', '" "']) {
      const p = parseJudge(bad);
      assert.ok(!p.ok && /judge needs a criterion in double quotes/.test(p.message), bad);
    }
  });

  it('leadingString reads one JSON string and what follows, and nothing else', () => {
    assert.deepEqual(leadingString('"a\\nb" rest '), { value: 'a\nb', rest: 'rest' });
    assert.equal(leadingString('x "a"'), undefined);
    assert.equal(leadingString('"\\x"'), undefined);
    assert.deepEqual(leadingString('""'), { value: '', rest: '' });
  });

  it('reads @grader roles, and refuses an unknown role, a repeated one, or a word without a model', () => {
    assert.deepEqual(parseGraderLine(' judge=aurora-2  embeddings=cirrus-embed-1 '), {
      ok: true,
      models: { judge: 'aurora-2', embeddings: 'cirrus-embed-1' },
    });
    assert.deepEqual(parseGraderLine('Embeddings=acme/sable-7b:q4'), {
      ok: true,
      models: { embeddings: 'acme/sable-7b:q4' },
    });
    assert.deepEqual(parseGraderLine('critic=x'), {
      ok: false,
      message: '"critic" is not a grader role; the roles are judge, embeddings',
    });
    assert.deepEqual(parseGraderLine('judge=a judge=b'), { ok: false, message: 'the grader judge is named twice' });
    assert.deepEqual(parseGraderLine('judge'), { ok: false, message: 'write each grader as role=MODEL, not "judge"' });
    assert.deepEqual(parseGraderLine('judge='), {
      ok: false,
      message: 'write each grader as role=MODEL, not "judge="',
    });
    assert.deepEqual(parseGraderLine('  '), {
      ok: false,
      message: '@grader names grader models, as in: // @grader judge=MODEL embeddings=MODEL',
    });
  });

  it('the expectation parser knows both forms and writes them back', () => {
    const s = parseExpectation('similar "Paris" >= 0.8');
    assert.ok(s.ok);
    assert.equal(describeExpectation(s.expectation), 'similar "Paris" >= 0.8');
    const j = parseExpectation('judge "Names Paris"');
    assert.ok(j.ok);
    assert.equal(describeExpectation(j.expectation), 'judge "Names Paris"');
  });

  it('reads @grader, @repeat and @pass-rate lines; a second or unreadable one is a problem that blocks the run', () => {
    const lines = readCheckLines(
      [
        '// POST /v1/chat',
        '// @grader judge=aurora-2',
        '// @repeat 5',
        '//   @pass-rate 80%',
        '// @repeat 3',
        '// @grader critic=x',
        '// @pass-ratex 1',
        '{}',
      ].join('\n'),
    );
    assert.deepEqual(lines.grader, { line: 1, models: { judge: 'aurora-2' } });
    assert.deepEqual(lines.repeat, { line: 2, count: 5 });
    assert.deepEqual(lines.passRate, { line: 3, rate: 0.8 });
    assert.deepEqual(lines.problems, [
      { line: 4, message: 'A payload has one @repeat line; this second one is not read' },
      { line: 5, message: 'A payload has one @grader line; this second one is not read' },
    ]);
    const bad = readCheckLines('// @repeat 0\n// @pass-rate 2\n// @grader x=y\n');
    assert.deepEqual(
      bad.problems.map((p) => [p.line, p.blocks]),
      [
        [0, true],
        [1, true],
        [2, true],
      ],
    );
    assert.equal(bad.repeat, undefined);
  });
});
