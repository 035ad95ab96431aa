import type { ModelEntry } from '../api/types';
import { readLifecycle } from '../domain/registry/lifecycle';
import { newestOfFamily } from '../domain/registry/suggestions';
import { makeIdLookup } from './core/idLookup';
import type { IdLookup, ModelReference } from './core/types';
import { judgeReference, type ReferenceVerdict } from './core/referenceState';

/**
 * The registry as the references see it at one moment: the listed models by id, the models gone since the
 * list was last seen (their earlier entries), and one id lookup holding both, so a gone id is still found in
 * the code and reported as gone rather than unknown. Made anew on every registry refresh; never while the
 * registry is unknown (no list loaded): then nothing is judged at all.
 */
export class RegistrySnapshot {
  readonly ids: IdLookup;
  readonly listed = new Map<string, ModelEntry>();
  readonly gone = new Map<string, ModelEntry>();
  readonly goneIds: ReadonlySet<string>;

  constructor(
    readonly models: readonly ModelEntry[],
    gone: readonly ModelEntry[],
  ) {
    for (const m of models) {
      if (!this.listed.has(m.id)) {
        this.listed.set(m.id, m);
      }
    }
    for (const m of gone) {
      if (!this.listed.has(m.id) && !this.gone.has(m.id)) {
        this.gone.set(m.id, m);
      }
    }
    this.goneIds = new Set(this.gone.keys());
    this.ids = makeIdLookup([...this.listed.keys(), ...this.gone.keys()]);
  }

  /** The verdict on one reference at `now`. */
  judge(ref: ModelReference, now: number, warnDays: number): ReferenceVerdict {
    return judgeReference(ref, this.listed.get(ref.id), { now, warnDays, goneIds: this.goneIds });
  }

  /** The model that replaces `id`: the registry's successor (a gone model's from its last entry), if listed. */
  successor(id: string, verdict?: ReferenceVerdict): string | undefined {
    const named =
      verdict?.successor ?? readLifecycle((this.listed.get(id) ?? this.gone.get(id))?.raw)?.successor ?? undefined;
    return named !== undefined && named !== id && this.listed.has(named) ? named : undefined;
  }

  /** The newest listed model of `id`'s family, when it is another model than `id` and than `besides`. */
  newestInFamily(id: string, now: number, besides?: string): string | undefined {
    const entry = this.listed.get(id) ?? this.gone.get(id);
    if (!entry?.family) {
      return undefined;
    }
    const newest = newestOfFamily(entry.family, this.models, now)?.id;
    return newest !== undefined && newest !== id && newest !== besides ? newest : undefined;
  }
}
