/**
 * The conversation panel's page: its landmarks (the header with the model and parameters, the turns, the
 * message form), its style (theme variables only, High Contrast included; nothing wider than the panel, so
 * no sideways scrolling at any width) and its script (our code only: no inline handler, run with the page's
 * nonce). The page draws what the extension sends (./panelProtocol.ts) and sends back what the person asked.
 * Pure; no `vscode` import.
 */
import { escapeHtml, liveRegion } from '../../../common/html';
import { l10n } from '../../../common/l10n';

/** The page's body: the turns arrive by message. */
export function panelBody(title: string): string {
  const t = (s: string) => escapeHtml(s);
  return `<header class="panel-header">
<h1>${t(title)}</h1>
<form id="parameters" class="parameters" aria-label="${t(l10n.t('Model and parameters'))}">
<label class="field model">${t(l10n.t('Model'))} <select id="model"></select></label>
<label class="field">${t(l10n.t('Temperature'))} <input id="temperature" type="number" min="0" max="2" step="0.1" inputmode="decimal" placeholder="${t(l10n.t('default'))}"></label>
<label class="field">${t(l10n.t('Max tokens'))} <input id="maxTokens" type="number" min="1" step="1" inputmode="numeric" placeholder="${t(l10n.t('default'))}"></label>
<label class="field check"><input id="stream" type="checkbox"> ${t(l10n.t('Stream'))}</label>
<details class="system"><summary>${t(l10n.t('System prompt'))}</summary>
<label class="visually-hidden" for="system">${t(l10n.t('System prompt'))}</label>
<textarea id="system" rows="3"></textarea>
<p class="muted">${t(l10n.t('Saved to the payload when the box loses focus.'))}</p>
</details>
</form>
<p id="totals" class="muted totals" hidden></p>
<div id="problems" class="problems" hidden></div>
</header>
<main id="turns" aria-label="${t(l10n.t('Turns'))}"></main>
<p id="empty" class="muted" hidden></p>
<form id="composer" class="composer" aria-label="${t(l10n.t('Message'))}">
<label class="visually-hidden" for="message">${t(l10n.t('Message (Enter sends, Shift+Enter adds a line)'))}</label>
<textarea id="message" rows="3" placeholder="${t(l10n.t('Message… (Enter sends, Shift+Enter adds a line)'))}"></textarea>
<div class="composer-actions">
<p id="status" class="muted status"></p>
<button type="button" id="stop" hidden>${t(l10n.t('Stop'))}</button>
<button type="submit" id="send" class="primary">${t(l10n.t('Send'))}</button>
</div>
</form>
${liveRegion('announce', '', false)}`;
}

/** Texts the script shows (localized here, passed as JSON: the script itself holds no text). */
export function panelTexts(): Record<string, string> {
  return {
    resend: l10n.t('Resend'),
    cancel: l10n.t('Cancel'),
    editLabel: l10n.t('Edit the turn (Ctrl+Enter resends, Escape cancels)'),
    showFile: l10n.t('Show in File'),
    suitable: l10n.t('Suitable for this endpoint'),
    others: l10n.t('Other models'),
    notListed: l10n.t('(not in the list)'),
  };
}

export const PANEL_STYLE = `
html, body { overflow-x: hidden; }
body { padding: 0 12px; display: flex; flex-direction: column; min-height: 100vh; box-sizing: border-box; }
* { box-sizing: border-box; max-width: 100%; }
h1 { font-size: 1.15em; margin: 10px 0 4px; word-break: break-word; }
.parameters { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 4px 0 8px; }
.field { display: inline-flex; align-items: center; gap: 6px; color: var(--vscode-foreground); }
.field.model { flex: 1 1 220px; min-width: 0; }
.field.model select { flex: 1 1 auto; min-width: 0; }
select, input, textarea { font-family: inherit; font-size: inherit; color: var(--vscode-input-foreground);
  background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent)); border-radius: 2px; padding: 3px 5px; }
select { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border-color: var(--vscode-dropdown-border, transparent); }
input[type=number] { width: 6.5em; }
select:focus-visible, input:focus-visible, textarea:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 0; }
body.vscode-high-contrast select:focus-visible, body.vscode-high-contrast input:focus-visible, body.vscode-high-contrast textarea:focus-visible,
body.vscode-high-contrast-light select:focus-visible, body.vscode-high-contrast-light input:focus-visible, body.vscode-high-contrast-light textarea:focus-visible {
  outline: 2px solid var(--vscode-contrastActiveBorder, var(--vscode-focusBorder)); }
.system { flex: 1 1 100%; }
.system textarea, .composer textarea, .turn textarea { width: 100%; resize: vertical; display: block; }
.panel-header { border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); }
.problems { margin: 6px 0; }
main { flex: 1 1 auto; min-width: 0; }
.turn { border-left: 3px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); padding: 2px 10px 6px; margin: 10px 0; min-width: 0; }
.turn:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.role-user { border-left-color: var(--vscode-textLink-foreground); }
.role-assistant { border-left-color: var(--vscode-charts-green, var(--vscode-focusBorder)); }
.role-tool { border-left-color: var(--vscode-charts-orange, var(--vscode-focusBorder)); }
.role-error { border-left-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
.turn h2 { border: none; margin: 4px 0 2px; font-size: 1em; }
.plain, .markdown { overflow-wrap: anywhere; word-break: break-word; }
.plain { white-space: pre-wrap; }
.markdown table { table-layout: fixed; width: 100%; }
.markdown td, .markdown th { white-space: normal; overflow-wrap: anywhere; width: auto; }
.markdown pre, pre.raw { background: var(--vscode-textCodeBlock-background); padding: 8px; border-radius: 3px;
  border: 1px solid var(--vscode-widget-border, transparent); white-space: pre-wrap; overflow-wrap: anywhere; }
.markdown pre code { background: none; padding: 0; }
.code-block { position: relative; }
.code-block .copy-code { position: absolute; top: 4px; right: 4px; padding: 1px 8px; }
.code-block pre { padding-top: 28px; }
.tok-string { color: var(--vscode-debugTokenExpression-string, var(--vscode-foreground)); }
.tok-number { color: var(--vscode-debugTokenExpression-number, var(--vscode-foreground)); }
.tok-literal { color: var(--vscode-debugTokenExpression-boolean, var(--vscode-foreground)); }
.tok-keyword { color: var(--vscode-debugTokenExpression-name, var(--vscode-foreground)); font-weight: 600; }
.tok-comment { color: var(--vscode-foreground); font-style: italic; }
.tool-call { border: 1px dashed var(--vscode-widget-border, var(--vscode-panel-border, transparent)); padding: 4px 8px; margin: 6px 0; }
.tool-call h3, .exchange h3 { font-size: 1em; font-weight: 600; margin: 6px 0 2px; }
.note { border-left: 3px solid var(--vscode-inputValidation-warningBorder, var(--vscode-focusBorder)); padding: 2px 8px; margin: 4px 0; }
.turn-actions { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.turn-actions button, .copy-code { padding: 1px 8px; min-height: 24px; min-width: 24px; }
summary { min-height: 24px; padding: 2px 0; }
.exchange { margin: 6px 0; }
.answer-facts, .totals { margin: 4px 0; overflow-wrap: anywhere; }
.exchange th { width: auto; }
.composer { position: sticky; bottom: 0; background: var(--vscode-editor-background); padding: 8px 0 10px;
  border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); }
.composer-actions { display: flex; align-items: center; gap: 6px; margin-top: 6px; }
.composer-actions .status { flex: 1 1 auto; margin: 0; min-width: 0; overflow-wrap: anywhere; }
`;

/**
 * The page's script: texts come in as JSON (`texts`), everything else by message. `state` is what VS Code
 * keeps for the page across a reload (the payload's URI): the panel's serializer brings it back with it.
 */
export function panelScript(texts: Record<string, string>, state: { payload: string }): string {
  return `const texts = ${JSON.stringify(texts).replace(/</g, '\\u003c')};
const state = ${JSON.stringify(state).replace(/</g, '\\u003c')};
${SCRIPT}`;
}

const SCRIPT = `
const vscode = acquireVsCodeApi();
vscode.setState(state);
const $ = (id) => document.getElementById(id);
const turns = $('turns');
const message = $('message');
const sendButton = $('send');
const stopButton = $('stop');
const statusLine = $('status');
const announce = $('announce');
const problems = $('problems');
const empty = $('empty');
let busy = false;
let editing = -1;
const post = (m) => vscode.postMessage(m);

function atEnd() { return window.innerHeight + window.scrollY >= document.body.scrollHeight - 24; }

function draw(m) {
  const follow = atEnd();
  const pieces = turns.children;
  while (pieces.length > m.count) { pieces[pieces.length - 1].remove(); }
  for (const c of m.changed) {
    const old = pieces[c.index];
    if (old && Number(old.dataset.index) === editing && old.querySelector('.editor')) { continue; }
    const holder = document.createElement('div');
    holder.innerHTML = c.html;
    const made = holder.firstElementChild;
    const keepOpen = old && old.querySelector('details.exchange[open]');
    if (made && keepOpen) { const d = made.querySelector('details.exchange'); if (d) { d.open = true; } }
    if (old) { old.replaceWith(made); } else { turns.appendChild(made); }
  }
  statusLine.textContent = m.status;
  const totals = $('totals');
  totals.textContent = m.totals;
  totals.hidden = m.totals === '';
  setBusy(m.busy);
  empty.hidden = m.count > 0 || !m.readable;
  empty.textContent = m.empty;
  problems.hidden = m.problems.length === 0;
  problems.replaceChildren();
  if (m.problems.length > 0) {
    const box = document.createElement('div');
    box.className = 'error';
    box.textContent = m.problems.join('\\n');
    const show = document.createElement('button');
    show.type = 'button';
    show.textContent = texts.showFile;
    show.dataset.action = 'showFile';
    problems.append(box, show);
  }
  if (follow) { window.scrollTo(0, document.body.scrollHeight); }
}

function setBusy(value) {
  busy = value;
  stopButton.hidden = !busy;
  sendButton.disabled = busy;
}

function setField(id, value) {
  const el = $(id);
  if (document.activeElement === el) { return; }
  if (el.type === 'checkbox') { el.checked = value; } else { el.value = value; }
}

function header(m) {
  const select = $('model');
  if (document.activeElement !== select) {
    select.replaceChildren();
    const group = (label, models) => {
      if (models.length === 0) { return; }
      const g = document.createElement('optgroup');
      g.label = label;
      for (const model of models) { const o = document.createElement('option'); o.value = model.id; o.textContent = model.id; g.appendChild(o); }
      select.appendChild(g);
    };
    const listed = m.models.some((x) => x.id === m.model);
    if (!listed) { const o = document.createElement('option'); o.value = m.model; o.textContent = m.model + ' ' + texts.notListed; select.appendChild(o); }
    group(texts.suitable, m.models.filter((x) => x.suitable));
    group(texts.others, m.models.filter((x) => !x.suitable));
    select.value = m.model;
  }
  setField('temperature', m.temperature);
  setField('maxTokens', m.maxTokens);
  setField('stream', m.stream);
  setField('system', m.system);
}

window.addEventListener('message', (event) => {
  const m = event.data;
  if (!m || typeof m.type !== 'string') { return; }
  if (m.type === 'draw') { draw(m); }
  else if (m.type === 'header') { header(m); }
  else if (m.type === 'announce') { announce.textContent = ''; setTimeout(() => { announce.textContent = m.text; }, 30); }
  else if (m.type === 'clearMessage') { message.value = ''; }
  else if (m.type === 'editFailed') { editing = -1; }
});

function sendMessage() {
  const text = message.value;
  if (text.trim() === '' || busy) { return; }
  post({ type: 'send', text });
}

$('composer').addEventListener('submit', (event) => { event.preventDefault(); sendMessage(); });
message.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.isComposing) { return; }
  if (event.shiftKey && !(event.ctrlKey || event.metaKey)) { return; }
  event.preventDefault();
  sendMessage();
});
stopButton.addEventListener('click', () => post({ type: 'stop' }));
$('parameters').addEventListener('submit', (event) => event.preventDefault());
$('model').addEventListener('change', (e) => post({ type: 'set', name: 'model', value: e.target.value }));
$('temperature').addEventListener('change', (e) => post({ type: 'set', name: 'temperature', value: e.target.value }));
$('maxTokens').addEventListener('change', (e) => post({ type: 'set', name: 'maxTokens', value: e.target.value }));
$('stream').addEventListener('change', (e) => post({ type: 'set', name: 'stream', value: e.target.checked }));
$('system').addEventListener('change', (e) => post({ type: 'set', name: 'system', value: e.target.value }));

function startEdit(article, turn) {
  const plain = article.querySelector('.plain');
  if (!plain || article.querySelector('.editor')) { return; }
  editing = turn;
  const editor = document.createElement('div');
  editor.className = 'editor';
  const box = document.createElement('textarea');
  box.rows = Math.min(12, Math.max(3, plain.textContent.split('\\n').length + 1));
  box.value = plain.textContent;
  box.setAttribute('aria-label', texts.editLabel);
  const actions = document.createElement('div');
  actions.className = 'actions';
  const resend = document.createElement('button');
  resend.type = 'button'; resend.className = 'primary'; resend.textContent = texts.resend;
  const cancel = document.createElement('button');
  cancel.type = 'button'; cancel.textContent = texts.cancel;
  actions.append(resend, cancel);
  editor.append(box, actions);
  plain.hidden = true;
  plain.after(editor);
  const stop = () => { editor.remove(); plain.hidden = false; editing = -1; article.querySelector('[data-action=edit]')?.focus(); };
  resend.addEventListener('click', () => { if (box.value.trim() !== '') { post({ type: 'edit', turn, text: box.value }); editor.remove(); plain.hidden = false; editing = -1; message.focus(); } });
  cancel.addEventListener('click', stop);
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') { event.preventDefault(); stop(); }
    else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); resend.click(); }
  });
  box.focus();
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
  if (!target) { return; }
  const action = target.dataset.action;
  const turn = Number(target.dataset.turn);
  if (action === 'copyCode') {
    const pre = target.parentElement && target.parentElement.querySelector('pre');
    if (pre) { post({ type: 'copyCode', text: pre.textContent }); }
  } else if (action === 'edit') {
    startEdit(target.closest('article'), turn);
  } else if (action === 'way') {
    post({ type: 'way', way: target.dataset.way });
  } else if (action === 'regenerate' || action === 'keep' || action === 'showFile') {
    post({ type: action });
  } else if (action === 'copy' || action === 'fork' || action === 'copyAsCode') {
    post({ type: action, turn });
  }
});

// Focusing the panel from the keyboard (Ctrl+2, a reveal for typing) lands in the message box, where a person
// types next, not on the page's body; a click keeps the focus where it clicks, and a focus the page had (a
// button) is kept. The tab order stays the visual order (header, turns, message box, Send).
let pointing = false;
window.addEventListener('pointerdown', () => { pointing = true; setTimeout(() => { pointing = false; }, 0); }, true);
window.addEventListener('focus', () => {
  if (!pointing && (!document.activeElement || document.activeElement === document.body)) { message.focus(); }
});
if (document.hasFocus() && document.activeElement === document.body) { message.focus(); }

post({ type: 'ready' });
`;
