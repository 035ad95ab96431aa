/**
 * A payload made from the code around a model reference, for Try the Successor when no payload of the
 * workspace uses the model: the longest text literal near the reference (most often the prompt the code sends)
 * becomes the request, with a status check to start from. Everything taken from the code or the registry is
 * written literally (JSON-escaped, `{{` as the `\{{` escape), so nothing in it resolves as a variable.
 * Pure; no `vscode` import.
 */
import type { PostEndpoint } from '../../api/types';
import { headerLine } from '../../domain/payload/endpointHeader';
import { literalText } from '../../domain/payload/variables';

/** How many lines above and below the reference are searched for the prompt. */
export const AROUND_LINES = 25;
/** Shorter literals are names and keys, not prompts. */
const MIN_PROMPT = 12;
/** The prompt written when the code around says nothing usable. */
export const FALLBACK_PROMPT = 'Reply with one short sentence.';

/** String literals in code: "…", '…', `…` and Python's triple quotes, on one line or across lines. */
const LITERALS = /"""([\s\S]*?)"""|'''([\s\S]*?)'''|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;

/** The longest text literal within {@link AROUND_LINES} of `line` that is not the model id itself. */
export function promptNear(text: string, line: number, modelId: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const from = Math.max(0, line - AROUND_LINES);
  const around = lines.slice(from, line + AROUND_LINES + 1).join('\n');
  let best: string | undefined;
  for (const m of around.matchAll(LITERALS)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
    const value = raw
      .replace(/\\n/g, '\n')
      .replace(/\\(["'`\\])/g, '$1')
      .trim();
    if (value.length >= MIN_PROMPT && value !== modelId && (!best || value.length > best.length)) {
      best = value;
    }
  }
  return best;
}

/** The payload's text: the endpoint header, where it came from, a status check, the request. */
export function draftPayload(options: {
  model: string;
  endpoint: PostEndpoint;
  prompt: string | undefined;
  /** Where the prompt was read: `app.py:12` (a comment line; its line breaks are removed). */
  source: string;
}): string {
  const prompt = literalText(options.prompt ?? FALLBACK_PROMPT);
  const body: Record<string, unknown> =
    options.endpoint === '/v1/embeddings'
      ? { model: literalText(options.model), input: prompt }
      : options.endpoint === '/v1/responses'
        ? { model: literalText(options.model), input: prompt }
        : { model: literalText(options.model), messages: [{ role: 'user', content: prompt }] };
  return [
    headerLine(options.endpoint),
    `// Made by Try the Successor from the code at ${options.source.replace(/[\r\n\u2028\u2029]+/g, ' ')}.`,
    '// Edit the request to what that code sends, and add // @expect lines for what its answer must hold.',
    '// @expect status 200',
    JSON.stringify(body, null, 2),
    '',
  ].join('\n');
}
