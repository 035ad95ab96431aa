/**
 * An answer's Markdown as the conversation panel shows it: rendered by markdown-it (HTML off, links only
 * http(s) or in-page, images as links, never loaded), rebuilt by the Model Card allow-list
 * (domain/cardMarkdown.ts), code blocks coloured by ./highlight.ts and given a Copy button afterwards (the
 * allow-list has no buttons: they are ours, added to what it wrote). Pure; no `vscode` import.
 */
import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../../../common/html';
import { l10n } from '../../../common/l10n';
import { clean } from '../../../common/text';
import { sanitizeCardMarkdown } from '../../../domain/cardMarkdown';
import { readConversation, type ConversationRead } from './turns';
import { highlight } from './highlight';

const markdown: MarkdownIt = new MarkdownIt({
  html: false,
  linkify: false,
  typographer: false,
  highlight: (code, language) => highlight(code, language),
});
markdown.validateLink = (url: string) => /^https?:\/\//i.test(url.trim()) || url.trim().startsWith('#');
markdown.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = token.attrGet('src') ?? '';
  const alt = token.content || l10n.t('image');
  return `<a href="${escapeHtml(src)}">${escapeHtml(l10n.t('[image: {0}]', clean(alt)))}</a>`;
};

/** The sanitizer writes `<pre>` with at most its global attributes; each gets our Copy button. */
const PRE_OPEN = /<pre(?: [^>]*)?>/g;

/** The Markdown of an answer as safe HTML, code blocks coloured and each with a Copy button. */
export function renderAnswer(text: string): string {
  const safe = sanitizeCardMarkdown(text, (md) => markdown.render(md));
  const copy = escapeHtml(l10n.t('Copy'));
  const name = escapeHtml(l10n.t('Copy code'));
  return safe
    .replace(
      PRE_OPEN,
      (pre) =>
        `<div class="code-block"><button type="button" class="copy-code" data-action="copyCode" aria-label="${name}">${copy}</button>${pre}`,
    )
    .replace(/<\/pre>/g, '</pre></div>');
}

/**
 * Answers already rendered, by their text: while an answer streams the panel redraws every 100 ms and only
 * the answer still arriving changed. Emptied when it passes `max` entries.
 */
export class RenderedAnswers {
  private readonly html = new Map<string, string>();

  constructor(private readonly max = 1000) {}

  /** Whether `text` was rendered already. */
  has(text: string): boolean {
    return this.html.has(text);
  }

  private lastText?: string;
  private lastRead?: ConversationRead;

  /** The conversation of `text`, read again only when the text changed (a redraw while an answer streams). */
  read(text: string): ConversationRead {
    if (this.lastRead === undefined || this.lastText !== text) {
      this.lastRead = readConversation(text);
      this.lastText = text;
    }
    return this.lastRead;
  }

  /** Turn pieces already built, by everything they show (cleared with the answers). */
  readonly pieces = new Map<string, string>();

  /** Rendered without being kept (an answer still growing: its text is new at every redraw). */
  renderUncached(text: string): string {
    return this.html.get(text) ?? renderAnswer(text);
  }

  render(text: string): string {
    const known = this.html.get(text);
    if (known !== undefined) {
      return known;
    }
    const made = renderAnswer(text);
    if (this.html.size >= this.max) {
      this.html.clear();
      this.pieces.clear();
    }
    this.html.set(text, made);
    return made;
  }
}
