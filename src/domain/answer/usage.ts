/** Token usage as the shapes report it. Pure. */
import { isRecord } from './fields';
import type { TokenUsage } from './types';

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/**
 * Usage from a `usage` object — Responses and Anthropic (`input_tokens`, `output_tokens`), Chat Completions
 * (`prompt_tokens`, `completion_tokens`), `total_tokens` — or Gemini's `usageMetadata`. Undefined when it
 * gives no count.
 */
export function readUsage(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) {
    return undefined;
  }
  const found: TokenUsage = {
    input: count(usage.input_tokens) ?? count(usage.prompt_tokens) ?? count(usage.promptTokenCount),
    output: count(usage.output_tokens) ?? count(usage.completion_tokens) ?? count(usage.candidatesTokenCount),
    total: count(usage.total_tokens) ?? count(usage.totalTokenCount),
  };
  return found.input === undefined && found.output === undefined && found.total === undefined ? undefined : found;
}

/** The usage an answer body (or a `response.*` event wrapping one) carries. */
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
  return isRecord(answer.response) ? readUsage(answer.response.usage) : undefined;
}
