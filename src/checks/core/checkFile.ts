/**
 * The check lines of a payload: `// @expect …` (one expectation each) and `// @each FILE` (a dataset), each
 * a whole-line comment anywhere in the file (usually under the `// POST` line), with its 0-based line.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import { parseExpectation, type Expectation } from './expectations';

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
  /** Problems of lines other than expectations (a second `@each`). */
  problems: { line: number; message: string }[];
}

const DIRECTIVE = /^(\s*\/\/\s*)@(expect|each)\b(.*)$/i;

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
    if (m[2].toLowerCase() === 'expect') {
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
