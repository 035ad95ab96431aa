/**
 * What `model-access check --changed-since FILE` runs, and why: a payload runs when a model it uses was added,
 * is gone, has a new version, moved family or has lifecycle news since the saved list (the comparison of the
 * Models view, domain/registry/changes.ts); it is skipped when all its models are as they were. A payload whose
 * models cannot be known in advance runs. And the warning a check on a deprecated or retiring model prints.
 * Pure; no `vscode` import.
 */
import type { ModelEntry } from '../api/types';
import { displayText } from '../common/text';
import type { RegistryChanges } from '../domain/registry/changes';
import { changeMark } from '../domain/registry/changeText';
import { isGoingAway, lifecycleLabel, lifecycleStage, readLifecycle } from '../domain/registry/lifecycle';
import { changedModels, type PayloadModels } from '../checks/core/payloadModels';

export interface Selection {
  run: boolean;
  /** "aurora-2: version 2 → 3", "aurora-1 unchanged", "it names no model (…)". */
  reason: string;
}

const shown = (id: string) => displayText(id, 120);

/** Whether a payload using `models` runs after `changes`, and the reason in a few words. */
export function selectPayload(models: PayloadModels, changes: RegistryChanges, now: number): Selection {
  if ('unknown' in models) {
    return { run: true, reason: `${models.unknown}: run to be safe` };
  }
  const changed = changedModels(models, changes).map((c) => `${shown(c.id)}: ${changeMark(c, now)}`);
  if (changed.length > 0) {
    return { run: true, reason: changed.join('; ') };
  }
  const ids = models.models.map(shown);
  return {
    run: false,
    reason: ids.length === 1 ? `${ids[0]} unchanged` : `${ids.join(', ')} unchanged`,
  };
}

export interface LifecycleWarning {
  /** "aurora-1 is deprecated: retires 2027-01-31; its successor is aurora-2". */
  message: string;
  /** The JUnit property's value: "deprecated; retires 2027-01-31; successor aurora-2". */
  property: string;
}

/** The warning for a check sent to `id`, when the listed entry says it is deprecated, retiring or retired. */
export function lifecycleWarning(
  id: string,
  listed: ReadonlyMap<string, ModelEntry>,
  now: number,
): LifecycleWarning | undefined {
  const entry = listed.get(id);
  const l = entry && readLifecycle(entry.raw);
  if (!l || !isGoingAway(l, now)) {
    return undefined;
  }
  const stage = lifecycleStage(l, now);
  const label: string = lifecycleLabel(l, now) || (stage === 'retired' ? 'retired' : 'deprecated');
  // "deprecated since 2026-03-01", "retired 2026-01-31", "deprecated and retires 2027-01-31".
  const state = stage === 'retiring' ? `deprecated and ${label}` : label;
  const successor = l.successor === undefined ? undefined : displayText(l.successor, 120);
  return {
    message: `${shown(id)} is ${state}${successor ? `; its successor is ${successor}` : ''}`,
    property: `${state}${successor ? `; successor ${successor}` : ''}`,
  };
}

/** The first entry of each id, for lookups by the model a check was sent to. */
export function modelsById(models: readonly ModelEntry[]): Map<string, ModelEntry> {
  const map = new Map<string, ModelEntry>();
  for (const m of models) {
    if (!map.has(m.id)) {
      map.set(m.id, m);
    }
  }
  return map;
}
