/**
 * Reading the error bodies real services send (docs/service-shapes.md lists 6+ shapes) into a message, a code and a
 * type. Never throws, whatever the body is.
 */

import { asRecord } from '../common/records';
import { oneLine } from '../common/text';
import { header, type Headers } from './headers';

export interface ErrorDetails {
  message?: string;
  code?: string;
  type?: string;
  /** The body was an HTML page. */
  html?: boolean;
}

/** A string or number field as one clean line; anything else is undefined. */
function field(v: unknown): string | undefined {
  if (typeof v === 'string') {
    const t = oneLine(v);
    return t === '' ? undefined : t;
  }
  if (typeof v === 'number' && Number.isFinite(v)) {
    return String(v);
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** A short line from an HTML page: its title, else its first heading, else its text. */
export function htmlLine(html: string): string {
  const snippet = html.length > 65536 ? html.slice(0, 65536) : html;
  const pick = (re: RegExp): string | undefined => {
    const m = re.exec(snippet);
    return m ? textOf(m[1]) : undefined;
  };
  const title = pick(/<title[^>]*>([\s\S]*?)<\/title>/i);
  if (title) {
    return title;
  }
  const h1 = pick(/<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i);
  if (h1) {
    return h1;
  }
  return textOf(snippet.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')) ?? '';
}

function textOf(fragment: string): string | undefined {
  const text = oneLine(
    fragment.replace(/<[^>]*>/g, ' ').replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m),
  );
  return text === '' ? undefined : text;
}

function looksLikeHtml(text: string, contentType: string): boolean {
  return contentType.includes('html') || /^\s*<(!doctype|html|head|body)/i.test(text);
}

function detailText(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    // FastAPI/pydantic: [{loc, msg, type}, …]
    const msgs = v
      .map((d) => field(asRecord(d)?.msg) ?? field(asRecord(d)?.message) ?? field(d))
      .filter((m): m is string => m !== undefined);
    return msgs.length ? oneLine(msgs.join('; ')) : undefined;
  }
  return field(v);
}

/** The message, code and type of an error answer, from its body (JSON, problem+json, text, HTML) and headers. */
export function readErrorBody(body: string, headers: Headers = {}): ErrorDetails {
  const contentType = (header(headers, 'content-type') ?? '').toLowerCase();
  const out: ErrorDetails = {};
  let json: unknown;
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || contentType.includes('json')) {
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
  }
  const root = asRecord(json) ?? asRecord(Array.isArray(json) ? json[0] : undefined);
  if (root) {
    const err = asRecord(root.error);
    const first = Array.isArray(root.errors) ? asRecord(root.errors[0]) : undefined;
    const title = field(root.title);
    const detail = detailText(root.detail);
    out.message =
      field(err?.message) ??
      field(root.error) ??
      field(root.message) ??
      (title && detail ? (detail.startsWith(title) ? detail : `${title}: ${detail}`) : undefined) ??
      detail ??
      field(root.error_description) ??
      field(first?.message) ??
      field(first?.detail) ??
      title ??
      field(err?.detail);
    out.code =
      field(err?.code) ?? field(root.error_code) ?? field(root.code) ?? field(err?.status) ?? field(first?.code);
    const topType = field(root.type);
    out.type = field(err?.type) ?? (topType && topType !== 'error' ? topType : undefined);
  } else if (typeof json === 'string') {
    // Some frameworks answer with a bare JSON string: "Invalid API key".
    out.message = field(json);
  }
  out.message ??= field(header(headers, 'x-error-message'));
  out.code ??= field(header(headers, 'x-error-code'));
  if (out.message === undefined && trimmed !== '' && json === undefined) {
    if (looksLikeHtml(trimmed, contentType)) {
      out.html = true;
      out.message = htmlLine(trimmed) || undefined;
    } else {
      const line = trimmed.split(/\r?\n/).find((l) => l.trim() !== '');
      out.message = line ? oneLine(line) : undefined;
    }
  }
  if (out.message !== undefined) {
    out.message = oneLine(out.message);
  }
  return out;
}
