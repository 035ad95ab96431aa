/**
 * What kind of model a registry entry is — a chat model, an embedding model, or something else (speech,
 * reranking, moderation, images) — read from what the entry says of itself: capability flags and lists, a
 * `type`/`task`/`pipeline_tag`, Gemini's generation methods; when it says nothing, from the id and family
 * names (`…-embed-…`, `…-tts-…`). A model it cannot place is taken for a chat model. Pure; no `vscode`.
 *
 * The chat provider offers the chat models; New Request and Compare list the models that suit the payload's
 * endpoint first.
 */
import type { ModelEntry, PostEndpoint } from '../api/types';
import { isRecord } from '../common/records';

export type ModelKind = 'chat' | 'embedding' | 'other';

/** A string or a list of strings, lower-cased (anything else: none). */
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
const EMBEDDING_WORD = /(embed|feature[-_ ]extraction|sentence[-_ ]similarity)/;
const NON_CHAT_WORD =
  /(embed|rerank|re-rank|ranking|classif|moderation|speech|transcri|audio|tts|asr|stt|text[-_ ]to[-_ ]image|image[-_ ]generation|feature[-_ ]extraction|sentence[-_ ]similarity|fill[-_ ]mask|token[-_ ]classification)/;

/** Capability flags that, set alone (without a chat flag), mean the model does something else. */
const NON_CHAT_FLAG =
  /^(embed|embeds|embedding|embeddings|rerank|reranking|moderation|moderations|tts|asr|transcription|transcriptions|speech_to_text|text_to_speech)$/;

/** The kind a list of words names: chat first (a model that chats and embeds is offered for chat). */
function kindOfWords(list: readonly string[]): ModelKind | undefined {
  if (list.some((w) => CHAT_WORD.test(w))) {
    return 'chat';
  }
  if (list.some((w) => EMBEDDING_WORD.test(w))) {
    return 'embedding';
  }
  return list.some((w) => NON_CHAT_WORD.test(w)) ? 'other' : undefined;
}

/** What the entry itself declares; undefined when it is silent. */
export function declaredKind(raw: unknown): ModelKind | undefined {
  if (!isRecord(raw)) {
    return undefined;
  }
  const caps = raw.capabilities;
  if (isRecord(caps)) {
    // Azure OpenAI `{chat_completion: true, embeddings: false}`; GitHub-style `{type: "chat"}`; plain `{chat: true}`.
    const chatFlags = ['chat', 'chat_completion', 'chatCompletion', 'completion', 'completions']
      .map((k) => caps[k])
      .filter((v) => typeof v === 'boolean');
    const setFlags = Object.entries(caps)
      .filter(([, v]) => v === true)
      .map(([k]) => k.toLowerCase());
    const embeds = setFlags.some((k) => /^embed/.test(k));
    if (chatFlags.includes(true)) {
      return 'chat';
    }
    if (chatFlags.includes(false)) {
      return embeds ? 'embedding' : 'other';
    }
    const type = kindOfWords(words(caps.type));
    if (type) {
      return type;
    }
    if (setFlags.some((k) => NON_CHAT_FLAG.test(k))) {
      return embeds ? 'embedding' : 'other';
    }
  } else if (Array.isArray(caps)) {
    // Ollama `capabilities: ["completion", "tools"]` / `["embedding"]`.
    const kind = kindOfWords(words(caps));
    if (kind) {
      return kind;
    }
  }
  // Gemini `supportedGenerationMethods`; Hugging Face `pipeline_tag`; generic `type` / `task` / `mode`.
  const methods = words(raw.supportedGenerationMethods ?? raw.supported_generation_methods);
  if (methods.length > 0) {
    return kindOfWords(methods) ?? 'other';
  }
  for (const key of ['task', 'pipeline_tag', 'mode', 'model_type', 'type', 'kind']) {
    const kind = kindOfWords(words(raw[key]));
    if (kind) {
      return kind;
    }
  }
  return undefined;
}

/** Name tokens that mean the model is not a chat model (embeddings, rerankers, speech). */
const EMBEDDING_TOKEN = /^(embed|embeds|embedding|embeddings)$/;
const NON_CHAT_TOKEN = /^(rerank|reranker|rerankers|tts|asr|stt|whisper|moderation)$/;

/** The kind of a catalog model: what its entry declares, else what its id or family names, else chat. */
export function modelKind(entry: ModelEntry): ModelKind {
  const declared = declaredKind(entry.raw);
  if (declared !== undefined) {
    return declared;
  }
  const tokens = `${entry.id} ${entry.family ?? ''}`.toLowerCase().split(/[^a-z0-9]+/);
  if (tokens.some((t) => EMBEDDING_TOKEN.test(t))) {
    return 'embedding';
  }
  return tokens.some((t) => NON_CHAT_TOKEN.test(t)) ? 'other' : 'chat';
}

/** The kind of model an endpoint takes: embeddings for `/v1/embeddings`, chat for Responses and Chat. */
export function kindFor(endpoint: PostEndpoint): ModelKind {
  return endpoint === '/v1/embeddings' ? 'embedding' : 'chat';
}

/** Whether `entry` suits `endpoint`. */
export function suitsEndpoint(entry: ModelEntry, endpoint: PostEndpoint): boolean {
  return modelKind(entry) === kindFor(endpoint);
}
