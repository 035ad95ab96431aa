/**
 * The page of Results Across Models: the grid of a several-models run (modelGrid.ts) as a table — a row per
 * request, a column per model, the per-model summary in its footer — a Save as CSV button, and why each
 * failed cell failed as a list under it (a title alone reaches neither the keyboard nor a screen reader).
 * Pure, no `vscode` import. Every model id, row label and failure is data from the service or the payload:
 * written through `escapeHtml` (src/common/html.ts), as text, never a link. The script only posts which
 * button was pressed.
 *
 * Width: the editor beside the sidebar in a 900 px window is about 550 px wide, and a run may ask for six
 * models. The table takes the page's width (`table-layout: fixed`), the row column a share of it and the
 * models the rest; every cell wraps (ids after `-`, `/`, `:`, `.`, else anywhere), so no width is ever wider
 * than the page and nothing scrolls sideways. Where a model's column would be too narrow to read, each
 * request is a card listing the models instead ({@link stackedStyle}).
 */
import { ACTION_SCRIPT, escapeHtml, liveRegion, page } from '../../common/html';
import { l10n } from '../../common/l10n';
import { clean } from '../../common/text';
import { formatMs } from './expectations';
import { formatScore, summaryText, type GridCell, type ModelGrid } from './modelGrid';

/** What the page's buttons ask the extension to do. */
export const GRID_ACTIONS = ['saveCsv', 'followUp'] as const;
export type GridAction = (typeof GRID_ACTIONS)[number];

/** A message from the page, if it is one the extension understands (anything else is ignored). */
export function parseGridMessage(message: unknown): GridAction | undefined {
  if (typeof message !== 'object' || message === null) {
    return undefined;
  }
  const action = (message as { action?: unknown }).action;
  return typeof action === 'string' && (GRID_ACTIONS as readonly string[]).includes(action)
    ? (action as GridAction)
    : undefined;
}

/** The page's own style (over the shared one): no fixed width anywhere, so it fits any editor column. */
export const GRID_STYLE = `
table.grid { table-layout: fixed; width: 100%; margin: 8px 0 16px; }
table.grid caption { text-align: left; caption-side: top; padding: 0 0 6px; color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; }
table.grid th, table.grid td { width: auto; white-space: normal; overflow-wrap: anywhere; word-break: normal; padding: 4px 6px;
  border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
table.grid th.rows { width: 22%; }
table.grid thead th { color: var(--vscode-foreground); font-weight: 600; vertical-align: bottom; }
table.grid tbody th { color: var(--vscode-foreground); }
table.grid tfoot th, table.grid tfoot td { border-bottom: none; border-top: 2px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
.line { display: block; }
.cell-model { display: none; }
.mark { font-weight: 600; }
.passed .mark { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
.failed .mark, .noAnswer .mark { color: var(--vscode-testing-iconFailed, var(--vscode-foreground)); }
body.vscode-high-contrast .mark, body.vscode-high-contrast-light .mark { color: var(--vscode-foreground); }
.why li { overflow-wrap: anywhere; margin: 2px 0; }
`;

/** The narrowest a model's column reads well (a word such as "passed" and "1.234s" on their own lines). */
const MODEL_COLUMN_PX = 90;
/** The row's column, the page's padding and the table's. */
const OTHER_PX = 170;

/**
 * Below the width where each model's column gets {@link MODEL_COLUMN_PX}, each request is a card instead: its
 * label, then a line per model (the model, then its result, score and time). The table's elements keep their
 * roles (explicit ARIA roles, as `display: block` drops them in some browsers), and the column headers stay for
 * screen readers; the model named in each card line is for the eye only (`aria-hidden`).
 */
export function stackedStyle(models: number): string {
  const below = OTHER_PX + MODEL_COLUMN_PX * models;
  return `
@media (max-width: ${below}px) {
  table.grid, table.grid caption, table.grid tbody, table.grid tfoot, table.grid tr, table.grid th, table.grid td { display: block; width: auto; }
  table.grid thead { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.grid tr { border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); border-radius: 2px; margin: 0 0 8px; padding: 4px 8px; }
  table.grid th, table.grid td, table.grid tfoot th, table.grid tfoot td { border: none; padding: 2px 0; }
  table.grid tbody th, table.grid tfoot th { font-weight: 600; }
  table.grid td { display: flex; gap: 0 8px; }
  .cell-model { display: block; flex: 0 0 40%; overflow-wrap: anywhere; color: var(--vscode-descriptionForeground); }
  .lines { flex: 1 1 0; min-width: 0; }
  .lines .line { display: inline; margin-right: 8px; }
}
`;
}

/** Text that may break after `-`, `/`, `:`, `.` and `_` (model ids, dataset rows) before anywhere else. */
function breakable(text: string): string {
  return text
    .split(/(?<=[-/:._])/)
    .map(escapeHtml)
    .join('<wbr>');
}

const MARKS: Record<GridCell['state'], string> = { passed: '✓', failed: '✗', noAnswer: '✗', notRun: '–' };

function cellHtml(cell: GridCell, model: string): string {
  const lines = [
    `<span class="line"><span class="mark" aria-hidden="true">${MARKS[cell.state]}</span> ${escapeHtml(cell.text)}</span>`,
  ];
  if (cell.score !== undefined) {
    lines.push(
      `<span class="line score"${cell.scores ? ` title="${escapeHtml(cell.scores)}"` : ''}>${escapeHtml(
        l10n.t('score {0}', clean(formatScore(cell.score))),
      )}</span>`,
    );
  }
  if (cell.timeMs !== undefined) {
    lines.push(`<span class="line time">${escapeHtml(formatMs(cell.timeMs))}</span>`);
  }
  if (cell.usage !== undefined) {
    lines.push(`<span class="line usage">${escapeHtml(cell.usage)}</span>`);
  }
  const title = cell.why === undefined ? '' : ` title="${escapeHtml(cell.why)}"`;
  return `<td role="cell" class="cell ${cell.state}" data-state="${cell.state}"${title}>${modelLabel(model)}<span class="lines">${lines.join('')}</span></td>`;
}

/** The model a cell is of, shown in the narrow layout only (the column header says it to screen readers). */
function modelLabel(model: string): string {
  return `<span class="cell-model" aria-hidden="true">${breakable(model)}</span>`;
}

/**
 * The whole page of a grid. `followUp`: the title of a second button another feature asked for after its
 * run (Switch N references), already localized; written as text.
 */
export function modelGridHtml(grid: ModelGrid, nonce: string, cspSource: string, followUp?: string): string {
  const models = grid.models.length;
  const caption =
    models === 1
      ? l10n.t(
          '{0} on 1 model: each cell says passed or failed, the score of its graders, the time, the tokens and the cost.',
          clean(grid.payload),
        )
      : l10n.t(
          '{0} on {1} models: each cell says passed or failed, the score of its graders, the time, the tokens and the cost.',
          clean(grid.payload),
          models,
        );
  // Explicit roles: the narrow layout's `display: block` would otherwise drop them (see stackedStyle).
  const head = `<thead role="rowgroup"><tr role="row"><th role="columnheader" scope="col" class="rows">${escapeHtml(
    l10n.t('Request'),
  )}</th>${grid.models.map((m) => `<th role="columnheader" scope="col" class="model">${breakable(m)}</th>`).join('')}</tr></thead>`;
  const body = `<tbody role="rowgroup">${grid.rows
    .map(
      (r) =>
        `<tr role="row"><th role="rowheader" scope="row">${breakable(r.label)}</th>${r.cells
          .map((c, i) => cellHtml(c, grid.models[i]))
          .join('')}</tr>`,
    )
    .join('')}</tbody>`;
  const foot = `<tfoot role="rowgroup"><tr role="row"><th role="rowheader" scope="row">${escapeHtml(
    l10n.t('All requests'),
  )}</th>${grid.summary
    .map(
      (s) =>
        `<td role="cell" class="summary">${modelLabel(s.model)}<span class="lines"><span class="line">${escapeHtml(
          summaryText(s),
        )}</span>${
          s.medianMs === undefined
            ? ''
            : `<span class="line">${escapeHtml(l10n.t('median {0}', clean(formatMs(s.medianMs))))}</span>`
        }${s.usage === undefined ? '' : `<span class="line usage">${escapeHtml(s.usage)}</span>`}</span></td>`,
    )
    .join('')}</tr></tfoot>`;
  const why = grid.rows.flatMap((r) =>
    r.cells.flatMap((c, i) =>
      c.why === undefined ? [] : [`<li>${escapeHtml(`${r.label} · ${grid.models[i]}: ${c.why}`)}</li>`],
    ),
  );
  const content = [
    '<main aria-labelledby="grid-title">',
    `<h1 id="grid-title">${escapeHtml(l10n.t('Results Across Models'))}</h1>`,
    `<div class="actions">${
      followUp === undefined
        ? ''
        : `<button type="button" class="primary" data-action="followUp">${escapeHtml(followUp)}</button> `
    }<button type="button" class="${followUp === undefined ? 'primary' : 'secondary'}" data-action="saveCsv">${escapeHtml(l10n.t('Save as CSV…'))}</button></div>`,
    liveRegion('announce', '', false),
    `<table role="table" class="grid" id="grid"><caption>${escapeHtml(caption)}</caption>${head}${body}${foot}</table>`,
    why.length === 0
      ? ''
      : `<section aria-labelledby="why-heading" class="why"><h2 id="why-heading">${escapeHtml(
          l10n.t('Why they failed'),
        )}</h2><ul>${why.join('')}</ul></section>`,
    '</main>',
  ].join('\n');
  return page({
    title: l10n.t('Results Across Models'),
    nonce,
    cspSource,
    body: content,
    style: GRID_STYLE + stackedStyle(models),
    script: ACTION_SCRIPT,
  });
}
