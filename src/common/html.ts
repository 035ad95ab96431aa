/**
 * The one way text reaches a webview's HTML. Pure, no `vscode` import.
 *
 * Registry entries and answers are data: every value written into a page goes through {@link escapeHtml},
 * which makes it inert text in element content and in double- or single-quoted attribute values alike.
 * Bidi controls and zero-width characters are shown as visible `⟨U+202E⟩` marks instead of reordering what
 * follows them; control characters (other than line breaks and tabs) become U+FFFD.
 */
import { randomBytes } from 'node:crypto';
import { INVISIBLE } from './text';

const SPECIAL: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** A code point as a visible mark, e.g. `⟨U+202E⟩`. */
export function visibleMark(char: string): string {
  return `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Text with bidi and zero-width characters shown as marks and control characters replaced. */
export function revealInvisible(value: string): string {
  return value
    .replace(INVISIBLE, visibleMark)
    .replace(LINE_SEPARATORS, visibleMark)
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '\ufffd');
}

/**
 * `value` (anything; `undefined`/`null` give an empty string) as HTML text: safe in element content and in
 * quoted attribute values. The only function that writes untrusted text into a webview page.
 */
export function escapeHtml(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  const text = typeof value === 'string' ? value : String(value);
  return revealInvisible(text).replace(/[&<>"'`=]/g, (c) => SPECIAL[c]);
}

/**
 * A polite live region: screen readers read what the page's script writes into it ("Copied …", "Finished.")
 * without moving the focus. `text` is already-escaped HTML; `visible: false` keeps it for screen readers only.
 */
export function liveRegion(id: string, text = '', visible = true): string {
  return `<p id="${id}" role="status" aria-live="polite"${visible ? ' class="muted"' : ' class="visually-hidden"'}>${text}</p>`;
}

/**
 * The script of a page whose buttons carry `data-action` (and, for a link of the page's own list, `data-link`):
 * a press posts `{action, link}` to the extension, which may answer `{announce}` ("Copied …", "Saved …"),
 * read out by screen readers from the hidden live region `announce` (liveRegion('announce', '', false)).
 */
export const ACTION_SCRIPT = `
const vscode = acquireVsCodeApi();
window.addEventListener('message', (event) => {
  const said = event.data && typeof event.data.announce === 'string' ? event.data.announce : undefined;
  const region = document.getElementById('announce');
  if (said !== undefined && region) { region.textContent = ''; setTimeout(() => { region.textContent = said; }, 50); }
});
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
  if (!target) { return; }
  event.preventDefault();
  const link = target.getAttribute('data-link');
  vscode.postMessage({ action: target.getAttribute('data-action'), link: link === null ? undefined : Number(link) });
});
`;

/** A random nonce for a page's Content-Security-Policy (`script-src 'nonce-…'`). */
export function newNonce(): string {
  return randomBytes(18).toString('base64').replace(/[+/=]/g, '');
}

/**
 * The Content-Security-Policy of every page the extension shows: nothing by default; styles from the page's
 * nonce (and the webview's own resources), scripts only with the nonce, images only over https.
 */
export function contentSecurityPolicy(nonce: string, cspSource: string, imageSources = ''): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource} https:${imageSources ? ` ${imageSources}` : ''}`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** The look every page shares: VS Code's theme variables, so light, dark and high-contrast themes read well. */
const BASE_STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground);
  background: var(--vscode-editor-background); padding: 0 20px 24px; line-height: 1.5; }
h1 { font-size: 1.5em; font-weight: 600; margin: 16px 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.05em; font-weight: 600; margin: 20px 0 6px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); padding-bottom: 2px; }
.muted { color: var(--vscode-descriptionForeground); }
/* Error text in the foreground color (the theme's red is below 4.5:1 on a light background); the red border says error. */
.error { color: var(--vscode-foreground); border-left: 3px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground));
  padding: 4px 10px; margin: 10px 0; background: var(--vscode-inputValidation-errorBackground, transparent); white-space: pre-wrap;
  overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 6px; margin: 12px 0; }
button { font-family: inherit; font-size: inherit; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
  border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; padding: 4px 10px; cursor: pointer; }
button:not(:disabled):hover { background: var(--vscode-button-secondaryHoverBackground); }
button.primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
button.primary:not(:disabled):hover { background: var(--vscode-button-hoverBackground); }
button:disabled { opacity: 0.5; cursor: not-allowed; }
body.vscode-high-contrast button:disabled, body.vscode-high-contrast-light button:disabled { opacity: 0.6; border-style: dashed;
  border-color: var(--vscode-disabledForeground, var(--vscode-contrastBorder)); }
button:focus-visible, a:focus-visible, summary:focus-visible, [tabindex]:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
body.vscode-high-contrast :focus-visible, body.vscode-high-contrast-light :focus-visible {
  outline: 2px solid var(--vscode-contrastActiveBorder, var(--vscode-focusBorder)); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
a { color: var(--vscode-textLink-foreground); cursor: pointer; }
a:hover { color: var(--vscode-textLink-activeForeground); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 3px 12px 3px 0; }
th { font-weight: normal; color: var(--vscode-descriptionForeground); white-space: nowrap; width: 1%; }
td { word-break: break-word; white-space: pre-wrap; }
code, pre { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
code { background: var(--vscode-textCodeBlock-background); padding: 1px 4px; border-radius: 3px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
details > summary { cursor: pointer; color: var(--vscode-descriptionForeground); }
`;

export interface PageParts {
  title: string;
  nonce: string;
  cspSource: string;
  /** Already-escaped HTML (made with {@link escapeHtml} for every untrusted value). */
  body: string;
  style?: string;
  /** The page's script (our code, no untrusted text), run with the nonce. */
  script?: string;
  /** More image sources than the webview's own and https (the transcript's `data:` thumbnails). */
  imageSources?: string;
}

/** A whole page under {@link contentSecurityPolicy}. */
export function page(parts: PageParts): string {
  const { nonce } = parts;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(nonce, parts.cspSource, parts.imageSources))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style nonce="${nonce}">${BASE_STYLE}${parts.style ?? ''}</style>
</head><body>
${parts.body}
${parts.script ? `<script nonce="${nonce}">${parts.script}</script>` : ''}
</body></html>`;
}
