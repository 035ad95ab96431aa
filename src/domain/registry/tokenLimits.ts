/**
 * A model's token limits as its registry entry states them: the context window, the input and the output
 * limit, each in the first place and spelling a real registry uses (docs/service-shapes.md, "Capabilities":
 * the entry itself, `capabilities` and `capabilities.limits` (GitHub Models), `limits`, `token_limits`,
 * LiteLLM's `model_info`, OpenRouter's `top_provider`, Ollama's `details`). The one reader of these fields:
 * the Models view shows the window, the chat provider derives VS Code's input and output limits from all
 * three. Pure; no `vscode`.
 */
import { isRecord } from '../../common/records';

export interface StatedTokenLimits {
  context?: number;
  input?: number;
  /** The output limit (named so the one answer reader's guard does not take it for an answer's `output`). */
  completion?: number;
}

const CONTEXT_KEYS = [
  'context_window',
  'contextWindow',
  'context_length',
  'contextLength',
  'max_context_length',
  'max_context_tokens',
  'max_context_window_tokens',
  'max_model_len',
  'num_ctx',
  'max_sequence_length',
] as const;
const INPUT_KEYS = [
  'max_input_tokens',
  'maxInputTokens',
  'input_token_limit',
  'inputTokenLimit',
  'max_prompt_tokens',
  'maxPromptTokens',
] as const;
const OUTPUT_KEYS = [
  'max_output_tokens',
  'maxOutputTokens',
  'output_token_limit',
  'outputTokenLimit',
  'max_completion_tokens',
  'maxCompletionTokens',
  'max_tokens',
] as const;

/** A positive whole number of tokens: `128000`, `"128000"`, `"128k"`, `"1M"`. */
export function tokenCount(v: unknown): number | undefined {
  if (typeof v === 'number') {
    return Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
  }
  if (typeof v === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmM])?\s*$/.exec(v);
    if (m) {
      const n = Number(m[1]) * (m[2] === undefined ? 1 : /k/i.test(m[2]) ? 1000 : 1_000_000);
      return n > 0 ? Math.floor(n) : undefined;
    }
  }
  return undefined;
}

/** Where registries put limits, in the order they are looked at. */
function limitPlaces(raw: Record<string, unknown>): Record<string, unknown>[] {
  const capabilities = isRecord(raw.capabilities) ? raw.capabilities : undefined;
  return [
    raw,
    capabilities,
    capabilities?.limits,
    raw.limits,
    raw.token_limits,
    raw.model_info,
    raw.top_provider,
    raw.details,
  ].filter(isRecord);
}

/** The first usable count among `keys`, looked up in each of `places` in turn. */
function firstCount(places: Record<string, unknown>[], keys: readonly string[]): number | undefined {
  for (const place of places) {
    for (const key of keys) {
      const n = tokenCount(place[key]);
      if (n !== undefined) {
        return n;
      }
    }
  }
  return undefined;
}

/** The limits the entry states; a limit it does not state is absent (never guessed here). */
export function statedTokenLimits(raw: unknown): StatedTokenLimits {
  if (!isRecord(raw)) {
    return {};
  }
  const places = limitPlaces(raw);
  const out: StatedTokenLimits = {};
  const context = firstCount(places, CONTEXT_KEYS);
  const input = firstCount(places, INPUT_KEYS);
  const completion = firstCount(places, OUTPUT_KEYS);
  if (context !== undefined) {
    out.context = context;
  }
  if (input !== undefined) {
    out.input = input;
  }
  if (completion !== undefined) {
    out.completion = completion;
  }
  return out;
}
