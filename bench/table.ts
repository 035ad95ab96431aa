/** The result rows and their two renderings: an aligned console table and a Markdown table (docs/benchmarks.md). */

export type Verdict = 'met' | 'missed' | 'info' | 'n/a';

export interface Row {
  /** Section, e.g. `Catalog 100k / page 1000`. */
  scenario: string;
  /** What was measured, e.g. `ratio client/raw`. */
  metric: string;
  /** The client's (or extension's) figure, already formatted. */
  value: string;
  /** The raw floor's figure in the same run, when there is one. */
  floor?: string;
  /** The target as text, e.g. `≤ 1.10`. */
  target?: string;
  verdict: Verdict;
}

const HEADERS = ['Scenario', 'Metric', 'Extension', 'Raw floor', 'Target', 'Result'];

function cells(r: Row): string[] {
  const verdict = r.verdict === 'met' ? 'met' : r.verdict === 'missed' ? 'MISSED' : r.verdict === 'n/a' ? 'n/a' : '';
  return [r.scenario, r.metric, r.value, r.floor ?? '', r.target ?? '', verdict];
}

export function renderConsole(rows: readonly Row[]): string {
  const data = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...data.map((row) => [...row[i]].length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c + ' '.repeat(widths[i] - [...c].length))
      .join('  ')
      .trimEnd();
  const out = [line(HEADERS), widths.map((w) => '─'.repeat(w)).join('  ')];
  let last = '';
  for (const r of rows) {
    const row = cells(r);
    if (r.scenario === last) {
      row[0] = '';
    }
    last = r.scenario;
    out.push(line(row));
  }
  return out.join('\n');
}

export function renderMarkdown(rows: readonly Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map(() => '---').join('|')}|`];
  for (const r of rows) {
    out.push(`| ${cells(r).map(esc).join(' | ')} |`);
  }
  return out.join('\n');
}

export function verdict(ok: boolean | undefined): Verdict {
  return ok === undefined ? 'n/a' : ok ? 'met' : 'missed';
}

/** Every row with a target, one line each: met or MISSED, the figure and the target. */
export function renderTargets(rows: readonly Row[]): string {
  const targeted = rows.filter((r) => r.target);
  const lines = targeted.map((r) => {
    const mark = r.verdict === 'met' ? 'met   ' : r.verdict === 'missed' ? 'MISSED' : 'n/a   ';
    return `  ${mark}  ${r.scenario} · ${r.metric}: ${r.value} (target ${r.target})`;
  });
  const met = targeted.filter((r) => r.verdict === 'met').length;
  const missed = targeted.filter((r) => r.verdict === 'missed').length;
  return [`Targets: ${met} met, ${missed} missed, ${targeted.length - met - missed} not decided`, ...lines].join('\n');
}

/** The rows with a target, as a Markdown table (CONTRIBUTING.md). */
export function renderTargetsMarkdown(rows: readonly Row[]): string {
  return renderMarkdown(rows.filter((r) => r.target));
}
