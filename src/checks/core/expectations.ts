/**
 * Expectations written in a payload as comment lines, `// @expect …`, read without docs:
 *
 * ```
 * // @expect status 200
 * // @expect text contains "Paris"
 * // @expect text matches /par(is)?/i
 * // @expect json $.model == "aurora-1"
 * // @expect time < 2s
 * ```
 *
 * and also `json PATH contains "x"` / `json PATH matches /re/`, `json PATH exists`, `first token < 800ms`,
 * `tokens < 500` (or `tokens input|output|total < N`), `schema FILE` (the whole answer) and
 * `text schema FILE` (the answer's text parsed as JSON), `dimension 1536` (every embedding), `cost <= 0.01`
 * (one request, in the price's currency — USD unless it says another — or the one written after the number)
 * and `total cost <= 0.50` (every request of the run, per model). Numbers compare with `==`, `!=`, `<`, `<=`,
 * `>`, `>=`. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
import { describeGrader, parseJudge, parseSimilar, type GraderExpectation } from './graders';
import { parseJsonPath, type JsonPath } from './jsonPath';

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type TokenCount = 'input' | 'output' | 'total';

export type Expectation =
  | { kind: 'status'; op: CompareOp; value: number }
  | { kind: 'text'; op: 'contains' | 'not contains' | '==' | '!='; value: string }
  | { kind: 'text'; op: 'matches'; pattern: RegExp }
  | { kind: 'json'; path: JsonPath; op: '==' | '!='; value: unknown }
  | { kind: 'json'; path: JsonPath; op: '<' | '<=' | '>' | '>='; value: number }
  | { kind: 'json'; path: JsonPath; op: 'contains'; value: unknown }
  | { kind: 'json'; path: JsonPath; op: 'matches'; pattern: RegExp }
  | { kind: 'json'; path: JsonPath; op: 'exists' }
  | { kind: 'time'; op: CompareOp; ms: number }
  | { kind: 'firstToken'; op: CompareOp; ms: number }
  | { kind: 'tokens'; count: TokenCount; op: CompareOp; value: number }
  | { kind: 'schema'; of: 'answer' | 'text'; file: string }
  | { kind: 'dimension'; op: CompareOp; value: number }
  /** `currency`: as written after the number; absent: the price's own currency. */
  | { kind: 'cost'; op: CompareOp; value: number; currency?: string }
  | { kind: 'totalCost'; op: CompareOp; value: number; currency?: string }
  | GraderExpectation;

export type ParsedExpectation = { ok: true; expectation: Expectation } | { ok: false; message: string };

/** What every form looks like, for messages and completion. */
export const FORMS: readonly string[] = [
  'status 200',
  'text contains "…"',
  'text matches /…/i',
  'json $.path == "…"',
  'json $.path contains "…"',
  'json $.path matches /…/',
  'json $.path exists',
  'time < 2s',
  'first token < 800ms',
  'tokens < 500',
  'schema answer.schema.json',
  'text schema answer.schema.json',
  'dimension 1536',
  'cost <= 0.01',
  'total cost <= 0.50',
  'similar "…" >= 0.8',
  'judge "…"',
];

const OPS: readonly CompareOp[] = ['==', '!=', '<=', '>=', '<', '>'];

/** Parses what follows `@expect` on one line. */
export function parseExpectation(source: string): ParsedExpectation {
  const s = source.trim();
  const m = /^([A-Za-z]+)(?=[\s=!<>]|$)\s*(.*)$/.exec(s);
  if (!m) {
    return unknown(s);
  }
  const word = m[1].toLowerCase();
  const rest = m[2];
  switch (word) {
    case 'status':
      return numeric(rest, 'status', true, (op, value) => ({ kind: 'status', op, value }), integerOnly);
    case 'text':
      return textExpectation(rest);
    case 'json':
      return jsonExpectation(rest);
    case 'time':
      return duration(rest, 'time', (op, ms) => ({ kind: 'time', op, ms }));
    case 'first': {
      const t = /^token(?=\s|$)\s*(.*)$/i.exec(rest);
      return t ? duration(t[1], 'first token', (op, ms) => ({ kind: 'firstToken', op, ms })) : unknown(s);
    }
    case 'tokens':
      return tokensExpectation(rest);
    case 'schema':
      return schemaExpectation(rest, 'answer');
    case 'dimension':
      return numeric(rest, 'dimension', true, (op, value) => ({ kind: 'dimension', op, value }), integerOnly);
    case 'cost':
      return costExpectation(rest, 'cost');
    case 'total': {
      const t = /^cost(?=[\s=!<>]|$)\s*(.*)$/i.exec(rest);
      return t ? costExpectation(t[1], 'totalCost') : unknown(s);
    }
    case 'similar':
      return parseSimilar(rest);
    case 'judge':
      return parseJudge(rest);
    default:
      return unknown(s);
  }
}

function unknown(s: string): ParsedExpectation {
  return fail(l10n.t('"{0}" is not an expectation this extension knows; write one of: {1}', s, FORMS.join(', ')));
}

function fail(message: string): ParsedExpectation {
  return { ok: false, message };
}

/** An operator, then the rest; `bareMeansEquals`: `status 200` is `status == 200`. */
function splitOp(rest: string, bareMeansEquals: boolean): { op: CompareOp; value: string } | undefined {
  const r = rest.trim();
  for (const op of OPS) {
    if (r.startsWith(op)) {
      return { op, value: r.slice(op.length).trim() };
    }
  }
  return bareMeansEquals ? { op: '==', value: r } : undefined;
}

const integerOnly = (n: number) => Number.isInteger(n);

function numeric(
  rest: string,
  what: string,
  bareMeansEquals: boolean,
  make: (op: CompareOp, value: number) => Expectation,
  valid: (n: number) => boolean = Number.isFinite,
): ParsedExpectation {
  const split = splitOp(rest, bareMeansEquals);
  if (!split) {
    return fail(l10n.t('{0} needs a comparison such as "{0} < 500"', what));
  }
  const value = /^-?\d+(\.\d+)?$/.test(split.value) ? Number(split.value) : NaN;
  if (!valid(value)) {
    return fail(l10n.t('{0} needs a whole number after the comparison, not "{1}"', what, split.value));
  }
  return { ok: true, expectation: make(split.op, value) };
}

/** `2s`, `1.5s`, `800ms`, `1m` → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/i.exec(text.trim());
  if (!m) {
    return undefined;
  }
  const unit = m[2].toLowerCase();
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000;
  return Number(m[1]) * factor;
}

function duration(rest: string, what: string, make: (op: CompareOp, ms: number) => Expectation): ParsedExpectation {
  const split = splitOp(rest, false);
  if (!split) {
    return fail(l10n.t('{0} needs a comparison such as "{0} < 2s"', what));
  }
  const ms = parseDuration(split.value);
  if (ms === undefined) {
    return fail(l10n.t('{0} needs a duration such as 2s or 800ms, not "{1}"', what, split.value));
  }
  return { ok: true, expectation: make(split.op, ms) };
}

function tokensExpectation(rest: string): ParsedExpectation {
  const m = /^(input|output|total)(?=\s|$)\s*(.*)$/i.exec(rest.trim());
  const count = (m ? m[1].toLowerCase() : 'total') as TokenCount;
  return numeric(m ? m[2] : rest, 'tokens', false, (op, value) => ({ kind: 'tokens', count, op, value }), integerOnly);
}

/** `<= 0.01`, `< 0.5 EUR`: a limit of money, in the currency written or the price's. */
function costExpectation(rest: string, kind: 'cost' | 'totalCost'): ParsedExpectation {
  const what = kind === 'cost' ? 'cost' : 'total cost';
  const split = splitOp(rest, false);
  if (!split) {
    return fail(l10n.t('{0} needs a comparison such as "{0} <= 0.01"', what));
  }
  const m = /^(\d+(?:\.\d+)?)(?:\s*([A-Za-z]{3}))?$/.exec(split.value);
  if (!m) {
    return fail(
      l10n.t(
        '{0} needs an amount after the comparison, as in "{0} <= 0.01" or "{0} <= 0.01 EUR", not "{1}"',
        what,
        split.value,
      ),
    );
  }
  const currency = m[2]?.toUpperCase();
  const value = Number(m[1]);
  return {
    ok: true,
    expectation: currency === undefined ? { kind, op: split.op, value } : { kind, op: split.op, value, currency },
  };
}

function schemaExpectation(rest: string, of: 'answer' | 'text'): ParsedExpectation {
  const file = unquote(rest.trim());
  if (file === '') {
    return fail(l10n.t('schema needs the path of a JSON Schema file, relative to the payload'));
  }
  return { ok: true, expectation: { kind: 'schema', of, file } };
}

function unquote(s: string): string {
  const m = /^"(.*)"$/.exec(s);
  return m ? m[1] : s;
}

function textExpectation(rest: string): ParsedExpectation {
  const r = rest.trim();
  const schema = /^schema(?=\s|$)(.*)$/i.exec(r);
  if (schema) {
    return schemaExpectation(schema[1], 'text');
  }
  const m = /^(not contains|contains|matches|==|!=)\s*(.*)$/i.exec(r);
  if (!m) {
    return fail(l10n.t('text needs contains, matches, == or !=, as in: text contains "Paris"'));
  }
  const op = m[1].toLowerCase() as 'contains' | 'not contains' | 'matches' | '==' | '!=';
  if (op === 'matches') {
    const pattern = parseRegExp(m[2]);
    return typeof pattern === 'string' ? fail(pattern) : { ok: true, expectation: { kind: 'text', op, pattern } };
  }
  const value = parseString(m[2]);
  return value === undefined
    ? fail(l10n.t('text {0} needs a string in double quotes, as in: text {0} "Paris"', op))
    : { ok: true, expectation: { kind: 'text', op, value } };
}

function jsonExpectation(rest: string): ParsedExpectation {
  const r = rest.trim();
  const path = parseJsonPath(r);
  if (!path.ok) {
    return fail(path.message);
  }
  const tail = r.slice(path.length).trim();
  if (/^exists$/i.test(tail)) {
    return { ok: true, expectation: { kind: 'json', path: path.path, op: 'exists' } };
  }
  const word = /^(contains|matches)(?=\s|$)\s*(.*)$/i.exec(tail);
  if (word && word[1].toLowerCase() === 'matches') {
    const pattern = parseRegExp(word[2]);
    return typeof pattern === 'string'
      ? fail(pattern)
      : { ok: true, expectation: { kind: 'json', path: path.path, op: 'matches', pattern } };
  }
  if (word) {
    const value = parseJsonValue(word[2]);
    return value.ok
      ? { ok: true, expectation: { kind: 'json', path: path.path, op: 'contains', value: value.value } }
      : fail(l10n.t('json … contains needs a JSON value, as in: json $.tags contains "fast" ({0})', value.message));
  }
  const split = splitOp(tail, false);
  if (!split) {
    return fail(
      l10n.t(
        'after the path {0} write ==, !=, <, >, contains, matches or exists, as in: json $.model == "aurora-1"',
        path.path.text,
      ),
    );
  }
  const value = parseJsonValue(split.value);
  if (!value.ok) {
    return fail(l10n.t('the value after {0} is not JSON ({1}); strings need double quotes', split.op, value.message));
  }
  if (split.op === '==' || split.op === '!=') {
    return { ok: true, expectation: { kind: 'json', path: path.path, op: split.op, value: value.value } };
  }
  if (typeof value.value !== 'number') {
    return fail(l10n.t('{0} compares numbers; write a number after it', split.op));
  }
  return { ok: true, expectation: { kind: 'json', path: path.path, op: split.op, value: value.value } };
}

function parseJsonValue(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') {
    return { ok: false, message: l10n.t('nothing is written') };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: l10n.t('"{0}" is not a JSON value', text.trim()) };
  }
}

/** A JSON string literal (escapes allowed), nothing after it. */
function parseString(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith('"')) {
    return undefined;
  }
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `/body/flags` → a RegExp, or the reason it is not one. */
export function parseRegExp(text: string): RegExp | string {
  const m = /^\/(.*)\/([a-z]*)$/.exec(text.trim());
  if (!m || m[1] === '') {
    return l10n.t('matches needs a regular expression between slashes, as in: matches /par(is)?/i');
  }
  if (/[gy]/.test(m[2])) {
    // A global or sticky expression remembers where it stopped: the same text would match every other time.
    return l10n.t('the flags g and y make a test depend on the one before; leave them out');
  }
  try {
    return new RegExp(m[1], m[2]);
  } catch (e) {
    return l10n.t('/{0}/{1} is not a valid regular expression: {2}', m[1], m[2], (e as Error).message);
  }
}

/** How an expectation is written back, for test names and messages. */
export function describeExpectation(e: Expectation): string {
  return words(e).join(' ');
}

function words(e: Expectation): string[] {
  switch (e.kind) {
    case 'status':
      return ['status', e.op, String(e.value)];
    case 'text':
      return e.op === 'matches' ? ['text', 'matches', String(e.pattern)] : ['text', e.op, JSON.stringify(e.value)];
    case 'json':
      return e.op === 'exists'
        ? ['json', e.path.text, 'exists']
        : e.op === 'matches'
          ? ['json', e.path.text, 'matches', String(e.pattern)]
          : ['json', e.path.text, e.op, JSON.stringify(e.value)];
    case 'time':
      return ['time', e.op, formatMs(e.ms)];
    case 'firstToken':
      return ['first token', e.op, formatMs(e.ms)];
    case 'tokens':
      return ['tokens', e.count, e.op, String(e.value)];
    case 'schema':
      return e.of === 'text' ? ['text schema', e.file] : ['schema', e.file];
    case 'dimension':
      return ['dimension', e.op, String(e.value)];
    case 'cost':
    case 'totalCost':
      return [e.kind === 'cost' ? 'cost' : 'total cost', e.op, String(e.value), ...(e.currency ? [e.currency] : [])];
    case 'similar':
    case 'judge':
      return describeGrader(e);
  }
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(3))}s` : `${Math.round(ms)}ms`;
}

export function compare(actual: number, op: CompareOp, expected: number): boolean {
  switch (op) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
  }
}
