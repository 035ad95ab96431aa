/**
 * Embeddings a person can see: how many vectors of how many dimensions, the length (norm) of each, and for
 * 2–50 inputs how alike each pair is (cosine similarity), as Markdown for the answer document (the heat map
 * is drawn by embeddingsPage.ts). The vectors come from the answer reader; the labels are the payload's
 * `input`. Pure; no `vscode` import.
 */
import { l10n } from '../../../common/plainL10n';

/** The similarity matrix is drawn for this many inputs at most (beyond, a 51×51 picture says nothing). */
export const MAX_SIMILARITY_INPUTS = 50;
/** How much of an input a label keeps. */
const LABEL_CHARS = 28;

export function norm(v: readonly number[]): number {
  let sum = 0;
  for (const x of v) {
    sum += x * x;
  }
  return Math.sqrt(sum);
}

/** Cosine similarity; NaN when either vector has no length or the dimensions differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) {
    return Number.NaN;
  }
  let dot = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
  }
  const n = norm(a) * norm(b);
  return n === 0 ? Number.NaN : dot / n;
}

export function similarityMatrix(vectors: readonly (readonly number[])[]): number[][] {
  return vectors.map((a) => vectors.map((b) => cosine(a, b)));
}

/** The `input` of an embeddings payload as one label per vector (a string, strings, or token arrays). */
export function embeddingInputs(payload: unknown): string[] | undefined {
  const input = (payload as { input?: unknown } | undefined)?.input;
  if (typeof input === 'string') {
    return [input];
  }
  if (Array.isArray(input)) {
    return input.map((i, n) => (typeof i === 'string' ? i : l10n.t('input {0}', n + 1)));
  }
  return undefined;
}

/** A label on one line, at most LABEL_CHARS characters. */
export function shortLabel(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1)}…` : line;
}

/** A value with three decimals, or `–` when undefined. */
export const fixed = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '–');

/** Markdown table cell text: no line breaks, no column separators, nothing that reads as Markdown markup. */
function cell(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/([\\|`*_[\]<>#])/g, '\\$1');
}

/** "2 vectors × 1536 dimensions" (dimensions that differ between vectors are listed: "3/4"). */
export function countTitle(vectors: readonly (readonly number[])[]): string {
  const n = vectors.length;
  const dims = [...new Set(vectors.map((v) => v.length))];
  const dimText = dims.length === 1 ? String(dims[0]) : dims.length === 0 ? '0' : dims.join('/');
  return n === 1 ? l10n.t('1 vector × {0} dimensions', dimText) : l10n.t('{0} vectors × {1} dimensions', n, dimText);
}

/** Each vector's label: its input, or "input N" where the payload gave none (or a token array). */
export function inputLabels(vectors: readonly unknown[], inputs: readonly string[] = []): string[] {
  return vectors.map((_, i) => inputs[i] ?? l10n.t('input {0}', i + 1));
}

/**
 * The embeddings answer as Markdown: the count and dimensions, each input's norm, and for 2–50 inputs the
 * similarity table. The heat map is not in the document (an image would be a long line of base64 in the
 * text): Open Answer Preview draws it in a page of its own (embeddingsPage.ts). `inputs` label the vectors.
 */
export function embeddingsMarkdown(vectors: readonly (readonly number[])[], inputs: readonly string[] = []): string {
  const n = vectors.length;
  const labels = inputLabels(vectors, inputs);
  const lines = [
    `## ${countTitle(vectors)}`,
    '',
    `| # | ${l10n.t('Input')} | ${l10n.t('Norm')} |`,
    '|---:|---|---:|',
    ...vectors.map((v, i) => `| ${i + 1} | ${cell(shortLabel(labels[i]))} | ${fixed(norm(v))} |`),
  ];
  if (n >= 2 && n <= MAX_SIMILARITY_INPUTS) {
    const matrix = similarityMatrix(vectors);
    lines.push('', `### ${l10n.t('Cosine similarity')}`, '');
    lines.push(`| | ${labels.map((_, j) => j + 1).join(' | ')} |`, `|---|${labels.map(() => '---:').join('|')}|`);
    matrix.forEach((row, i) =>
      lines.push(`| ${i + 1} ${cell(shortLabel(labels[i]))} | ${row.map(fixed).join(' | ')} |`),
    );
    if (n === 2) {
      lines.push('', l10n.t('Input 1 and input 2 have a cosine similarity of {0}.', fixed(matrix[0][1])));
    }
    lines.push('', l10n.t('"Model Access: Open Answer Preview" draws this matrix as a heat map.'));
  } else if (n > MAX_SIMILARITY_INPUTS) {
    lines.push('', l10n.t('The similarity matrix is drawn for 2 to {0} inputs.', MAX_SIMILARITY_INPUTS));
  }
  return lines.join('\n');
}

/** One line for the history: "2 vectors × 1536 dimensions · similarity 0.832". */
export function embeddingsSummary(vectors: readonly (readonly number[])[]): string {
  const n = vectors.length;
  const dims = vectors[0]?.length ?? 0;
  const head = n === 1 ? l10n.t('1 vector × {0} dimensions', dims) : l10n.t('{0} vectors × {1} dimensions', n, dims);
  return n === 2 ? `${head} · ${l10n.t('cosine similarity {0}', fixed(cosine(vectors[0], vectors[1])))}` : head;
}
