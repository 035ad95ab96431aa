/**
 * What changed between two model lists of one service: models added, models gone, models whose version,
 * family or lifecycle changed, and the families that gained members. Pure; no `vscode`.
 *
 * Only what a person would call a change counts: a registry that reorders its entries, repeats one (the first
 * occurrence is the model, as the service answers `GET /v1/models/{id}` by it) or writes a field under
 * another name (`version` → `model_version`, a date as epoch seconds instead of ISO) has not changed. An id
 * that moves to another family is one change. Linear in the two lists: one map of the earlier list, one pass
 * over the later one, and no lifecycle read for an entry whose lifecycle fields are the very same. The earlier
 * list can be prepared once ({@link prepareList}) and compared with many later ones.
 */
import type { ModelEntry } from '../../api/types';
import { l10n } from '../../common/l10n';
import { clean, type DisplayText } from '../../common/text';
import { lifecycleKey, mayHaveLifecycle, readLifecycle, sameLifecycleFields } from './lifecycle';

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

/**
 * A list prepared for being compared with: each id's first index (a registry may repeat an id; the first
 * occurrence is the model) and which entries may carry lifecycle fields. The list compared with is the one
 * last seen, which changes only on Mark as Seen, while every refresh compares with it: prepared once, it
 * costs each refresh only the pass over the new list. The list must not be changed afterwards (lists are
 * never changed in place: they are `readonly` throughout).
 */
export interface PreparedList {
  readonly models: readonly ModelEntry[];
  readonly firstIndex: ReadonlyMap<string, number>;
  /** 1 where the entry has a field a lifecycle is read from. */
  readonly lifecycleFields: Uint8Array;
}

/** Prepares `list` for {@link compareLists}: one map write per entry, filled from the end (the first occurrence is written last). */
export function prepareList(list: readonly ModelEntry[]): PreparedList {
  const firstIndex = new Map<string, number>();
  const lifecycleFields = new Uint8Array(list.length);
  for (let i = list.length - 1; i >= 0; i--) {
    firstIndex.set(list[i].id, i);
    if (mayHaveLifecycle(list[i].raw)) {
      lifecycleFields[i] = 1;
    }
  }
  return { models: list, firstIndex, lifecycleFields };
}

function lifecycleChanged(a: ModelEntry, b: ModelEntry, aHasFields: boolean): boolean {
  const hasB = mayHaveLifecycle(b.raw);
  if (!aHasFields && !hasB) {
    // Neither says anything about its lifecycle: one look at the new entry's keys, none at the old one's.
    return false;
  }
  if (sameLifecycleFields(a.raw, b.raw)) {
    return false;
  }
  return (
    lifecycleKey(aHasFields ? readLifecycle(a.raw) : undefined) !==
    lifecycleKey(hasB ? readLifecycle(b.raw) : undefined)
  );
}

/**
 * The changes from `before` (a list, or one prepared by {@link prepareList}) to `after`. Two lists holding the
 * same models (in any order) give none. One map of the earlier list (id → first index) and one pass over the
 * later one: an earlier entry met is marked in a byte array (so a repeat in the later list is skipped, and
 * what is left unmarked is gone); nothing is allocated for a model that did not change.
 */
export function compareLists(
  before: readonly ModelEntry[] | PreparedList,
  after: readonly ModelEntry[],
): RegistryChanges {
  const prepared = 'firstIndex' in before ? before : prepareList(before);
  const earlierList = prepared.models;
  const earlier = prepared.firstIndex;
  const lifecycleFields = prepared.lifecycleFields;
  const met = new Uint8Array(earlierList.length);
  const byId = new Map<string, ModelChange>();
  const added: ModelChange[] = [];
  const updated: ModelChange[] = [];
  const families = new Set<string>();
  // Only ids new to the registry can repeat unnoticed by `met`: they are few.
  let addedIds: Set<string> | undefined;
  for (let i = 0; i < after.length; i++) {
    const m = after[i];
    const index = earlier.get(m.id);
    if (index === undefined) {
      addedIds ??= new Set();
      if (addedIds.has(m.id)) {
        continue;
      }
      addedIds.add(m.id);
      const change: ModelChange = { kind: 'added', id: m.id, after: m };
      added.push(change);
      byId.set(m.id, change);
      families.add(m.family ?? '');
      continue;
    }
    if (met[index] === 1) {
      continue;
    }
    met[index] = 1;
    const old = earlierList[index];
    const version = (old.version ?? '') !== (m.version ?? '');
    const family = (old.family ?? '') !== (m.family ?? '');
    const lifecycle = lifecycleChanged(old, m, lifecycleFields[index] === 1);
    if (version || family || lifecycle) {
      const change: ModelChange = {
        kind: 'updated',
        id: m.id,
        before: old,
        after: m,
        update: { version, family, lifecycle },
      };
      updated.push(change);
      byId.set(m.id, change);
      if (family) {
        families.add(m.family ?? '');
      }
    }
  }
  const gone: ModelChange[] = [];
  for (let i = 0; i < earlierList.length; i++) {
    // Unmarked: gone, or a repeat of an id (whose first occurrence decides).
    if (met[i] === 0 && earlier.get(earlierList[i].id) === i) {
      const m = earlierList[i];
      const change: ModelChange = { kind: 'gone', id: m.id, before: m };
      gone.push(change);
      byId.set(m.id, change);
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
