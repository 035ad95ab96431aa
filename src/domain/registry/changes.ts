/**
 * What changed between two model lists of one service: models added, models gone, models whose version,
 * family or lifecycle changed, and the families that gained members. Pure; no `vscode`.
 *
 * Only what a person would call a change counts: a registry that reorders its entries, repeats one (the first
 * occurrence is the model, as the service answers `GET /v1/models/{id}` by it) or writes a field under
 * another name (`version` → `model_version`, a date as epoch seconds instead of ISO) has not changed. An id
 * that moves to another family is one change. Linear in the two lists: one map of the earlier list, one pass
 * over the later one, and no lifecycle read for an entry whose raw object is the very same.
 */
import type { ModelEntry } from '../../api/types';
import { l10n } from '../../common/l10n';
import { clean, type DisplayText } from '../../common/text';
import { lifecycleKey, mayHaveLifecycle, readLifecycle } from './lifecycle';

export type ChangeKind = 'added' | 'gone' | 'updated';

/** What changed in a model that is in both lists. */
export interface ModelUpdate {
  version: boolean;
  family: boolean;
  lifecycle: boolean;
}

export interface ModelChange {
  kind: ChangeKind;
  id: string;
  /** The entry in the earlier list (gone, updated). */
  before?: ModelEntry;
  /** The entry in the later list (added, updated). */
  after?: ModelEntry;
  /** For `updated`: what changed. */
  update?: ModelUpdate;
}

export interface RegistryChanges {
  /** In the later list's order. */
  added: ModelChange[];
  /** In the earlier list's order. */
  gone: ModelChange[];
  /** In the later list's order. */
  updated: ModelChange[];
  /** Families (as the later list names them) that gained a model: added, or moved in from another family. */
  familiesWithNewMembers: string[];
  /** Every change by model id. */
  byId: ReadonlyMap<string, ModelChange>;
}

/** The first entry of each id, in list order (a registry may repeat an id). */
function firstById(list: readonly ModelEntry[]): Map<string, ModelEntry> {
  const map = new Map<string, ModelEntry>();
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!map.has(m.id)) {
      map.set(m.id, m);
    }
  }
  return map;
}

function lifecycleChanged(a: ModelEntry, b: ModelEntry): boolean {
  if (a.raw === b.raw) {
    return false;
  }
  const hasA = mayHaveLifecycle(a.raw);
  const hasB = mayHaveLifecycle(b.raw);
  if (!hasA && !hasB) {
    return false;
  }
  return (
    lifecycleKey(hasA ? readLifecycle(a.raw) : undefined) !== lifecycleKey(hasB ? readLifecycle(b.raw) : undefined)
  );
}

/** The changes from `before` to `after`. Two lists holding the same models (in any order) give none. */
export function compareLists(before: readonly ModelEntry[], after: readonly ModelEntry[]): RegistryChanges {
  const earlier = firstById(before);
  const byId = new Map<string, ModelChange>();
  const added: ModelChange[] = [];
  const updated: ModelChange[] = [];
  const families = new Set<string>();
  const seen = new Set<string>();
  for (let i = 0; i < after.length; i++) {
    const m = after[i];
    if (seen.has(m.id)) {
      continue;
    }
    seen.add(m.id);
    const old = earlier.get(m.id);
    if (old === undefined) {
      const change: ModelChange = { kind: 'added', id: m.id, after: m };
      added.push(change);
      byId.set(m.id, change);
      families.add(m.family ?? '');
      continue;
    }
    const update: ModelUpdate = {
      version: (old.version ?? '') !== (m.version ?? ''),
      family: (old.family ?? '') !== (m.family ?? ''),
      lifecycle: lifecycleChanged(old, m),
    };
    if (update.version || update.family || update.lifecycle) {
      const change: ModelChange = { kind: 'updated', id: m.id, before: old, after: m, update };
      updated.push(change);
      byId.set(m.id, change);
      if (update.family) {
        families.add(m.family ?? '');
      }
    }
  }
  const gone: ModelChange[] = [];
  for (const [id, m] of earlier) {
    if (!seen.has(id)) {
      const change: ModelChange = { kind: 'gone', id, before: m };
      gone.push(change);
      byId.set(id, change);
    }
  }
  return { added, gone, updated, familiesWithNewMembers: [...families], byId };
}

/** How many changes there are. */
export function changeCount(c: RegistryChanges | undefined): number {
  return c ? c.added.length + c.gone.length + c.updated.length : 0;
}

/** "25 Nov" (or "25 Nov 2025" in another year): when the list was last seen. */
export function seenDay(seenAt: number, now: number, locale?: string): DisplayText {
  const d = new Date(seenAt);
  const sameYear = d.getFullYear() === new Date(now).getFullYear();
  return clean(
    d.toLocaleDateString(
      locale,
      sameYear ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' },
    ),
  );
}

/** "3 new · 1 updated · 1 gone since 25 Nov" (parts with nothing in them left out). */
export function changesSummary(c: RegistryChanges, seenAt: number, now: number, locale?: string): DisplayText {
  const parts: DisplayText[] = [];
  if (c.added.length > 0) {
    parts.push(l10n.t('{0} new', c.added.length));
  }
  if (c.updated.length > 0) {
    parts.push(l10n.t('{0} updated', c.updated.length));
  }
  if (c.gone.length > 0) {
    parts.push(l10n.t('{0} gone', c.gone.length));
  }
  return l10n.t('{0} since {1}', parts.join(' · ') as DisplayText, seenDay(seenAt, now, locale));
}
