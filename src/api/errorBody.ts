/**
 * Reading the error bodies real services send (docs/service-shapes.md lists 6+ shapes) into a message, a code and a
 * type. Never throws, whatever the body is.
 */

export interface ErrorDetails {
  message?: string;
  code?: string;
  type?: string;
  /** The body was an HTML page. */
  html?: boolean;
}

type Headers = Record<string, string | string[] | undefined>;

const MAX_LINE = 300;

function str(v: unknown): string | undefined {
  if (typeof v === 'string') {
    const t = cleanLine(v);
    return t === '' ? undefined : t;
  }
  if (typeof v === 'number' && Number.isFinite(v)) {
    return String(v);
  }
  return undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return str(Array.isArray(v) ? v[0] : v);
}

/** One line of at most 300 characters: control characters and runs of white space become one space. */
export function cleanLine(text: string, max = MAX_LINE): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
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
  const text = cleanLine(
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
      .map((d) => str(obj(d)?.msg) ?? str(obj(d)?.message) ?? str(d))
      .filter((m): m is string => m !== undefined);
    return msgs.length ? cleanLine(msgs.join('; ')) : undefined;
  }
  return str(v);
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
  const root = obj(json) ?? obj(Array.isArray(json) ? json[0] : undefined);
  if (root) {
    const err = obj(root.error);
    const first = Array.isArray(root.errors) ? obj(root.errors[0]) : undefined;
    const title = str(root.title);
    const detail = detailText(root.detail);
    out.message =
      str(err?.message) ??
      str(root.error) ??
      str(root.message) ??
      (title && detail ? (detail.startsWith(title) ? detail : `${title}: ${detail}`) : undefined) ??
      detail ??
      str(root.error_description) ??
      str(first?.message) ??
      str(first?.detail) ??
      title ??
      str(err?.detail);
    out.code = str(err?.code) ?? str(root.error_code) ?? str(root.code) ?? str(err?.status) ?? str(first?.code);
    const topType = str(root.type);
    out.type = str(err?.type) ?? (topType && topType !== 'error' ? topType : undefined);
  }
  out.message ??= header(headers, 'x-error-message');
  out.code ??= header(headers, 'x-error-code');
  if (out.message === undefined && trimmed !== '' && json === undefined) {
    if (looksLikeHtml(trimmed, contentType)) {
      out.html = true;
      out.message = htmlLine(trimmed) || undefined;
    } else {
      const line = trimmed.split(/\r?\n/).find((l) => l.trim() !== '');
      out.message = line ? cleanLine(line) : undefined;
    }
  }
  if (out.message !== undefined) {
    out.message = cleanLine(out.message);
  }
  return out;
}
