/**
 * How an answer reads in the response document: a header with endpoint, status, time, size and request id,
 * then pretty JSON (or the text), headers on demand, and for streams the text as it grows followed by the
 * final event. Pure; no `vscode` import.
 */
import type { StreamState } from './streamText';

/** Beyond this many characters the document shows the start of the body and offers to save it all. */
export const DISPLAY_LIMIT = 256 * 1024;

export type ResponseRecord = {
  method: 'POST';
  endpoint: string;
  startedAt: number;
  /** Set once an answer (or a failure) arrived. */
  status?: number;
  statusText?: string;
  elapsedMs?: number;
  requestId?: string;
  headers?: Record<string, string>;
  contentType?: string;
  /** Non-stream body text and its size. */
  bodyText?: string;
  bodyJson?: unknown;
  bytes?: number;
  /** The client cut the body at its limit. */
  truncatedByClient?: boolean;
  stream?: StreamState;
  rawEvents?: string[];
  /** A readable failure (already free of the key). */
  error?: string;
  cancelled?: boolean;
  showHeaders?: boolean;
};

export function formatBytes(n: number): string {
  if (n < 1024) {
    return `${n} B`;
  }
  if (n < 1024 * 1024) {
    return `${(n / 1024).toFixed(1)} KB`;
  }
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function headerLine(r: ResponseRecord): string {
  const parts = [`${r.method} ${r.endpoint}`];
  if (r.status !== undefined) {
    parts.push(`${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
  } else if (r.cancelled) {
    parts.push('cancelled');
  } else if (r.error) {
    parts.push('failed');
  } else {
    parts.push(r.stream ? 'streaming…' : 'waiting for the answer…');
  }
  if (r.elapsedMs !== undefined) {
    parts.push(`${Math.round(r.elapsedMs)} ms`);
  }
  if (r.bytes !== undefined) {
    parts.push(formatBytes(r.bytes));
  }
  if (r.stream) {
    parts.push(`${r.stream.events} events`);
  }
  if (r.requestId) {
    parts.push(`request id ${r.requestId}`);
  }
  return `// ${parts.join(' · ')}`;
}

/** The whole document text for a record. */
export function renderResponse(r: ResponseRecord): string {
  const lines = [headerLine(r)];
  if (r.error) {
    lines.push(`// ${r.error.replace(/\r?\n/g, ' ')}`);
  }
  if (r.showHeaders && r.headers) {
    lines.push('// ── response headers ──');
    for (const [name, value] of Object.entries(r.headers)) {
      lines.push(`// ${name}: ${value}`);
    }
  }
  if (r.stream) {
    lines.push(r.stream.done || r.status !== undefined && r.elapsedMs !== undefined ? '// ── output text ──' : '// ── output text (growing as it arrives) ──');
    lines.push(r.stream.text);
    if (r.stream.error) {
      lines.push(`// the stream reported an error: ${r.stream.error}`);
    }
    if (r.stream.final !== undefined) {
      lines.push('// ── final event ──');
      lines.push(JSON.stringify(r.stream.final, null, 2));
    }
  } else if (r.bodyText !== undefined) {
    const pretty = r.bodyJson !== undefined ? JSON.stringify(r.bodyJson, null, 2) : r.bodyText;
    if (pretty.length > DISPLAY_LIMIT) {
      lines.push(`// Shown: the first ${formatBytes(DISPLAY_LIMIT)} of ${formatBytes(pretty.length)}. Run "Model Access: Save Response Body" to save all of it.`);
      lines.push(pretty.slice(0, DISPLAY_LIMIT));
    } else {
      lines.push(pretty);
    }
    if (r.truncatedByClient) {
      lines.push('// The body was larger than the client reads; it was cut at that limit.');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The full body for "save whole body": pretty JSON when it is JSON, else the text. */
export function fullBody(r: ResponseRecord): string | undefined {
  if (r.stream) {
    return r.rawEvents?.join('\n\n');
  }
  if (r.bodyJson !== undefined) {
    return JSON.stringify(r.bodyJson, null, 2);
  }
  return r.bodyText;
}
