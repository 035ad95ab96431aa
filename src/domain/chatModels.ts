/**
 * Which catalog models can chat, which the `modelAccess.chat.models` selection offers, and the id chat knows a
 * model by. Shared: the chat provider offers these models and Model Details names the same ids. Pure.
 */
import type { ModelEntry } from '../api/types';
import { isRecord } from '../common/records';

/** The lowercased words of a string or a list of strings (anything else: none). */
export function words(v: unknown): string[] {
  if (typeof v === 'string') {
    return [v.toLowerCase()];
  }
  if (Array.isArray(v)) {
    return v.filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase());
  }
  return [];
}

const CHAT_WORD =
  /^(chat|chat[-_ ]?completions?|completions?|text[-_ ]generation|text2text[-_ ]generation|conversational|llm|generatecontent|generate[-_ ]?content|instruct)$/;
const NON_CHAT_WORD =
  /(embed|rerank|re-rank|ranking|classif|moderation|speech|transcri|audio|tts|asr|stt|text[-_ ]to[-_ ]image|image[-_ ]generation|feature[-_ ]extraction|sentence[-_ ]similarity|fill[-_ ]mask|token[-_ ]classification)/;

/** Capability flags that, set alone (without a chat flag), mean the model does something else. */
const NON_CHAT_FLAG =
  /^(embed|embeds|embedding|embeddings|rerank|reranking|moderation|moderations|tts|asr|transcription|transcriptions|speech_to_text|text_to_speech)$/;

/** What the entry itself says about chat: true/false when it says something, undefined when it is silent. */
function declaredChat(raw: unknown): boolean | undefined {
  if (!isRecord(raw)) {
    return undefined;
  }
  const caps = raw.capabilities;
  if (isRecord(caps)) {
    // Azure OpenAI `{chat_completion: true, embeddings: false}`; GitHub-style `{type: "chat"}`; plain `{chat: true}`.
    const chatFlags = ['chat', 'chat_completion', 'chatCompletion', 'completion', 'completions']
      .map((k) => caps[k])
      .filter((v) => typeof v === 'boolean');
    if (chatFlags.includes(true)) {
      return true;
    }
    if (chatFlags.includes(false)) {
      return false;
    }
    const type = words(caps.type);
    if (type.some((w) => CHAT_WORD.test(w))) {
      return true;
    }
    if (type.some((w) => NON_CHAT_WORD.test(w))) {
      return false;
    }
    const flags = Object.entries(caps).filter(([, v]) => typeof v === 'boolean');
    if (flags.some(([k, v]) => v === true && NON_CHAT_FLAG.test(k.toLowerCase()))) {
      return false;
    }
  } else if (Array.isArray(caps)) {
    // Ollama `capabilities: ["completion", "tools"]` / `["embedding"]`.
    const list = words(caps);
    if (list.some((w) => CHAT_WORD.test(w))) {
      return true;
    }
    if (list.some((w) => NON_CHAT_WORD.test(w))) {
      return false;
    }
  }
  // Gemini `supportedGenerationMethods`; Hugging Face `pipeline_tag`; generic `type` / `task` / `mode`.
  const methods = words(raw.supportedGenerationMethods ?? raw.supported_generation_methods);
  if (methods.length > 0) {
    return methods.some((w) => CHAT_WORD.test(w));
  }
  for (const key of ['task', 'pipeline_tag', 'mode', 'model_type', 'type', 'kind']) {
    const value = words(raw[key]);
    if (value.some((w) => CHAT_WORD.test(w))) {
      return true;
    }
    if (value.some((w) => NON_CHAT_WORD.test(w))) {
      return false;
    }
  }
  return undefined;
}

/** Name tokens that mean the model is not a chat model (embeddings, rerankers, speech). */
const NON_CHAT_TOKEN = /^(embed|embeds|embedding|embeddings|rerank|reranker|rerankers|tts|asr|stt|whisper|moderation)$/;

/**
 * Whether a catalog model can chat: what its entry declares (capabilities, task, type…), else every model
 * except those whose id or family names a non-chat kind (`…-embed-…`, `…-rerank-…`, `tts`, `asr`).
 */
export function canChat(entry: ModelEntry): boolean {
  const declared = declaredChat(entry.raw);
  if (declared !== undefined) {
    return declared;
  }
  const tokens = `${entry.id} ${entry.family ?? ''}`.toLowerCase().split(/[^a-z0-9]+/);
  return !tokens.some((t) => NON_CHAT_TOKEN.test(t));
}

/** `*` and `?` globs (anything else literal), matched against the whole id, case-insensitively. */
function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * The `modelAccess.chat.models` selection: each item is a family name or an id pattern (`aurora-*`).
 * Empty means "every model that can chat".
 */
export function chatSelection(patterns: readonly string[]): (entry: ModelEntry) => boolean {
  const items = patterns.map((p) => p.trim()).filter((p) => p !== '');
  if (items.length === 0) {
    return canChat;
  }
  const families = new Set(items.map((p) => p.toLowerCase()));
  const globs = items.map(globToRegExp);
  return (entry) =>
    (entry.family !== undefined && families.has(entry.family.toLowerCase())) || globs.some((g) => g.test(entry.id));
}

/** The chat model id of model `id`: prefixed with its environment's name when every environment is offered. */
export function chatModelId(id: string, environment?: string): string {
  return environment === undefined ? id : `${environment}/${id}`;
}
