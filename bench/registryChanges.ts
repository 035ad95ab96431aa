/**
 * Registry changes at scale: the comparison of two 100,000-model lists (the one last seen and the one just
 * loaded: permuted, four entries changed) against the refresh that produced the later one (every page of
 * 1,000 read from the local service and normalized). Each run is a refresh followed by its comparison, so both
 * see the same machine load. Prints figures; the target is that the comparison adds at most 10 % to a refresh.
 * As in the extension (platform/modelChanges.ts), the list last seen is prepared once (its index by id; it
 * changes only on Mark as Seen) and every refresh compares with it; the preparation is measured apart.
 * `npm run bench -- --only registry`, or alone: `npx tsx bench/registryChanges.ts [--models N] [--runs N]`.
 */
import { performance } from 'node:perf_hooks';
import type { ModelEntry } from '../src/api/types';
import { changeCount, compareLists, prepareList, type PreparedList } from '../src/domain/registry/changes';
import { startServer } from '../test/server';
import { createClient } from './client';
import type { BenchContext } from './context';
import { summarize, formatSummary } from './stats';

const TARGET = 0.1;

export interface RegistryFigures {
  count: number;
  refreshes: number[];
  comparisons: number[];
  /** Preparing the list last seen (once per Mark as Seen, not per refresh). */
  preparations: number[];
  found: number;
}

export async function measureRegistry(count: number, runs: number): Promise<RegistryFigures> {
  const server = await startServer({ models: count, maxPageSize: 1000, pageSize: 1000 });
  const org = server.registry.organizations[0];
  const client = createClient(server.url, server.keys[org]);
  try {
    // Warm-up, and the list last seen.
    await client.listModels();
    const before: readonly ModelEntry[] = (await client.listModels()).models;
    // The later list: the registry's order reversed, one model gone, one added, one new version, one deprecated.
    const ids = server.registry.models.filter((m) => m.organization === org).map((m) => m.id);
    server.changeRegistry(org, {
      remove: [ids[0]],
      add: [{ ...server.registry.models[1], id: 'bench/new-1', version: '1' }],
      update: {
        [ids[1]]: { version: '99' },
        [ids[2]]: { extra: { lifecycle_status: 'deprecated', retirement_date: '2099-01-31', replacement: ids[3] } },
      },
    });
    const refreshes: number[] = [];
    const comparisons: number[] = [];
    const preparations: number[] = [];
    let seen: PreparedList = prepareList(before);
    let found = 0;
    for (let i = 0; i <= runs; i++) {
      const tp = performance.now();
      seen = prepareList(before);
      preparations.push(performance.now() - tp);
      const t0 = performance.now();
      const after = [...(await client.listModels()).models].reverse();
      const t1 = performance.now();
      found = changeCount(compareLists(seen, after));
      const t2 = performance.now();
      // The first pair warms the comparison's code up.
      if (i > 0) {
        refreshes.push(t1 - t0);
        comparisons.push(t2 - t1);
      }
    }
    return { count, refreshes, comparisons, preparations: preparations.slice(1), found };
  } finally {
    await client.dispose();
    await server.close();
  }
}

export async function runRegistry(ctx: BenchContext): Promise<void> {
  const f = await measureRegistry(100_000, ctx.quick ? 4 : 9);
  const refresh = summarize(f.refreshes);
  const compare = summarize(f.comparisons);
  const ratio = compare.median / refresh.median;
  const scenario = `Registry changes ${f.count / 1000}k models, page 1000`;
  const prepare = summarize(f.preparations);
  ctx.data.registry = {
    refreshes: f.refreshes,
    comparisons: f.comparisons,
    preparations: f.preparations,
    found: f.found,
  };
  ctx.rows.push(
    { scenario, metric: 'refresh (list + normalize)', value: formatSummary(refresh, 'ms'), verdict: 'n/a' },
    {
      scenario,
      metric: `comparison with the list last seen (${f.found} changes)`,
      value: formatSummary(compare, 'ms', 1),
      verdict: 'n/a',
    },
    {
      scenario,
      metric: 'preparing the list last seen (once per Mark as Seen)',
      value: formatSummary(prepare, 'ms', 1),
      verdict: 'n/a',
    },
    {
      scenario,
      metric: 'comparison / refresh',
      value: `${(ratio * 100).toFixed(1)} %`,
      target: `≤ ${TARGET * 100} %`,
      verdict: ratio <= TARGET ? 'met' : 'missed',
    },
  );
  if (ratio > TARGET) {
    ctx.notes.push(`${scenario}: the comparison took ${(ratio * 100).toFixed(1)} % of a refresh (target ≤ 10 %).`);
  }
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (require.main === module) {
  void measureRegistry(arg('--models', 100_000), arg('--runs', 7)).then((f) => {
    const refresh = summarize(f.refreshes);
    const compare = summarize(f.comparisons);
    const ratio = compare.median / refresh.median;
    console.log(
      `Registry changes, ${f.count.toLocaleString('en')} models, page 1000 (${f.refreshes.length} runs, medians):`,
    );
    console.log(`  refresh (list + normalize)   ${formatSummary(refresh, 'ms')}`);
    console.log(`  comparison (${f.found} changes)     ${formatSummary(compare, 'ms', 1)}`);
    console.log(`  preparing the list last seen ${formatSummary(summarize(f.preparations), 'ms', 1)}`);
    console.log(
      `  comparison / refresh          ${(ratio * 100).toFixed(1)} %  (target ≤ 10 %: ${ratio <= TARGET ? 'met' : 'MISSED'})`,
    );
  });
}
