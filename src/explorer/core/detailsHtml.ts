/**
 * The Model Details page as HTML. Pure, no `vscode` import. Every registry value is written through
 * `escapeHtml` (src/common/html.ts); links are never `href`s to registry text: a link is a button carrying
 * an index, the page posts the index, and the extension opens that entry of `details.links` after the
 * card checks. The script only posts which button was pressed.
 */
import { l10n } from '../../common/l10n';
import { characterCount } from '../../common/counts';
import { ACTION_SCRIPT, escapeHtml, liveRegion, page } from '../../common/html';
import type { DetailsLifecycle, ModelDetails, SectionTitle } from './modelDetails';
import { clean, displayText, type DisplayText } from '../../common/text';

/** What the page's buttons ask the extension to do (`{ action, link? }` messages). */
export const DETAILS_ACTIONS = [
  'refresh',
  'openCard',
  'previewCard',
  'newRequest',
  'copyId',
  'compare',
  'copyChatId',
  'copyAsCode',
  'openLink',
  'newRequestSuccessor',
  'compareSuccessor',
] as const;
export type DetailsAction = (typeof DETAILS_ACTIONS)[number];

export interface DetailsMessage {
  action: DetailsAction;
  link?: number;
}

/** A message from the page, if it is one the extension understands (anything else is ignored). */
export function parseDetailsMessage(message: unknown): DetailsMessage | undefined {
  if (typeof message !== 'object' || message === null) {
    return undefined;
  }
  const { action, link } = message as { action?: unknown; link?: unknown };
  if (typeof action !== 'string' || !(DETAILS_ACTIONS as readonly string[]).includes(action)) {
    return undefined;
  }
  if (action === 'openLink') {
    return Number.isSafeInteger(link) && (link as number) >= 0 ? { action, link: link as number } : undefined;
  }
  return { action: action as DetailsAction };
}

export interface DetailsPageState {
  details: ModelDetails;
  /** `GET /v1/models/{id}` is on its way. */
  loading: boolean;
  /** Why the last refresh failed (the page keeps showing what it had). */
  error?: string;
  /** When the entry was last read from the service (display text). */
  fetchedAt?: string;
  /** The chat model this one is in VS Code chat, when chat is on and offers it. */
  chat?: { vendor: string; id: string; name: string };
  /** Offer Copy as Code (the requests feature's command, for this model). */
  copyAsCode?: boolean;
  /** The model's price in words (registry and `modelAccess.prices`), "no price known" without one. */
  price?: string;
}

const STYLE = `
.facts th { width: 9em; }
.lifecycle { border: 1px solid var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground, #cca700));
  border-left-width: 4px; border-radius: 2px; padding: 2px 12px 10px; margin: 12px 0; }
.lifecycle.lifecycle-retired { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
.lifecycle h2 { margin: 8px 0 4px; border-bottom: none; }
.lifecycle p { margin: 4px 0; }
.lifecycle .actions { margin-top: 8px; }
.card-refused { font-weight: 600; border-left: 3px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); padding-left: 6px; }
.field-name { font-family: var(--vscode-editor-font-family); }
`;

function button(action: string, label: DisplayText, primary = false): string {
  return `<button type="button" data-action="${action}"${primary ? ' class="primary"' : ''}>${escapeHtml(label)}</button>`;
}

function value(field: { value: string; long: boolean; link?: number }): string {
  const text =
    field.link !== undefined
      ? `<a href="#" data-action="openLink" data-link="${field.link}" title="Open in the browser">${escapeHtml(field.value)}</a>`
      : escapeHtml(field.value);
  if (!field.long) {
    return text;
  }
  const first = field.value.split('\n')[0].slice(0, 80);
  return `<details><summary>${escapeHtml(first)}… (${escapeHtml(characterCount(field.value.length))})</summary><pre>${text}</pre></details>`;
}

/** A section's heading in the display language (the titles are also the sections' keys). */
function sectionLabel(title: SectionTitle): DisplayText {
  switch (title) {
    case 'Lifecycle':
      return l10n.t('Lifecycle');
    case 'Owner':
      return l10n.t('Owner');
    case 'Dates':
      return l10n.t('Dates');
    case 'Limits':
      return l10n.t('Limits');
    case 'Capabilities':
      return l10n.t('Capabilities');
    default:
      return l10n.t('Other fields');
  }
}

function cardRow(details: ModelDetails): string {
  const card = details.card;
  if (!card) {
    return `<tr><th scope="row">${escapeHtml(l10n.t('Model Card'))}</th><td class="muted">${escapeHtml(l10n.t('none in the registry entry'))}</td></tr>`;
  }
  if ('url' in card) {
    return `<tr><th scope="row">${escapeHtml(l10n.t('Model Card'))}</th><td><a href="#" data-action="openCard" id="card-link">${escapeHtml(card.url)}</a></td></tr>`;
  }
  return `<tr><th scope="row">${escapeHtml(l10n.t('Model Card'))}</th><td><span class="card-refused">${escapeHtml(l10n.t('Not opened: {0}', clean(card.refused)))}</span><br><code>${escapeHtml(
    card.link.slice(0, 300),
  )}</code></td></tr>`;
}

/**
 * The banner of a model going away, first on the page: what is happening and when, the model that replaces
 * it, and the two things a person does next (a request with the successor, the two compared). A region named
 * by its heading; the buttons carry no id (the extension takes the successor from the entry it read).
 */
export function lifecycleBanner(life: DetailsLifecycle): string {
  let heading: DisplayText;
  let consequence: DisplayText;
  switch (life.stage) {
    case 'retiring':
      heading = l10n.t('Retiring on {0}', clean(life.retiresOn));
      consequence = l10n.t('After that day the service stops answering requests to this model.');
      break;
    case 'retired':
      heading = life.retiresOn ? l10n.t('Retired on {0}', clean(life.retiresOn)) : l10n.t('Retired');
      consequence = l10n.t('The service no longer answers requests to this model.');
      break;
    default:
      heading = l10n.t('Deprecated');
      consequence = l10n.t('It still answers, but it is going away: move to another model.');
  }
  const deprecated =
    life.deprecatedOn !== undefined
      ? `<p>${escapeHtml(l10n.t('Deprecated on {0}.', clean(life.deprecatedOn)))}</p>`
      : '';
  const successor =
    life.successor !== undefined
      ? `<p id="lifecycle-successor">${escapeHtml(l10n.t('Replaced by'))} <code>${escapeHtml(life.successor)}</code></p><div class="actions">${button(
          'newRequestSuccessor',
          l10n.t('New Request with {0}', displayText(life.successor, 80)),
          true,
        )}${button('compareSuccessor', l10n.t('Compare with {0}', displayText(life.successor, 80)))}</div>`
      : `<p>${escapeHtml(l10n.t('The registry names no model that replaces it.'))}</p>`;
  return `<section id="lifecycle" class="lifecycle lifecycle-${life.stage}" aria-labelledby="lifecycle-heading"><h2 id="lifecycle-heading">${escapeHtml(
    heading,
  )}</h2>${deprecated}<p>${escapeHtml(consequence)}</p>${successor}</section>`;
}

/** The whole page for a model. */
export function detailsHtml(state: DetailsPageState, nonce: string, cspSource: string): string {
  const d = state.details;
  const none = `<span class="muted">${escapeHtml(l10n.t('none'))}</span>`;
  const facts = [
    `<tr><th scope="row">${escapeHtml(l10n.t('Identifier'))}</th><td><code id="model-id">${escapeHtml(d.id)}</code></td></tr>`,
    `<tr><th scope="row">${escapeHtml(l10n.t('Family'))}</th><td id="model-family">${d.family ? escapeHtml(d.family) : none}</td></tr>`,
    `<tr><th scope="row">${escapeHtml(l10n.t('Version'))}</th><td id="model-version">${d.version ? escapeHtml(d.version) : none}</td></tr>`,
    cardRow(d),
  ];
  if (state.price !== undefined) {
    facts.push(
      `<tr><th scope="row">${escapeHtml(l10n.t('Price'))}</th><td id="model-price">${escapeHtml(state.price)}</td></tr>`,
    );
  }
  if (state.chat) {
    facts.push(
      `<tr><th scope="row">${escapeHtml(l10n.t('In VS Code chat'))}</th><td>${escapeHtml(l10n.t('“{0}” from Model Access', clean(state.chat.name)))} — <code>vscode.lm.selectChatModels({ vendor: '${escapeHtml(
        state.chat.vendor,
      )}', id: ${escapeHtml(JSON.stringify(state.chat.id))} })</code></td></tr>`,
    );
  }
  const hasCard = d.card !== undefined && 'url' in d.card;
  const actions = [
    hasCard ? button('openCard', l10n.t('Open Model Card'), true) : '',
    hasCard ? button('previewCard', l10n.t('Preview Model Card')) : '',
    button('newRequest', l10n.t('New Request with this Model'), !hasCard),
    button('copyId', l10n.t('Copy ID')),
    state.copyAsCode ? button('copyAsCode', l10n.t('Copy as Code…')) : '',
    button('compare', l10n.t('Compare with…')),
    state.chat ? button('copyChatId', l10n.t('Copy Chat Model ID')) : '',
    button('refresh', state.loading ? l10n.t('Refreshing…') : l10n.t('Refresh')),
  ].filter(Boolean);
  // Each section is a region named by its heading, so a screen reader's landmark list reaches it.
  const sections = d.sections.map(
    (s, i) =>
      `<section aria-labelledby="section-${i}"><h2 id="section-${i}">${escapeHtml(sectionLabel(s.title))}</h2><table>${s.fields
        .map((f) => `<tr><th class="field-name" scope="row">${escapeHtml(f.name)}</th><td>${value(f)}</td></tr>`)
        .join('')}</table></section>`,
  );
  const status = state.loading
    ? escapeHtml(l10n.t('Reading the entry from the service…'))
    : state.fetchedAt
      ? escapeHtml(l10n.t('From the service at {0}', clean(state.fetchedAt)))
      : '';
  const body = [
    '<main aria-labelledby="model-title">',
    `<h1 id="model-title">${escapeHtml(d.id)}</h1>`,
    status ? `<p class="muted" id="status">${status}</p>` : '',
    state.error ? `<div class="error" id="error" role="alert">${escapeHtml(state.error)}</div>` : '',
    d.lifecycle ? lifecycleBanner(d.lifecycle) : '',
    `<section aria-labelledby="actions-heading"><h2 id="actions-heading" class="visually-hidden">${escapeHtml(l10n.t('Actions'))}</h2><div class="actions">${actions.join('')}</div></section>`,
    liveRegion('announce', '', false),
    `<section aria-labelledby="overview-heading"><h2 id="overview-heading">${escapeHtml(l10n.t('Overview'))}</h2><table class="facts">${facts.join('')}</table></section>`,
    ...sections,
    d.hiddenFields > 0
      ? `<p class="muted">${escapeHtml(d.hiddenFields === 1 ? l10n.t('1 more field not shown; Inspect Model shows the whole entry.') : l10n.t('{0} more fields not shown; Inspect Model shows the whole entry.', d.hiddenFields))}</p>`
      : '',
    '</main>',
  ].join('\n');
  return page({ title: d.id, nonce, cspSource, body, style: STYLE, script: ACTION_SCRIPT });
}
