/**
 * Which catalog models can chat, which the `modelAccess.chat.models` selection offers, and the id chat knows a
 * model by. Shared: the chat provider offers these models and Model Details names the same ids. Pure.
 */
import type { ModelEntry } from '../api/types';
import { modelKind } from './modelKind';

export { words } from './modelKind';

/**
 * Whether a catalog model can chat: what its entry declares (capabilities, task, type…), else every model
 * except those whose id or family names a non-chat kind (`…-embed-…`, `…-rerank-…`, `tts`, `asr`); see
 * modelKind.ts, which New Request and Compare read too.
 */
export function canChat(entry: ModelEntry): boolean {
  return modelKind(entry) === 'chat';
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
