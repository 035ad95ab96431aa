/**
 * Catalog scale: list every page + normalize + build the tree items grouped by family, for 1k/10k/100k
 * models at page sizes 100 and 1,000, against raw `undici.request` + `JSON.parse` of the same pages.
 *
 * The tree items are built by the explorer's real code (src/explorer/treeProvider.ts + nodes.ts); the
 * worker bundle maps `vscode` to a minimal shim (bench/vscodeShim.ts, see bench/build.ts). "Tree" is what
 * VS Code asks for after one load: the root (one node per family) and the children of the families that
 * start expanded (below 300 models all of them, from 300 on none). Expanding every family afterwards is
 * shown apart, as information.
 *
 * First rows: with no saved list the view shows the rows read so far while the rest is read, from the page
 * that brings the list to 300 models (a large list; smaller ones appear whole). The extension's time to
 * those rows (pages read, normalized, and the tree's root built from them) is set against the raw time to
 * fetch and parse the same pages: one page of 1,000, or three of 100.
 */
import * as path from 'node:path';
import { abbaRounds, type BenchContext, type SideSamples } from './context';
import { runWorker, startService } from './proc';
import { collectGarbage, peakRssMiB, rssMiB } from './sample';
import { summarize, formatSummary } from './stats';
import { verdict } from './table';
import { profileSummary } from './profile';

/**
 * From this many models the view shows the rows read so far (LARGE_LIST in src/platform/catalog.ts, which
 * this process cannot import: it needs `vscode`).
 */
const LARGE_LIST = 300;

interface CatalogParams {
  url: string;
  key: string;
  warmup: number;
  runs: number;
  expected: number;
}

async function measure(params: CatalogParams, once: () => Promise<Record<string, number>>): Promise<SideSamples> {
  const samples: Record<string, number[]> = {};
  for (let i = 0; i < params.warmup; i++) {
    await once();
    collectGarbage();
  }
  const startRss = rssMiB();
  for (let i = 0; i < params.runs; i++) {
    const r = await once();
    for (const [k, v] of Object.entries(r)) {
      (samples[k] ??= []).push(v);
    }
    collectGarbage();
  }
  return { ...samples, times: samples.times, peakRssMiB: peakRssMiB(), startRssMiB: startRss };
}

export const workerTasks = {
  /** The floor: undici.request + JSON.parse of every page, nothing else. */
  async raw(params: CatalogParams): Promise<SideSamples> {
    const { request } = await import('undici');
    const headers = { authorization: `Bearer ${params.key}` };
    return measure(params, async () => {
      const t0 = performance.now();
      let next = `${params.url}/v1/models`;
      let count = 0;
      let first = 0;
      for (;;) {
        const res = await request(next, { headers });
        if (res.statusCode !== 200) {
          throw new Error(`GET ${next}: ${res.statusCode}`);
        }
        const page = JSON.parse(await res.body.text()) as { data: unknown[]; has_more: boolean; last_id: string };
        count += page.data.length;
        if (first === 0 && count >= LARGE_LIST) {
          first = performance.now() - t0;
        }
        if (!page.has_more) {
          break;
        }
        next = `${params.url}/v1/models?after=${encodeURIComponent(page.last_id)}`;
      }
      const t1 = performance.now();
      if (count !== params.expected) {
        throw new Error(`raw listing returned ${count} models, expected ${params.expected}`);
      }
      return { times: t1 - t0, first };
    });
  },

  /** The extension's path: ServiceClient.listModels() (paging + normalize), then the tree items. */
  async client(params: CatalogParams): Promise<SideSamples> {
    const { ModelsTreeProvider } = await import('../src/explorer/treeProvider.js');
    const { FamilyNode } = await import('../src/explorer/nodes.js');
    const { TreeItemCollapsibleState } = await import('./vscodeShim.js');
    const { createClient } = await import('./client.js');
    const client = createClient(params.url, params.key);
    let rows = 0;
    let allRows = 0;
    const options = () => ({ grouped: true, filter: undefined, clickable: true });
    /** The tree over `models`, as the view's provider sees the catalog. */
    const treeOf = (models: readonly unknown[]) =>
      new ModelsTreeProvider(
        {
          models,
          status: { kind: 'ready' },
          onDidChange: () => ({ dispose() {} }),
          onDidChangeStatus: () => ({ dispose() {} }),
        } as never,
        options,
      );
    const result = await measure(params, async () => {
      let first = 0;
      const t0 = performance.now();
      const listed = await client.listModels({
        onPage(soFar) {
          if (first === 0 && soFar.length >= LARGE_LIST) {
            // What the catalog does with the first page: a copy of the rows so far, and the tree's root.
            const partial = treeOf(soFar.slice());
            partial.getChildren();
            partial.dispose();
            first = performance.now() - t0;
          }
        },
      });
      const t1 = performance.now();
      const provider = treeOf(listed.models);
      const roots = provider.getChildren();
      const tRoot = performance.now();
      rows = roots.length;
      for (const node of roots) {
        if (node instanceof FamilyNode && node.collapsibleState === TreeItemCollapsibleState.Expanded) {
          rows += provider.getChildren(node).length;
        }
      }
      const t2 = performance.now();
      // Every family expanded, one after the other: what a person who opens them all waits for in total.
      allRows = roots.length;
      for (const node of roots) {
        if (node instanceof FamilyNode) {
          allRows += provider.getChildren(node).length;
        }
      }
      const t3 = performance.now();
      provider.dispose();
      if (listed.models.length !== params.expected) {
        throw new Error(
          `listModels returned ${listed.models.length} models, expected ${params.expected} (${listed.warnings.join('; ')})`,
        );
      }
      return {
        times: t2 - t0,
        list: t1 - t0,
        tree: t2 - t1,
        root: tRoot - t1,
        expandAll: t3 - t2,
        first: first || t1 - t0,
      };
    });
    await client.dispose();
    return { ...result, rows, allRows };
  },
};

/** Memory of a loaded catalog: what holding the models and the tree's root adds to the process. */
export const memoryTasks = {
  async memory(params: CatalogParams): Promise<Record<string, number>> {
    const { ModelsTreeProvider } = await import('../src/explorer/treeProvider.js');
    const { createClient } = await import('./client.js');
    const client = createClient(params.url, params.key);
    const view = () => ({ grouped: true, filter: undefined, clickable: true });
    const catalogOf = (models: unknown[]) => ({
      models,
      status: { kind: 'ready' },
      onDidChange: () => ({ dispose() {} }),
      onDidChangeStatus: () => ({ dispose() {} }),
    });
    // The empty catalog: the same code loaded and a connection open (one model fetched), no list held.
    const first = await client.getModel('gen/m-000000').catch(() => undefined);
    const empty = new ModelsTreeProvider(catalogOf([]) as never, view);
    empty.getChildren();
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        collectGarbage();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await settle();
    const before = { rss: rssMiB(), heap: process.memoryUsage().heapUsed / 2 ** 20 };
    const listed = await client.listModels();
    const provider = new ModelsTreeProvider(catalogOf(listed.models) as never, view);
    const roots = provider.getChildren();
    await settle();
    const after = { rss: rssMiB(), heap: process.memoryUsage().heapUsed / 2 ** 20 };
    if (listed.models.length !== params.expected) {
      throw new Error(`listModels returned ${listed.models.length} models, expected ${params.expected}`);
    }
    // Still referenced here, so the measurement above saw them alive.
    void [first, empty, roots.length, provider];
    await client.dispose();
    return {
      rssAddedMB: ((after.rss - before.rss) * 2 ** 20) / 1e6,
      heapAddedMB: ((after.heap - before.heap) * 2 ** 20) / 1e6,
      peakRssMiB: peakRssMiB(),
      emptyRssMiB: before.rss,
    };
  },
};

const SIZES = [1_000, 10_000, 100_000];
const PAGE_SIZES = [100, 1_000];
const RATIO_TARGET = 1.15;
/** list+normalize alone against raw, at 100k models. */
const LIST_RATIO_TARGET = 1.05;
/** Time to the first rows against the raw time to fetch and parse one page, at 100k models. */
const FIRST_ROWS_TARGET = 1.2;
const MEMORY_TARGET_MB = 60;
const E2E_100K_TARGET_MS = 2000;

function plan(quick: boolean, models: number): { warmup: number; runs: number } {
  if (models >= 100_000) {
    return quick ? { warmup: 1, runs: 2 } : { warmup: 1, runs: 3 };
  }
  if (models >= 10_000) {
    return quick ? { warmup: 1, runs: 3 } : { warmup: 2, runs: 6 };
  }
  // Tens of milliseconds: more runs, or the machine's noise is all one sees.
  return quick ? { warmup: 3, runs: 6 } : { warmup: 5, runs: 15 };
}

const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

export async function runCatalog(ctx: BenchContext): Promise<void> {
  const missed: string[] = [];
  for (const models of SIZES) {
    for (const pageSize of PAGE_SIZES) {
      const scenario = `Catalog ${label(models)} models, page ${pageSize}`;
      ctx.log(`${scenario}…`);
      // The server's default and maximum page size are both P, whatever `limit` the client asks for.
      const server = await startService('test/server/cli.ts', [
        '--models',
        String(models),
        '--page-size',
        String(pageSize),
        '--max-page-size',
        String(pageSize),
        '--quiet',
      ]);
      try {
        const params: CatalogParams = {
          url: server.url,
          key: Object.values(server.keys)[0],
          expected: models,
          ...plan(ctx.quick, models),
        };
        const { raw, client } = await abbaRounds(
          ctx,
          scenario,
          () => runWorker<SideSamples>('catalog', 'raw', params),
          () => runWorker<SideSamples>('catalog', 'client', params),
        );
        const c = summarize(client.times);
        const r = summarize(raw.times);
        const list = summarize(client.list as number[]);
        const tree = summarize(client.tree as number[]);
        const root = summarize(client.root as number[]);
        const expandAll = summarize(client.expandAll as number[]);
        const first = summarize(client.first as number[]);
        const rawFirst = summarize(raw.first as number[]);
        const ratio = c.median / r.median;
        const listRatio = list.median / r.median;
        const firstRatio = first.median / rawFirst.median;
        ctx.data[scenario] = { models, pageSize, raw, client, ratio, listRatio, firstRatio };
        const is100k = models === 100_000;
        ctx.rows.push(
          {
            scenario,
            metric: 'list+normalize+tree, median',
            value: formatSummary(c, 'ms'),
            floor: formatSummary(r, 'ms'),
            target: is100k ? `≤ ${E2E_100K_TARGET_MS} ms` : undefined,
            verdict: is100k ? verdict(c.median <= E2E_100K_TARGET_MS) : 'info',
          },
          {
            scenario,
            metric: 'ratio to raw',
            value: ratio.toFixed(2),
            target: `≤ ${RATIO_TARGET.toFixed(2)}`,
            verdict: verdict(ratio <= RATIO_TARGET),
          },
          {
            scenario,
            metric: 'list+normalize alone, ratio to raw',
            value: `${listRatio.toFixed(2)} (${list.median.toFixed(0)} ms)`,
            target: is100k ? `≤ ${LIST_RATIO_TARGET.toFixed(2)}` : undefined,
            verdict: is100k ? verdict(listRatio <= LIST_RATIO_TARGET) : 'info',
          },
          {
            scenario,
            metric: 'tree after load (root only) / every family expanded',
            value: `${tree.median.toFixed(0)} (${root.median.toFixed(0)}) ms, ${client.rows as number} rows / ${expandAll.median.toFixed(0)} ms, ${client.allRows as number} rows`,
            verdict: 'info',
          },
          {
            scenario,
            metric: 'first rows (no saved list), ratio to raw pages',
            value: `${firstRatio.toFixed(2)} (${first.median.toFixed(0)} ms)`,
            floor: `${rawFirst.median.toFixed(0)} ms`,
            target: is100k ? `≤ ${FIRST_ROWS_TARGET.toFixed(2)}` : undefined,
            verdict: is100k ? verdict(firstRatio <= FIRST_ROWS_TARGET) : 'info',
          },
          {
            scenario,
            metric: 'peak RSS',
            value: `${client.peakRssMiB.toFixed(0)} MiB`,
            floor: `${raw.peakRssMiB.toFixed(0)} MiB`,
            verdict: 'info',
          },
        );
        if (
          ratio > RATIO_TARGET ||
          (is100k && (c.median > E2E_100K_TARGET_MS || listRatio > LIST_RATIO_TARGET || firstRatio > FIRST_ROWS_TARGET))
        ) {
          missed.push(scenario);
        }
        if (is100k && pageSize === PAGE_SIZES[PAGE_SIZES.length - 1]) {
          await measureMemory(ctx, scenario, params);
        }
      } finally {
        await server.stop();
      }
    }
  }
  if (missed.length > 0 && ctx.profile) {
    await profileCatalog(ctx, missed);
  }
}

/**
 * What 100k models add to the process over an empty catalog: resident memory (the target) and live heap,
 * each measured in a fresh process after garbage collection, before and after the list is loaded and the
 * tree's root built; median of several processes.
 */
async function measureMemory(ctx: BenchContext, scenario: string, params: CatalogParams): Promise<void> {
  const processes = ctx.quick ? 3 : 5;
  const runs: Record<string, number>[] = [];
  for (let i = 0; i < processes; i++) {
    ctx.log(`${scenario}: memory, process ${i + 1}/${processes}…`);
    runs.push(await runWorker<Record<string, number>>('catalogMemory', 'memory', params));
  }
  const rss = summarize(runs.map((r) => r.rssAddedMB));
  const heap = summarize(runs.map((r) => r.heapAddedMB));
  const empty = summarize(runs.map((r) => r.emptyRssMiB));
  ctx.data[`${scenario} memory`] = runs;
  ctx.rows.push(
    {
      scenario,
      metric: 'RSS added by the loaded catalog (over an empty one)',
      value: formatSummary(rss, 'MB', 1),
      floor: `empty: ${formatSummary(empty, 'MiB')}`,
      target: `≤ ${MEMORY_TARGET_MB} MB`,
      verdict: verdict(rss.median <= MEMORY_TARGET_MB),
    },
    { scenario, metric: 'live heap added by the loaded catalog', value: formatSummary(heap, 'MB', 1), verdict: 'info' },
    {
      scenario,
      metric: 'peak RSS while loading, over the empty catalog',
      value: formatSummary(summarize(runs.map((r) => ((r.peakRssMiB - r.emptyRssMiB) * 2 ** 20) / 1e6)), 'MB', 1),
      verdict: 'info',
    },
  );
  if (rss.median > MEMORY_TARGET_MB) {
    ctx.notes.push(
      `Memory: 100k models add ${rss.median.toFixed(1)} MB of RSS (target ≤ ${MEMORY_TARGET_MB} MB), of which ${heap.median.toFixed(1)} MB live heap.`,
    );
  }
}

/** Where a catalog target is missed: one profiled client run of the largest case, summarised by self time. */
async function profileCatalog(ctx: BenchContext, missed: string[]): Promise<void> {
  const models = SIZES[SIZES.length - 1];
  const pageSize = PAGE_SIZES[PAGE_SIZES.length - 1];
  ctx.log(`profiling the client side of catalog ${label(models)} / page ${pageSize} (node --cpu-prof)…`);
  const server = await startService('test/server/cli.ts', [
    '--models',
    String(models),
    '--page-size',
    String(pageSize),
    '--max-page-size',
    String(pageSize),
    '--quiet',
  ]);
  const dir = path.join(ctx.outDir, `catalog-profile-${Date.now()}`);
  try {
    const params: CatalogParams = {
      url: server.url,
      key: Object.values(server.keys)[0],
      expected: models,
      warmup: 1,
      runs: 2,
    };
    await runWorker<SideSamples>('catalog', 'client', params, { cpuProfDir: dir });
  } finally {
    await server.stop();
  }
  const summary = profileSummary(dir, 14);
  ctx.data.catalogProfile = { missed, ...summary };
  ctx.notes.push(
    `Catalog targets missed in: ${missed.join('; ')}.\n` +
      `CPU profile of the client side (${label(models)} models, page ${pageSize}; warm-up + 2 runs; ${summary.file}), self time by function:\n${summary.text}`,
  );
}
