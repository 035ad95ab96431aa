/**
 * What a request observed, with its secrets removed before anything is evaluated, cut or shown: the key and
 * secret headers the run knows, and the `{{$env}}` values this request carried, in every echoed form. So a
 * message, the results table, the saved CSV, JUnit and the CLI's `actual:` (cut at 2,000 characters) never
 * hold a secret or the first part of one. A value shorter than 6 characters is removed where it stands as a
 * whole token (removing it inside words would shred the answer). Pure; no `vscode` import.
 */
import { REDACTED, redactor } from '../../api/redact';
import type { Observed } from './evaluate';

const SHORT = 6;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A function removing `secrets` (and what `runRedact` removes) from text. */
export function secretRemover(
  secrets: readonly string[],
  runRedact: (text: string) => string = (t) => t,
): (text: string) => string {
  const long = redactor(secrets.filter((s) => s.length >= SHORT));
  const short = secrets.filter((s) => s.length > 0 && s.length < SHORT);
  const tokens =
    short.length === 0
      ? undefined
      : new RegExp(`(?<![\\p{L}\\p{N}_])(?:${short.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
  return (text) => {
    const out = runRedact(long(text));
    return tokens ? out.replace(tokens, REDACTED) : out;
  };
}

/** `o` with `remove` applied to its texts and to every string of its JSON body. */
export function redactObserved(o: Observed, remove: (text: string) => string): Observed {
  let body = o.body;
  if (body !== undefined) {
    try {
      const text = JSON.stringify(body);
      const hidden = remove(text);
      body = hidden === text ? body : (JSON.parse(hidden) as unknown);
    } catch {
      // Too deep to write out: no expectation can show it either (evaluation fails with its reason).
    }
  }
  const answer = o.answer && {
    ...o.answer,
    text: o.answer.text === undefined ? undefined : remove(o.answer.text),
  };
  return {
    ...o,
    body,
    answer,
    failure: o.failure === undefined ? undefined : remove(o.failure),
    errorMessage: o.errorMessage === undefined ? undefined : remove(o.errorMessage),
  };
}
