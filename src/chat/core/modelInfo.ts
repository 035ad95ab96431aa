/**
 * Which catalog models the chat provider offers, and how each one is described to VS Code
 * (`LanguageModelChatInformation`). Pure: no `vscode` import, so plain mocha tests it.
 */
import type { ModelEntry } from '../../api/types';
import { displayText } from '../../common/text';
import { l10n } from '../../common/l10n';
import { chatModelId, chatSelection } from '../../domain/chatModels';
import { readCapabilities } from '../../domain/registry/capabilities';
import { statedTokenLimits } from '../../domain/registry/tokenLimits';

export interface ChatModelDefaults {
  maxInputTokens: number;
  maxOutputTokens: number;
}

/** Built-in defaults for models whose registry entry carries no token limits (overridable in settings). */
export const DEFAULT_LIMITS: ChatModelDefaults = { maxInputTokens: 16_384, maxOutputTokens: 4_096 };

/** Structurally a `vscode.LanguageModelChatInformation`. */
export interface ChatModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
}

/**
 * Token limits from the registry entry, else the defaults. A context window alone bounds both: input is
 * the window minus the output budget, and the output budget never exceeds the window.
 */
export function tokenLimits(raw: unknown, defaults: ChatModelDefaults = DEFAULT_LIMITS): ChatModelDefaults {
  const { context, input, completion } = statedTokenLimits(raw);
  let maxOutput = completion;
  if (maxOutput === undefined) {
    maxOutput =
      context !== undefined
        ? Math.min(defaults.maxOutputTokens, Math.max(1, Math.floor(context / 4)))
        : defaults.maxOutputTokens;
  } else if (context !== undefined && maxOutput > context) {
    maxOutput = context;
  }
  let maxInput = input;
  if (maxInput === undefined) {
    maxInput = context !== undefined ? Math.max(1, context - maxOutput) : defaults.maxInputTokens;
  }
  return { maxInputTokens: maxInput, maxOutputTokens: maxOutput };
}

/**
 * Whether the entry advertises tool (function) calling; only then are tools sent to it. Read by the one
 * capabilities reader (domain/registry/capabilities.ts), which the Models view shows too.
 */
export function supportsTools(raw: unknown): boolean {
  return readCapabilities(raw)?.tools === true;
}

/** Whether the entry advertises image input. */
export function supportsImages(raw: unknown): boolean {
  return readCapabilities(raw)?.vision === true;
}

/** How VS Code shows and budgets one model. `id` is the service's model id, used as is in requests. */
export function chatModelInfo(entry: ModelEntry, defaults: ChatModelDefaults = DEFAULT_LIMITS): ChatModelInfo {
  const limits = tokenLimits(entry.raw, defaults);
  const family = entry.family ?? entry.id;
  const version = entry.version ?? '';
  // Shown in VS Code's model picker: display text, never raw registry text.
  const tooltip = [
    displayText(entry.family, 120) || l10n.t('no family'),
    entry.version ? l10n.t('version {0}', displayText(entry.version, 60)) : l10n.t('no version'),
    displayText(entry.cardUrl, 300),
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    id: entry.id,
    name: displayText(entry.id, 120),
    family,
    version,
    tooltip,
    detail: entry.version ? `v${displayText(entry.version, 60)}` : undefined,
    maxInputTokens: limits.maxInputTokens,
    maxOutputTokens: limits.maxOutputTokens,
    capabilities: { toolCalling: supportsTools(entry.raw), imageInput: supportsImages(entry.raw) },
  };
}

/** The models to offer: the selection applied to the catalog, in catalog order, without duplicate ids. */
export function chatModels(
  entries: readonly ModelEntry[],
  patterns: readonly string[],
  defaults: ChatModelDefaults = DEFAULT_LIMITS,
): ChatModelInfo[] {
  const selected = chatSelection(patterns);
  const seen = new Set<string>();
  const out: ChatModelInfo[] = [];
  for (const entry of entries) {
    if (!seen.has(entry.id) && selected(entry)) {
      seen.add(entry.id);
      out.push(chatModelInfo(entry, defaults));
    }
  }
  return out;
}

/**
 * `info` as one of several environments' models: its id prefixed with the environment's name (ids stay
 * unique when two services offer the same model) and the name first in its detail, where the model picker
 * shows it.
 */
export function inEnvironment(info: ChatModelInfo, environment: string): ChatModelInfo {
  const name = displayText(environment, 60);
  return {
    ...info,
    id: chatModelId(info.id, environment),
    detail: info.detail ? `${name} · ${info.detail}` : name,
    tooltip: info.tooltip ? `${name} · ${info.tooltip}` : name,
  };
}
