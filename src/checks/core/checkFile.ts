/**
 * The check lines of a payload: `// @expect …` (one expectation each) and `// @each FILE` (a dataset), each
 * a whole-line comment anywhere in the file (usually under the `// POST` line), with its 0-based line.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import { parseExpectation, type Expectation } from './expectations';
import { parseGraderLine, type GraderModels } from './graders';
import { parsePassRate, parseRepeat } from './repeats';

export interface ExpectationLine {
  /** 0-based line. */
  line: number;
  /** Where the expectation's text starts on the line (0-based column), and its text. */
  column: number;
  source: string;
  expectation?: Expectation;
  /** Why the line is not an expectation (a diagnostic there, and a failure of the test). */
  problem?: string;
}

export interface EachLine {
  line: number;
  column: number;
  file: string;
  problem?: string;
}

export interface CheckLines {
  expectations: ExpectationLine[];
  each?: EachLine;
  /** Problems of lines other than expectations (a second `@each`, a `@repeat 0`). */
  problems: { line: number; message: string; blocks?: true }[];
  /** `// @grader judge=MODEL embeddings=MODEL`. */
  grader?: { line: number; models: GraderModels };
  /** `// @repeat N`. */
  repeat?: { line: number; count: number };
  /** `// @pass-rate 0.8`. */
  passRate?: { line: number; rate: number };
}

const DIRECTIVE = /^(\s*\/\/\s*)@(expect|each|grader|repeat|pass-rate)(?![\w-])(.*)$/i;

/** Whether a payload holds at least one `// @expect` line (what makes it a test). */
export function hasChecks(text: string): boolean {
  return /^[ \t]*\/\/[ \t]*@expect\b/im.test(text);
}

export function readCheckLines(text: string): CheckLines {
  const out: CheckLines = { expectations: [], problems: [] };
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const raw = lines[line].replace(/\r$/, '').replace(/^\uFEFF/, '');
    const m = DIRECTIVE.exec(raw);
    if (!m) {
      continue;
    }
    const rest = m[3];
    const lead = rest.length - rest.trimStart().length;
    const column = m[1].length + 1 + m[2].length + lead;
    const source = rest.trim();
    const word = m[2].toLowerCase();
    if (word === 'grader' || word === 'repeat' || word === 'pass-rate') {
      runOption(out, word, source, line);
    } else if (word === 'expect') {
      const parsed = parseExpectation(source);
      out.expectations.push(
        parsed.ok
          ? { line, column, source, expectation: parsed.expectation }
          : { line, column, source, problem: parsed.message },
      );
    } else if (out.each) {
      out.problems.push({ line, message: l10n.t('A payload runs over one dataset; this second @each is not read') });
    } else {
      const file = source.replace(/^"(.*)"$/, '$1');
      out.each =
        file === ''
          ? { line, column, file, problem: l10n.t('@each needs a dataset file, as in: // @each cases.jsonl') }
          : !/\.(jsonl|ndjson|csv)$/i.test(file)
            ? { line, column, file, problem: l10n.t('@each reads .jsonl or .csv files, not {0}', file) }
            : { line, column, file };
    }
  }
  return out;
}

/** `@grader`, `@repeat`, `@pass-rate`: the first of each counts; a second, or one that cannot be read, is a problem. */
function runOption(out: CheckLines, word: 'grader' | 'repeat' | 'pass-rate', source: string, line: number): void {
  const key = word === 'pass-rate' ? 'passRate' : word;
  if (out[key] !== undefined) {
    out.problems.push({ line, message: l10n.t('A payload has one @{0} line; this second one is not read', word) });
    return;
  }
  // A run option that cannot be read stops the check: running once where five were asked would mislead.
  const problem = (message: string) => out.problems.push({ line, message, blocks: true });
  if (word === 'grader') {
    const g = parseGraderLine(source);
    if (g.ok) {
      out.grader = { line, models: g.models };
    } else {
      problem(g.message);
    }
  } else if (word === 'repeat') {
    const r = parseRepeat(source);
    if (r.ok) {
      out.repeat = { line, count: r.count };
    } else {
      problem(r.message);
    }
  } else {
    const p = parsePassRate(source);
    if (p.ok) {
      out.passRate = { line, rate: p.rate };
    } else {
      problem(p.message);
    }
  }
}
