/**
 * The model registry behind the local service: which models exist and which organization may see them.
 * The demo registry is `registry.json`; scale work replaces the first organization's models with N
 * generated ones (deterministic, so benchmarks and tests can predict ids).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
// Imported (not only read from disk) so the registry travels with the code when a suite is bundled.
import demoRegistryJson from './registry.json';

export interface RegistryModel {
  id: string;
  family: string;
  version: string;
  organization: string;
  model_card_url: string;
  /** Unix seconds. */
  created: number;
  /**
   * Further raw fields sent with the entry: in the demo registry capabilities, context window, token limits and
   * lifecycle (`lifecycle_status`, `deprecation_date`, `retirement_date`, `replacement`); in hostile mode
   * descriptions and deep nesting.
   */
  extra?: Record<string, unknown>;
}

export interface Registry {
  /** In declaration order; the first one is the "main" demo organization. */
  organizations: string[];
  models: RegistryModel[];
}

/** One organization's view of the registry, indexed once so paging stays O(page) even at 100,000+ models. */
export interface OrgCatalog {
  models: RegistryModel[];
  indexById: Map<string, number>;
}

export const DEFAULT_REGISTRY_PATH = path.join(__dirname, 'registry.json');

/**
 * Deterministic demo keys, one per organization of the demo registry. They are printed by the CLI and
 * the demo; they grant access only to this local test server.
 */
export const DEMO_KEYS: Readonly<Record<string, string>> = Object.freeze({
  acme: 'ma-demo-acme-0001',
  globex: 'ma-demo-globex-0002',
  initech: 'ma-demo-initech-0003',
});

export function loadRegistry(file?: string): Registry {
  const parsed: unknown =
    file === undefined ? structuredClone(demoRegistryJson) : JSON.parse(readFileSync(file, 'utf8'));
  return validateRegistry(parsed, file ?? DEFAULT_REGISTRY_PATH);
}

/** The fields every entry has; any other field of a registry file's entry is sent as it is (`extra`). */
const BASE_FIELDS = new Set(['id', 'family', 'version', 'organization', 'model_card_url', 'created', 'extra']);

function validateRegistry(value: unknown, source: string): Registry {
  const fail = (why: string): never => {
    throw new Error(`Invalid registry ${source}: ${why}`);
  };
  if (typeof value !== 'object' || value === null) {
    return fail('not an object');
  }
  const { organizations, models } = value as { organizations?: unknown; models?: unknown };
  if (!Array.isArray(models)) {
    return fail('"models" must be an array');
  }
  const orgs = new Set<string>(
    Array.isArray(organizations) ? organizations.filter((o): o is string => typeof o === 'string') : [],
  );
  const seen = new Set<string>();
  const out: RegistryModel[] = models.map((m: unknown, i) => {
    const r = m as Partial<RegistryModel>;
    for (const field of ['id', 'family', 'version', 'organization', 'model_card_url'] as const) {
      if (typeof r[field] !== 'string' || r[field] === '') {
        fail(`models[${i}].${field} must be a non-empty string`);
      }
    }
    if (seen.has(r.id as string)) {
      fail(`duplicate model id ${JSON.stringify(r.id)}`);
    }
    seen.add(r.id as string);
    orgs.add(r.organization as string);
    const extra = {
      ...r.extra,
      ...Object.fromEntries(Object.entries(r).filter(([k]) => !BASE_FIELDS.has(k))),
    };
    return {
      id: r.id as string,
      family: r.family as string,
      version: r.version as string,
      organization: r.organization as string,
      model_card_url: r.model_card_url as string,
      created: typeof r.created === 'number' ? r.created : 1700000000,
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    };
  });
  return { organizations: [...orgs], models: out };
}

const GENERATED_FAMILIES = [
  'aurora',
  'cirrus',
  'lynx',
  'sable',
  'tern',
  'basalt',
  'kestrel',
  'meridian',
  'quill',
  'orbit',
];

/**
 * Replaces the first organization's models with `count` generated ones. Ids look like
 * `gen/aurora-00042:3.1`: sortable, unique, and carrying `/` and `:` like real registries do.
 * Versions vary (1, 2, 10, 1.5, ...) so natural-order sorting is exercised at scale too.
 */
export function withGeneratedModels(base: Registry, count: number): Registry {
  const org = base.organizations[0] ?? 'acme';
  const width = Math.max(5, String(count).length);
  const generated: RegistryModel[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const family = GENERATED_FAMILIES[i % GENERATED_FAMILIES.length];
    const major = 1 + (Math.floor(i / GENERATED_FAMILIES.length) % 12);
    const minor = Math.floor(i / (GENERATED_FAMILIES.length * 12)) % 4;
    const version = minor === 0 ? String(major) : `${major}.${minor}`;
    const serial = String(i).padStart(width, '0');
    generated[i] = {
      id: `gen/${family}-${serial}:${version}`,
      family,
      version,
      organization: org,
      model_card_url: `https://cards.example/gen/${family}-${serial}`,
      created: 1700000000 + i,
    };
  }
  return {
    organizations: base.organizations.length > 0 ? base.organizations : [org],
    models: [...generated, ...base.models.filter((m) => m.organization !== org)],
  };
}

export function indexByOrganization(registry: Registry): Map<string, OrgCatalog> {
  const byOrg = new Map<string, OrgCatalog>();
  for (const org of registry.organizations) {
    byOrg.set(org, { models: [], indexById: new Map() });
  }
  for (const model of registry.models) {
    let catalog = byOrg.get(model.organization);
    if (!catalog) {
      catalog = { models: [], indexById: new Map() };
      byOrg.set(model.organization, catalog);
    }
    // A registry file cannot repeat an id, but hostile mode does: the first occurrence answers by id.
    if (!catalog.indexById.has(model.id)) {
      catalog.indexById.set(model.id, catalog.models.length);
    }
    catalog.models.push(model);
  }
  return byOrg;
}

/** Keys for every organization: demo keys where known, overridden per organization by `overrides`. */
export function keysFor(registry: Registry, overrides: Record<string, string> = {}): Record<string, string> {
  const keys: Record<string, string> = {};
  registry.organizations.forEach((org, i) => {
    keys[org] = overrides[org] ?? DEMO_KEYS[org] ?? `ma-demo-${org}-${String(i + 1).padStart(4, '0')}`;
  });
  for (const [org, key] of Object.entries(overrides)) {
    keys[org] = key;
  }
  return keys;
}
