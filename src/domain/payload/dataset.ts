/**
 * Dataset files for `// @each FILE`: JSON Lines (one object per line) or CSV (a header row, then one row per
 * record; RFC 4180 quoting: `"…"` fields may hold commas, line breaks and `""` for a quote). Each row's
 * fields become `{{…}}` variables. A row that cannot be read is a problem naming file:line, which fails as
 * its own row rather than being skipped. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';

export interface DatasetRow {
  /** 1-based line where the row starts in the file. */
  line: number;
  values: Record<string, string>;
}

export interface DatasetProblem {
  line: number;
  message: string;
}

export interface Dataset {
  rows: DatasetRow[];
  problems: DatasetProblem[];
}

export function datasetKind(file: string): 'jsonl' | 'csv' | undefined {
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    return 'jsonl';
  }
  return /\.csv$/i.test(file) ? 'csv' : undefined;
}

export function readDataset(text: string, file: string): Dataset {
  const body = text.replace(/^\uFEFF/, '');
  return datasetKind(file) === 'csv' ? readCsv(body, file) : readJsonLines(body, file);
}

/** A value as a variable holds it: strings as they are, anything else as its JSON. */
function asVariable(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function readJsonLines(text: string, file: string): Dataset {
  const out: Dataset = { rows: [], problems: [] };
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const l = raw.replace(/\r$/, '').trim();
    if (l === '') {
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(l);
    } catch (e) {
      out.problems.push({ line, message: l10n.t('{0}:{1}: not valid JSON ({2})', file, line, (e as Error).message) });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      out.problems.push({
        line,
        message: l10n.t('{0}:{1}: each line must be a JSON object such as {"city": "Paris"}', file, line),
      });
      return;
    }
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      values[k] = asVariable(v);
    }
    out.rows.push({ line, values });
  });
  return out;
}

/** The records of a CSV text, each with the line it starts on; an unterminated quote is a problem. */
export function splitCsv(text: string): { records: { line: number; fields: string[] }[]; unterminated?: number } {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let quoteLine = 0;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        if (c === '\n') {
          line++;
        }
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
      any = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') {
        i++;
      }
      if (any || field !== '') {
        fields.push(field);
        records.push({ line: start, fields });
      }
      fields = [];
      field = '';
      any = false;
      line++;
      start = line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) {
    return { records, unterminated: quoteLine };
  }
  if (any || field !== '') {
    fields.push(field);
    records.push({ line: start, fields });
  }
  return { records };
}

export function readCsv(text: string, file: string): Dataset {
  const out: Dataset = { rows: [], problems: [] };
  const { records, unterminated } = splitCsv(text);
  if (unterminated !== undefined) {
    out.problems.push({
      line: unterminated,
      message: l10n.t(
        '{0}:{1}: a quoted field is never closed (a quote inside a field is written "")',
        file,
        unterminated,
      ),
    });
  }
  const header = records.shift();
  if (!header) {
    if (unterminated === undefined) {
      out.problems.push({ line: 1, message: l10n.t('{0}: the file is empty; the first row names the columns', file) });
    }
    return out;
  }
  const names = header.fields.map((f) => f.trim());
  const empty = names.findIndex((n) => n === '');
  if (empty >= 0) {
    out.problems.push({
      line: header.line,
      message: l10n.t('{0}:{1}: column {2} of the header has no name', file, header.line, empty + 1),
    });
    return out;
  }
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) {
    out.problems.push({
      line: header.line,
      message: l10n.t('{0}:{1}: the column {2} is named twice', file, header.line, twice),
    });
    return out;
  }
  for (const record of records) {
    if (record.fields.length !== names.length) {
      out.problems.push({
        line: record.line,
        message: l10n.t(
          '{0}:{1}: {2} fields, but the header names {3} columns (a field holding a comma needs quotes)',
          file,
          record.line,
          record.fields.length,
          names.length,
        ),
      });
      continue;
    }
    const values: Record<string, string> = {};
    names.forEach((n, i) => (values[n] = record.fields[i]));
    out.rows.push({ line: record.line, values });
  }
  return out;
}
