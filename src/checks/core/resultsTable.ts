/**
 * The tables of a check run: one row per request (row, status, time, tokens, the first failed expectation),
 * and for a several-models run one row per model (pass rate, median time). As aligned text for the test
 * output and as CSV to save. Pure; no `vscode` import.
 */
import { visibleControls } from '../../common/controlChars';
import { l10n } from '../../common/plainL10n';
import { formatMs } from './expectations';
import { firstFailure, inFileOrder, type RowResult } from './fileRun';
import { median } from './planner';

export interface Table {
  columns: string[];
  rows: string[][];
  /**
   * The last column is a sentence (the first failed expectation): the text form writes it under its row,
   * wrapped at spaces, instead of as a column that would run past the output's edge and break mid-word.
   */
  note?: boolean;
}

/** How wide a line of the text form may be: Test Results beside its tree at 900 px shows about 64 columns. */
const TEXT_WIDTH = 64;

function statusOf(row: RowResult): string {
  if (row.kind === 'problem') {
    return l10n.t('not run');
  }
  return row.result.observed.status === undefined ? l10n.t('no answer') : String(row.result.observed.status);
}

export function resultsTable(rows: readonly RowResult[]): Table {
  return {
    note: true,
    columns: [
      l10n.t('row'),
      l10n.t('result'),
      l10n.t('status'),
      l10n.t('time'),
      l10n.t('tokens'),
      l10n.t('first failed expectation'),
    ],
    rows: [...rows].sort(inFileOrder).map((row) => {
      const failure = firstFailure(row);
      return [
        row.label,
        failure ? l10n.t('failed') : l10n.t('passed'),
        statusOf(row),
        row.kind === 'run' ? formatMs(row.result.observed.elapsedMs) : '',
        row.kind === 'run' && row.result.tokens !== undefined ? String(row.result.tokens) : '',
        failure ? `${l10n.t('line {0}', failure.line + 1)}: ${failure.message}` : '',
      ];
    }),
  };
}

/**
 * Pass rate and median time per model, in the order the models were asked for (`models`; without it, the order
 * their first answers came in, which concurrent requests make any order).
 */
export function modelTable(rows: readonly RowResult[], models: readonly string[] = []): Table {
  const byModel = new Map<string, RowResult[]>();
  for (const model of models) {
    if (rows.some((r) => r.kind === 'run' && r.result.run.model === model)) {
      byModel.set(model, []);
    }
  }
  for (const row of rows) {
    const model = row.kind === 'run' ? (row.result.run.model ?? '') : '';
    if (row.kind === 'run') {
      byModel.set(model, [...(byModel.get(model) ?? []), row]);
    }
  }
  return {
    columns: [l10n.t('model'), l10n.t('passed'), l10n.t('pass rate'), l10n.t('median time')],
    rows: [...byModel].map(([model, list]) => {
      const passed = list.filter((r) => firstFailure(r) === undefined).length;
      const times = list.flatMap((r) =>
        r.kind === 'run' && r.result.observed.status !== undefined ? [r.result.observed.elapsedMs] : [],
      );
      const m = median(times);
      return [
        model,
        `${passed}/${list.length}`,
        `${Math.round((passed / list.length) * 100)}%`,
        m === undefined ? '' : formatMs(m),
      ];
    }),
  };
}

/**
 * Columns padded to their widest cell; a cell's line breaks shown as ⏎ so each row stays one line, and its
 * other control characters made visible (Test Explorer's output is a terminal). A note column (see
 * {@link Table.note}) goes under its row, indented and wrapped at spaces.
 */
export function tableAsText(table: Table, width = TEXT_WIDTH): string {
  const flat = (cell: string) => visibleControls(cell.replace(/\r?\n/g, '⏎'));
  const shown = table.note ? table.columns.length - 1 : table.columns.length;
  const all = [table.columns, ...table.rows].map((r) => r.slice(0, shown).map(flat));
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length)))
      .join('  ')
      .trimEnd();
  const out = [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  ')];
  table.rows.forEach((row, i) => {
    out.push(line(all[i + 1]));
    const note = table.note ? flat(row[shown] ?? '') : '';
    if (note !== '') {
      out.push(...wrapWords(note, width - 4).map((l) => `    ${l}`));
    }
  });
  return out.join('\n');
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word is cut: nothing else fits). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/ +/)) {
    let rest = [...word];
    if (current !== '' && [...current].length + 1 + rest.length <= width) {
      current += ` ${word}`;
      continue;
    }
    if (current !== '') {
      lines.push(current);
    }
    while (rest.length > width) {
      lines.push(rest.slice(0, width).join(''));
      rest = rest.slice(width);
    }
    current = rest.join('');
  }
  if (current !== '') {
    lines.push(current);
  }
  return lines;
}

/** RFC 4180: fields with a comma, quote or line break in quotes, quotes doubled; CRLF between records. */
export function tableAsCsv(table: Table): string {
  const field = (c: string) => {
    // A leading =, +, - or @ would be a formula in a spreadsheet: the answer's text is not trusted.
    const safe = /^[=+\-@\t\r]/.test(c) ? `'${c}` : c;
    // `;` too: spreadsheets set to a list separator of `;` split the cell there.
    return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return `${[table.columns, ...table.rows].map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}
