/**
 * Comparing models on one payload: the payload for each model, what each column shows of its answer,
 * and the side-by-side view model the comparison page draws. Pure; no `vscode` import.
 */
import { escapeHtml, page } from '../../../common/html';
import { isRecord } from '../../../common/records';
import { REDACTION_MARGIN } from '../../answers/core/responseFormat';
import { readAnswer, type TokenUsage } from '../../../domain/answer';
import { costText, tokensText, type Priced } from '../../../domain/answerFacts';
import { literalText } from '../../../domain/payload/variables';
import { l10n } from '../../../common/l10n';
import { clean, type DisplayText } from '../../../common/text';

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 6;
/** The most answer text one column shows (its end, while it grows); the history keeps its own summary. */
export const COLUMN_TEXT_LIMIT = 64 * 1024;

/**
 * A column's answer as shown: the key removed first, then cut to its last COLUMN_TEXT_LIMIT characters, so a
 * key that straddled the cut is never left in part.
 */
export function fitColumn(text: string, removeSecrets: (text: string) => string): string {
  const clean = removeSecrets(text);
  return clean.length > COLUMN_TEXT_LIMIT ? `…${clean.slice(-COLUMN_TEXT_LIMIT)}` : clean;
}

/**
 * The payload with its `model` replaced (a payload that is not a JSON object cannot name a model). The id is
 * the registry's: written as literal text, so it is sent (and kept in the history) as listed, never read as a
 * `{{…}}` reference.
 */
export function payloadFor(value: unknown, model: string): Record<string, unknown> | undefined {
  return isRecord(value) ? { ...value, model: literalText(model) } : undefined;
}

/**
 * What a column shows of a whole answer: its text as the shared reader finds it, or for embeddings how many
 * vectors of what size (a column cannot show vectors). Undefined when the answer has neither.
 */
export function columnText(body: unknown): string | undefined {
  const answer = readAnswer(body);
  if (answer.vectors) {
    const first = answer.vectors[0];
    return `${answer.vectors.length} embedding${answer.vectors.length === 1 ? '' : 's'}${first ? ` of ${first.length} dimensions` : ''}`;
  }
  return answer.text;
}

/** One model's run, as the glue updates it. Times are epoch milliseconds. */
export interface ComparisonRun {
  model: string;
  startedAt: number;
  /** The first piece of answer text arrived (streams only). */
  firstTextAt?: number;
  /** From sending to the answer's first byte. */
  firstByteMs?: number;
  /** The model's price and the answer's cost, once the run ended with an answer. */
  priced?: Priced;
  endedAt?: number;
  status?: number;
  streaming: boolean;
  text: string;
  usage?: TokenUsage;
  error?: string;
  cancelled?: boolean;
}

/** What one column shows: all of it text, drawn with `textContent` (never HTML). */
export interface ComparisonColumn {
  model: string;
  state: 'waiting' | 'receiving' | 'done' | 'failed' | 'cancelled';
  status: string;
  time: string;
  firstToken: string;
  firstByte: string;
  usage: string;
  /** `0.000072 USD`, `no price known`, `cost unknown`; empty until the run ended. */
  cost: string;
  /** `fastest`, `cheapest`, both or empty: in words, not colour alone (once every run ended). */
  marks: string;
  text: string;
  error: string;
}

export interface ComparisonView {
  endpoint: string;
  running: boolean;
  columns: ComparisonColumn[];
  /** "Fastest: a. Cheapest: b." once every run ended (said by the page's status line), else empty. */
  best: string;
}

export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** The column of one run at time `now` (a running clock for unfinished runs). */
export function columnOf(run: ComparisonRun, now: number): ComparisonColumn {
  const end = run.endedAt ?? now;
  const state: ComparisonColumn['state'] = run.cancelled
    ? 'cancelled'
    : run.error
      ? 'failed'
      : run.endedAt !== undefined
        ? 'done'
        : run.status !== undefined
          ? 'receiving'
          : 'waiting';
  const label = {
    waiting: 'waiting for the answer…',
    receiving: 'receiving…',
    done: 'done',
    failed: 'failed',
    cancelled: 'cancelled',
  }[state];
  // The glue removes the key and then cuts to COLUMN_TEXT_LIMIT; the margin keeps a key across the cut whole.
  const text = run.text.slice(-(COLUMN_TEXT_LIMIT + REDACTION_MARGIN));
  return {
    model: run.model,
    state,
    status: run.status !== undefined ? `${run.status} · ${label}` : label,
    time: `${formatSeconds(end - run.startedAt)}${run.endedAt === undefined ? ' so far' : ''}`,
    firstToken: !run.streaming
      ? 'not streamed'
      : run.firstTextAt !== undefined
        ? formatSeconds(run.firstTextAt - run.startedAt)
        : run.endedAt !== undefined
          ? 'no text'
          : '…',
    firstByte: run.firstByteMs !== undefined ? formatSeconds(run.firstByteMs) : run.endedAt !== undefined ? '–' : '…',
    usage: tokensText(run.usage),
    cost: run.priced ? costText(run.priced) : run.endedAt !== undefined ? '–' : '…',
    marks: '',
    text,
    error: run.error ?? '',
  };
}

export function comparisonView(endpoint: string, runs: readonly ComparisonRun[], now: number): ComparisonView {
  const running = runs.some((r) => r.endedAt === undefined);
  const columns = runs.map((r) => columnOf(r, now));
  if (!running) {
    markBest(runs, columns);
  }
  const view: ComparisonView = { endpoint, running, columns, best: '' };
  view.best = bestSummary(view);
  return view;
}

/**
 * Marks the fastest answer (the least time to its last byte) and the cheapest among the runs that answered,
 * in words. A tie marks each; a single answer is not "fastest" of anything.
 */
function markBest(runs: readonly ComparisonRun[], columns: ComparisonColumn[]): void {
  const answered = runs.flatMap((r, i) => (r.error === undefined && r.endedAt !== undefined ? [i] : []));
  if (answered.length < 2) {
    return;
  }
  const marks: string[][] = columns.map(() => []);
  const time = (i: number) => (runs[i].endedAt as number) - runs[i].startedAt;
  const fastest = Math.min(...answered.map(time));
  answered.filter((i) => time(i) === fastest).forEach((i) => marks[i].push(l10n.t('fastest')));
  // The cheapest among answers whose cost is known, and only when every answer's cost is known in one
  // currency: an unknown cost might be lower, and currencies are never compared.
  const costs = answered.map((i) => runs[i].priced?.cost);
  const currency = costs[0]?.currency;
  if (costs.every((c) => c !== undefined && c.currency === currency)) {
    const amount = (i: number) => runs[i].priced?.cost?.amount as number;
    const cheapest = Math.min(...answered.map(amount));
    answered.filter((i) => amount(i) === cheapest).forEach((i) => marks[i].push(l10n.t('cheapest')));
  }
  columns.forEach((c, i) => (c.marks = marks[i].join(' · ')));
}

/** "Fastest: a. Cheapest: b." for the page's status line once the runs ended; empty when nothing is marked. */
export function bestSummary(view: ComparisonView): string {
  const named = (mark: string) =>
    view.columns
      .filter((c) => c.marks.split(' · ').includes(mark))
      .map((c) => c.model)
      .join(', ');
  const fastest = named(l10n.t('fastest'));
  const cheapest = named(l10n.t('cheapest'));
  return [
    fastest ? l10n.t('Fastest: {0}.', clean(fastest)) : '',
    cheapest ? l10n.t('Cheapest: {0}.', clean(cheapest)) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** What the page's buttons ask for. */
export type ComparisonAction = 'cancel' | 'again';

export function parseComparisonMessage(message: unknown): ComparisonAction | undefined {
  const action = isRecord(message) ? message.action : undefined;
  return action === 'cancel' || action === 'again' ? action : undefined;
}

/**
 * Columns reflow to the tab's width: as many side by side as fit at a readable width ({@link COLUMN_MIN_PX}:
 * about 32 characters of answer per line, each fact's name on one line), the rest wrap to the next row and the
 * columns of a row share its width; a tab too narrow for two such columns stacks the models one below the
 * other, full width, so 2–6 models read at 900×700 with the sidebar open, and two sit side by side in the tab
 * beside the payload at 1400×900. Labels and facts break between words only ("200 · done" never becomes
 * "200 ·" / "done"). Each column's heading (the model) stays in view while its answer scrolls past.
 */
export const COLUMN_MIN_PX = 220;
const STYLE = `
.grid { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(min(100%, ${COLUMN_MIN_PX}px), 1fr)); }
.facts th { white-space: nowrap; vertical-align: top; }
.facts td { overflow-wrap: break-word; }
.column { border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, #8884)); border-radius: 4px; padding: 0 10px 8px; min-width: 0; }
.column h2 { position: sticky; top: 0; margin: 0 -10px 6px; padding: 6px 10px 4px; background: var(--vscode-editor-background);
  border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, #8884)); overflow-wrap: break-word; }
.column h2 .ordinal { font-weight: normal; color: var(--vscode-descriptionForeground); margin-right: 0.4em; }
.facts th { width: auto; padding-right: 8px; }
.answer { margin-top: 8px; border-top: 1px solid var(--vscode-panel-border, #8884); padding-top: 6px; overflow-wrap: anywhere; }
.error:empty, .marks:empty { display: none; }
.marks { margin: 0 0 4px; font-weight: bold; }
.state-failed { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); border-width: 2px; }
`;

/**
 * Draws the view model with `textContent` only: nothing the service sent is ever parsed as HTML.
 */
const SCRIPT = `
const vscode = acquireVsCodeApi();
const set = (id, text) => { const el = document.getElementById(id); if (el && el.textContent !== text) { el.textContent = text; } };
window.addEventListener('message', (event) => {
  const view = event.data;
  if (!view || !Array.isArray(view.columns)) { return; }
  view.columns.forEach((c, i) => {
    for (const key of ['status', 'time', 'firstByte', 'firstToken', 'usage', 'cost', 'marks', 'text', 'error']) { set('c' + i + '-' + key, String(c[key])); }
    const col = document.getElementById('c' + i);
    if (col) { col.className = 'column state-' + c.state; col.setAttribute('aria-busy', String(c.state === 'waiting' || c.state === 'receiving')); }
  });
  const cancel = document.getElementById('cancel');
  const again = document.getElementById('again');
  // Focus on a button about to be disabled moves to the other one, so the keyboard is never left nowhere.
  const focused = document.activeElement;
  cancel.disabled = !view.running;
  again.disabled = view.running;
  if (focused === cancel && cancel.disabled) { again.focus(); } else if (focused === again && again.disabled) { cancel.focus(); }
  const summary = document.getElementById('summary');
  set('summary', view.running ? summary.dataset.running : (summary.dataset.finished + ' ' + view.best).trim());
});
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
  if (target && !target.disabled) { vscode.postMessage({ action: target.getAttribute('data-action') }); }
});
`;

/**
 * The page: a `main` landmark headed by the endpoint, the state (a live region: "Running…", "Finished."), the
 * buttons, and one region per model named by its heading ("1 of 3 · model-id"), filled in place by the script
 * as the view model changes.
 */
export function comparisonHtml(view: ComparisonView, nonce: string, cspSource: string): string {
  const total = view.columns.length;
  const columns = view.columns
    .map((c, i) => {
      const row = (label: DisplayText, key: keyof ComparisonColumn) =>
        `<tr><th scope="row">${escapeHtml(label)}</th><td id="c${i}-${key}">${escapeHtml(c[key])}</td></tr>`;
      const busy = c.state === 'waiting' || c.state === 'receiving';
      return `<section class="column state-${c.state}" id="c${i}" aria-labelledby="c${i}-heading" aria-busy="${busy}"><h2 id="c${i}-heading"><span class="ordinal">${escapeHtml(
        l10n.t('{0} of {1}', i + 1, total),
      )}</span><span class="model" id="c${i}-model">${escapeHtml(c.model)}</span></h2><p class="marks" id="c${i}-marks">${escapeHtml(c.marks)}</p><table class="facts">${[
        row(l10n.t('Status'), 'status'),
        row(l10n.t('Total time'), 'time'),
        row(l10n.t('First byte'), 'firstByte'),
        row(l10n.t('First token'), 'firstToken'),
        row(l10n.t('Tokens'), 'usage'),
        row(l10n.t('Cost'), 'cost'),
      ].join(
        '',
      )}</table><div class="error" id="c${i}-error" role="alert">${escapeHtml(c.error)}</div><pre class="answer" id="c${i}-text">${escapeHtml(c.text)}</pre></section>`;
    })
    .join('');
  const running = l10n.t('Running…');
  const finished = l10n.t('Finished.');
  const body = `<main aria-labelledby="title">
<h1 id="title">${escapeHtml(l10n.t('Compare models · POST {0}', clean(view.endpoint)))}</h1>
<p class="muted" id="summary" role="status" aria-live="polite" data-running="${escapeHtml(running)}" data-finished="${escapeHtml(finished)}">${escapeHtml(view.running ? running : `${finished} ${view.best}`.trim())}</p>
<div class="actions"><button type="button" id="cancel" data-action="cancel"${view.running ? '' : ' disabled'}>${escapeHtml(l10n.t('Cancel'))}</button>
<button type="button" id="again" class="primary" data-action="again"${view.running ? ' disabled' : ''}>${escapeHtml(l10n.t('Compare again'))}</button></div>
<div class="grid" data-columns="${total}">${columns}</div>
</main>`;
  return page({ title: l10n.t('Compare models'), nonce, cspSource, body, style: STYLE, script: SCRIPT });
}
