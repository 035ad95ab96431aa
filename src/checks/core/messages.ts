/**
 * What a check says in words: a failed text expectation as a sentence with the start of the answer (and a near
 * match when there is one), and the one line each run records in Test Results (what was sent, to which model,
 * the status, the time, the answer's start). Pure; no `vscode` import.
 */
import { l10n } from '../../common/plainL10n';
/** What a run's record reads of the request's outcome (evaluate.ts `Observed` has these). */
export interface RecordedOutcome {
  status?: number;
  failure?: string;
  errorMessage?: string;
  elapsedMs: number;
  answer?: { text: string | undefined; vectors?: number[][] };
}

/** How much of an answer a sentence quotes. */
export const START_LENGTH = 120;

/** The start of `text` on one line, cut at a word boundary with "…" when longer than `max` characters. */
export function answerStart(text: string, max = START_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if ([...flat].length <= max) {
    return flat;
  }
  const head = [...flat].slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  return `${space > max / 2 ? head.slice(0, space) : head}…`;
}

/**
 * Where `value` nearly occurs in `text`: in another case, or with other spacing. Undefined when it does not.
 * The position is 1-based, in characters, as a person counts.
 */
export function nearMatch(text: string, value: string): { found: string; at: number } | undefined {
  const lower = text.toLowerCase();
  const index = lower.indexOf(value.toLowerCase());
  if (index >= 0 && value !== '') {
    return { found: text.slice(index, index + value.length), at: index + 1 };
  }
  const words = value.trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) {
    const spaced = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'i');
    const m = spaced.exec(text);
    if (m) {
      return { found: m[0], at: m.index + 1 };
    }
  }
  return undefined;
}

const quote = (s: string): string => JSON.stringify(s);

/** `text contains VALUE` failed. */
export function doesNotContain(value: string, text: string): string {
  const near = nearMatch(text, value);
  const start = answerStart(text);
  return near
    ? l10n.t(
        'The answer\'s text does not contain {0}; it has {1} at character {2}. It begins: "{3}"',
        quote(value),
        quote(near.found),
        near.at,
        start,
      )
    : l10n.t('The answer\'s text does not contain {0}. It begins: "{1}"', quote(value), start);
}

/** `text not contains VALUE` failed. */
export function containsUnwanted(value: string, text: string): string {
  const at = text.indexOf(value) + 1;
  return l10n.t(
    'The answer\'s text contains {0} at character {1}. It begins: "{2}"',
    quote(value),
    at,
    answerStart(text),
  );
}

/** `text matches /RE/` failed: the text it ran on, whole up to a limit. */
export function doesNotMatch(pattern: string, text: string): string {
  return l10n.t('The answer\'s text does not match {0}. The text it ran on: "{1}"', pattern, answerStart(text, 400));
}

/** `text != VALUE` failed. */
export function isExactly(value: string): string {
  return l10n.t("The answer's text is exactly {0}", quote(value));
}

/** `text == VALUE` failed: the diff shows where. */
export function differs(value: string, text: string): string {
  return l10n.t('The answer\'s text is not {0}. It begins: "{1}"', quote(answerStart(value, 60)), answerStart(text));
}

/**
 * The line a run records in Test Results: `POST /v1/chat to aurora-2: 200 in 412 ms. Answer: "The capital…"`
 * (a dataset row's label first). No key or header is in it: the endpoint, the model and what came back.
 */
export function runRecord(
  endpoint: string | undefined,
  model: string | undefined,
  observed: RecordedOutcome,
  label?: string,
): string {
  const request = endpoint === undefined ? l10n.t('The request') : l10n.t('POST {0}', endpoint);
  const sent = model ? l10n.t('{0} to {1}', request, model) : l10n.t('{0} (no model named)', request);
  const time = `${Math.round(observed.elapsedMs)} ms`;
  let what: string;
  if (observed.status === undefined) {
    what = l10n.t(
      '{0}: no answer after {1} ({2})',
      sent,
      time,
      observed.failure ?? l10n.t('the request did not complete'),
    );
  } else if (observed.status >= 400) {
    what = observed.errorMessage
      ? l10n.t(
          '{0}: status {1} in {2}. The service said: "{3}"',
          sent,
          observed.status,
          time,
          answerStart(observed.errorMessage),
        )
      : l10n.t('{0}: status {1} in {2}', sent, observed.status, time);
  } else if (observed.answer?.text !== undefined) {
    what = l10n.t(
      '{0}: status {1} in {2}. Answer: "{3}"',
      sent,
      observed.status,
      time,
      answerStart(observed.answer.text),
    );
  } else if (observed.answer?.vectors !== undefined) {
    const n = observed.answer.vectors.length;
    what =
      n === 1
        ? l10n.t('{0}: status {1} in {2}. 1 vector', sent, observed.status, time)
        : l10n.t('{0}: status {1} in {2}. {3} vectors', sent, observed.status, time, n);
  } else {
    what = l10n.t('{0}: status {1} in {2}. The answer has no text', sent, observed.status, time);
  }
  return label ? `${label}  ${what}` : what;
}
