/**
 * The model list kept on disk between windows, so the Models view can show the last good list at once and
 * refresh it in the background. Pure: what goes in the file, how it is checked when read back, the
 * fingerprint it is bound to, and the "updated N min ago" text. The file I/O is in platform/modelCache.ts.
 *
 * A file is two lines. The first is a small JSON header: format, environment, origin, the fingerprint of the
 * key and when the list was saved. The second is the JSON array of the entries exactly as the service sent
 * them; everything the extension derives from an entry (id, family, version, card link) is derived again on
 * reading, so the file holds nothing twice. A header that does not match is rejected before the (possibly
 * 100,000-entry) second line is parsed.
 */
import { createHash, createHmac } from 'node:crypto';
import { normalizeInto } from '../api/models';
import type { ModelEntry } from '../api/types';
import { isRecord } from '../common/records';
import { l10n } from '../common/l10n';
import type { DisplayText } from '../common/text';

/** Bump when the layout changes: files of another format are ignored (and rewritten after the next load). */
export const CACHE_FORMAT = 1;

/** What a cached list belongs to. A list is shown only where all three are the same. */
export interface CacheBinding {
  /** The environment's name. */
  environment: string;
  /** The service the list came from (the scope of its base URL: origin and path prefix). */
  origin: string;
  /**
   * HMAC-SHA256 of everything that decides what the list holds (environment, URL, key, extra headers)
   * under the per-install salt ({@link fingerprint}); never the key.
   */
  fingerprint: string;
}

/** A list as saved: the entries as the service sent them, and what the view said about that load. */
export interface SavedList {
  /** Milliseconds since the epoch. */
  savedAt: number;
  models: readonly ModelEntry[];
  skipped: number;
  warnings: readonly string[];
}

interface Header extends CacheBinding {
  format: number;
  savedAt: number;
  skipped: number;
  warnings: string[];
  count: number;
}

/**
 * A fingerprint of `identity` (which contains the key) keyed with this installation's random salt: the
 * same key gives the same fingerprint on this machine only, and without the salt (kept in SecretStorage,
 * not next to the file) nobody can test a guessed key against a cache file.
 */
export function fingerprint(salt: Uint8Array, identity: string): string {
  return createHmac('sha256', salt).update('model-list\0').update(identity).digest('hex');
}

/**
 * The cache file's name for an environment and service: one file each, replaced when the key changes (so
 * the folder holds one file per environment, whatever happened to the salt). Hashed so that names from
 * settings (any characters) make a safe file name. `prefix`: `models` for the last good list, `seen` for the
 * list a person last marked as seen (platform/modelChanges.ts).
 */
export function cacheFileName(environment: string, origin: string, prefix = 'models'): string {
  const h = createHash('sha256')
    .update(JSON.stringify([environment, origin]))
    .digest('hex');
  return `${prefix}-${h.slice(0, 32)}.json`;
}

/** The file's text for `list` under `binding`. */
export function serializeCache(binding: CacheBinding, list: SavedList): string {
  const header: Header = {
    format: CACHE_FORMAT,
    environment: binding.environment,
    origin: binding.origin,
    fingerprint: binding.fingerprint,
    savedAt: list.savedAt,
    skipped: list.skipped,
    warnings: [...list.warnings],
    count: list.models.length,
  };
  const raws = new Array<unknown>(list.models.length);
  for (let i = 0; i < list.models.length; i++) {
    raws[i] = list.models[i].raw;
  }
  return `${JSON.stringify(header)}\n${JSON.stringify(raws)}\n`;
}

function validHeader(value: unknown): value is Header {
  return (
    isRecord(value) &&
    value.format === CACHE_FORMAT &&
    typeof value.environment === 'string' &&
    typeof value.origin === 'string' &&
    typeof value.fingerprint === 'string' &&
    typeof value.savedAt === 'number' &&
    Number.isFinite(value.savedAt) &&
    typeof value.skipped === 'number' &&
    Number.isInteger(value.skipped) &&
    value.skipped >= 0 &&
    typeof value.count === 'number' &&
    Number.isInteger(value.count) &&
    Array.isArray(value.warnings) &&
    value.warnings.every((w) => typeof w === 'string')
  );
}

export type CacheReading =
  | { kind: 'ok'; list: SavedList }
  /** Written for another key, service or environment: not shown, and left for its owner. */
  | { kind: 'otherBinding' }
  /** Not a cache file this version can read (truncated, edited, another format): ignore it and rewrite it. */
  | { kind: 'corrupt'; reason: string };

/**
 * Reads a cache file's text back into models, if it was written under exactly `binding`. Total: any text
 * gives a reading, never an exception. `now` rejects lists dated in the future (a clock set back, or an
 * edited file), which "updated N min ago" could not describe.
 */
export function parseCache(text: string, binding: CacheBinding, now: number): CacheReading {
  const newline = text.indexOf('\n');
  if (newline < 0) {
    return { kind: 'corrupt', reason: 'no header line' };
  }
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, newline));
  } catch {
    return { kind: 'corrupt', reason: 'header is not JSON' };
  }
  if (!validHeader(header)) {
    return { kind: 'corrupt', reason: 'unknown format' };
  }
  if (
    header.fingerprint !== binding.fingerprint ||
    header.origin !== binding.origin ||
    header.environment !== binding.environment
  ) {
    return { kind: 'otherBinding' };
  }
  if (header.savedAt > now + 60_000) {
    return { kind: 'corrupt', reason: 'saved in the future' };
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text.slice(newline + 1));
  } catch {
    return { kind: 'corrupt', reason: 'entries are not JSON' };
  }
  if (!Array.isArray(entries) || entries.length !== header.count) {
    return { kind: 'corrupt', reason: 'entries do not match the header' };
  }
  const models: ModelEntry[] = [];
  // Every entry was a model when it was saved: one that no longer reads as one means the file was changed.
  if (normalizeInto(entries, models) > 0) {
    return { kind: 'corrupt', reason: 'an entry has no identifier' };
  }
  return {
    kind: 'ok',
    list: { savedAt: header.savedAt, models, skipped: header.skipped, warnings: header.warnings },
  };
}

/** "updated just now", "updated 5 min ago", "updated 3 h ago", "updated 2 days ago". */
export function updatedAgo(savedAt: number, now: number): DisplayText {
  const minutes = Math.max(0, Math.floor((now - savedAt) / 60_000));
  if (minutes < 1) {
    return l10n.t('updated just now');
  }
  if (minutes < 60) {
    return l10n.t('updated {0} min ago', minutes);
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 48) {
    return l10n.t('updated {0} h ago', hours);
  }
  return l10n.t('updated {0} days ago', Math.floor(hours / 24));
}
