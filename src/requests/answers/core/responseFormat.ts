/**
 * How an answer reads in the response document (Markdown): the answer first — its text, tool calls, or the
 * embeddings' count, norms and similarity — then the status line (endpoint, status, time, size, request id),
 * usage, headers on demand, and the wire data (pretty JSON, or a stream's final event). Pure; no `vscode` import.
 */
import { prettyJson } from '../../../common/prettyJson';
import type { Failure } from '../../../domain/failure';
import type { StreamState } from '../../send/core/streamText';
import { l10n } from '../../../common/plainL10n';
import { describeShapes, readAnswer, type Answer, type TokenUsage } from '../../../domain/answer';
import { embeddingsMarkdown, embeddingsSummary } from './embeddingsView';
import { costText, timeText, type Priced } from '../../../domain/answerFacts';

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
  /** The request body as sent, as it may be shown (variables that hold secrets are not resolved in it). */
  requestJson?: string;
  /** The environment it was sent to, by name (Copy as Code from the exchange calls the same service). */
  environment?: string;
  /** Set once an answer (or a failure) arrived. */
  status?: number;
  statusText?: string;
  elapsedMs?: number;
  /** From sending to the answer's first byte (its status line and headers). */
  firstByteMs?: number;
  /** The model's price and the answer's cost, once the answer was counted (src/platform/usageMeter.ts). */
  priced?: Priced;
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
  /** What failed, and the action that helps (Set API Key…, Retry…), when the request failed. */
  failure?: Failure;
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
  /** An embeddings payload's inputs, the labels of its vectors. */
  inputs?: string[];
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
    } else if (r.stream && !r.stream.done && r.elapsedMs === undefined) {
      // The answer is still arriving: the status line says so while the text above grows.
      parts.push(l10n.t('receiving…'));
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
  return parts.join(' · ');
}

/**
 * The last DISPLAY_LIMIT characters of a growing stream, redacted, never starting inside a key. Reads the
 * stream's bounded `tail`, so a redraw costs the same at 1 KB and at 30 MB.
 */
export function visibleTail(stream: StreamState, redact: Redact): { shown: string; hidden: number } {
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

/** A fence longer than any run of backticks in `text`, so the text can never close it. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) {
    longest = Math.max(longest, run.length);
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

function fenced(text: string, language: string): string[] {
  const fence = fenceFor(text);
  return [`${fence}${language}`, text.replace(/\n$/, ''), fence];
}

/** What the answer says, read by the shared answer reader from the body (undefined while none came). */
export function answerOf(r: ResponseRecord): Answer | undefined {
  if (r.bodyJson !== undefined) {
    return readAnswer(r.bodyJson);
  }
  return r.bodyText === undefined ? undefined : readAnswer(r.bodyText);
}

/** The token usage the answer reported (a stream's as read so far). */
export function usageOfRecord(r: ResponseRecord): TokenUsage | undefined {
  return (r.stream ? streamAnswer(r) : answerOf(r))?.usage;
}

/** What a stream said so far (usage, how it finished, tool calls), as the shared reader read its events. */
function streamAnswer(r: ResponseRecord): Answer | undefined {
  return r.stream?.reader?.answer();
}

/** Each tool call: its name, then its arguments as the answer gave them. */
function toolCallLines(answer: Answer | undefined, redact: Redact): string[] {
  return (answer?.toolCalls ?? []).flatMap((call) => [
    '',
    `**${l10n.t('Tool call: {0}', call.name)}**`,
    '',
    ...fenced(redact(call.arguments), 'json'),
  ]);
}

/** Tokens in, out and in all, and how the answer finished, as one line; undefined when the answer says none. */
export function usageLine(answer: Answer | undefined): string | undefined {
  const u: TokenUsage = answer?.usage ?? {};
  const parts: string[] = [];
  if (u.input !== undefined) {
    parts.push(l10n.t('{0} input tokens', u.input));
  }
  if (u.output !== undefined) {
    parts.push(l10n.t('{0} output tokens', u.output));
  }
  if (u.total !== undefined) {
    parts.push(l10n.t('{0} tokens in all', u.total));
  }
  if (answer?.finishReason) {
    parts.push(l10n.t('finished: {0}', answer.finishReason));
  }
  return parts.length ? parts.join(' · ') : undefined;
}

/** The answer first: its text (Markdown as the model wrote it), its tool calls, or the embeddings picture. */
function answerSection(r: ResponseRecord, redact: Redact, answer: Answer | undefined): string[] {
  if (r.stream) {
    const { shown, hidden } =
      r.finalText !== undefined && r.finalText.length <= DISPLAY_LIMIT
        ? { shown: r.finalText, hidden: 0 }
        : visibleTail(r.stream, redact);
    const lines: string[] = [];
    if (hidden > 0) {
      lines.push(
        `_${l10n.t(
          'Shown: the last {0} of {1}. Run "Model Access: Save Response Body" to save all of it.',
          formatBytes(shown.length),
          formatBytes(r.stream.text.length),
        )}_`,
        '',
      );
    }
    const calls = toolCallLines(streamAnswer(r), redact);
    if (shown.length > 0) {
      lines.push(shown);
    } else if (!r.stream.done && r.elapsedMs === undefined) {
      lines.push(`_${l10n.t('The answer appears here as it arrives…')}_`);
    } else if (calls.length === 0) {
      lines.push(`_${l10n.t('The stream held no answer text.')}_`);
    }
    lines.push(...calls);
    if (r.stream.error) {
      lines.push('', `**${l10n.t('The stream reported an error: {0}', r.stream.error.replace(/\r?\n/g, ' '))}**`);
    }
    return lines;
  }
  if (r.status === undefined) {
    if (r.error) {
      return [`**${r.error.replace(/\r?\n/g, ' ')}**`];
    }
    return [`_${l10n.t('Waiting for the answer…')}_`];
  }
  const lines: string[] = [];
  if (r.error) {
    lines.push(`**${r.error.replace(/\r?\n/g, ' ')}**`);
  }
  if (!answer) {
    return lines;
  }
  if (answer.vectors && answer.vectors.length > 0) {
    lines.push(embeddingsMarkdown(answer.vectors, r.inputs));
    return lines;
  }
  if (answer.text !== undefined && answer.text.length > 0) {
    const text = redact(answer.text);
    lines.push(
      text.length > DISPLAY_LIMIT
        ? `${text.slice(0, DISPLAY_LIMIT)}\n\n_${l10n.t('The text goes on: Save Response Body saves all of it.')}_`
        : text,
    );
  }
  lines.push(...toolCallLines(answer, redact));
  if (lines.length === 0 && !answer.error && r.bodyJson !== undefined) {
    lines.push(
      `_${l10n.t('No answer text was found in this body (looked for {0}); the JSON is below.', describeShapes())}_`,
    );
  }
  return lines;
}

/**
 * The JSON shown under the answer: embeddings' vectors folded to their first numbers (Save Response Body
 * keeps them all), everything else as it came.
 */
function foldVectors(value: unknown, answer: Answer | undefined): unknown {
  const data = (value as { data?: unknown } | undefined)?.data;
  if (!answer?.vectors || !Array.isArray(data)) {
    return value;
  }
  return {
    ...(value as Record<string, unknown>),
    data: data.map((item) => {
      const embedding = (item as { embedding?: unknown } | undefined)?.embedding;
      if (!item || typeof item !== 'object' || embedding === undefined) {
        return item;
      }
      const length = Array.isArray(embedding) ? embedding.length : String(embedding).length;
      return {
        ...(item as Record<string, unknown>),
        embedding: Array.isArray(embedding)
          ? l10n.t(
              '[{0} numbers: {1}, …] (Save Response Body saves them all)',
              length,
              embedding.slice(0, 3).join(', '),
            )
          : l10n.t('({0} characters of base64; Save Response Body saves them all)', length),
      };
    }),
  };
}

/**
 * The whole document, Markdown, with the key removed; at most about DISPLAY_LIMIT of body. The answer comes
 * first (so it is what a person sees, wrapped), then a rule, the status line, usage and timing, the headers
 * when asked, and the wire data: the JSON body (or text), or a stream's final event.
 */
export function renderResponse(r: ResponseRecord, redact: Redact): string {
  return renderResponseParts(r, redact).text;
}

/** The document and how many of its lines the answer takes (a growing stream keeps its last line in view). */
export function renderResponseParts(r: ResponseRecord, redact: Redact): { text: string; answerLines: number } {
  const answer = r.stream ? undefined : answerOf(r);
  const head = answerSection(r, redact, answer);
  const answerText = redact(head.join('\n'));
  const lines: string[] = [answerText, '', '---', '', headerLine(r)];
  const usage = usageLine(r.stream ? streamAnswer(r) : answer);
  if (usage) {
    lines.push('', usage);
  }
  if (r.error && r.stream) {
    lines.push('', r.error.replace(/\r?\n/g, ' '));
  }
  // After how it ended: what it took and what it cost.
  const time = r.elapsedMs === undefined ? undefined : timeText(r.firstByteMs, r.elapsedMs);
  if (time) {
    lines.push('', l10n.t('Time: {0}', time));
  }
  if (r.priced) {
    lines.push('', l10n.t('Cost: {0}', costText(r.priced)));
  }
  if (r.showHeaders && r.headers) {
    lines.push('', `### ${l10n.t('Response headers')}`, '');
    for (const [name, value] of Object.entries(r.headers)) {
      lines.push(`- ${name}: ${value.replace(/\r?\n/g, ' ')}`);
    }
  }
  if (r.stream) {
    if (r.stream.final !== undefined) {
      lines.push('', `### ${l10n.t('Final event')}`, '');
      // Redacted whole before it is cut: the final event of a Responses stream repeats the whole text.
      lines.push(...fenced(redact(prettyJson(r.stream.final).text).slice(0, DISPLAY_LIMIT), 'json'));
    }
    lines.push(
      '',
      `_${l10n.t('The raw events: "Model Access: Show Raw Events"; all of them: "Save Response Body".')}_`,
    );
  } else {
    const body =
      answer?.vectors && r.bodyJson !== undefined
        ? { text: redact(prettyJson(foldVectors(r.bodyJson, answer)).text), flat: false }
        : bodyForDisplay(r, redact);
    const plain = r.bodyJson === undefined;
    if (body && !(plain && answer?.text !== undefined && redact(answer.text) === body.text)) {
      lines.push('', `### ${plain ? l10n.t('Body') : l10n.t('JSON')}`, '');
      if (body.flat) {
        lines.push(l10n.t('Nested too deeply to indent: shown as one line.'), '');
      }
      if (body.text.length > DISPLAY_LIMIT) {
        lines.push(
          l10n.t(
            'Shown: the first {0} of {1}. Run "Model Access: Save Response Body" to save all of it.',
            formatBytes(DISPLAY_LIMIT),
            formatBytes(body.text.length),
          ),
          '',
        );
        lines.push(...fenced(body.text.slice(0, DISPLAY_LIMIT), plain ? 'text' : 'json'));
      } else {
        lines.push(...fenced(body.text, plain ? 'text' : 'json'));
      }
    }
    if (r.truncatedByClient) {
      lines.push(
        '',
        l10n.t('The body was larger than modelAccess.limits.maxResponseMegabytes; it was cut at that limit.'),
      );
    }
  }
  return { text: redact(`${lines.join('\n')}\n`), answerLines: answerText.split('\n').length };
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

/** At most `max` characters of one line, cut after a whole word with an ellipsis. */
export function clip(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) {
    return line;
  }
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The history's one-line summary of what the answer says: its text (read by the answer reader, whatever its
 * shape), its tool calls, the embeddings' count, dimensions and similarity, or the error; cut only after the
 * key was removed from the whole text.
 */
export function summarize(record: ResponseRecord, redact: (text: string) => string): string {
  if (record.error && !record.stream) {
    return clip(record.error);
  }
  if (record.stream) {
    const calls = streamAnswer(record)?.toolCalls.map((c) => l10n.t('tool call {0}({1})', c.name, c.arguments)) ?? [];
    const text = record.finalText ?? redact(record.stream.text);
    return clip(record.error ?? [text, ...calls.map(redact)].filter(Boolean).join(' · '));
  }
  const answer = answerOf(record);
  if (answer?.vectors && answer.vectors.length > 0) {
    return embeddingsSummary(answer.vectors);
  }
  const calls = answer?.toolCalls.map((c) => l10n.t('tool call {0}({1})', c.name, c.arguments)) ?? [];
  const text = [answer?.text ?? '', ...calls].filter(Boolean).join(' · ');
  return clip(redact(text || answer?.error?.message || (record.bodyText ?? '')));
}
