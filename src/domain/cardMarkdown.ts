/**
 * A fetched Model Card made safe to hand to VS Code's Markdown preview. Pure, no `vscode` import.
 *
 * The card is not cleaned as Markdown text: what a Markdown engine makes of text (reference definitions in
 * block quotes, code spans, entities…) is too subtle to guess with patterns. Instead the card is rendered by
 * the engine the preview itself uses (markdown-it, through VS Code's `markdown.api.render`), and what it
 * produced is rebuilt from an allow-list of elements and attributes:
 *
 * 1. {@link prepareCardSource}: every `<` of the card is replaced by a stand-in character before rendering,
 *    so the engine finds no raw HTML (and no autolink) in it at all; the stand-in becomes `&lt;` again in the
 *    result, so the card's own `<b>` shows as the text `<b>`, in code and in prose alike.
 * 2. {@link sanitizeRenderedCard}: the rendered HTML is read tag by tag and written out again with only the
 *    elements of {@link ELEMENTS}, only their listed attributes, links only to `https:` or `#anchors` (others
 *    point to {@link BLOCKED_LINK}), images only from `https:`, no `style` and no event handler. Whatever the
 *    reading makes of odd input, only what this module writes reaches the preview.
 * 3. The result is one line of HTML inside a `<div>`: Markdown reads it as a single HTML block and leaves it
 *    alone (a blank line would end the block and let Markdown read the rest; newlines are written `&#10;`).
 *
 * Bidi and zero-width characters are shown as visible marks.
 */
import { escapeHtml, revealInvisible } from '../common/html';

/** Where a link that is not allowed points instead. */
export const BLOCKED_LINK = '#link-removed';

/** What stands for `<` while the card is rendered (a private-use character: ordinary text to Markdown). */
const LT_STANDIN = '\ue000';
const LT_STANDIN_URL = '%EE%80%80';

/** The card's Markdown as it is rendered: no `<` (so no raw HTML), invisible characters made visible. */
export function prepareCardSource(markdown: string): string {
  return revealInvisible(markdown)
    .replace(/\ue000/g, '\ufffd')
    .replace(/</g, LT_STANDIN);
}

/** Each element kept, with the attributes it keeps (besides the global ones). */
const ELEMENTS: Record<string, readonly string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  b: [],
  blockquote: [],
  br: [],
  code: [],
  del: [],
  div: [],
  em: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'title'],
  ins: [],
  kbd: [],
  li: [],
  mark: [],
  ol: ['start'],
  p: [],
  pre: [],
  s: [],
  span: [],
  strong: [],
  sub: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['align'],
  tfoot: [],
  th: ['align'],
  thead: [],
  tr: [],
  ul: [],
};
const GLOBAL_ATTRIBUTES = ['id', 'class', 'dir'];
const VOID = new Set(['br', 'hr', 'img']);
/** Elements whose content is dropped with them (a renderer plugin's math markup, anything executable). */
const DROP_CONTENT = new Set(['script', 'style', 'template', 'textarea', 'title', 'math', 'svg', 'iframe', 'object']);

/** A start or end tag with double-, single- or un-quoted attribute values (what a renderer writes). */
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/y;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute value as the browser reads it; undefined when it holds an entity this module does not know. */
function decodeAttribute(value: string): string | undefined {
  let unknown = false;
  const decoded = value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    const named = NAMED[ref.toLowerCase()];
    if (named === undefined) {
      unknown = true;
      return whole;
    }
    return named;
  });
  return unknown ? undefined : decoded.split(LT_STANDIN).join('<');
}

/** Whether a decoded link or image address may stay: absolute https without credentials, printable ASCII only. */
function isHttpsAddress(value: string): boolean {
  if (!/^https:\/\/[\x21-\x7e]+$/i.test(value)) {
    return false;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A link target that may stay, or {@link BLOCKED_LINK}: an https address or an in-page anchor. */
function safeHref(raw: string): string {
  const value = decodeAttribute(raw);
  if (value === undefined) {
    return BLOCKED_LINK;
  }
  if (/^#[\w.%-]*$/.test(value)) {
    return value;
  }
  return isHttpsAddress(value) ? value : BLOCKED_LINK;
}

/**
 * The attributes of a kept element (a tag of {@link ELEMENTS}), checked and written again; undefined for an
 * image that may not load.
 */
function attributesOf(tag: string, source: string): string | undefined {
  const allowed = new Set([...ELEMENTS[tag], ...GLOBAL_ATTRIBUTES]);
  const out: string[] = [];
  const seen = new Set<string>();
  let style: string | undefined;
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = m[1].toLowerCase();
    const raw = (m[2] ?? m[3] ?? m[4] ?? '').split(LT_STANDIN_URL).join('%3C');
    if (name === 'style') {
      style = raw;
    }
    if (!allowed.has(name) || seen.has(name)) {
      continue;
    }
    seen.add(name);
    let value = decodeAttribute(raw);
    if (name === 'href') {
      value = safeHref(raw);
    } else if (name === 'src') {
      if (value === undefined || !isHttpsAddress(value)) {
        return undefined;
      }
    } else if (name === 'class') {
      value = value
        ?.split(/\s+/)
        .filter((c) => /^[\w-]+$/.test(c) && c !== 'code-line')
        .join(' ');
    } else if (name === 'dir') {
      value = /^(auto|ltr|rtl)$/i.test(value ?? '') ? value : undefined;
    } else if (name === 'align') {
      value = /^(left|center|right)$/i.test(value ?? '') ? value : undefined;
    } else if (name === 'start') {
      value = /^\d{1,9}$/.test(value ?? '') ? value : undefined;
    }
    if (value !== undefined && value !== '') {
      out.push(` ${name}="${escapeHtml(value)}"`);
    }
  }
  if (tag === 'img' && !seen.has('src')) {
    return undefined;
  }
  // A table cell's alignment is written as a style by markdown-it; it is kept as the `align` attribute.
  const align = /^\s*text-align\s*:\s*(left|center|right)\s*;?\s*$/i.exec(style ?? '')?.[1];
  if ((tag === 'td' || tag === 'th') && align && !seen.has('align')) {
    out.push(` align="${align.toLowerCase()}"`);
  }
  return out.join('');
}

/** `alt="…"` of an image tag, decoded, for an image that is not loaded. */
function altOf(attributes: string): string {
  for (const m of attributes.matchAll(ATTRIBUTE)) {
    if (m[1].toLowerCase() === 'alt') {
      return decodeAttribute(m[2] ?? m[3] ?? m[4] ?? '') ?? '';
    }
  }
  return '';
}

/** Text between tags (already HTML text from the renderer): `<` cannot occur; the stand-in becomes `&lt;`. */
function textOf(text: string): string {
  return revealInvisible(text).replace(/>/g, '&gt;').split(LT_STANDIN).join('&lt;');
}

/**
 * HTML a Markdown engine rendered from {@link prepareCardSource}'s text, rebuilt from the allow-list, as one
 * line inside `<div class="model-card">`: a Markdown document that shows exactly this HTML.
 */
export function sanitizeRenderedCard(html: string): string {
  let out = '';
  let dropping: string | undefined;
  let depth = 0;
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    const end = lt < 0 ? html.length : lt;
    if (end > at) {
      if (!dropping) {
        out += textOf(html.slice(at, end));
      }
      at = end;
      continue;
    }
    TAG.lastIndex = at;
    const m = TAG.exec(html);
    if (!m) {
      if (!dropping) {
        out += '&lt;';
      }
      at += 1;
      continue;
    }
    at = TAG.lastIndex;
    const closing = m[1] === '/';
    const tag = m[2].toLowerCase();
    if (dropping) {
      if (tag === dropping) {
        depth += closing ? -1 : 1;
        if (depth === 0) {
          dropping = undefined;
        }
      }
      continue;
    }
    if (DROP_CONTENT.has(tag)) {
      if (!closing) {
        dropping = tag;
        depth = 1;
      }
      continue;
    }
    if (!(tag in ELEMENTS)) {
      continue;
    }
    if (closing) {
      out += VOID.has(tag) ? '' : `</${tag}>`;
      continue;
    }
    const attributes = attributesOf(tag, m[3]);
    if (attributes === undefined) {
      // An image that may not load: its description as text.
      const alt = altOf(m[3]);
      out += alt ? `[${escapeHtml(alt)}]` : '';
      continue;
    }
    out += `<${tag}${attributes}>`;
  }
  // One line: a line break inside the block (text, a code block, an attribute) is a character reference.
  const line = out.replace(/\r/g, '&#13;').replace(/\n/g, '&#10;');
  return `<div class="model-card">${line}</div>\n`;
}

/**
 * The card's Markdown as the preview should show it: rendered by `render` (the preview's Markdown engine,
 * given {@link prepareCardSource}'s text) and rebuilt from the allow-list by {@link sanitizeRenderedCard}.
 */
export function sanitizeCardMarkdown(markdown: string, render: (markdown: string) => string): string {
  return sanitizeRenderedCard(render(prepareCardSource(markdown)));
}

/** Plain text as a Markdown code block (a fence longer than any backtick run inside it). */
export function plainTextAsMarkdown(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${revealInvisible(text)}\n${fence}\n`;
}
