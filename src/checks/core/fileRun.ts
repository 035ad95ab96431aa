/**
 * A whole payload file as a check run, the same for Test Explorer and the command line: prepare it, read its
 * dataset, plan rows × models under the row cap, run them at the concurrency asked for, and report each
 * request (or each dataset row that cannot be read) as it ends. Pure; no `vscode` import.
 */
import type { ModelService } from '../../api/types';
import { l10n } from '../../common/plainL10n';
import { pinnedEnvironment, type VariableContext } from '../../domain/payload/variables';
import type { Outcome, SchemaSource } from './evaluate';
import { totalCostOutcome, type CostExpectation } from './costOutcome';
import type { ModelPrice } from '../../domain/cost/prices';
import { defaultEmbeddingsModel } from './graderRun';
import type { GraderModels } from './graders';
import { planRuns, runLimited, type PlannedRun } from './planner';
import { rowNames, type RowRef } from './rowNames';
import {
  isNotRunnable,
  loadDataset,
  prepareCheck,
  runPlanned,
  type NotRunnable,
  type PreparedCheck,
  type RunResult,
} from './runCheck';

function usesSimilar(check: PreparedCheck): boolean {
  return check.lines.expectations.some((l) => l.expectation?.kind === 'similar');
}

/** The client and variables of the environment a payload goes to, or why there is none. */
export type Target = { client: ModelService; variables: VariableContext } | { problem: string };

export interface FileRunDeps {
  /** `pinned` is the payload's `// @env` name, undefined for the active / default environment. */
  target: (pinned: string | undefined) => Promise<Target>;
  /** A file next to the payload (a dataset, a schema), by the path written in it; undefined when unreadable. */
  readText: (relative: string) => string | undefined;
  /**
   * Why `readText` gave nothing for a file, when the caller knows better than "cannot be read" (the CLI: the
   * file lies outside the working directory, and the option that reads it anyway).
   */
  whyUnreadable?: (relative: string) => string | undefined;
  /** Only these dataset rows (their 1-based lines): Test Explorer ran some children of a payload. */
  onlyRows?: ReadonlySet<number>;
  concurrency: number;
  maxRows: number;
  /** What one answer may hold (Send's limit); default 32 MB. */
  maxResponseBytes?: number;
  /** The most one request may take (the command line's --timeout). */
  requestTimeoutMs?: number;
  /** The run's redaction, applied to what each request observed before it is evaluated. */
  redact?: (text: string) => string;
  /** Several-models runs: each planned request once per model. */
  models?: readonly string[];
  /** A model's price (registry entry + prices setting or file), for `cost` and `total cost`. */
  priceOf?: (model: string) => ModelPrice | undefined;
  /** Asked before each request: false stops the run there (`--max-cost`); the requests not sent are not run. */
  mayStart?: () => boolean;
  signal: AbortSignal;
  onSecrets?: (secrets: readonly string[]) => void;
  /** Attempts per request for payloads without `// @repeat` (`--repeat N`); default 1. */
  repeat?: number;
  /** Grader models of the setting or flags. */
  graderModels?: GraderModels;
  /** Told which embeddings model `similar` takes by default, when it had to look one up. */
  onDefaultEmbeddings?: (model: string | undefined) => void;
  /** A shard's slice: whether this dataset row (its 1-based line; undefined: the payload itself) runs here. */
  keepRow?: (line: number | undefined) => boolean;
  onStart?: (run: PlannedRun, label: string) => void;
  onResult?: (row: RowResult) => void;
  /**
   * Asked with the number of requests the file is about to send (rows × models × repeats), before the first:
   * false runs none of them (the glue warns when they would pass the requests the service said are left).
   */
  beforeRequests?: (count: number) => Promise<boolean>;
}

/**
 * A request's result, or a dataset row that could not be read. `label` names it for people (model and/or row);
 * `row` is its dataset row, by line (ids, order) and name: undefined for the payload itself.
 */
export type RowResult =
  | { kind: 'run'; label: string; row?: RowRef; result: RunResult }
  | { kind: 'problem'; label: string; row: RowRef; line: number; message: string };

export interface FileResult {
  /** Why nothing could run (the file's test fails with it, at its line). */
  notRunnable?: NotRunnable;
  rows: RowResult[];
  /** Whether the payload runs over a dataset (its rows are child tests). */
  dataset?: string;
  skippedRows: number;
  /** Attempts per request, and the share of them that must pass (`@repeat`, `@pass-rate`). */
  repeat?: number;
  passRate?: number;
  /** The `total cost` expectations, judged over the run: one per expectation line and model. */
  totals?: TotalResult[];
  /** Requests that were not sent because `mayStart` said stop (`--max-cost`): never passes. */
  notRun?: Array<{ label: string; row?: RowRef }>;
}

/** A `total cost` expectation judged over every request of one model in the run. */
export interface TotalResult {
  /** 0-based line of the expectation. */
  line: number;
  source: string;
  /** The model the requests went to (undefined: the payload's own, for a one-model run). */
  model?: string;
  outcome: Outcome;
}

/** How a planned request is named: its model and/or its dataset row (`rowNames`: `cases.jsonl: Paris`). */
export function runLabel(run: PlannedRun, row: RowRef | undefined): string {
  return [run.model, row?.name].filter((p): p is string => p !== undefined).join(' · ') || l10n.t('the payload');
}

/**
 * The order results are listed in: by model, then in the dataset file's order (never by name, which would
 * sort the cases alphabetically); a stable sort keeps the attempts of a request in the order they ended.
 */
export function inFileOrder(a: RowResult, b: RowResult): number {
  const model = (r: RowResult) => (r.kind === 'run' ? (r.result.run.model ?? '') : '');
  return model(a).localeCompare(model(b), 'en') || (a.row?.line ?? 0) - (b.row?.line ?? 0);
}

/** Schema files read once per run, relative to the payload. */
export function schemaSource(
  readText: (relative: string) => string | undefined,
  whyUnreadable?: (relative: string) => string | undefined,
): SchemaSource {
  const cache = new Map<string, ReturnType<SchemaSource>>();
  return (file) => {
    let found = cache.get(file);
    if (!found) {
      const text = readText(file);
      const why = text === undefined ? whyUnreadable?.(file) : undefined;
      if (text === undefined) {
        found = {
          ok: false,
          message:
            why === undefined
              ? l10n.t(
                  'The schema file {0} cannot be read (the path is relative to the payload, and files outside the workspace are not read)',
                  file,
                )
              : l10n.t('The schema file {0} cannot be read: {1}', file, why),
        };
      } else {
        try {
          found = { ok: true, schema: JSON.parse(text) as unknown };
        } catch {
          // Never the parser's message: it quotes the file's first bytes, which may be anything (/etc/passwd).
          found = { ok: false, message: l10n.t('The schema file {0} is not JSON', file) };
        }
      }
      cache.set(file, found);
    }
    return found;
  };
}

export async function runCheckFile(text: string, deps: FileRunDeps): Promise<FileResult> {
  const check = prepareCheck(text);
  if (isNotRunnable(check)) {
    return { notRunnable: check, rows: [], skippedRows: 0 };
  }
  const { dataset, problem } = loadDataset(check, deps.readText, deps.whyUnreadable);
  if (problem) {
    return { notRunnable: problem, rows: [], skippedRows: 0 };
  }
  const pinned = pinnedEnvironment(text);
  const target = await deps.target(pinned?.name);
  if ('problem' in target) {
    return { notRunnable: { message: target.problem, line: pinned?.line ?? 0 }, rows: [], skippedRows: 0 };
  }
  const datasetName = check.lines.each?.file;
  const graderModels = { ...deps.graderModels };
  if (graderModels.embeddings === undefined && !check.lines.grader?.models.embeddings && usesSimilar(check)) {
    // `similar` with no embeddings model named: the catalog's first (the run states which it took).
    graderModels.embeddings = await defaultEmbeddingsModel(target.client, deps.signal);
    deps.onDefaultEmbeddings?.(graderModels.embeddings);
  }
  const rows: RowResult[] = [];
  const report = (row: RowResult) => {
    rows.push(row);
    deps.onResult?.(row);
  };
  const wanted = (line: number) =>
    (deps.onlyRows === undefined || deps.onlyRows.has(line)) && (deps.keepRow?.(line) ?? true);
  if (!dataset && deps.keepRow?.(undefined) === false) {
    return { rows: [], skippedRows: 0 };
  }
  const repeat = check.lines.repeat?.count ?? deps.repeat ?? 1;
  // Named over the whole dataset, whichever rows run: a row is called the same in every run.
  const names =
    dataset && datasetName !== undefined ? rowNames(datasetName, dataset.rows, dataset.problems) : undefined;
  const refOf = (line: number): RowRef => ({ line, name: names?.get(line) ?? `${datasetName}:${line}` });
  for (const p of (dataset?.problems ?? []).filter((x) => wanted(x.line))) {
    const row = refOf(p.line);
    report({
      kind: 'problem',
      label: row.name,
      row,
      line: check.lines.each?.line ?? 0,
      message: p.message,
    });
  }
  const plan = planRuns(
    dataset?.rows.filter((r) => wanted(r.line)),
    deps.models ?? [],
    deps.maxRows,
    repeat,
  );
  if (plan.runs.length > 0 && deps.beforeRequests && !(await deps.beforeRequests(plan.runs.length))) {
    return { rows, skippedRows: 0 };
  }
  const schemas = schemaSource(deps.readText, deps.whyUnreadable);
  // Many rows or repeats: each `similar` reference is embedded once for the file, not once per row.
  const graderReferences = plan.runs.length > 1 ? new Map() : undefined;
  const notRun: Array<{ label: string; row?: RowRef }> = [];
  await runLimited(plan.runs, deps.concurrency, deps.signal, async (run) => {
    const row = run.row ? refOf(run.row.line) : undefined;
    const label = runLabel(run, row);
    if (deps.mayStart?.() === false) {
      notRun.push({ label, row });
      return;
    }
    deps.onStart?.(run, label);
    const result = await runPlanned(check, run, {
      client: target.client,
      variables: target.variables,
      schemas,
      signal: deps.signal,
      onSecrets: deps.onSecrets,
      maxResponseBytes: deps.maxResponseBytes,
      requestTimeoutMs: deps.requestTimeoutMs,
      redact: deps.redact,
      graderModels,
      graderReferences,
      priceOf: deps.priceOf,
    });
    report({ kind: 'run', label, row, result });
  });
  const totals = judgeTotals(check, plan.runs, rows);
  return {
    rows,
    dataset: datasetName,
    skippedRows: plan.skippedRows,
    repeat,
    passRate: check.lines.passRate?.rate ?? 1,
    ...(totals.length > 0 ? { totals } : {}),
    ...(notRun.length > 0 ? { notRun } : {}),
  };
}

/**
 * Each `total cost` line, judged per model over the requests that model answered. A run some of whose requests
 * did not go out (cancelled, stopped by `--max-cost`) has no total to judge: a sum of some requests never passes.
 */
function judgeTotals(check: PreparedCheck, planned: readonly PlannedRun[], rows: readonly RowResult[]): TotalResult[] {
  const lines = check.lines.expectations.filter((l) => l.expectation?.kind === 'totalCost');
  if (lines.length === 0) {
    return [];
  }
  const models = [...new Set(planned.map((r) => r.model))];
  const out: TotalResult[] = [];
  for (const l of lines) {
    const e = l.expectation as CostExpectation;
    for (const model of models) {
      const wanted = planned.filter((r) => r.model === model).length;
      const ran = rows.flatMap((r) => (r.kind === 'run' && r.result.run.model === model ? [r.result] : []));
      const outcome: Outcome =
        ran.length < wanted
          ? {
              passed: false,
              message: l10n.t('cannot be judged: {0} of {1} requests did not run', wanted - ran.length, wanted),
            }
          : totalCostOutcome(
              e,
              ran.map((r) => r.cost ?? l10n.t('no answer')),
            );
      out.push({ line: l.line, source: l.source, model, outcome });
    }
  }
  return out;
}

export interface Failure {
  line: number;
  message: string;
  expected?: string;
  actual?: string;
}

/** The first failed expectation of a request, for tables and one-line summaries. */
export function firstFailure(row: RowResult): Failure | undefined {
  return allFailures(row)[0];
}

/** Every failed expectation of a request, in the file's order (reports list them all). */
export function allFailures(row: RowResult): Failure[] {
  if (row.kind === 'problem') {
    return [{ line: row.line, message: row.message }];
  }
  return row.result.results
    .filter((r) => !r.outcome.passed)
    .map((failed) => ({
      line: failed.line,
      message: failed.outcome.message ?? '',
      expected: failed.outcome.expected,
      actual: failed.outcome.actual,
    }));
}
