/**
 * Show Conversation's page body: each turn with its role, the assistant's Markdown rendered, tool calls and
 * their results shown as such, images as thumbnails. Answers are data: their Markdown goes through the
 * Model Card sanitizer first (only https links, raw HTML as text) and markdown-it renders it with HTML off
 * and links other than http(s) refused; images in an answer's Markdown become links, never loaded.
 * Pure; no `vscode` import.
 */
import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../../../common/html';
import { l10n } from '../../../common/l10n';
import { clean } from '../../../common/text';
import { sanitizeCardMarkdown } from '../../../domain/cardMarkdown';
import type { Turn, TurnToolCall } from './turns';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
markdown.validateLink = (url: string) => /^https?:\/\//i.test(url.trim()) || url.trim().startsWith('#');
// An image in an answer would load from wherever the answer says: it is shown as a link instead.
markdown.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = token.attrGet('src') ?? '';
  const alt = token.content || l10n.t('image');
  return `<a href="${escapeHtml(src)}">${escapeHtml(l10n.t('[image: {0}]', clean(alt)))}</a>`;
};

/** Images a thumbnail may show: our own data URLs of the four types, or https. */
const SHOWN_IMAGE = /^(data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+|https:\/\/\S+)$/;

/** An answer still arriving (or just arrived, not yet in the payload). */
export interface PendingAnswer {
  text: string;
  toolCalls: readonly TurnToolCall[];
  /** Still streaming. */
  streaming: boolean;
}

/** The Markdown of an answer as safe HTML. */
export function renderMarkdown(text: string): string {
  // markdown-it renders, the Model Card allow-list rebuilds what it rendered (domain/cardMarkdown.ts).
  return sanitizeCardMarkdown(text, (md) => markdown.render(md));
}

/**
 * Answers already rendered, by their text, for one transcript: while an answer streams the transcript is
 * redrawn every 100 ms, and only the answer still arriving has changed. Emptied when it passes `max` entries.
 */
export class RenderedTurns {
  private readonly html = new Map<string, string>();

  constructor(private readonly max = 1000) {}

  get size(): number {
    return this.html.size;
  }

  render(text: string): string {
    const known = this.html.get(text);
    if (known !== undefined) {
      return known;
    }
    const made = renderMarkdown(text);
    if (this.html.size >= this.max) {
      this.html.clear();
    }
    this.html.set(text, made);
    return made;
  }
}

function roleLabel(role: string): string {
  switch (role) {
    case 'system':
      return l10n.t('System');
    case 'developer':
      return l10n.t('Developer');
    case 'user':
      return l10n.t('User');
    case 'assistant':
      return l10n.t('Assistant');
    case 'tool':
      return l10n.t('Tool result');
    default:
      return role;
  }
}

function toolCallHtml(call: TurnToolCall): string {
  return `<section class="tool-call" aria-label="${escapeHtml(l10n.t('Tool call {0}', clean(call.name)))}">
<h3>${escapeHtml(l10n.t('Tool call: {0}', clean(call.name)))} <span class="muted">${escapeHtml(call.id)}</span></h3>
<pre><code>${escapeHtml(call.arguments)}</code></pre></section>`;
}

function turnHtml(turn: Turn, n: number, rendered: RenderedTurns): string {
  const label = roleLabel(turn.role);
  const parts: string[] = [];
  if (turn.toolCallId !== undefined) {
    parts.push(`<p class="muted">${escapeHtml(l10n.t('For call {0}', clean(turn.toolCallId)))}</p>`);
  }
  if (turn.text !== '') {
    parts.push(
      turn.role === 'assistant'
        ? `<div class="markdown">${rendered.render(turn.text)}</div>`
        : `<div class="plain">${escapeHtml(turn.text)}</div>`,
    );
  } else if (turn.toolCalls.length === 0 && turn.images.length === 0 && turn.files.length === 0) {
    parts.push(`<p class="muted">${escapeHtml(l10n.t('(empty)'))}</p>`);
  }
  turn.images.forEach((url, i) => {
    const alt = l10n.t('Image {0} of turn {1}', i + 1, n);
    parts.push(
      SHOWN_IMAGE.test(url)
        ? `<img class="thumb" src="${escapeHtml(url)}" alt="${escapeHtml(alt)}">`
        : `<p class="muted">${escapeHtml(l10n.t('Image (not shown): {0}', clean(url.slice(0, 200))))}</p>`,
    );
  });
  for (const file of turn.files) {
    parts.push(`<p class="file">${escapeHtml(l10n.t('File: {0}', clean(file)))}</p>`);
  }
  parts.push(...turn.toolCalls.map(toolCallHtml));
  return article(turn.role, label, n, parts.join('\n'));
}

function article(role: string, label: string, n: number, inner: string, busy = false): string {
  const name = l10n.t('Turn {0}: {1}', n, clean(label));
  const roleClass = /^[a-z]+$/.test(role) ? role : 'other';
  return `<article class="turn role-${roleClass}" tabindex="0" aria-label="${escapeHtml(name)}"${busy ? ' aria-busy="true"' : ''}>
<h2>${escapeHtml(label)}${busy ? ` <span class="muted">${escapeHtml(l10n.t('(arriving…)'))}</span>` : ''}</h2>
${inner}
</article>`;
}

/**
 * The transcript's HTML: every turn, then the answer still arriving (or not yet appended), if any.
 * Every value from the payload or the answer is escaped or rendered through the sanitizer.
 */
export function transcriptHtml(
  turns: readonly Turn[],
  pending?: PendingAnswer,
  rendered: RenderedTurns = new RenderedTurns(),
): string {
  const articles = turns.map((t, i) => turnHtml(t, i + 1, rendered));
  if (pending && (pending.text !== '' || pending.toolCalls.length > 0 || pending.streaming)) {
    const inner = [
      pending.text !== '' ? `<div class="markdown">${rendered.render(pending.text)}</div>` : '',
      ...pending.toolCalls.map(toolCallHtml),
    ].join('\n');
    const label = pending.streaming ? l10n.t('Assistant') : l10n.t('Assistant (answer not yet in the payload)');
    articles.push(article('assistant', label, turns.length + 1, inner, pending.streaming));
  }
  if (articles.length === 0) {
    return `<p class="muted">${escapeHtml(l10n.t('The conversation has no turns yet.'))}</p>`;
  }
  return articles.join('\n');
}

/** The transcript page's own style: theme colors only, so light, dark and High Contrast themes read well. */
export const TRANSCRIPT_STYLE = `
.turn { border-left: 3px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); padding: 2px 12px 6px; margin: 12px 0; }
.turn:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.role-user { border-left-color: var(--vscode-textLink-foreground); }
.role-assistant { border-left-color: var(--vscode-charts-green, var(--vscode-focusBorder)); }
.role-tool { border-left-color: var(--vscode-charts-orange, var(--vscode-focusBorder)); }
.turn h2 { border: none; margin: 6px 0 4px; font-size: 1em; }
.plain { white-space: pre-wrap; word-break: break-word; }
.markdown pre { background: var(--vscode-textCodeBlock-background); padding: 8px; border-radius: 3px; border: 1px solid var(--vscode-widget-border, transparent); }
.markdown pre code { background: none; padding: 0; }
.tool-call { border: 1px dashed var(--vscode-widget-border, var(--vscode-panel-border, transparent)); padding: 4px 8px; margin: 6px 0; }
.tool-call h3 { font-size: 1em; font-weight: 600; margin: 2px 0; }
img.thumb { max-width: 240px; max-height: 240px; border: 1px solid var(--vscode-widget-border, transparent); margin: 4px 0; display: block; }
`;
