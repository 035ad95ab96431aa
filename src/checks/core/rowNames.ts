/**
 * What a dataset row of `// @each` is called wherever its result shows (Test Explorer, the results table, the
 * grid of several models, the command line and JUnit): the dataset and the row's first values, which say
 * which case it is (`sums.csv: 2, 3`) where a line number (`sums.csv:4`) says nothing. The names of one
 * dataset are unique — attempts of a repeated request are grouped by them — so rows whose first values are
 * the same carry their line as well. Pure; no `vscode` import.
 */
import { l10n } from '../../common/l10n';
import { displayText, type DisplayText } from '../../common/text';
import type { DatasetRow } from '../../domain/payload/dataset';

/** How many of a row's values its name shows, and how long the values part may be. */
const SHOWN_VALUES = 3;
const MAX_VALUES = 40;

/** A row's first values as one line of display text (cleaned, `…` past the limit); '' when they are all empty. */
export function firstValues(row: DatasetRow): DisplayText | '' {
  const values = Object.values(row.values).slice(0, SHOWN_VALUES);
  if (values.every((v) => v.trim() === '')) {
    return '';
  }
  return displayText(values.map((v) => v.trim()).join(', '), MAX_VALUES);
}

/**
 * The name of every row of a dataset by its 1-based line: `cases.jsonl: Paris, France`, with ` (line 7)` when
 * another row starts with the same values; a row that cannot be read, or has only empty values, is
 * `cases.jsonl (line 7)`.
 */
export function rowNames(
  dataset: string,
  rows: readonly DatasetRow[],
  problems: readonly { line: number }[] = [],
): Map<number, DisplayText> {
  const file = displayText(dataset, 80);
  const byLine = new Map<number, DisplayText | ''>();
  const lines = new Map<string, number[]>();
  for (const row of rows) {
    const values = firstValues(row);
    const name = values === '' ? '' : l10n.t('{0}: {1}', file, values);
    byLine.set(row.line, name);
    lines.set(name, [...(lines.get(name) ?? []), row.line]);
  }
  for (const [line, name] of byLine) {
    if (name === '') {
      byLine.set(line, l10n.t('{0} (line {1})', file, line));
    } else if ((lines.get(name) ?? []).length > 1) {
      byLine.set(line, l10n.t('{0} (line {1})', name, line));
    }
  }
  for (const p of problems) {
    byLine.set(p.line, l10n.t('{0} (line {1})', file, p.line));
  }
  // A value that itself ends in "(line 7)" could meet a name made unique above: the bare line then, which
  // no row with values can have (theirs have `: ` after the file).
  const seen = new Set<string>();
  const unique = new Map<number, DisplayText>();
  for (const [line, name] of byLine) {
    const named = name === '' || seen.has(name) ? l10n.t('{0} (line {1})', file, line) : name;
    unique.set(line, named);
    seen.add(named);
  }
  return unique;
}

/** A request's dataset row: its line (what ids and ordering use) and its name (what people read). */
export interface RowRef {
  line: number;
  name: string;
}
