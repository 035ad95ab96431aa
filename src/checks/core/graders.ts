/**
 * The graders' lines, read without docs:
 *
 * ```
 * // @expect similar "Paris is the capital of France." >= 0.8
 * // @expect judge "The answer names Paris as the capital and nothing else"
 * // @grader judge=MODEL embeddings=MODEL
 * ```
 *
 * `similar` compares the answer's text with a reference by cosine of their embeddings (a score in 0–1 against
 * a threshold in 0–1); `judge` asks a chat model whether the answer meets a criterion. `@grader` names the
 * models that grade this payload's answers. Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';

export type ScoreOp = '>=' | '>' | '<=' | '<';

export type GraderExpectation =
  { kind: 'similar'; reference: string; op: ScoreOp; threshold: number } | { kind: 'judge'; criterion: string };

export type ParsedGrader = { ok: true; expectation: GraderExpectation } | { ok: false; message: string };

/** The roles a `@grader` line names. */
export const GRADER_ROLES = ['judge', 'embeddings'] as const;
export type GraderRole = (typeof GRADER_ROLES)[number];
export type GraderModels = Partial<Record<GraderRole, string>>;

const SCORE_OPS: readonly ScoreOp[] = ['>=', '<=', '>', '<'];

/** A JSON string literal at the start of `text`, and what follows it; undefined when there is none. */
export function leadingString(text: string): { value: string; rest: string } | undefined {
  const m = /^"(?:[^"\\]|\\.)*"/.exec(text);
  if (!m) {
    return undefined;
  }
  try {
    return { value: JSON.parse(m[0]) as string, rest: text.slice(m[0].length).trim() };
  } catch {
    return undefined;
  }
}

/** What follows `similar`: `"reference" >= 0.8`. */
export function parseSimilar(rest: string): ParsedGrader {
  const lead = leadingString(rest.trim());
  if (!lead || lead.value.trim() === '') {
    return fail(
      l10n.t('similar needs a reference text in double quotes, as in: similar "Paris is the capital." >= 0.8'),
    );
  }
  const op = SCORE_OPS.find((o) => lead.rest.startsWith(o));
  if (!op) {
    return fail(l10n.t('similar needs a threshold after the text, as in: similar "…" >= 0.8'));
  }
  const number = lead.rest.slice(op.length).trim();
  const threshold = /^\d+(\.\d+)?$|^\.\d+$/.test(number) ? Number(number) : NaN;
  if (!(threshold >= 0 && threshold <= 1)) {
    return fail(l10n.t('the similarity threshold is a number from 0 to 1, not "{0}"', number));
  }
  return { ok: true, expectation: { kind: 'similar', reference: lead.value, op, threshold } };
}

/** What follows `judge`: `"criterion"`. */
export function parseJudge(rest: string): ParsedGrader {
  const lead = leadingString(rest.trim());
  if (!lead || lead.value.trim() === '') {
    return fail(
      l10n.t('judge needs a criterion in double quotes, as in: judge "The answer names Paris and nothing else"'),
    );
  }
  if (lead.rest !== '') {
    return fail(l10n.t('judge takes one criterion in double quotes; "{0}" follows it', lead.rest));
  }
  return { ok: true, expectation: { kind: 'judge', criterion: lead.value } };
}

/** What follows `@grader`: `judge=MODEL embeddings=MODEL` (either, both). */
export function parseGraderLine(rest: string): { ok: true; models: GraderModels } | { ok: false; message: string } {
  const parts = rest
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '');
  if (parts.length === 0) {
    return fail(l10n.t('@grader names grader models, as in: // @grader judge=MODEL embeddings=MODEL'));
  }
  const models: GraderModels = {};
  for (const part of parts) {
    const m = /^([^=]+)=(.+)$/.exec(part);
    if (!m) {
      return fail(l10n.t('write each grader as role=MODEL, not "{0}"', part));
    }
    const role = m[1].toLowerCase();
    if (!(GRADER_ROLES as readonly string[]).includes(role)) {
      return fail(l10n.t('"{0}" is not a grader role; the roles are {1}', m[1], GRADER_ROLES.join(', ')));
    }
    if (models[role as GraderRole] !== undefined) {
      return fail(l10n.t('the grader {0} is named twice', role));
    }
    models[role as GraderRole] = m[2];
  }
  return { ok: true, models };
}

export function describeGrader(e: GraderExpectation): string[] {
  return e.kind === 'similar'
    ? ['similar', JSON.stringify(e.reference), e.op, String(e.threshold)]
    : ['judge', JSON.stringify(e.criterion)];
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}
