/**
 * One check, start to end, the same for Test Explorer and the command line: read the payload (endpoint
 * header, JSON with comments, expectations, dataset), send each planned request through the client, read
 * the answer with the shared answer reader (every shape, streamed or not), and evaluate each expectation.
 * Pure; no `vscode` import: what differs (the client, the files, the variables) is passed in.
 */
import { DEFAULT_MAX_RESPONSE_BYTES, limitText, pastAnswerLimit, rawEventText } from '../../api/answerLimits';
import { isServiceError } from '../../api/errors';
import type { ModelService, PostEndpoint } from '../../api/types';
import { l10n } from '../../common/plainL10n';
import { AnswerStream, describeShapes, readAnswer, totalTokens } from '../../domain/answer';

/** Re-exported where the checks always found it. */
export { totalTokens } from '../../domain/answer';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { parsePayload, wantsStream } from '../../domain/payload/parse';
import { literalText, resolvePayload, resolveString, type VariableContext } from '../../domain/payload/variables';
import { readCheckLines, type CheckLines } from './checkFile';
import { redactObserved, secretRemover } from './redactObserved';
import { readDataset, type Dataset } from '../../domain/payload/dataset';
import { evaluate, type Observed, type Outcome, type SchemaSource } from './evaluate';
import type { Expectation } from './expectations';
import { grade, type GraderContext } from './graderRun';
import { waitedBefore } from './throttledService';
import type { GraderExpectation, GraderModels } from './graders';
import { requestCost } from './costOutcome';
import type { Cost } from '../../domain/cost/cost';
import type { ModelPrice } from '../../domain/cost/prices';
import { readRateLimits } from '../../domain/cost/rateLimits';
import type { PlannedRun } from './planner';

export interface PreparedCheck {
  endpoint: PostEndpoint;
  /** The payload as parsed (variables not yet resolved). */
  value: unknown;
  lines: CheckLines;
}

/** Why a payload cannot run at all (its test fails with this, at `line`). */
export interface NotRunnable {
  message: string;
  /** 0-based. */
  line: number;
}

export function prepareCheck(text: string): PreparedCheck | NotRunnable {
  const lines = readCheckLines(text);
  const endpoint = readEndpoint(text);
  if (!endpoint) {
    return {
      message: l10n.t(
        'The first line must name the endpoint, as in: // POST /v1/chat (or /v1/responses, /v1/embeddings)',
      ),
      line: 0,
    };
  }
  const parsed = parsePayload(text);
  if (!parsed.ok) {
    return {
      message: l10n.t(
        'The payload is not valid JSON at line {0}, column {1}: {2}',
        parsed.problem.line,
        parsed.problem.column,
        parsed.problem.message,
      ),
      line: parsed.problem.line - 1,
    };
  }
  const blocking = lines.problems.find((p) => p.blocks);
  if (blocking) {
    return { message: blocking.message, line: blocking.line };
  }
  return { endpoint, value: parsed.value, lines };
}

export function isNotRunnable(p: PreparedCheck | NotRunnable): p is NotRunnable {
  return 'message' in p;
}

/** The dataset of a check, read through `readText` (relative to the payload); undefined without `@each`. */
export function loadDataset(
  check: PreparedCheck,
  readText: (file: string) => string | undefined,
  /** Why a file could not be read, when the caller knows (see FileRunDeps.whyUnreadable). */
  whyUnreadable?: (file: string) => string | undefined,
): { dataset?: Dataset; problem?: NotRunnable } {
  const each = check.lines.each;
  if (!each) {
    return {};
  }
  if (each.problem) {
    return { problem: { message: each.problem, line: each.line } };
  }
  const text = readText(each.file);
  if (text === undefined) {
    const why = whyUnreadable?.(each.file);
    return {
      problem: {
        message:
          why === undefined
            ? l10n.t(
                'The dataset {0} cannot be read (the path is relative to the payload, and files outside the workspace are not read)',
                each.file,
              )
            : l10n.t('The dataset {0} cannot be read: {1}', each.file, why),
        line: each.line,
      },
    };
  }
  return { dataset: readDataset(text, each.file) };
}

export interface ExpectationResult {
  /** 0-based line of the expectation. */
  line: number;
  source: string;
  outcome: Outcome;
}

export interface RunResult {
  run: PlannedRun;
  /** Where the request went (always set by runPlanned). */
  endpoint?: PostEndpoint;
  /** The model the request was sent to (the run's, else the payload's own, variables resolved). */
  model?: string;
  observed: Observed;
  results: ExpectationResult[];
  passed: boolean;
  /** Total tokens when the answer reported them. */
  tokens?: number;
  /** What the answer cost, or why that is unknown (no price, no usage…), in words; set by runPlanned. */
  cost?: Cost | string;
}

export interface RunDeps {
  client: ModelService;
  variables: VariableContext;
  schemas: SchemaSource;
  signal: AbortSignal;
  /** Every secret value a request carries (`{{$env …}}`) is handed here before sending, for redaction. */
  onSecrets?: (secrets: readonly string[]) => void;
  /** Milliseconds, monotonic. */
  clock?: () => number;
  /** What one answer may hold, as Send's limit (`modelAccess.limits.maxResponseMegabytes`); default 32 MB. */
  maxResponseBytes?: number;
  /** The most one request may take, answer included (a service dripping a byte every few seconds). */
  requestTimeoutMs?: number;
  /** The run's redaction (the key, secret headers, every `{{$env}}` value so far); applied before evaluating. */
  redact?: (text: string) => string;
  /** The grader models the setting or flags name (a payload's `@grader` line goes over them). */
  graderModels?: GraderModels;
  /** The file run's reference vectors, shared by its rows (GraderContext.references). */
  graderReferences?: GraderContext['references'];
  /** A model's price (its registry entry with the prices setting or file over it); undefined: none known. */
  priceOf?: (model: string) => ModelPrice | undefined;
}

/** Sends one planned request and evaluates every expectation of the check against its answer. */
export async function runPlanned(check: PreparedCheck, run: PlannedRun, deps: RunDeps): Promise<RunResult> {
  const context = contextFor(run, deps.variables);
  const secrets: string[] = [];
  const sent = await send(
    check,
    run,
    { ...deps, onSecrets: (s) => (secrets.push(...s), deps.onSecrets?.(s)) },
    context,
  );
  // Secrets out before anything is evaluated, graded, cut or shown (a cut must not keep the first part of one).
  const observed = redactObserved(sent, secretRemover(secrets, deps.redact));
  const graders = { ...deps.graderModels, ...check.lines.grader?.models };
  const runModel = run.model ?? payloadModel(check.value);
  const own = (check.value as { model?: unknown } | undefined)?.model;
  // As shown: a model read from `{{$env NAME}}` is named by its reference in results and reports.
  const model = run.model ?? (typeof own === 'string' ? resolveString(own, context).shown : undefined);
  observed.pricing = { model, price: model === undefined ? undefined : deps.priceOf?.(model) };
  const results: ExpectationResult[] = await Promise.all(
    // `total cost` is judged over the whole run (fileRun.ts), not per request.
    check.lines.expectations
      .filter((l) => l.expectation?.kind !== 'totalCost')
      .map(async (l) => {
        const e = l.expectation && bindExpectation(l.expectation, context);
        return {
          line: l.line,
          source: l.source,
          outcome: !e
            ? { passed: false, message: l10n.t('This expectation cannot be read: {0}', l.problem ?? '') }
            : isGrader(e)
              ? await grade(e, observed, runModel, {
                  client: deps.client,
                  models: graders,
                  signal: deps.signal,
                  references: deps.graderReferences,
                })
              : evaluateSafely(e, observed, deps.schemas),
        };
      }),
  );
  const usage = observed.answer?.usage;
  return {
    run,
    endpoint: check.endpoint,
    model,
    observed,
    results,
    passed: results.every((r) => r.outcome.passed),
    tokens: usage ? totalTokens(usage) : undefined,
    cost: observed.status === undefined ? l10n.t('no answer') : requestCost(usage, observed.pricing),
  };
}

function stoppedAt(limit: number): string {
  return l10n.t(
    'the answer was stopped at {0} (the size limit, modelAccess.limits.maxResponseMegabytes)',
    limitText(limit),
  );
}

/**
 * `evaluate`, with whatever a hostile answer or schema makes it throw (a stack overflow on a 600,000-element
 * array or a 200,000-deep answer, a malformed `$ref`, a `pattern` invalid in Unicode mode) as this
 * expectation's failure: the other expectations, rows and files still run, and the report is written.
 */
export function evaluateSafely(e: Expectation, o: Observed, schemas: SchemaSource): Outcome {
  try {
    return evaluate(e, o, schemas);
  } catch (err) {
    const reason =
      err instanceof RangeError
        ? l10n.t('the answer or the schema is too deeply nested or too large to evaluate')
        : err instanceof Error
          ? err.message
          : String(err);
    return { passed: false, message: l10n.t('This expectation could not be evaluated: {0}', reason) };
  }
}

function isGrader(e: Expectation): e is GraderExpectation {
  return e.kind === 'similar' || e.kind === 'judge';
}

/** The `model` a payload names, if a string. */
export function payloadModel(value: unknown): string | undefined {
  const model = typeof value === 'object' && value !== null ? (value as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}

/**
 * The payload with another model, for several-models runs. The id comes from the registry or a command line:
 * written as literal text, so it is sent as listed and never read as a `{{…}}` reference.
 */
export function withModel(value: unknown, model: string | undefined): unknown {
  if (model === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value;
  }
  return { ...(value as Record<string, unknown>), model: literalText(model) };
}

/**
 * The variables of one request: the environment's, with the dataset row's fields over them. A row's fields
 * are data (a dataset may be answers saved from an earlier run): their `{{…}}` stay literal text.
 */
/** The variables of one planned request: the environment's, with its dataset row's fields over them. */
export function contextFor(run: PlannedRun, variables: VariableContext): VariableContext {
  if (!run.row) {
    return variables;
  }
  const row = Object.fromEntries(Object.entries(run.row.values).map(([k, v]) => [k, literalText(v)]));
  return { ...variables, variables: { ...variables.variables, ...row } };
}

/**
 * The expectation with `{{…}}` in its strings filled in from the request's variables (a dataset row's
 * `text contains "{{city}}"`). A reference that cannot be resolved stays as written, and the check then
 * fails showing it. `{{$env …}}` is left as written: a secret must not become an expected value in a report.
 */
export function bindExpectation(e: Expectation, context: VariableContext): Expectation {
  const fill = (s: string) => {
    if (!s.includes('{{')) {
      return s;
    }
    const r = resolveString(s, context);
    return r.secrets.length > 0 ? s : r.sent;
  };
  const fillValue = (v: unknown): unknown =>
    typeof v === 'string'
      ? fill(v)
      : Array.isArray(v)
        ? v.map(fillValue)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillValue(x)]))
          : v;
  if (e.kind === 'text' && e.op !== 'matches') {
    return { ...e, value: fill(e.value) };
  }
  if (e.kind === 'json' && (e.op === '==' || e.op === '!=' || e.op === 'contains')) {
    return { ...e, value: fillValue(e.value) };
  }
  if (e.kind === 'similar') {
    return { ...e, reference: fill(e.reference) };
  }
  if (e.kind === 'judge') {
    return { ...e, criterion: fill(e.criterion) };
  }
  return e;
}

async function send(check: PreparedCheck, run: PlannedRun, deps: RunDeps, context: VariableContext): Promise<Observed> {
  const clock = deps.clock ?? (() => performance.now());
  const limit = deps.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const resolved = resolvePayload(withModel(check.value, run.model), context);
  if (resolved.problems.length > 0) {
    return {
      elapsedMs: 0,
      streamed: false,
      failure: l10n.t('nothing was sent: {0}', resolved.problems.map((p) => p.message).join('; ')),
    };
  }
  deps.onSecrets?.(resolved.secrets);
  const streamed = wantsStream(resolved.value);
  let started = clock();
  const deadline = deps.requestTimeoutMs === undefined ? undefined : AbortSignal.timeout(deps.requestTimeoutMs);
  const signal = deadline ? AbortSignal.any([deps.signal, deadline]) : deps.signal;
  const timedOut = (): Observed | undefined =>
    deadline?.aborted && !deps.signal.aborted
      ? {
          elapsedMs: clock() - started,
          streamed,
          timedOut: true,
          failure: l10n.t('the request was stopped after {0} s (its time limit)', (deps.requestTimeoutMs ?? 0) / 1000),
        }
      : undefined;
  try {
    const result = await deps.client.post(check.endpoint, resolved.json, {
      stream: streamed,
      signal,
      secrets: resolved.secrets,
    });
    // The time waiting out a 429 is the run's, not the service's answer time.
    started += waitedBefore(result);
    const base = {
      status: result.status,
      errorMessage: result.error?.message,
      shapes: describeShapes(),
      firstByteMs: result.firstByteMs,
      rateLimits: readRateLimits(result.headers, Date.now()),
    };
    if (result.events) {
      const reader = new AnswerStream();
      let firstTokenMs: number | undefined;
      let rawChars = 0;
      let textChars = 0;
      stream: for await (const batch of result.events.batches()) {
        for (const event of batch) {
          const pieces = reader.push(event);
          if (firstTokenMs === undefined && pieces.some((p) => p.kind === 'text' && p.text !== '')) {
            firstTokenMs = clock() - started;
          }
          rawChars += rawEventText(event).length;
          textChars += pieces.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 0), 0);
          if (pastAnswerLimit(rawChars, textChars, limit)) {
            // Leaving the loop closes the stream: an endless answer stops here, as it does for Send.
            break stream;
          }
        }
      }
      if (pastAnswerLimit(rawChars, textChars, limit)) {
        return { elapsedMs: clock() - started, streamed: true, failure: stoppedAt(limit) };
      }
      reader.end();
      const late = timedOut();
      if (late) {
        return late;
      }
      if (deps.signal.aborted) {
        return { elapsedMs: clock() - started, streamed: true, failure: l10n.t('the run was cancelled') };
      }
      return { ...base, elapsedMs: clock() - started, firstTokenMs, streamed: true, answer: reader.answer() };
    }
    const body = result.body;
    if (body?.truncated) {
      return { elapsedMs: clock() - started, streamed: false, failure: stoppedAt(limit) };
    }
    const answer = body ? readAnswer(body.json ?? body.text) : undefined;
    return { ...base, elapsedMs: clock() - started, streamed: false, body: body?.json, answer };
  } catch (e) {
    const late = timedOut();
    if (late) {
      return late;
    }
    const cancelled = deps.signal.aborted || (isServiceError(e) && e.kind === 'aborted');
    return {
      elapsedMs: clock() - started,
      streamed,
      failure: cancelled
        ? l10n.t('the run was cancelled')
        : isServiceError(e)
          ? e.message
          : l10n.t('the request failed unexpectedly'),
    };
  }
}
