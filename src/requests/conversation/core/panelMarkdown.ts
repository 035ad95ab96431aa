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
 * The most of an answer the panel renders as Markdown in one go, as Send's response document shows at most
 * 256 KB: while an answer streams the panel redraws every 100 ms, and a 16 MB answer rendered whole took
 * seconds of extension-host time per redraw. Beyond it an arriving answer shows its last part, an arrived one
 * its first part rendered and the rest as plain text.
 */
export const RENDER_LIMIT = 256 * 1024;

/** Where to cut `text` near `at`: after a line break close before it, so a paragraph is not split mid-line. */
function cutNear(text: string, at: number, searchBack: boolean): number {
  if (searchBack) {
    const nl = text.lastIndexOf('\n', at - 1);
    return nl >= at - RENDER_LIMIT / 4 ? nl + 1 : at;
  }
  const nl = text.indexOf('\n', at);
  return nl >= 0 && nl < at + RENDER_LIMIT / 4 ? nl + 1 : at;
}

function plain(text: string): string {
  return `<div class="plain">${escapeHtml(text)}</div>`;
}

function note(text: string): string {
  return `<p class="note">${escapeHtml(text)}</p>`;
}

/** `render(text)`, or the text shown plainly (with a note) when rendering fails: any answer can be shown. */
function renderSafely(render: (text: string) => string, text: string): string {
  try {
    return render(text);
  } catch {
    return note(l10n.t('This answer could not be formatted; it is shown as plain text.')) + plain(text);
  }
}

/**
 * Answers already rendered, by their text: while an answer streams the panel redraws every 100 ms and only
 * the answer still arriving changed. Emptied when it passes `max` entries. Never throws: an answer the
 * renderer fails on is shown as plain text.
 */
export class RenderedAnswers {
  private readonly html = new Map<string, string>();

  constructor(
    private readonly max = 1000,
    /** The Markdown renderer (tests give one that throws or counts). */
    private readonly renderMarkdown: (text: string) => string = renderAnswer,
  ) {}

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

  /**
   * An answer still growing, rendered without being kept (its text is new at every redraw): at most
   * RENDER_LIMIT characters, its end, whatever its length. `hidden` counts characters before `text` that the
   * caller left out already (the end of a long stream is all it read).
   */
  renderArriving(text: string, hidden = 0): string {
    const known = hidden === 0 ? this.html.get(text) : undefined;
    if (known !== undefined) {
      return known;
    }
    const start = text.length > RENDER_LIMIT ? cutNear(text, text.length - RENDER_LIMIT, false) : 0;
    const left = hidden + start;
    const shown = renderSafely(this.renderMarkdown, start === 0 ? text : text.slice(start));
    return left === 0
      ? shown
      : note(
          l10n.t(
            'The first {0} characters are not shown while the answer arrives; all of it shows when it ends.',
            left,
          ),
        ) + shown;
  }

  /** An arrived answer: its first RENDER_LIMIT characters rendered, the rest (if any) as plain text. */
  private renderWhole(text: string): string {
    if (text.length <= RENDER_LIMIT) {
      return renderSafely(this.renderMarkdown, text);
    }
    const end = cutNear(text, RENDER_LIMIT, true);
    return (
      renderSafely(this.renderMarkdown, text.slice(0, end)) +
      note(l10n.t('The answer goes on for {0} more characters, shown as plain text.', text.length - end)) +
      plain(text.slice(end))
    );
  }

  render(text: string): string {
    const known = this.html.get(text);
    if (known !== undefined) {
      return known;
    }
    const made = this.renderWhole(text);
    if (this.html.size >= this.max) {
      this.html.clear();
      this.pieces.clear();
    }
    this.html.set(text, made);
    return made;
  }
}
