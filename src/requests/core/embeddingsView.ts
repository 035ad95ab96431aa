/**
 * Embeddings a person can see: how many vectors of how many dimensions, the length (norm) of each, and for
 * 2–50 inputs how alike each pair is (cosine similarity) as a table and as a heat map picture (an SVG, shown
 * as a `data:` image so a Markdown preview renders it). The vectors come from the answer reader; the labels
 * are the payload's `input`. Pure; no `vscode` import.
 */
import { escapeHtml } from '../../common/html';
import { l10n } from '../../common/plainL10n';

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
const fixed = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '–');

/** Markdown table cell text: no line breaks, no column separators, nothing that reads as Markdown markup. */
function cell(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/([\\|`*_[\]<>#])/g, '\\$1');
}

/**
 * Light (dissimilar) to dark (alike) blue; fixed colors, as an image does not follow the theme, each with the
 * text color that keeps a 4.5:1 contrast on it.
 */
function colorOf(x: number): { fill: string; text: string } {
  if (!Number.isFinite(x)) {
    return { fill: '#d0d0d0', text: '#000000' };
  }
  const t = Math.max(0, Math.min(1, (x + 1) / 2));
  const light = [239, 246, 255];
  const dark = [8, 48, 107];
  const mix = light.map((l, i) => Math.round(l + (dark[i] - l) * t));
  return { fill: `rgb(${mix.join(',')})`, text: t > 0.55 ? '#ffffff' : '#000000' };
}

/** The heat map as SVG text: one labelled row and column per input, the value written in each cell. */
export function heatMapSvg(labels: readonly string[], matrix: readonly (readonly number[])[]): string {
  const n = matrix.length;
  const size = Math.max(14, Math.min(56, Math.floor(560 / Math.max(n, 1))));
  const labelWidth = 7 * LABEL_CHARS;
  const top = labelWidth;
  // The column labels lean right (rotated 60°): room for the last one's length beyond the last column.
  const width = labelWidth + n * size + Math.ceil(labelWidth / 2) + 8;
  const height = top + n * size + 8;
  const font = Math.max(8, Math.min(13, Math.floor(size / 3.6)));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="${font}">`,
    `<title>${escapeHtml(l10n.t('Cosine similarity of {0} inputs', n))}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  labels.slice(0, n).forEach((label, i) => {
    const text = escapeHtml(shortLabel(label));
    const y = top + i * size + size / 2;
    const x = labelWidth + i * size + size / 2;
    parts.push(
      `<text x="${labelWidth - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#000000">${text}</text>`,
    );
    parts.push(`<text transform="translate(${x} ${top - 6}) rotate(-60)" fill="#000000">${text}</text>`);
  });
  matrix.forEach((row, i) =>
    row.forEach((value, j) => {
      const { fill, text } = colorOf(value);
      const x = labelWidth + j * size;
      const y = top + i * size;
      parts.push(`<rect x="${x}" y="${y}" width="${size}" height="${size}" fill="${fill}" stroke="#ffffff"/>`);
      if (size >= 30) {
        parts.push(
          `<text x="${x + size / 2}" y="${y + size / 2}" text-anchor="middle" dominant-baseline="middle" fill="${text}">${fixed(value).replace(/^(-?)0\./, '$1.')}</text>`,
        );
      }
    }),
  );
  parts.push('</svg>');
  return parts.join('');
}

/**
 * The embeddings answer as Markdown: the count and dimensions, each input's norm, and for 2–50 inputs the
 * similarity table and its picture. `labels` are the inputs (missing ones are numbered).
 */
export function embeddingsMarkdown(vectors: readonly (readonly number[])[], inputs: readonly string[] = []): string {
  const n = vectors.length;
  const dims = [...new Set(vectors.map((v) => v.length))];
  const dimText = dims.length === 1 ? String(dims[0]) : dims.join('/');
  const labels = vectors.map((_, i) => inputs[i] ?? l10n.t('input {0}', i + 1));
  const lines = [
    `## ${n === 1 ? l10n.t('1 vector × {0} dimensions', dimText) : l10n.t('{0} vectors × {1} dimensions', n, dimText)}`,
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
    lines.push('', l10n.t('The heat map is drawn at the end: "Model Access: Open Answer Preview" shows it.'));
  } else if (n > MAX_SIMILARITY_INPUTS) {
    lines.push('', l10n.t('The similarity matrix is drawn for 2 to {0} inputs.', MAX_SIMILARITY_INPUTS));
  }
  return lines.join('\n');
}

/**
 * The heat map as a Markdown image (an SVG `data:` URI, which a Markdown preview renders), or undefined outside
 * 2–50 inputs. It goes at the end of the document: in the text it is one long line of base64.
 */
export function heatMapMarkdown(
  vectors: readonly (readonly number[])[],
  inputs: readonly string[] = [],
): string | undefined {
  if (vectors.length < 2 || vectors.length > MAX_SIMILARITY_INPUTS) {
    return undefined;
  }
  const labels = vectors.map((_, i) => inputs[i] ?? l10n.t('input {0}', i + 1));
  const svg = heatMapSvg(labels, similarityMatrix(vectors));
  return `![${l10n.t('Cosine similarity heat map')}](data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')})`;
}

/** One line for the history: "2 vectors × 1536 dimensions · similarity 0.832". */
export function embeddingsSummary(vectors: readonly (readonly number[])[]): string {
  const n = vectors.length;
  const dims = vectors[0]?.length ?? 0;
  const head = n === 1 ? l10n.t('1 vector × {0} dimensions', dims) : l10n.t('{0} vectors × {1} dimensions', n, dims);
  return n === 2 ? `${head} · ${l10n.t('cosine similarity {0}', fixed(cosine(vectors[0], vectors[1])))}` : head;
}
