/**
 * How an answer that stopped short is marked where it is kept: a comment inside its turn in the payload
 * (`// cut (cancelled): …`), so the file says so after a reload, Fork and Regenerate carry or drop it with
 * the turn, and Send leaves it out (comments are not sent). The panel reads it back and says why in words.
 * Pure; no `vscode` import.
 */
import { l10n } from '../../../common/l10n';
import { clean, type DisplayText } from '../../../common/text';
import type { AnswerCut } from './recordAnswer';

/** What the comment says after its kind (English: it is part of the file, read back by its kind). */
const COMMENT: Record<AnswerCut, string> = {
  cancelled: 'stopped before the answer was complete; this is what arrived',
  limit: 'stopped at modelAccess.limits.maxResponseMegabytes; this is what arrived',
  truncated: 'cut at modelAccess.limits.maxResponseMegabytes; this is what arrived',
  length: 'the model stopped before the answer was complete',
  failed: 'the service failed while the answer was arriving; this is what arrived',
};

/** The comment's text (without `//`) that marks a turn holding an answer cut this way. */
export function cutComment(cut: AnswerCut): string {
  return `cut (${cut}): ${COMMENT[cut]}`;
}

const MARK = /\/[/*] cut \((cancelled|limit|truncated|length|failed)\)/;

/**
 * How the answer in a turn was cut, from its source text (the turn's JSON as written): the mark is a
 * comment before the turn's first property; the same words inside a string are the answer's own.
 */
export function readCut(source: string): AnswerCut | undefined {
  const quote = source.indexOf('"');
  const head = quote < 0 ? source : source.slice(0, quote);
  return MARK.exec(head)?.[1] as AnswerCut | undefined;
}

/**
 * `json` (a turn, or a list ending in it, as the edits write it) with the mark inside the last assistant
 * turn, before its first property: on a line of its own when the turn spans lines, else as a block comment.
 */
export function withCutComment(json: string, cut: AnswerCut, eol: string): string {
  let at = -1;
  for (const m of json.matchAll(/"role": ?"assistant"/g)) {
    at = m.index;
  }
  const open = at < 0 ? -1 : json.lastIndexOf('{', at);
  if (open < 0) {
    return json;
  }
  const after = json.slice(open + 1, at);
  if (after.startsWith(eol)) {
    const indent = after.slice(eol.length);
    return `${json.slice(0, open + 1)}${eol}${indent}// ${cutComment(cut)}${json.slice(open + 1)}`;
  }
  return `${json.slice(0, open + 1)}/* ${cutComment(cut)} */ ${json.slice(open + 1)}`;
}

/** Why an answer stopped short, as the panel says it under what arrived. */
export function cutText(cut: AnswerCut, finishReason?: string): DisplayText {
  switch (cut) {
    case 'cancelled':
      return l10n.t('Cut: the answer was stopped before it was complete.');
    case 'limit':
    case 'truncated':
      return l10n.t('Cut at the size limit (modelAccess.limits.maxResponseMegabytes).');
    case 'length':
      return finishReason === undefined
        ? l10n.t('Cut: the model stopped before the answer was complete.')
        : l10n.t('Cut: the model stopped before the answer was complete ({0}).', clean(finishReason));
    case 'failed':
      return l10n.t('Cut: the service failed while the answer was arriving.');
  }
}
