/**
 * How an answer reads in the response document: a header with endpoint, status, time, size and request id,
 * then pretty JSON (or the text), headers on demand, and for streams the text as it grows followed by the
 * final event. Pure; no `vscode` import.
 */
import { prettyJson } from '../../common/prettyJson';
import type { StreamState } from './streamText';
import { l10n } from '../../common/plainL10n';

/**
 * Beyond this many characters the document shows the start of a body (the end of a growing stream) and
 * offers to save it all: every redraw costs at most this much, however long the answer.
 */
export const DISPLAY_LIMIT = 256 * 1024;
/** Characters dropped from the start of a stream's visible tail after redaction, so a key cut by the window never shows in part. */
/** Extra characters kept before a window is cut, so a key across the cut is still whole when it is removed. */
export const REDACTION_MARGIN = 4096;

/** Removes the key (in every form) from text about to be shown or saved. */
export type Redact = (text: string) => string;

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
  /** The answer passed `modelAccess.limits.maxResponseMegabytes` and was stopped there. */
  limitReached?: boolean;
  /** The whole stream text, redacted, once the stream ended (for saving, history and the last redraw). */
  finalText?: string;
  /** The redacted display form of a non-stream body, made once. */
  bodyDisplay?: { text: string; flat: boolean };
  /** Raw events were dropped: the decoded answer held the key across events, so they cannot be shown safely. */
  rawEventsWithheld?: boolean;
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
    // A 200 whose stream was cut short is not a complete answer: say how it ended.
    if (r.cancelled) {
      parts.push(l10n.t('cancelled'));
    } else if (r.limitReached) {
      parts.push(l10n.t('stopped at the size limit'));
    } else if (r.error && r.stream) {
      parts.push(l10n.t('failed'));
    }
  } else if (r.cancelled) {
    parts.push(l10n.t('cancelled'));
  } else if (r.error) {
    parts.push(l10n.t('failed'));
  } else {
    parts.push(r.stream ? l10n.t('streaming…') : l10n.t('waiting for the answer…'));
  }
  if (r.elapsedMs !== undefined) {
    parts.push(l10n.t('{0} ms', Math.round(r.elapsedMs)));
  }
  if (r.bytes !== undefined) {
    parts.push(formatBytes(r.bytes));
  }
  if (r.stream) {
    parts.push(r.stream.events === 1 ? l10n.t('1 event') : l10n.t('{0} events', r.stream.events));
  }
  if (r.requestId) {
    parts.push(l10n.t('request id {0}', r.requestId));
  }
  return `// ${parts.join(' · ')}`;
}

/**
 * The last DISPLAY_LIMIT characters of a growing stream, redacted, never starting inside a key. Reads the
 * stream's bounded `tail`, so a redraw costs the same at 1 KB and at 30 MB.
 */
function visibleTail(stream: StreamState, redact: Redact): { shown: string; hidden: number } {
  const total = stream.text.length;
  if (total <= DISPLAY_LIMIT) {
    return { shown: redact(stream.text), hidden: 0 };
  }
  if (total < DISPLAY_LIMIT + REDACTION_MARGIN) {
    // Shorter than a window and its margin: read whole, nothing is cut at its start, so no margin is dropped
    // (a window reaching before the start would show nothing at all).
    // Counted after redaction: a key that shrank to its marker can bring the whole text within the limit.
    const whole = redact(stream.text);
    const shown = whole.slice(-DISPLAY_LIMIT);
    return { shown, hidden: whole.length - shown.length };
  }
  const tail = stream.tail.length >= DISPLAY_LIMIT + REDACTION_MARGIN ? stream.tail : stream.text;
  const window = tail.slice(tail.length - DISPLAY_LIMIT - REDACTION_MARGIN);
  const shown = redact(window).slice(REDACTION_MARGIN);
  return { shown, hidden: total - shown.length };
}

/**
 * The body as shown and saved, redacted as a whole once (so no window can cut a key in two): pretty JSON
 * when it is JSON (one line when nested too deeply), else the text.
 */
export function bodyForDisplay(r: ResponseRecord, redact: Redact): { text: string; flat: boolean } | undefined {
  if (r.bodyDisplay === undefined) {
    const body =
      r.bodyJson !== undefined
        ? prettyJson(r.bodyJson)
        : r.bodyText === undefined
          ? undefined
          : { text: r.bodyText, flat: false };
    if (!body) {
      return undefined;
    }
    r.bodyDisplay = { text: redact(body.text), flat: body.flat };
  }
  return r.bodyDisplay;
}

/** The whole document text for a record, with the key removed; at most about DISPLAY_LIMIT of body. */
export function renderResponse(r: ResponseRecord, redact: Redact): string {
  const lines = [headerLine(r)];
  if (r.error) {
    lines.push(`// ${r.error.replace(/\r?\n/g, ' ')}`);
  }
  if (r.showHeaders && r.headers) {
    lines.push(`// ── ${l10n.t('response headers')} ──`);
    for (const [name, value] of Object.entries(r.headers)) {
      lines.push(`// ${name}: ${value.replace(/\r?\n/g, ' ')}`);
    }
  }
  if (r.stream) {
    const finished = r.stream.done || (r.status !== undefined && r.elapsedMs !== undefined);
    lines.push(`// ── ${finished ? l10n.t('output text') : l10n.t('output text (growing as it arrives)')} ──`);
    const { shown, hidden } =
      r.finalText !== undefined && r.finalText.length <= DISPLAY_LIMIT
        ? { shown: r.finalText, hidden: 0 }
        : visibleTail(r.stream, redact);
    if (hidden > 0) {
      lines.push(
        `// ${l10n.t(
          'Shown: the last {0} of {1}. Run "Model Access: Save Response Body" to save all of it.',
          formatBytes(shown.length),
          formatBytes(r.stream.text.length),
        )}`,
      );
    }
    lines.push(shown);
    if (r.stream.error) {
      lines.push(`// ${l10n.t('the stream reported an error: {0}', r.stream.error.replace(/\r?\n/g, ' '))}`);
    }
    if (r.stream.final !== undefined) {
      lines.push(`// ── ${l10n.t('final event')} ──`);
      // Redacted whole before it is cut: the final event of a Responses stream repeats the whole text.
      lines.push(redact(prettyJson(r.stream.final).text).slice(0, DISPLAY_LIMIT));
    }
  } else {
    const body = bodyForDisplay(r, redact);
    if (body) {
      if (body.flat) {
        lines.push(`// ${l10n.t('Nested too deeply to indent: shown as one line.')}`);
      }
      if (body.text.length > DISPLAY_LIMIT) {
        lines.push(
          `// ${l10n.t(
            'Shown: the first {0} of {1}. Run "Model Access: Save Response Body" to save all of it.',
            formatBytes(DISPLAY_LIMIT),
            formatBytes(body.text.length),
          )}`,
        );
        lines.push(body.text.slice(0, DISPLAY_LIMIT));
      } else {
        lines.push(body.text);
      }
    }
    if (r.truncatedByClient) {
      lines.push(
        `// ${l10n.t('The body was larger than modelAccess.limits.maxResponseMegabytes; it was cut at that limit.')}`,
      );
    }
  }
  return redact(`${lines.join('\n')}\n`);
}

/**
 * The full body for "Save Response Body", with the key removed: the raw events of a stream (or, when they
 * were withheld, its text), else the pretty JSON or the text.
 */
export function fullBody(r: ResponseRecord, redact: Redact): string | undefined {
  if (r.stream) {
    if (r.rawEvents && !r.rawEventsWithheld) {
      return redact(r.rawEvents.join('\n\n'));
    }
    return r.finalText ?? redact(r.stream.text);
  }
  return bodyForDisplay(r, redact)?.text;
}

/**
 * Once a stream has ended: its whole text, redacted once (a key split across events is whole here).
 * When that text held a key, the raw events are dropped — each may hold a piece of it — and Save
 * Response Body saves the redacted text instead.
 */
export function finishStream(record: ResponseRecord, redact: Redact): void {
  if (!record.stream) {
    return;
  }
  record.finalText = redact(record.stream.text);
  record.rawEventsWithheld = record.finalText !== record.stream.text;
  if (record.rawEventsWithheld) {
    record.rawEvents = undefined;
  }
}

/** The history's one-line summary, cut only after the key was removed from the whole text. */
export function summarize(record: ResponseRecord, redact: (text: string) => string): string {
  const text =
    record.error ?? (record.stream ? (record.finalText ?? redact(record.stream.text)) : redact(record.bodyText ?? ''));
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
