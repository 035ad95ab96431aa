/**
 * The results of Run Checks on Several Models as a grid: a row per request of the payload (the payload
 * itself, or each dataset row), a column per model in the order they were asked for, and in each cell what a
 * person compares — passed or failed (and why), the graders' score, the time. Below, a summary per model
 * (pass rate, median time). The same grid is the webview's table and the CSV a person saves. Pure; no
 * `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import { formatMs } from './expectations';
import { firstFailure, type RowResult } from './fileRun';
import { median } from './planner';
import type { Table } from './resultsTable';
import { costText, tokensText, type Priced } from '../../domain/answerFacts';
import { formatTally, UsageTotals } from '../../domain/cost/totals';

export type CellState = 'passed' | 'failed' | 'noAnswer' | 'notRun';

export interface GridCell {
  state: CellState;
  /** What the cell says: "passed", "failed", "no answer", "not run"; "3 of 5 passed" for repeated requests. */
  text: string;
  /** The lowest of the graders' scores (`similar`, `judge`; each averaged over attempts); undefined without one. */
  score?: number;
  /** Every grader's score, "similar 0.91, judge 1" (the score's title). */
  scores?: string;
  /** The median time of the attempts that got an answer. */
  timeMs?: number;
  /** The tokens and cost of its attempts: `42 tokens (12 in, 30 out) · 0.000072 USD`; undefined when none answered. */
  usage?: string;
  /** Why it failed or did not run: the first failed expectation ("line 4: …") or the row's problem. */
  why?: string;
}

export interface GridRow {
  /** The payload's file name, or the dataset row's name (`cities.jsonl: Paris, France`). */
  label: string;
  /** One per model, in the grid's model order. */
  cells: GridCell[];
}

export interface ModelSummary {
  model: string;
  passed: number;
  /** Cells that ran (not "not run"). */
  ran: number;
  /** 0–100, rounded; undefined when nothing ran. */
  rate?: number;
  medianMs?: number;
  /** `3 requests, 126 tokens (…), 0.0002 USD`: what the model's requests used, unknowns said. */
  usage?: string;
}

export interface ModelGrid {
  /** The payload's file name. */
  payload: string;
  models: string[];
  rows: GridRow[];
  summary: ModelSummary[];
}

export interface GridInput {
  payload: string;
  /** The models as asked (the picker's order): the columns' order. */
  models: readonly string[];
  rows: readonly RowResult[];
  /** The dataset of `// @each`, when the payload runs over one. */
  dataset?: string;
  /** The share of attempts of a repeated request that must pass (`// @pass-rate`); default all. */
  passRate?: number;
  /** A request's model price and cost, once counted (the glue's meter); without it the grid says no cost. */
  pricedOf?: (row: RowResult) => Priced | undefined;
}

/** What some answered requests used: tokens and, when they are priced, cost (a sum only in one currency). */
function usageOf(runs: readonly RowResult[], pricedOf: GridInput['pricedOf']): string | undefined {
  const answered = runs.filter((r) => r.kind === 'run' && r.result.observed.status !== undefined);
  if (answered.length === 0) {
    return undefined;
  }
  const totals = new UsageTotals(() => '');
  for (const r of answered) {
    if (r.kind === 'run') {
      totals.add({
        model: '',
        environment: '',
        usage: r.result.observed.answer?.usage,
        cost: pricedOf?.(r)?.cost,
        at: 0,
      });
    }
  }
  const tally = totals.summary();
  if (answered.length === 1 && answered[0].kind === 'run') {
    const only = answered[0];
    const priced = pricedOf?.(only);
    const tokens = tokensText(only.result.observed.answer?.usage);
    return priced ? `${tokens} · ${costText(priced)}` : tokens;
  }
  if (pricedOf) {
    return formatTally(tally);
  }
  return tally.unknownTokens === tally.requests
    ? tokensText(undefined)
    : tokensText({ input: tally.inputTokens, output: tally.outputTokens, total: tally.totalTokens });
}

/** The row a request belongs to: its dataset row (named as everywhere else), else the payload itself. */
function rowLabel(row: RowResult, input: GridInput): string {
  return row.row?.name ?? input.payload;
}

/** The graded expectations of a request: their line, grader (`similar`, `judge`) and score. */
function gradeScores(row: RowResult): { line: number; name: string; score: number }[] {
  if (row.kind !== 'run') {
    return [];
  }
  return row.result.results.flatMap((r) =>
    r.outcome.score === undefined ? [] : [{ line: r.line, name: r.source.split(' ')[0], score: r.outcome.score }],
  );
}

export function formatScore(score: number): string {
  return String(Number(score.toFixed(2)));
}

function answered(row: RowResult): number | undefined {
  return row.kind === 'run' && row.result.observed.status !== undefined ? row.result.observed.elapsedMs : undefined;
}

/** One cell from the attempts of one request on one model (one attempt unless `// @repeat`). */
function cellOf(attempts: readonly RowResult[], passRate: number, pricedOf?: GridInput['pricedOf']): GridCell {
  if (attempts.length === 0) {
    return { state: 'notRun', text: l10n.t('not run') };
  }
  const failures = attempts.map(firstFailure);
  const passedCount = failures.filter((f) => f === undefined).length;
  const firstFailed = failures.find((f) => f !== undefined);
  const times = attempts.flatMap((a) => {
    const t = answered(a);
    return t === undefined ? [] : [t];
  });
  // Each grader's score, averaged over the attempts that were graded; the cell shows the lowest.
  const byGrader = new Map<number, { name: string; list: number[] }>();
  for (const g of attempts.flatMap(gradeScores)) {
    const found = byGrader.get(g.line) ?? { name: g.name, list: [] };
    found.list.push(g.score);
    byGrader.set(g.line, found);
  }
  const means = [...byGrader.values()].map(({ name, list }) => ({
    name,
    score: list.reduce((a, b) => a + b, 0) / list.length,
  }));
  const score = means.length === 0 ? undefined : Math.min(...means.map((m) => m.score));
  const scores = means.length === 0 ? undefined : means.map((m) => `${m.name} ${formatScore(m.score)}`).join(', ');
  const why = firstFailed ? `${l10n.t('line {0}', firstFailed.line + 1)}: ${firstFailed.message}` : undefined;
  const base = { score, scores, timeMs: median(times), why, usage: usageOf(attempts, pricedOf) };
  if (attempts.length > 1) {
    const passed = passedCount / attempts.length >= passRate;
    return {
      ...base,
      state: passed ? 'passed' : 'failed',
      text: l10n.t('{0} of {1} passed', passedCount, attempts.length),
      why: passed ? undefined : why,
    };
  }
  if (passedCount === 1) {
    return { ...base, state: 'passed', text: l10n.t('passed') };
  }
  return times.length === 0
    ? { ...base, state: 'noAnswer', text: l10n.t('no answer') }
    : { ...base, state: 'failed', text: l10n.t('failed') };
}

/**
 * The grid of a several-models run. A request of a model the run did not ask for is left out; a cell no
 * request reached (cancelled, or its dataset row could not be read) says "not run", with the row's problem.
 */
export function modelGrid(input: GridInput): ModelGrid {
  const models = [...new Set(input.models)];
  const byRow = new Map<string, { line: number; problem?: string; byModel: Map<string, RowResult[]> }>();
  const entry = (label: string, line = 0) => {
    let found = byRow.get(label);
    if (!found) {
      found = { line, byModel: new Map() };
      byRow.set(label, found);
    }
    return found;
  };
  if (input.dataset === undefined) {
    entry(input.payload);
  }
  for (const row of input.rows) {
    const e = entry(rowLabel(row, input), row.row?.line);
    if (row.kind === 'problem') {
      e.problem = row.message;
      continue;
    }
    const model = row.result.run.model;
    if (model !== undefined && models.includes(model)) {
      e.byModel.set(model, [...(e.byModel.get(model) ?? []), row]);
    }
  }
  const passRate = input.passRate ?? 1;
  const rows: GridRow[] = [...byRow]
    // The dataset file's order, not the names' (which would sort the cases alphabetically).
    .sort(([, a], [, b]) => a.line - b.line)
    .map(([label, e]) => ({
      label,
      cells: models.map((m) => {
        const cell = cellOf(e.byModel.get(m) ?? [], passRate, input.pricedOf);
        return cell.state === 'notRun' && e.problem !== undefined ? { ...cell, why: e.problem } : cell;
      }),
    }));
  const summary = models.map((model, i): ModelSummary => {
    const cells = rows.map((r) => r.cells[i]).filter((c) => c.state !== 'notRun');
    const passed = cells.filter((c) => c.state === 'passed').length;
    const times = input.rows.flatMap((r) => {
      const t = r.kind === 'run' && r.result.run.model === model ? answered(r) : undefined;
      return t === undefined ? [] : [t];
    });
    return {
      model,
      passed,
      ran: cells.length,
      rate: cells.length === 0 ? undefined : Math.round((passed / cells.length) * 100),
      medianMs: median(times),
      usage: usageOf(
        input.rows.filter((r) => r.kind === 'run' && r.result.run.model === model),
        input.pricedOf,
      ),
    };
  });
  return { payload: input.payload, models, rows, summary };
}

/** "2 of 3 passed · 67%" (what the summary row of a model says). */
export function summaryText(s: ModelSummary): string {
  return s.rate === undefined ? l10n.t('not run') : l10n.t('{0} of {1} passed · {2}%', s.passed, s.ran, s.rate);
}

/**
 * The grid as CSV's table: the row, then for each model its result, score, time and why it failed; the last
 * row sums each model up (passed of run and pass rate as its result, median time as its time).
 */
export function gridAsTable(grid: ModelGrid): Table {
  return {
    columns: [
      l10n.t('row'),
      ...grid.models.flatMap((m) => [m, l10n.t('{0} score', m), l10n.t('{0} time', m), l10n.t('{0} failure', m)]),
    ],
    rows: [
      ...grid.rows.map((r) => [
        r.label,
        ...r.cells.flatMap((c) => [
          c.text,
          c.score === undefined ? '' : formatScore(c.score),
          c.timeMs === undefined ? '' : formatMs(c.timeMs),
          c.why ?? '',
        ]),
      ]),
      [
        l10n.t('all rows'),
        ...grid.summary.flatMap((s) => [
          s.rate === undefined ? l10n.t('not run') : `${s.passed}/${s.ran} (${s.rate}%)`,
          '',
          s.medianMs === undefined ? '' : formatMs(s.medianMs),
          '',
        ]),
      ],
    ],
  };
}

/** The requests of each model (in the order asked), for its own result in Test Explorer. */
export function rowsByModel(rows: readonly RowResult[], models: readonly string[]): Map<string, RowResult[]> {
  const out = new Map<string, RowResult[]>([...new Set(models)].map((m) => [m, []]));
  for (const row of rows) {
    const list = row.kind === 'run' && row.result.run.model !== undefined ? out.get(row.result.run.model) : undefined;
    list?.push(row);
  }
  return out;
}
