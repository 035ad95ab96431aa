/**
 * `similar`: the request that embeds the answer and the reference, and the cosine of the two vectors.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';

/** The `POST /v1/embeddings` body: both texts in one request, answer first. */
export function embeddingsRequest(
  model: string,
  answer: string,
  reference: string,
): { model: string; input: string[] } {
  return { model, input: [answer, reference] };
}

/** The `POST /v1/embeddings` body of one text (a row's answer, or a reference shared by a run's rows). */
export function embeddingRequest(model: string, text: string): { model: string; input: string[] } {
  return { model, input: [text] };
}

/** Cosine similarity of two vectors of one length; a reason when they cannot be compared. */
export function cosine(a: readonly number[], b: readonly number[]): number | string {
  if (a.length === 0 || a.length !== b.length) {
    return l10n.t('the embeddings have different lengths ({0} and {1})', a.length, b.length);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (!Number.isFinite(dot) || na === 0 || nb === 0) {
    return l10n.t('an embedding is all zeros or not numbers');
  }
  // Rounding can carry a cosine a hair past ±1.
  return Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb)));
}

/** The score as a person reads it: two decimals, never "1.00" for a score below 1. */
export function formatScore(score: number): string {
  const s = Math.floor(score * 100) / 100;
  return s.toFixed(2);
}
