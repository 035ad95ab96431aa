/**
 * The embeddings picture as a webview page (Open Answer Preview on an embeddings answer): the count and
 * dimensions, each input with its norm, and for 2–50 inputs the cosine similarity of each pair as a heat map
 * (inline SVG in the theme's colors) and as a table, so no value is carried by color alone. Inputs come from
 * the payload and vectors from the service: both are data, written only through `escapeHtml`. The page has no
 * script. Pure; no `vscode` import.
 */
import { escapeHtml, page } from '../../../common/html';
import { l10n } from '../../../common/plainL10n';
import {
  countTitle,
  fixed,
  inputLabels,
  MAX_SIMILARITY_INPUTS,
  norm,
  shortLabel,
  similarityMatrix,
} from './embeddingsView';

/** The inputs table shows this much of each input (the heat map's labels are shorter still). */
export const INPUT_CHARS = 500;
/** Cells write their value when it fits at this font size (px) or larger; in smaller cells it stays in the table. */
const MIN_VALUE_FONT = 9;

export interface EmbeddingsPicture {
  /** The vectors, in input order (from the answer reader). */
  vectors: readonly (readonly number[])[];
  /** The payload's inputs, already free of the key; missing ones are numbered. */
  inputs?: readonly string[];
  /** The model that answered, if the answer says. */
  model?: string;
  /** The answer document's name, to say where the picture comes from. */
  source?: string;
}

/**
 * The heat map's cells in the theme's chart blue, more opaque the more alike (−1 faint, 1 solid); written values
 * keep the editor's foreground on a halo of its background, so they read on any cell in any theme. High
 * Contrast themes outline every cell in their contrast border.
 */
const STYLE = `
main { max-width: 72em; }
h1 { word-break: normal; overflow-wrap: anywhere; }
.source { margin-top: 0; }
table.numbers { width: auto; }
.numbers td.num, .numbers th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.numbers th { width: auto; }
.inputs td.text { min-width: 8em; overflow-wrap: anywhere; }
.matrix th[scope="row"] { white-space: normal; overflow-wrap: anywhere; min-width: 7em; }
.scroll { overflow-x: auto; max-width: 100%; }
figure { margin: 8px 0 16px; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg.heat { display: block; max-width: 100%; height: auto; font-family: var(--vscode-font-family); }
.scroll:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.heat .label { fill: var(--vscode-foreground); }
.heat .cell { fill: var(--vscode-charts-blue, #3794ff); stroke: var(--vscode-editor-background); stroke-width: 1; }
.heat .cell.none { fill: none; stroke: var(--vscode-descriptionForeground); stroke-dasharray: 3 2; }
.heat .value { fill: var(--vscode-editor-foreground, var(--vscode-foreground)); stroke: var(--vscode-editor-background);
  stroke-width: 3px; stroke-linejoin: round; paint-order: stroke; }
body.vscode-high-contrast .heat .cell, body.vscode-high-contrast-light .heat .cell {
  stroke: var(--vscode-contrastBorder, var(--vscode-foreground)); }
`;

/** How opaque a cell of similarity `x` is drawn: 0.08 at −1, 1 at 1. */
export function cellOpacity(x: number): number {
  const t = Math.max(0, Math.min(1, (x + 1) / 2));
  return Math.round((0.08 + 0.92 * t) * 100) / 100;
}

/** A value as a cell writes it: three decimals without the leading zero (".832", "-.156"), `–` for none. */
function short(x: number): string {
  return fixed(x).replace(/^(-?)0\./, '$1.');
}

/** The heat map's SVG and its natural width (the page lets it shrink to {@link heatMinWidth}, then scroll). */
export interface HeatMap {
  svg: string;
  width: number;
}

/** The heat map shrinks with the tab down to this share of its size; narrower, it scrolls (text stays legible). */
export const HEAT_MIN_SCALE = 0.8;
/**
 * …but a map that fits a narrow tab (about 900 px wide with the sidebar open, the picture beside the payload)
 * always shrinks to it: no sideways scrolling for the few inputs people compare.
 */
export const HEAT_FIT_WIDTH = 200;

/** How narrow the heat map of natural width `width` may get before its region scrolls. */
export function heatMinWidth(width: number): number {
  return Math.min(Math.round(width * HEAT_MIN_SCALE), HEAT_FIT_WIDTH);
}
/** The average width of a label's character, relative to its font size (for the room labels take). */
const CHAR_WIDTH = 0.6;

/**
 * The heat map as inline SVG: one row per input labelled with its number and text, one column per input
 * headed by its number (as the pairs table's columns), a legend below. Named by the visible caption
 * `captionId` (its `<title>` says the same), described by `legendId`; each cell's `<title>` names the pair and
 * its value for a pointer. Room for labels is taken from the longest one; numbers over the columns (not the
 * texts leaning past the last one) keep the map narrow enough for a tab beside the payload.
 */
export function heatMapSvg(
  labels: readonly string[],
  matrix: readonly (readonly number[])[],
  captionId: string,
  legendId: string,
): HeatMap {
  const n = matrix.length;
  const size = Math.max(14, Math.min(48, Math.floor(480 / Math.max(n, 1))));
  const labelFont = Math.max(9, Math.min(12, Math.floor(size * 0.8)));
  const valueFont = Math.min(13, Math.floor((size - 4) / 3));
  const names = labels.slice(0, n).map((l) => shortLabel(l));
  const rowNames = names.map((name, i) => `${i + 1} · ${name}`);
  const longest = Math.ceil(Math.max(1, ...rowNames.map((l) => l.length)) * labelFont * CHAR_WIDTH);
  const left = longest + 10;
  // The column numbers above the cells.
  const top = labelFont + 10;
  const legendTop = top + n * size + 14;
  const legendLeft = 4;
  const width = Math.max(left + n * size + 8, legendLeft + 5 * 44);
  const height = legendTop + 34;
  const parts = [
    `<svg class="heat" role="img" aria-labelledby="${captionId}" aria-describedby="${legendId}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-size="${labelFont}">`,
    `<title>${escapeHtml(l10n.t('Cosine similarity heat map'))}</title>`,
  ];
  rowNames.forEach((name, i) => {
    const y = top + i * size + size / 2;
    const x = left + i * size + size / 2;
    parts.push(
      `<text class="label" x="${left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${escapeHtml(name)}</text>`,
      `<text class="label" x="${x}" y="${top - 6}" text-anchor="middle">${i + 1}</text>`,
    );
  });
  matrix.forEach((row, i) =>
    row.forEach((value, j) => {
      const x = left + j * size;
      const y = top + i * size;
      const finite = Number.isFinite(value);
      const pair = escapeHtml(`${names[i] ?? ''} · ${names[j] ?? ''}: ${fixed(value)}`);
      parts.push(
        `<rect class="cell${finite ? '' : ' none'}" x="${x}" y="${y}" width="${size}" height="${size}"${finite ? ` fill-opacity="${cellOpacity(value)}"` : ''}><title>${pair}</title></rect>`,
      );
      if (valueFont >= MIN_VALUE_FONT) {
        parts.push(
          `<text class="value" x="${x + size / 2}" y="${y + size / 2}" text-anchor="middle" dominant-baseline="middle" font-size="${valueFont}">${short(value)}</text>`,
        );
      }
    }),
  );
  // The legend: five swatches from −1 to 1 with their values under them.
  [-1, -0.5, 0, 0.5, 1].forEach((v, k) => {
    const x = legendLeft + k * 44;
    parts.push(
      `<rect class="cell" x="${x}" y="${legendTop}" width="32" height="14" fill-opacity="${cellOpacity(v)}"/>`,
      `<text class="label" x="${x + 16}" y="${legendTop + 28}" text-anchor="middle" font-size="11">${String(v).replace('-', '−')}</text>`,
    );
  });
  parts.push('</svg>');
  return { svg: parts.join(''), width };
}

/** The inputs: number, the input's text (cut at INPUT_CHARS), the norm of its vector. */
function inputsTable(labels: readonly string[], vectors: readonly (readonly number[])[]): string {
  const rows = vectors
    .map((v, i) => {
      const label = labels[i];
      const text = label.length > INPUT_CHARS ? `${label.slice(0, INPUT_CHARS - 1)}…` : label;
      return `<tr><th scope="row" class="num">${i + 1}</th><td class="text">${escapeHtml(text)}</td><td class="num">${fixed(norm(v))}</td></tr>`;
    })
    .join('');
  return `<table class="numbers inputs"><thead><tr><th scope="col" class="num">#</th><th scope="col">${escapeHtml(
    l10n.t('Input'),
  )}</th><th scope="col" class="num">${escapeHtml(l10n.t('Norm'))}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The similarity of each pair as numbers: columns by input number, rows by number and short label. */
function matrixTable(labels: readonly string[], matrix: readonly (readonly number[])[]): string {
  const head = matrix.map((_, j) => `<th scope="col" class="num">${j + 1}</th>`).join('');
  const rows = matrix
    .map(
      (row, i) =>
        `<tr><th scope="row">${i + 1} · ${escapeHtml(shortLabel(labels[i]))}</th>${row
          .map((x) => `<td class="num">${fixed(x)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<table class="numbers matrix"><thead><tr><td></td>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** What the similarity section says and draws for this many inputs, and the style its heat map needs. */
function similaritySection(
  labels: readonly string[],
  vectors: readonly (readonly number[])[],
): { html: string; style: string } {
  const n = vectors.length;
  const heading = `<h2 id="similarity-heading">${escapeHtml(l10n.t('Cosine similarity'))}</h2>`;
  if (n < 2) {
    return {
      html: `${heading}<p>${escapeHtml(l10n.t('Send two inputs or more to see how alike they are.'))}</p>`,
      style: '',
    };
  }
  if (n > MAX_SIMILARITY_INPUTS) {
    const why = l10n.t('The similarity matrix is drawn for 2 to {0} inputs.', MAX_SIMILARITY_INPUTS);
    return { html: `${heading}<p>${escapeHtml(why)}</p>`, style: '' };
  }
  const matrix = similarityMatrix(vectors);
  const pair =
    n === 2
      ? `<p>${escapeHtml(l10n.t('Input 1 and input 2 have a cosine similarity of {0}.', fixed(matrix[0][1])))}</p>`
      : '';
  const legend = l10n.t(
    'The more alike two inputs, the stronger the color of their cell (the scale under the map goes from −1, opposite, through 0, unrelated, to 1, the same direction). Each value is also in the table below.',
  );
  const heat = heatMapSvg(labels, matrix, 'heat-caption', 'heat-legend');
  const html = `${heading}${pair}<figure><figcaption id="heat-caption">${escapeHtml(
    l10n.t('Cosine similarity heat map'),
  )}</figcaption><div class="scroll" role="region" aria-labelledby="heat-caption" tabindex="0">${heat.svg}</div><p class="muted" id="heat-legend">${escapeHtml(
    legend,
  )}</p></figure><h3 id="matrix-heading">${escapeHtml(
    l10n.t('Similarity of each pair'),
  )}</h3><div class="scroll" role="region" aria-labelledby="matrix-heading" tabindex="0">${matrixTable(labels, matrix)}</div>`;
  // Our numbers, not data: the map fills the tab up to its size, and shrinks only so far before it scrolls.
  const style = `svg.heat { width: ${heat.width}px; min-width: ${heatMinWidth(heat.width)}px; }`;
  return { html, style };
}

/** The whole page: a `main` landmark headed by the count, a section for the inputs and one for the similarity. */
export function embeddingsPageHtml(picture: EmbeddingsPicture, nonce: string, cspSource: string): string {
  const { vectors } = picture;
  const labels = inputLabels(vectors, picture.inputs);
  const title = countTitle(vectors);
  const similarity = similaritySection(labels, vectors);
  const from = [
    picture.model ? l10n.t('Model {0}', picture.model) : '',
    picture.source ? l10n.t('from {0}', picture.source) : '',
  ].filter(Boolean);
  const body = `<main aria-labelledby="title">
<h1 id="title">${escapeHtml(title)}</h1>
${from.length > 0 ? `<p class="muted source">${escapeHtml(from.join(' · '))}</p>` : ''}
<section aria-labelledby="inputs-heading"><h2 id="inputs-heading">${escapeHtml(l10n.t('Inputs'))}</h2>
${inputsTable(labels, vectors)}</section>
<section aria-labelledby="similarity-heading">${similarity.html}</section>
</main>`;
  return page({ title: l10n.t('Embeddings: {0}', title), nonce, cspSource, body, style: STYLE + similarity.style });
}
