/**
 * What a model can do, where its registry entry says it: chat, embeddings, vision (image input), tools
 * (function calling), reasoning; and its context window in tokens. Read from the shapes real registries use
 * (docs/service-shapes.md, "Capabilities"): flags in a `capabilities` object (`{chat, embeddings, vision,
 * tools, reasoning}`; Azure OpenAI's `chat_completion`/`embeddings`; GitHub's `supports: {tool_calls,
 * vision}`), a `capabilities` list (Ollama: `completion`, `vision`, `tools`, `embedding`, `thinking`),
 * OpenRouter's `architecture.input_modalities` and `supported_parameters`, LiteLLM's `supports_*` flags (also
 * under `model_info`), Gemini's `supportedGenerationMethods`; the window from `context_window`,
 * `context_length`, `max_input_tokens`, `inputTokenLimit`, `max_model_len`, `limits.max_context_window_tokens`.
 * A capability the entry does not mention is `undefined` (unknown), never `false`. Pure; no `vscode`.
 */
import { l10n } from '../../common/l10n';
import { isRecord } from '../../common/records';
import type { DisplayText } from '../../common/text';
import { declaredKind, words } from '../modelKind';
import { statedTokenLimits } from './tokenLimits';

export const CAPABILITY_NAMES = ['chat', 'embeddings', 'vision', 'tools', 'reasoning'] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

export interface ModelCapabilities {
  chat?: boolean;
  embeddings?: boolean;
  vision?: boolean;
  tools?: boolean;
  reasoning?: boolean;
  /** Tokens of context (input), when the entry says. */
  contextWindow?: number;
}

/** The spellings of each capability as a flag name or a list word (lower case, `-` and ` ` read as `_`). */
const SPELLINGS: Record<CapabilityName, readonly string[]> = {
  chat: [
    'chat',
    'chat_completion',
    'chat_completions',
    'chatcompletion',
    'completion',
    'completions',
    'generatecontent',
  ],
  embeddings: ['embeddings', 'embedding', 'embed', 'embeds', 'embedcontent', 'text_embedding'],
  vision: ['vision', 'image', 'images', 'image_input', 'multimodal', 'supports_vision', 'image_understanding'],
  tools: [
    'tools',
    'tool_use',
    'tool_calls',
    'tool_calling',
    'function_calling',
    'functions',
    'supports_function_calling',
    'supports_tool_choice',
    'tool_choice',
  ],
  reasoning: ['reasoning', 'thinking', 'supports_reasoning', 'reasoning_effort', 'include_reasoning'],
};

const WORD_TO_CAPABILITY = new Map<string, CapabilityName>();
for (const name of CAPABILITY_NAMES) {
  for (const w of SPELLINGS[name]) {
    WORD_TO_CAPABILITY.set(w, name);
  }
}

function normalWord(w: string): string {
  return w
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1_$2') // `toolCalling`, `imageInput`: camelCase as snake_case.
    .toLowerCase()
    .replace(/[-\s]+/g, '_');
}

function setFrom(word: string, value: boolean, out: ModelCapabilities): void {
  const name = WORD_TO_CAPABILITY.get(normalWord(word));
  // The first reading of a capability wins: a flag set where the entry says most is not undone by a list.
  if (name !== undefined && out[name] === undefined) {
    out[name] = value;
  }
}

function readFlags(o: Record<string, unknown>, out: ModelCapabilities): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'boolean') {
      setFrom(k.replace(/^supports?_/, ''), v, out);
      setFrom(k, v, out);
    }
  }
}

/** The capabilities an entry declares, or undefined when it declares none. */
export function readCapabilities(raw: unknown): ModelCapabilities | undefined {
  if (!isRecord(raw)) {
    return undefined;
  }
  const out: ModelCapabilities = {};
  const caps = raw.capabilities;
  const info = isRecord(raw.model_info) ? raw.model_info : undefined;
  if (isRecord(caps)) {
    readFlags(caps, out);
    if (isRecord(caps.supports)) {
      readFlags(caps.supports, out);
    }
    // GitHub Copilot style `{type: "chat"}` / `{type: "embeddings"}`.
    for (const w of words(caps.type)) {
      setFrom(w, true, out);
    }
  } else if (Array.isArray(caps)) {
    for (const w of words(caps)) {
      setFrom(w, true, out);
    }
  }
  // LiteLLM `supports_vision: true` at the top or under `model_info`.
  readFlags(raw, out);
  if (info) {
    readFlags(info, out);
  }
  // OpenRouter: image input and the parameters a model takes.
  const architecture = isRecord(raw.architecture) ? raw.architecture : undefined;
  const modalities = words(architecture?.input_modalities ?? raw.input_modalities ?? raw.modalities);
  if (modalities.length > 0 && out.vision === undefined) {
    out.vision = modalities.includes('image');
  }
  for (const w of words(raw.supported_parameters)) {
    setFrom(w, true, out);
  }
  // Gemini's methods.
  for (const w of words(raw.supportedGenerationMethods ?? raw.supported_generation_methods)) {
    setFrom(w, true, out);
  }
  if (out.chat === undefined && out.embeddings === undefined) {
    const kind = declaredKind(raw);
    if (kind === 'chat') {
      out.chat = true;
    } else if (kind === 'embedding') {
      out.embeddings = true;
    }
  }
  // The window a person reads on the row: the context, else the input limit (what a prompt may fill).
  const limits = statedTokenLimits(raw);
  const window = limits.context ?? limits.input;
  if (window !== undefined) {
    out.contextWindow = window;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The capabilities a model has (true), in the fixed order. */
export function capabilityList(c: ModelCapabilities | undefined): CapabilityName[] {
  return c ? CAPABILITY_NAMES.filter((n) => c[n] === true) : [];
}

/** `128k`, `1M`, `8192`: a context window in a few characters. */
export function shortTokens(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) {
    return `${n / 1_000_000}M`;
  }
  if (n >= 1000 && n % 1000 === 0) {
    return `${n / 1000}k`;
  }
  if (n >= 1024 && n % 1024 === 0) {
    return `${n / 1024}k`;
  }
  return String(n);
}

/** The localized word of a capability. */
export function capabilityWord(name: CapabilityName): DisplayText {
  switch (name) {
    case 'chat':
      return l10n.t('chat');
    case 'embeddings':
      return l10n.t('embeddings');
    case 'vision':
      return l10n.t('vision');
    case 'tools':
      return l10n.t('tools');
    default:
      return l10n.t('reasoning');
  }
}

/** "chat, vision, tools · 128k context": what a row, hover or picker says of a model's capabilities. */
export function capabilitiesText(c: ModelCapabilities | undefined): DisplayText {
  if (!c) {
    return '' as DisplayText;
  }
  const names = capabilityList(c).map(capabilityWord).join(', ');
  const context =
    c.contextWindow !== undefined ? l10n.t('{0} context', shortTokens(c.contextWindow) as DisplayText) : '';
  return [names, context].filter(Boolean).join(' · ') as DisplayText;
}

/** Whether a model has `name` (a filter by capability keeps only these). */
export function hasCapability(raw: unknown, name: CapabilityName): boolean {
  return readCapabilities(raw)?.[name] === true;
}
