/**
 * The model list `model-access models --save FILE` writes and `model-access check --changed-since FILE` reads
 * back: a documented, stable JSON document (docs/checks-in-ci.md, "The saved model list"). Each model has
 * what a person or `jq` looks for (id, family, version, lifecycle when the entry says it) and, under `entry`,
 * the registry entry exactly as the service sent it. Reading derives every model again from `entry` with the
 * extension's own reader (api/models.ts), so the comparison sees the same models as the Models view, and the
 * readable fields are never a second source of truth. Pure; no `vscode` import.
 */
import { normalizeInto } from '../api/models';
import type { ModelEntry } from '../api/types';
import { isRecord } from '../common/records';
import { INVISIBLE_CHARS } from '../common/text';
import { lifecycleStage, readLifecycle } from '../domain/registry/lifecycle';

/** The `format` of the document; a later, incompatible layout gets another. */
export const MODEL_LIST_FORMAT = 'model-access/models@1';

export interface SavedLifecycle {
  /** `preview`, `active`, `deprecated`, `retiring`, `retired` on the day the list was saved. */
  stage?: string;
  /** The registry's status word, lower-cased. */
  status?: string;
  deprecated: boolean;
  /** ISO 8601 (UTC). */
  deprecatedAt?: string;
  /** ISO 8601 (UTC): when it stops answering. */
  retiresAt?: string;
  successor?: string;
}

export interface SavedModel {
  id: string;
  family?: string;
  version?: string;
  lifecycle?: SavedLifecycle;
  /** The registry entry as the service sent it. */
  entry: unknown;
}

export interface ModelListDocument {
  format: typeof MODEL_LIST_FORMAT;
  /** The service the list came from: origin and path, never a key or a query. */
  service: string;
  /** ISO 8601 (UTC). */
  savedAt: string;
  count: number;
  models: SavedModel[];
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** What a model says about its lifecycle, for the document (undefined: the entry says nothing). */
export function savedLifecycle(m: ModelEntry, now: number): SavedLifecycle | undefined {
  const l = readLifecycle(m.raw);
  if (!l) {
    return undefined;
  }
  return {
    stage: lifecycleStage(l, now),
    status: l.status,
    deprecated: l.deprecated,
    deprecatedAt: iso(l.deprecatedAt),
    retiresAt: iso(l.retiresAt),
    successor: l.successor,
  };
}

/** The document for `models`, listed from `service` at `now`. */
export function modelListDocument(models: readonly ModelEntry[], service: string, now: number): ModelListDocument {
  return {
    format: MODEL_LIST_FORMAT,
    service,
    savedAt: new Date(now).toISOString(),
    count: models.length,
    models: models.map((m) => ({
      id: m.id,
      family: m.family,
      version: m.version,
      lifecycle: savedLifecycle(m, now),
      entry: m.raw,
    })),
  };
}

const UNSAFE_IN_TERMINAL = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${INVISIBLE_CHARS}]`, 'g');

/**
 * JSON text that reads back to the same value and drives no terminal: JSON escapes C0 controls itself, and
 * the C1 controls, line separators, bidi and zero-width characters a registry may hold are escaped as `\uXXXX`
 * too (rather than shown as pictures, which would change the data), and so is the `[` of a CI command `##[`.
 */
export function terminalSafeJson(value: unknown): string {
  return (
    JSON.stringify(value, null, 2)
      .replace(UNSAFE_IN_TERMINAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      // A CI runner's `##[` / `##vso[` command, which it reads anywhere in a line: `[` escaped, the value kept.
      .replace(/##(vso)?\[/gi, (m) => `${m.slice(0, -1)}\\u005b`)
  );
}

export type ModelListReading =
  { ok: true; service: string; savedAt: number; models: ModelEntry[] } | { ok: false; problem: string };

/**
 * The models of a saved list, read again from each `entry`. Total: any text gives a reading; a file that is
 * not such a document, or whose entries no longer read as the models it names, is a problem, never a guess.
 */
export function readModelList(text: string): ModelListReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Never the parser's message: it quotes the file, which may be anything.
    return { ok: false, problem: 'it is not JSON' };
  }
  if (!isRecord(value) || value.format !== MODEL_LIST_FORMAT) {
    return {
      ok: false,
      problem: `it is not a model list written by model-access models --save (format ${MODEL_LIST_FORMAT})`,
    };
  }
  const savedAt = typeof value.savedAt === 'string' ? Date.parse(value.savedAt) : NaN;
  if (typeof value.service !== 'string' || !Number.isFinite(savedAt) || !Array.isArray(value.models)) {
    return { ok: false, problem: 'its service, savedAt or models field is missing' };
  }
  if (value.count !== value.models.length) {
    return {
      ok: false,
      problem: `its count is ${String(value.count)} and it holds ${value.models.length} (a cut file?)`,
    };
  }
  const entries = new Array<unknown>(value.models.length);
  for (let i = 0; i < value.models.length; i++) {
    const m: unknown = value.models[i];
    if (!isRecord(m) || !('entry' in m)) {
      return { ok: false, problem: `model ${i + 1} has no entry` };
    }
    entries[i] = m.entry;
  }
  const models: ModelEntry[] = [];
  if (normalizeInto(entries, models) > 0) {
    return { ok: false, problem: 'an entry has no model id' };
  }
  for (let i = 0; i < models.length; i++) {
    if ((value.models[i] as Record<string, unknown>).id !== models[i].id) {
      return {
        ok: false,
        problem: `model ${i + 1} says id ${JSON.stringify((value.models[i] as Record<string, unknown>).id)} and its entry another (an edited file?)`,
      };
    }
  }
  return { ok: true, service: value.service, savedAt, models };
}
