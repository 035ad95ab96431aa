/**
 * A fetched Model Card made safe to hand to VS Code's Markdown preview. Pure, no `vscode` import.
 *
 * The preview already sanitizes HTML and blocks scripts; this adds what it does not promise for text that
 * anyone may have written: only `https` links and `#anchors` stay links (a `command:`, `javascript:`,
 * `file:` or `vscode:` link — also written with entities or escapes — points nowhere instead), images load
 * only over https (plain http links point nowhere too), raw HTML shows as text, and bidi or zero-width characters are shown as visible marks.
 */
import { revealInvisible } from '../common/html';

/** Where a link that is not allowed points instead. */
export const BLOCKED_LINK = '#link-removed';

const ALLOWED = /^<?https:\/\/[^\s<>]/i;

function safeDestination(dest: string): string {
  const d = dest.trim();
  if (/^#[\w-]*$/.test(d)) {
    return d;
  }
  // No backslash escapes or entities before the query: they could spell another scheme once decoded.
  return ALLOWED.test(d) && !/[\\&]/.test(d.split(/[?#]/)[0]) ? d : BLOCKED_LINK;
}

/** Markdown outside code: raw HTML escaped, link and image destinations checked. */
function sanitizeProse(prose: string): string {
  // Raw HTML (tags, comments) shows as text; autolinks to https stay links.
  let text = prose.replace(/<(?!https:\/\/[^\s<>]*>)/gi, '&lt;');
  // Every inline link or image destination, whatever its text: `](dest`.
  text = text.replace(/\]\(\s*(<[^>\n]*>|[^\s)]*)/g, (_m, dest: string) => `](${safeDestination(dest)}`);
  // Reference definitions `[label]: dest`, the label and destination possibly on other lines.
  return text.replace(/^( {0,3}\[[^\]]+\]:\s*)(<[^>\n]*>|\S+)/gm, (_m, head: string, dest: string) => {
    return `${head}${safeDestination(dest)}`;
  });
}

/** Prose split from one-line inline code spans (same-length backtick runs): code is left as written. */
function sanitizeLines(lines: string): string {
  const code = /(?<![`\\])(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g;
  let out = '';
  let at = 0;
  for (const m of lines.matchAll(code)) {
    out += sanitizeProse(lines.slice(at, m.index)) + m[0];
    at = (m.index ?? 0) + m[0].length;
  }
  return out + sanitizeProse(lines.slice(at));
}

/**
 * The card's Markdown with every link destination checked, raw HTML escaped and invisible characters
 * shown. Fenced code blocks are left as written: Markdown renders them as text.
 */
export function sanitizeCardMarkdown(markdown: string): string {
  const lines = revealInvisible(markdown).split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (prose.length) {
      out.push(sanitizeLines(prose.join('\n')));
      prose = [];
    }
  };
  for (const line of lines) {
    // A backtick fence's info string holds no backtick (else the line is not a fence).
    const marker = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) {
      flush();
      fence = marker;
      out.push(line);
    } else if (fence !== undefined) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = undefined;
      }
    } else {
      prose.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/** Plain text as a Markdown code block (a fence longer than any backtick run inside it). */
export function plainTextAsMarkdown(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${revealInvisible(text)}\n${fence}\n`;
}
