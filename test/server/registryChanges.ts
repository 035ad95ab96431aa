/**
 * A registry that changes while the service runs: a test applies a change set to one organization's models
 * (added, gone, a new version, lifecycle news), as a real registry changes between two window starts. The
 * demo data stays as it is; only the running service's view of it changes.
 */
import type { OrgCatalog, RegistryModel } from './registry';

export interface RegistryChangeSet {
  /** Models that appear (appended to the list). */
  add?: RegistryModel[];
  /** Ids that disappear. */
  remove?: string[];
  /** Fields replaced on an existing model, by id: `{ version: '3' }`, `{ extra: { lifecycle_status: 'deprecated' } }`. */
  update?: Record<string, Partial<Omit<RegistryModel, 'id'>>>;
}

/** Applies `set` to `catalog` in place (list and index). Throws when it names an id the catalog does not hold. */
export function applyRegistryChanges(catalog: OrgCatalog, set: RegistryChangeSet): void {
  const removed = new Set(set.remove ?? []);
  for (const id of [...removed, ...Object.keys(set.update ?? {})]) {
    if (!catalog.indexById.has(id)) {
      throw new Error(`The registry has no model ${JSON.stringify(id)} to change`);
    }
  }
  const models = catalog.models
    .filter((m) => !removed.has(m.id))
    .map((m) => {
      const update = set.update?.[m.id];
      return update ? { ...m, ...update, extra: { ...m.extra, ...update.extra } } : m;
    })
    .concat(set.add ?? []);
  catalog.models = models;
  catalog.indexById = new Map();
  models.forEach((m, i) => {
    if (!catalog.indexById.has(m.id)) {
      catalog.indexById.set(m.id, i);
    }
  });
}

/**
 * What `npm run serve -- --registry-changes` (and `npm run demo -- --registry-changes`) applies to the first
 * organization at start: one model new, one gone, one with a new version, one now retiring (the README's
 * screenshot). Started once without it and once with it, the demo shows the Models view's "what changed".
 */
export function demoRegistryChanges(models: readonly RegistryModel[]): RegistryChangeSet {
  const byId = (id: string) => models.find((m) => m.id === id);
  const template = byId('aurora-2') ?? models[0];
  return {
    add: template
      ? [
          {
            ...template,
            id: 'zephyr-1',
            family: 'zephyr',
            version: '1',
            model_card_url: 'https://cards.example/zephyr-1',
          },
        ]
      : [],
    remove: byId('aurora-1') ? ['aurora-1'] : [],
    update: {
      ...(byId('aurora-1.5') ? { 'aurora-1.5': { version: '1.5.1' } } : {}),
      ...(byId('aurora-2') && byId('aurora-10')
        ? {
            'aurora-2': {
              extra: {
                lifecycle_status: 'deprecated',
                deprecation_date: '2026-01-31',
                retirement_date: '2099-01-31',
                replacement: 'aurora-10',
              },
            },
          }
        : {}),
    },
  };
}
