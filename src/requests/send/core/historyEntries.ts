/**
 * The request history's records and their bound. What is kept is what a person needs to find and repeat a
 * request — never headers, never the key. Pure; no `vscode` import.
 */
import type { PostEndpoint } from '../../../api/types';
import { l10n } from '../../../common/l10n';
import { clean, displayText, type DisplayText } from '../../../common/text';

export const HISTORY_LIMIT = 50;

export interface HistoryEntry {
  id: string;
  endpoint: PostEndpoint | '/v1/files';
  model?: string;
  /** HTTP status, or undefined when no answer came (network error, cancelled). */
  status?: number;
  /** How the answer ended when it did not complete: a cancelled or size-limited stream keeps its 200. */
  ended?: 'cancelled' | 'limit' | 'failed';
  /** ISO time the request was sent. */
  at: string;
  elapsedMs?: number;
  /** The environment it was sent to (its name); absent in entries from before environments. */
  environment?: string;
  /** The payload text as written, `{{…}}` references unresolved (for uploads: the file path). */
  payload: string;
  /** The scratch file it came from, if any. */
  source?: string;
  /** A short description of the answer: first line of text, error message, or file id. */
  summary: string;
}

/** Newest first, at most HISTORY_LIMIT, payloads clipped so globalState stays small. */
export function addToHistory(
  entries: readonly HistoryEntry[],
  entry: HistoryEntry,
  maxPayloadChars = 64 * 1024,
): HistoryEntry[] {
  const clipped =
    entry.payload.length > maxPayloadChars ? { ...entry, payload: entry.payload.slice(0, maxPayloadChars) } : entry;
  return [clipped, ...entries.filter((e) => e.id !== entry.id)].slice(0, HISTORY_LIMIT);
}

/** One line for a quick pick. */
export function describeEntry(e: HistoryEntry): DisplayText {
  let status: DisplayText;
  if (e.status === undefined) {
    status = e.ended === 'cancelled' ? l10n.t('cancelled') : l10n.t('no answer');
  } else if (e.ended === 'cancelled') {
    status = l10n.t('{0} (cancelled)', e.status);
  } else if (e.ended === 'limit') {
    status = l10n.t('{0} (stopped at the size limit)', e.status);
  } else if (e.ended === 'failed') {
    status = l10n.t('{0} (failed)', e.status);
  } else {
    status = displayText(String(e.status));
  }
  return displayText(
    `${clean(e.endpoint)}${e.model ? ` · ${clean(e.model)}` : ''} · ${status}${e.environment ? ` · ${clean(e.environment)}` : ''}`,
    600,
  );
}
