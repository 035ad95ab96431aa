/**
 * The agent tools as an agent sees them: their names, what they are for (the model-facing descriptions), their
 * input schemas and the limits every call stays within. The same four tools are VS Code's language model tools
 * (package.json `languageModelTools`, each name prefixed) and the MCP server's tools (`model-access mcp`).
 * Pure; no `vscode` import.
 */
import { CAPABILITY_NAMES } from '../../../domain/registry/capabilities';
import type { ToolName } from './names';

export { isToolName, READ_ONLY, TOOL_NAMES, VSCODE_TOOL_PREFIX, type ToolName } from './names';

/** The lifecycle states `list_models` filters by and reports (domain/registry/lifecycle.ts's stages). */
export const LIFECYCLE_STATES = ['preview', 'active', 'deprecated', 'retiring', 'retired'] as const;

/** What one call may do: an agent may be prompt-injected, so every tool is bounded in count, size and time. */
export const LIMITS = {
  /** Models in one `list_models` result (default and most). */
  modelsShown: 50,
  modelsShownMost: 200,
  /** Characters of a Model Card's text in a `get_model` result. */
  cardChars: 12_000,
  /** Bytes read of a card, and the time its read may take. */
  cardBytes: 256 * 1024,
  cardTimeoutMs: 10_000,
  /** Paths or globs in one `run_checks` call, and the payload files they may name. */
  patterns: 10,
  patternChars: 300,
  files: 10,
  /** Dataset rows per payload (default and most), and requests in one call. */
  rows: 10,
  rowsMost: 20,
  requests: 60,
  /** Requests in flight at once. */
  concurrency: 4,
  /** Bytes of one answer, the time of one request and of a whole call. */
  responseBytes: 1024 * 1024,
  requestTimeoutMs: 60_000,
  runTimeoutMs: 180_000,
  /** Characters of an answer's text in a `send_payload` result, and of one failure sentence. */
  answerChars: 8_000,
  failureChars: 600,
  /** Characters of a plain string input (an id, a filter, an environment's name). */
  inputChars: 200,
} as const;

/**
 * A schema with its model-facing description. These texts are read by language models, not shown to people, so
 * they stay English like the tool names (the lint rule for people's texts looks for a literal `description`).
 */
function forModel<T extends Record<string, unknown>>(schema: T, text: string): T & { description: string } {
  return { ...schema, description: text };
}

const environment = forModel(
  { type: 'string', maxLength: LIMITS.inputChars },
  'The name of a configured environment (service) to use. Leave it out for the active environment (VS Code) or the default one (MODEL_ACCESS_BASE_URL / --env).',
);

/** The input schemas (JSON Schema, as package.json and MCP take them). */
export const INPUT_SCHEMAS: Record<ToolName, Record<string, unknown>> = {
  list_models: {
    type: 'object',
    properties: {
      family: forModel(
        { type: 'string', maxLength: LIMITS.inputChars },
        'Only models of this family (exact, case-insensitive).',
      ),
      capability: forModel(
        { type: 'string', enum: [...CAPABILITY_NAMES] },
        'Only models the registry says have this capability.',
      ),
      lifecycle: forModel(
        { type: 'string', enum: [...LIFECYCLE_STATES] },
        'Only models in this lifecycle state ("active" also takes models whose entry states none).',
      ),
      text: forModel(
        { type: 'string', maxLength: LIMITS.inputChars },
        'Only models whose id, family or version contains this text (case-insensitive).',
      ),
      limit: forModel(
        { type: 'integer', minimum: 1, maximum: LIMITS.modelsShownMost },
        `At most this many models (default ${LIMITS.modelsShown}).`,
      ),
      environment,
    },
    additionalProperties: false,
  },
  get_model: {
    type: 'object',
    properties: {
      id: forModel(
        { type: 'string', minLength: 1, maxLength: LIMITS.inputChars },
        'The model id, as list_models gives it.',
      ),
      environment,
    },
    required: ['id'],
    additionalProperties: false,
  },
  run_checks: {
    type: 'object',
    properties: {
      files: forModel(
        {
          type: 'array',
          minItems: 1,
          maxItems: LIMITS.patterns,
          items: { type: 'string', minLength: 1, maxLength: LIMITS.patternChars },
        },
        `Payload files with // @expect lines, or globs such as "checks/**/*.jsonc", relative to the workspace folder. At most ${LIMITS.files} files.`,
      ),
      maxRows: forModel(
        { type: 'integer', minimum: 1, maximum: LIMITS.rowsMost },
        `Dataset rows per payload (// @each) at most (default ${LIMITS.rows}).`,
      ),
      environment,
    },
    required: ['files'],
    additionalProperties: false,
  },
  send_payload: {
    type: 'object',
    properties: {
      file: forModel(
        { type: 'string', minLength: 1, maxLength: LIMITS.patternChars },
        'The payload file (first line // POST /v1/…), relative to the workspace folder.',
      ),
      environment,
    },
    required: ['file'],
    additionalProperties: false,
  },
};

/** What each tool is for, said to the model that decides to call it. */
export const DESCRIPTIONS: Record<ToolName, string> = {
  list_models:
    "Lists the models of the organization's Model Access Service registry: each model's id, family, version, lifecycle (state, deprecation and retirement dates, successor), capabilities (chat, embeddings, vision, tools, reasoning), context window and Model Card link. Filter by family, capability, lifecycle state or text. Use it to pick a model id that exists and is not retiring, instead of guessing one. Read-only; sends no model request.",
  get_model:
    "One model of the organization's registry by id: its entry (lifecycle, capabilities, context window) and its Model Card as plain text (capped). Use it to learn what a model is for and its limits before writing code against it. Read-only; sends no model request.",
  run_checks:
    "Runs the checks of payload files in the workspace (JSON payloads whose // @expect lines say what the answer must hold, optionally over a // @each dataset), the same engine as `model-access check`: per case pass or fail with the failure sentences, and a summary. Each case sends a request to the organization's Model Access Service and spends its budget; the person is asked first.",
  send_payload:
    "Sends one payload file of the workspace (first line // POST /v1/chat, /v1/responses or /v1/embeddings, then JSON) to the organization's Model Access Service and returns the answer's text, the HTTP status and the token usage. It spends the organization's budget; the person is asked first.",
};
