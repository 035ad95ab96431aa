/**
 * Whether an answer meets an expectation, and if not, a message that says what was expected and what came:
 * what Test Explorer shows at the expectation's line and the CLI prints. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import { compare, describeExpectation, formatMs, type Expectation } from './expectations';
import { testWithin } from './budget';
import { select } from './jsonPath';
import { containsUnwanted, differs, doesNotContain, doesNotMatch, isExactly } from './messages';
import { deepEqual, validate } from './jsonSchema';
import type { TokenUsage } from '../../domain/answer/types';
import { costOutcome, type Pricing } from './costOutcome';
import type { RateLimits } from '../../domain/cost/rateLimits';

/** The parts of the shared answer reader's `Answer` the expectations read. */
export interface AnswerView {
  text: string | undefined;
  usage?: TokenUsage;
  vectors?: number[][];
}

/** What one request gave. */
export interface Observed {
  /** Undefined when no HTTP answer came (`failure` says why: connection refused, timeout, cancelled). */
  status?: number;
  failure?: string;
  /** No answer because the request's time limit was reached. */
  timedOut?: boolean;
  /** The service's error message for a non-2xx answer. */
  errorMessage?: string;
  elapsedMs: number;
  /** From sending to the first piece of text of a streamed answer. */
  firstTokenMs?: number;
  /** From sending to the answer's status line and headers (its first bytes). `elapsedMs` is to the last. */
  firstByteMs?: number;
  /** The model the request went to and its price, for `cost` (undefined price: none known). */
  pricing?: Pricing;
  /** The rate limits the answer's headers reported. */
  rateLimits?: RateLimits;
  streamed: boolean;
  /** The parsed JSON body (not for streams). */
  body?: unknown;
  answer?: AnswerView;
  /** What `describeShapes()` of the answer reader says it looked for, for "no text" messages. */
  shapes?: string;
}

export interface Outcome {
  passed: boolean;
  /** A grader's score (similarity 0–1; a judge's 1 or 0) and its reason, shown for passes too. */
  score?: number;
  reason?: string;
  message?: string;
  expected?: string;
  actual?: string;
  /** Expected and actual are two versions of one value (an equality): shown as a diff, not side by side. */
  diff?: boolean;
}

/** A schema file read for `schema FILE`, or why it could not be read. */
export type SchemaSource = (file: string) => { ok: true; schema: unknown } | { ok: false; message: string };

const PASS: Outcome = { passed: true };

/** How much of a long actual value a message carries. */
export const ACTUAL_LIMIT = 2000;

export function evaluate(e: Expectation, o: Observed, schemas: SchemaSource): Outcome {
  if (o.status === undefined) {
    return { passed: false, message: l10n.t('No answer: {0}', o.failure ?? l10n.t('the request did not complete')) };
  }
  switch (e.kind) {
    case 'status':
      return compare(o.status, e.op, e.value)
        ? PASS
        : failed(
            o.errorMessage
              ? l10n.t('The status was {0}, expected {1}: {2}', o.status, `${e.op} ${e.value}`, o.errorMessage)
              : l10n.t('The status was {0}, expected {1}', o.status, `${e.op} ${e.value}`),
            `${e.value}`,
            `${o.status}`,
          );
    case 'text':
      return textOutcome(e, o);
    case 'json':
      return jsonOutcome(e, o);
    case 'time':
      return compare(o.elapsedMs, e.op, e.ms)
        ? PASS
        : failed(
            l10n.t('The answer took {0}, expected {1}', formatMs(o.elapsedMs), `${e.op} ${formatMs(e.ms)}`),
            `${e.op} ${formatMs(e.ms)}`,
            formatMs(o.elapsedMs),
          );
    case 'firstToken':
      if (!o.streamed) {
        return failed(l10n.t('first token is measured on streamed answers: add "stream": true to the payload'));
      }
      if (o.firstTokenMs === undefined) {
        return failed(l10n.t('The streamed answer carried no text, so it has no first token'));
      }
      return compare(o.firstTokenMs, e.op, e.ms)
        ? PASS
        : failed(
            l10n.t(
              'The first token came after {0}, expected {1}',
              formatMs(o.firstTokenMs),
              `${e.op} ${formatMs(e.ms)}`,
            ),
            `${e.op} ${formatMs(e.ms)}`,
            formatMs(o.firstTokenMs),
          );
    case 'tokens': {
      const n = o.answer?.usage?.[e.count];
      if (n === undefined) {
        return failed(
          o.answer?.usage
            ? l10n.t('The answer reports no {0} token count', e.count)
            : l10n.t(
                'The answer reports no token usage (a streamed chat answer reports it with "stream_options": {"include_usage": true})',
              ),
        );
      }
      return compare(n, e.op, e.value)
        ? PASS
        : failed(
            l10n.t('{0} tokens: {1}, expected {2}', e.count, n, `${e.op} ${e.value}`),
            `${e.op} ${e.value}`,
            `${n}`,
          );
    }
    case 'schema':
      return schemaOutcome(e, o, schemas);
    case 'dimension':
      return dimensionOutcome(e, o);
    case 'cost':
      return costOutcome(e, o.answer?.usage, o.pricing);
    case 'totalCost':
      // Judged over the whole run (fileRun.ts); reaching here means it was asked of one request alone.
      return failed(l10n.t('cannot be judged: total cost is judged over a whole run, not one request'));
    case 'similar':
    case 'judge':
      // Graded by a model (graderRun.ts); reaching here means no grader was at hand, which never passes.
      return failed(l10n.t('{0} needs a grader model, and this run has none', e.kind));
  }
}

function failed(message: string, expected?: string, actual?: string): Outcome {
  return { passed: false, message, expected, actual: actual === undefined ? undefined : cut(actual) };
}

function cut(text: string): string {
  return text.length > ACTUAL_LIMIT ? `${text.slice(0, ACTUAL_LIMIT)}…` : text;
}

function noText(o: Observed): Outcome {
  return failed(
    o.shapes ? l10n.t('The answer has no text (looked for: {0})', o.shapes) : l10n.t('The answer has no text'),
  );
}

function textOutcome(e: Extract<Expectation, { kind: 'text' }>, o: Observed): Outcome {
  const text = o.answer?.text;
  if (text === undefined) {
    return noText(o);
  }
  switch (e.op) {
    case 'matches':
      return testWithin(e.pattern, text)
        ? PASS
        : failed(doesNotMatch(String(e.pattern), text), `matches ${String(e.pattern)}`, text);
    case 'contains':
      return text.includes(e.value) ? PASS : failed(doesNotContain(e.value, text), e.value, text);
    case 'not contains':
      return text.includes(e.value) ? failed(containsUnwanted(e.value, text), `not ${e.value}`, text) : PASS;
    case '==':
      return text === e.value ? PASS : { ...failed(differs(e.value, text), e.value, text), diff: true };
    case '!=':
      return text !== e.value ? PASS : failed(isExactly(e.value), `not ${e.value}`, text);
  }
}

function jsonOutcome(e: Extract<Expectation, { kind: 'json' }>, o: Observed): Outcome {
  if (o.streamed) {
    return failed(
      l10n.t(
        'json {0} reads a JSON answer, and this one was streamed: check it with text, or set "stream": false',
        e.path.text,
      ),
    );
  }
  if (o.body === undefined) {
    return failed(l10n.t('json {0}: the answer is not JSON', e.path.text));
  }
  const { values, reached } = select(o.body, e.path);
  if (e.op === 'exists') {
    return values.length > 0 ? PASS : failed(nothingAt(e.path.text, reached), 'exists', json(o.body));
  }
  if (values.length === 0) {
    return failed(nothingAt(e.path.text, reached), describeExpectation(e), json(o.body));
  }
  // A path through [*] reaches several values: the expectation holds when one of them meets it.
  const shown = values.length === 1 ? json(values[0]) : json(values);
  switch (e.op) {
    case '==':
      return values.some((v) => deepEqual(v, e.value))
        ? PASS
        : {
            ...failed(l10n.t('json {0} is {1}, expected {2}', e.path.text, shown, json(e.value)), json(e.value), shown),
            diff: true,
          };
    case '!=':
      return values.some((v) => !deepEqual(v, e.value))
        ? PASS
        : failed(l10n.t('json {0} is {1}', e.path.text, shown), `not ${json(e.value)}`, shown);
    case 'contains':
      return values.some((v) => contains(v, e.value))
        ? PASS
        : failed(l10n.t('json {0} does not contain {1}', e.path.text, json(e.value)), json(e.value), shown);
    case 'matches':
      return values.some((v) => typeof v === 'string' && testWithin(e.pattern, v))
        ? PASS
        : failed(l10n.t('json {0} does not match {1}', e.path.text, String(e.pattern)), String(e.pattern), shown);
    default: {
      const numbers = values.filter((v): v is number => typeof v === 'number');
      if (numbers.length === 0) {
        return failed(l10n.t('json {0} is {1}, not a number', e.path.text, shown), `${e.op} ${e.value}`, shown);
      }
      return numbers.some((n) => compare(n, e.op, e.value))
        ? PASS
        : failed(
            l10n.t('json {0} is {1}, expected {2}', e.path.text, shown, `${e.op} ${e.value}`),
            `${e.op} ${e.value}`,
            shown,
          );
    }
  }
}

function nothingAt(path: string, reached: string): string {
  return reached === '$'
    ? l10n.t('json {0}: the path matches nothing in the answer', path)
    : l10n.t('json {0}: the path matches nothing in the answer (it reaches {1}, then nothing)', path, reached);
}

/** A string holds a substring; an array holds an equal element; an object holds the given properties. */
function contains(container: unknown, part: unknown): boolean {
  if (typeof container === 'string') {
    return typeof part === 'string' && container.includes(part);
  }
  if (Array.isArray(container)) {
    return container.some((x) => deepEqual(x, part));
  }
  if (
    typeof container === 'object' &&
    container !== null &&
    typeof part === 'object' &&
    part !== null &&
    !Array.isArray(part)
  ) {
    const c = container as Record<string, unknown>;
    return Object.entries(part).every(([k, v]) => Object.hasOwn(c, k) && deepEqual(c[k], v));
  }
  return false;
}

function json(v: unknown): string {
  return JSON.stringify(v) ?? 'undefined';
}

function schemaOutcome(e: Extract<Expectation, { kind: 'schema' }>, o: Observed, schemas: SchemaSource): Outcome {
  const source = schemas(e.file);
  if (!source.ok) {
    return failed(source.message);
  }
  let value: unknown;
  if (e.of === 'text') {
    const text = o.answer?.text;
    if (text === undefined) {
      return noText(o);
    }
    try {
      value = JSON.parse(text);
    } catch (err) {
      return failed(
        l10n.t("The answer's text is not JSON ({0}), so it cannot match {1}", (err as Error).message, e.file),
        undefined,
        text,
      );
    }
  } else {
    if (o.streamed) {
      return failed(l10n.t('schema {0} reads a JSON answer, and this one was streamed: use text schema {0}', e.file));
    }
    if (o.body === undefined) {
      return failed(l10n.t('schema {0}: the answer is not JSON', e.file));
    }
    value = o.body;
  }
  const problem = validate(value, source.schema);
  return problem === undefined
    ? PASS
    : failed(l10n.t('Not valid against {0}: {1}', e.file, problem), e.file, json(value));
}

function dimensionOutcome(e: Extract<Expectation, { kind: 'dimension' }>, o: Observed): Outcome {
  const vectors = o.answer?.vectors;
  if (!vectors || vectors.length === 0) {
    return failed(l10n.t('The answer holds no embeddings'));
  }
  const i = vectors.findIndex((v) => !compare(v.length, e.op, e.value));
  return i < 0
    ? PASS
    : failed(
        l10n.t('Embedding {0} has {1} dimensions, expected {2}', i, vectors[i].length, `${e.op} ${e.value}`),
        `${e.op} ${e.value}`,
        `${vectors[i].length}`,
      );
}
