/**
 * Token usage as the shapes report it. Pure. A count is kept only when it is a whole, non-negative number a
 * JavaScript number holds exactly: a string, a fraction, a negative or an absurd count is unknown, never
 * read as zero or guessed (a cost is computed from these counts).
 */
import { isRecord } from './fields';
import type { TokenUsage } from './types';

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;

const first = (...values: unknown[]): number | undefined => {
  for (const v of values) {
    const n = count(v);
    if (n !== undefined) {
      return n;
    }
  }
  return undefined;
};

/** The tokens an answer read from the prompt cache, where each shape says it. */
function cachedOf(usage: Record<string, unknown>): number | undefined {
  const details = isRecord(usage.prompt_tokens_details)
    ? usage.prompt_tokens_details
    : isRecord(usage.input_tokens_details)
      ? usage.input_tokens_details
      : undefined;
  return first(details?.cached_tokens, usage.cache_read_input_tokens, usage.cachedContentTokenCount);
}

/**
 * Usage from a `usage` object — Responses and Anthropic (`input_tokens`, `output_tokens`), Chat Completions
 * and embeddings (`prompt_tokens`, `completion_tokens`), `total_tokens` — or Gemini's `usageMetadata`, with the
 * cached input (`prompt_tokens_details.cached_tokens`, `input_tokens_details.cached_tokens`, Anthropic's
 * `cache_read_input_tokens`, Gemini's `cachedContentTokenCount`). Undefined when it gives no count.
 *
 * `input` counts every input token, cached ones included (as OpenAI and Gemini report them): Anthropic reports
 * cache reads and cache writes apart from `input_tokens`, so they are added to it. `cachedInput` is the part of
 * `input` read from the cache.
 */
export function readUsage(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) {
    return undefined;
  }
  let input = first(usage.input_tokens, usage.prompt_tokens, usage.promptTokenCount);
  const cachedInput = cachedOf(usage);
  const anthropicRead = count(usage.cache_read_input_tokens);
  const anthropicWrite = count(usage.cache_creation_input_tokens);
  if (input !== undefined && (anthropicRead !== undefined || anthropicWrite !== undefined)) {
    input += (anthropicRead ?? 0) + (anthropicWrite ?? 0);
  }
  const found: TokenUsage = {
    input: input !== undefined && Number.isSafeInteger(input) ? input : undefined,
    output: first(usage.output_tokens, usage.completion_tokens, usage.candidatesTokenCount),
    total: first(usage.total_tokens, usage.totalTokenCount),
  };
  // A cached count larger than the input it is part of is not believed.
  if (cachedInput !== undefined && (found.input === undefined || cachedInput <= found.input)) {
    found.cachedInput = cachedInput;
  }
  return found.input === undefined && found.output === undefined && found.total === undefined ? undefined : found;
}

/** Ollama's counts on its final line (`prompt_eval_count`, `eval_count`, with `done: true`). */
function ollamaUsage(answer: Record<string, unknown>): TokenUsage | undefined {
  const input = count(answer.prompt_eval_count);
  const output = count(answer.eval_count);
  return input === undefined && output === undefined ? undefined : { input, output, total: undefined };
}

/**
 * The usage an answer body carries: its `usage`, Gemini's `usageMetadata`, a `response.*` event's or
 * Anthropic `message_start` event's wrapped body, or Ollama's counts.
 */
export function usageOf(answer: unknown): TokenUsage | undefined {
  if (!isRecord(answer)) {
    return undefined;
  }
  if (isRecord(answer.usage)) {
    return readUsage(answer.usage);
  }
  if (isRecord(answer.usageMetadata)) {
    return readUsage(answer.usageMetadata);
  }
  if (isRecord(answer.response)) {
    return readUsage(answer.response.usage);
  }
  if (isRecord(answer.message) && isRecord(answer.message.usage)) {
    return readUsage(answer.message.usage);
  }
  return ollamaUsage(answer);
}

/**
 * Two reports of one answer's usage merged, the later one's counts winning where it has them: an Anthropic
 * stream gives the input in `message_start` and the output in its last `message_delta`.
 */
export function laterUsage(earlier: TokenUsage | undefined, later: TokenUsage | undefined): TokenUsage | undefined {
  if (!earlier || !later) {
    return later ?? earlier;
  }
  const merged: TokenUsage = {
    input: later.input ?? earlier.input,
    output: later.output ?? earlier.output,
    total: later.total ?? earlier.total,
  };
  const cached = later.cachedInput ?? earlier.cachedInput;
  if (cached !== undefined) {
    merged.cachedInput = cached;
  }
  return merged;
}

/** The total an answer reports, else the sum of its input and output counts when it reports both. */
export function totalTokens(usage: TokenUsage | undefined): number | undefined {
  if (!usage) {
    return undefined;
  }
  if (usage.total !== undefined) {
    return usage.total;
  }
  return usage.input !== undefined && usage.output !== undefined ? usage.input + usage.output : undefined;
}
