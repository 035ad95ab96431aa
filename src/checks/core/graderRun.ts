/**
 * Running a grader expectation: `similar` embeds the answer and the reference with an embeddings model of
 * the service and compares the cosine with the threshold; `judge` asks a chat model of the service for a
 * verdict. A grader that cannot grade (no model, an error status, a wrong shape, a refusal) fails the
 * expectation with that reason: it never passes. Pure; no `vscode` import.
 */
import type { ModelEntry, ModelService } from '../../api/types';
import { l10n } from '../../common/plainL10n';
import { readAnswer } from '../../domain/answer';
import { modelKind } from '../../domain/modelKind';
import { isGoingAway, readLifecycle } from '../../domain/registry/lifecycle';
import { compareVersions } from '../../domain/modelSorting';
import type { Observed, Outcome } from './evaluate';
import { compare } from './expectations';
import type { GraderExpectation, GraderModels } from './graders';
import { judgeRequest, readVerdict } from './judgePrompt';
import { cosine, embeddingRequest, embeddingsRequest, formatScore } from './similarity';

export interface GraderContext {
  /** The client grader calls go through (the run's: the same key, retries, cache). */
  client: ModelService;
  /** The models asked for (the payload's `@grader` over the setting or flags); undefined: the default. */
  models: GraderModels;
  signal: AbortSignal;
  /**
   * The reference vectors of one file run, by embeddings model and reference text. Given (a file with many
   * rows or repeats), `similar` embeds each distinct reference once for the run and only the answer per row:
   * half the texts the service embeds (and bills) over a dataset. Absent (one request), the answer and the
   * reference go in one request. Either way a body depends only on the file and the row, so `--cache` hits.
   */
  references?: Map<string, Promise<number[] | { problem: string }>>;
}

/** How the graders' models were chosen when nothing names them: said in the summary, never silent. */
export const DEFAULT_JUDGE = "the payload's own model";

/** The model a grader role uses for one request. */
export function graderModel(
  role: 'judge' | 'embeddings',
  models: GraderModels,
  runModel: string | undefined,
): string | undefined {
  return role === 'judge' ? (models.judge ?? runModel) : models.embeddings;
}

/** The newest current embeddings model of the service's catalog: the default of `similar`. */
export async function defaultEmbeddingsModel(
  client: ModelService,
  signal?: AbortSignal,
  now = Date.now(),
): Promise<string | undefined> {
  try {
    const list = await client.listModels({ signal });
    return newestCurrentEmbeddingsModel(list.models, now);
  } catch {
    return undefined;
  }
}

/**
 * The embeddings model `similar` takes when none is named: the newest (latest `created`, then the highest
 * version, then the first listed) of those the registry neither deprecates nor retires. A deprecated or
 * retiring model is never the default, even when it is the only one: scores that change when it is replaced
 * (or a grader that stops answering) are worse than the run saying to name one. Undefined when none is current.
 */
export function newestCurrentEmbeddingsModel(models: readonly ModelEntry[], now: number): string | undefined {
  let best: ModelEntry | undefined;
  for (const m of models) {
    if (modelKind(m) !== 'embedding' || isGoingAway(readLifecycle(m.raw), now)) {
      continue;
    }
    if (best === undefined || newer(m, best)) {
      best = m;
    }
  }
  return best?.id;
}

function created(m: ModelEntry): number {
  const c = (m.raw as { created?: unknown } | undefined)?.created;
  return typeof c === 'number' && Number.isFinite(c) ? c : 0;
}

function newer(a: ModelEntry, b: ModelEntry): boolean {
  const c = created(a) - created(b);
  return c > 0 || (c === 0 && compareVersions(a.version ?? '', b.version ?? '') > 0);
}

export async function grade(
  e: GraderExpectation,
  o: Observed,
  runModel: string | undefined,
  ctx: GraderContext,
): Promise<Outcome> {
  const text = o.answer?.text;
  if (text === undefined) {
    return { passed: false, message: l10n.t('The answer has no text to grade') };
  }
  return e.kind === 'similar' ? similar(e, text, ctx) : judge(e, text, graderModel('judge', ctx.models, runModel), ctx);
}

async function call(
  ctx: GraderContext,
  endpoint: '/v1/embeddings' | '/v1/chat',
  body: unknown,
  model: string,
): Promise<{ answer: ReturnType<typeof readAnswer> } | { problem: string }> {
  try {
    const r = await ctx.client.post(endpoint, body, { signal: ctx.signal });
    if (r.status < 200 || r.status >= 300) {
      const said = r.error?.serverMessage ?? r.error?.message;
      return {
        problem: said
          ? l10n.t('the grader model {0} answered HTTP {1}: {2}', model, r.status, said)
          : l10n.t('the grader model {0} answered HTTP {1}', model, r.status),
      };
    }
    return { answer: readAnswer(r.body?.json ?? r.body?.text) };
  } catch (err) {
    return { problem: l10n.t('the grader model {0} could not be reached: {1}', model, (err as Error).message) };
  }
}

/** The vectors of the texts of `body` (one per text, in order), or why the grader could not give them. */
async function embed(
  ctx: GraderContext,
  model: string,
  body: { input: readonly string[] },
): Promise<number[][] | { problem: string }> {
  const r = await call(ctx, '/v1/embeddings', body, model);
  if ('problem' in r) {
    return r;
  }
  const vectors = r.answer.vectors;
  if (!vectors || vectors.length !== body.input.length) {
    return {
      problem: l10n.t(
        'the grader model {0} did not answer with one embedding per text (is it an embeddings model?)',
        model,
      ),
    };
  }
  return vectors;
}

/** The answer's vector (one request per row) and the reference's (one request per run, shared by the rows). */
async function answerAndReference(
  ctx: GraderContext,
  references: NonNullable<GraderContext['references']>,
  model: string,
  text: string,
  reference: string,
): Promise<number[][] | { problem: string }> {
  const key = `${model}\n${reference}`;
  let known = references.get(key);
  if (!known) {
    known = embed(ctx, model, embeddingRequest(model, reference)).then((v) => ('problem' in v ? v : v[0]));
    references.set(key, known);
  }
  const [answer, ref] = await Promise.all([embed(ctx, model, embeddingRequest(model, text)), known]);
  if ('problem' in ref) {
    // Not kept: the next row asks again (a passing hiccup fails one row, not the rest of the run).
    if (references.get(key) === known) {
      references.delete(key);
    }
    return ref;
  }
  return 'problem' in answer ? answer : [answer[0], ref];
}

async function similar(
  e: Extract<GraderExpectation, { kind: 'similar' }>,
  text: string,
  ctx: GraderContext,
): Promise<Outcome> {
  const model = ctx.models.embeddings;
  if (model === undefined) {
    return {
      passed: false,
      message: l10n.t(
        'similar needs an embeddings model, and the service lists no current one (a deprecated or retiring one is never taken by default): name one with // @grader embeddings=MODEL, the setting modelAccess.checks.graders or --grader-embeddings',
      ),
    };
  }
  const vectors = ctx.references
    ? await answerAndReference(ctx, ctx.references, model, text, e.reference)
    : await embed(ctx, model, embeddingsRequest(model, text, e.reference));
  if ('problem' in vectors) {
    return { passed: false, message: vectors.problem };
  }
  const score = cosine(vectors[0], vectors[1]);
  if (typeof score === 'string') {
    return { passed: false, message: l10n.t('the grader model {0}: {1}', model, score) };
  }
  const expected = `${e.op} ${e.threshold}`;
  const reason = l10n.t('similarity {0} to the reference ({1})', formatScore(score), model);
  return compare(score, e.op, e.threshold)
    ? { passed: true, score, reason }
    : {
        passed: false,
        score,
        reason,
        message: l10n.t(
          'The similarity to the reference is {0}, expected {1} ({2})',
          formatScore(score),
          expected,
          model,
        ),
        expected,
        actual: formatScore(score),
      };
}

async function judge(
  e: Extract<GraderExpectation, { kind: 'judge' }>,
  text: string,
  model: string | undefined,
  ctx: GraderContext,
): Promise<Outcome> {
  if (model === undefined) {
    return {
      passed: false,
      message: l10n.t(
        'judge needs a chat model: name one with // @grader judge=MODEL, the setting modelAccess.checks.graders or --grader-judge',
      ),
    };
  }
  const r = await call(ctx, '/v1/chat', judgeRequest(model, e.criterion, text), model);
  if ('problem' in r) {
    return { passed: false, message: r.problem };
  }
  const verdict = readVerdict(r.answer);
  if (!verdict.ok) {
    return { passed: false, message: l10n.t('The judge {0} gave no usable verdict: {1}', model, verdict.problem) };
  }
  const reason = l10n.t('judge {0}: {1}', model, verdict.reason);
  return verdict.pass
    ? { passed: true, score: 1, reason }
    : {
        passed: false,
        score: 0,
        reason,
        message: l10n.t('The judge {0} failed the answer: {1}', model, verdict.reason),
        expected: e.criterion,
        actual: text,
      };
}
