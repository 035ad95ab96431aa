/**
 * Registry changes at scale: the comparison of two 100,000-model lists (the one last seen and the one just
 * loaded: permuted, four entries changed) against the refresh that produced the later one (every page of
 * 1,000 read from the local service and normalized). Prints figures; the target is that the comparison adds
 * at most 10 % to a refresh. `npx tsx bench/registryChanges.ts [--models N] [--runs N]`
 */
import { performance } from 'node:perf_hooks';
import type { ModelEntry } from '../src/api/types';
import { changeCount, compareLists } from '../src/domain/registry/changes';
import { startServer } from '../test/server';
import { createClient } from './client';
import { summarize, formatSummary } from './stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const count = arg('--models', 100_000);
  const runs = arg('--runs', 7);
  const server = await startServer({ models: count, maxPageSize: 1000, pageSize: 1000 });
  const org = server.registry.organizations[0];
  const client = createClient(server.url, server.keys[org]);
  try {
    const refreshes: number[] = [];
    let before: readonly ModelEntry[] = [];
    for (let i = 0; i <= runs; i++) {
      const t0 = performance.now();
      const list = await client.listModels();
      if (i > 0) {
        refreshes.push(performance.now() - t0);
      }
      before = list.models;
    }
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
    const after = [...(await client.listModels()).models].reverse();
    const comparisons: number[] = [];
    let found = 0;
    for (let i = 0; i <= runs; i++) {
      const t0 = performance.now();
      found = changeCount(compareLists(before, after));
      if (i > 0) {
        comparisons.push(performance.now() - t0);
      }
    }
    const refresh = summarize(refreshes);
    const compare = summarize(comparisons);
    console.log(`Registry changes, ${count.toLocaleString('en')} models, page 1000 (${runs} runs, medians):`);
    console.log(`  refresh (list + normalize)   ${formatSummary(refresh, 'ms')}`);
    console.log(`  comparison (${found} changes)     ${formatSummary(compare, 'ms', 1)}`);
    const ratio = compare.median / refresh.median;
    console.log(
      `  comparison / refresh          ${(ratio * 100).toFixed(1)} %  (target ≤ 10 %: ${ratio <= 0.1 ? 'met' : 'MISSED'})`,
    );
  } finally {
    await client.dispose();
    await server.close();
  }
}

void main();
