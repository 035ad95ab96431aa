/**
 * Footprint: the production bundle (dist/extension.js) and VSIX sizes, built in a scratch copy so the
 * working tree's dist/ is left alone; then `activate()` duration inside code-server's extension host
 * (a fresh host per run) with no network during activation, and the time from opening the Models view to
 * its first rows, measured in the page as a person would see it: on a 30-model registry, and on a 100,000-model
 * one with the list a previous window saved (the same browser profile, so the same secret storage).
 * code-server, Chromium and the workbench helpers are the test harness's (test/harness, test/e2e); the builds are
 * bench/stage.ts's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, makeScratchDirs, startCodeServer, type CodeServer } from '../test/harness/codeServer';
import { waitFor } from '../test/harness/processes';
import { activityBarEntry, waitForWorkbench } from '../test/e2e/helpers';
import { startServer, type RunningServer } from '../test/server/index';
import type { BenchContext } from './context';
import type { ActivationProbe } from './host/probe';
import { REPO_ROOT } from './proc';
import { buildProbe, stageExtension } from './stage';
import { activationProfileSummary } from './profile';
import { formatSummary, summarize } from './stats';
import { verdict } from './table';

/**
 * Issue 48's target. Leaving out the undici code the client never reaches brought the VSIX from 366 to 317 KB
 * (docs/benchmarks.md, "Round three"); what is left above 300 KB is said there.
 */
const SIZE_TARGET_KB = 300;
const ACTIVATE_TARGET_MS = 20;
const WARM_100K_TARGET_MS = 100;
const EXTENSION_ID = 'model-access-team.model-access';
const WINDOWS = 20;
/** Windows of this tree whose activation is profiled (after the timed ones, which run without a profiler). */
const PROFILED_WINDOWS = 2;
interface Cycle {
  probe: ActivationProbe;
  viewMs: number;
  requestsDuringActivation: number;
  requestsBeforeView: number;
}

/**
 * Marks the first mousedown and the first row of the list in the Models view, with the page's clock: a model
 * (`gen/…`) or a family (a row that expands; large lists start with their families collapsed).
 */
const PAGE_PROBE = `(() => {
  const state = {};
  window.__bench = state;
  document.addEventListener('mousedown', () => { if (state.click === undefined) state.click = performance.now(); }, { capture: true });
  const rows = '[id="workbench.view.extension.modelAccess"] .monaco-list-row';
  const found = () => Array.from(document.querySelectorAll(rows + ' .label-name'))
    .some((el) => (el.textContent || '').startsWith('gen/')) || document.querySelector(rows + ' .monaco-tl-twistie.collapsible') !== null;
  const observer = new MutationObserver(() => {
    if (state.click !== undefined && state.rows === undefined && found()) {
      state.rows = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
})()`;

declare const window: { __bench?: { click?: number; rows?: number } } & Record<string, unknown>;

/** One fresh window (so a fresh extension host): activation by the probe, then the Models view opened by a click. */
async function cycle(
  browser: Browser,
  cs: CodeServer,
  server: RunningServer,
  stage: string,
  probeEntry: string,
  outDir: string,
  workspace: string,
  options: { newPage?: () => Promise<Page>; afterRows?: () => Promise<void>; activationOnly?: boolean } = {},
): Promise<Cycle> {
  const activationFile = path.join(outDir, 'activation.json');
  const release = path.join(outDir, 'release');
  fs.rmSync(activationFile, { force: true });
  fs.rmSync(release, { force: true });
  fs.mkdirSync(workspace, { recursive: true });
  const page = await (options.newPage?.() ?? browser.newPage({ viewport: { width: 1280, height: 800 } }));
  try {
    await page.goto(
      cs.workbenchUrl({
        folder: workspace,
        payload: [
          ['extensionDevelopmentPath', cs.remoteUri(stage)],
          ['extensionTestsPath', cs.remoteUri(probeEntry.replace(/\.js$/, ''))],
        ],
      }),
      { waitUntil: 'domcontentloaded', timeout: 60_000 },
    );
    const probe = await waitFor<ActivationProbe>(
      'the activation probe',
      120_000,
      () =>
        fs.existsSync(activationFile)
          ? (JSON.parse(fs.readFileSync(activationFile, 'utf8')) as ActivationProbe)
          : undefined,
      100,
    );
    if (probe.error) {
      throw new Error(`activation failed: ${probe.error}`);
    }
    if (options.activationOnly) {
      const during = server.requests.filter(
        (r) => r.url.includes('/v1/') && r.startedAt >= probe.startedAt && r.startedAt <= probe.endedAt,
      );
      return { probe, viewMs: Number.NaN, requestsDuringActivation: during.length, requestsBeforeView: Number.NaN };
    }
    await waitForWorkbench(page);
    // A string, not a function: the page must not see the TypeScript loader's helpers.
    await page.evaluate(PAGE_PROBE);
    const clickedAt = Date.now();
    await activityBarEntry(page).click();
    try {
      await page.waitForFunction(() => window.__bench?.rows !== undefined, null, { timeout: 60_000 });
    } catch (e) {
      const shot = path.join(REPO_ROOT, 'bench', 'results', 'footprint-failure.png');
      await page.screenshot({ path: shot }).catch(() => undefined);
      const text = await page
        .locator('[id="workbench.view.extension.modelAccess"]')
        .innerText({ timeout: 2000 })
        .catch(() => '(no Models view)');
      throw new Error(
        `no model rows appeared after opening the Models view (view text: ${JSON.stringify(text.slice(0, 300))}); ${String(e)}`,
      );
    }
    const times = (await page.evaluate(() => window.__bench)) as { click: number; rows: number };
    await options.afterRows?.();
    const listing = server.requests.filter((r) => r.url.includes('/v1/'));
    return {
      probe,
      viewMs: times.rows - times.click,
      requestsDuringActivation: listing.filter((r) => r.startedAt >= probe.startedAt && r.startedAt <= probe.endedAt)
        .length,
      requestsBeforeView: listing.filter((r) => r.startedAt >= probe.startedAt && r.startedAt < clickedAt).length,
    };
  } finally {
    fs.writeFileSync(release, '');
    await page.close().catch(() => undefined);
  }
}

export async function runFootprint(ctx: BenchContext): Promise<void> {
  const scenario = 'Footprint';
  ctx.log(`${scenario}: production bundle and VSIX…`);
  const sizes = stageExtension();
  try {
    const kb = (b: number) => b / 1024;
    ctx.data.footprintSizes = { distBytes: sizes.distBytes, vsixBytes: sizes.vsixBytes, vsixError: sizes.vsixError };
    ctx.rows.push(
      {
        scenario,
        metric: 'dist/extension.js (production)',
        value: `${kb(sizes.distBytes).toFixed(1)} KB`,
        verdict: 'info',
      },
      Number.isFinite(sizes.vsixBytes)
        ? {
            scenario,
            metric: 'VSIX',
            value: `${kb(sizes.vsixBytes).toFixed(1)} KB`,
            target: `≤ ${SIZE_TARGET_KB} KB`,
            verdict: verdict(kb(sizes.vsixBytes) <= SIZE_TARGET_KB),
          }
        : { scenario, metric: 'VSIX', value: 'vsce package failed', target: `≤ ${SIZE_TARGET_KB} KB`, verdict: 'n/a' },
    );
    if (sizes.vsixError) {
      ctx.notes.push(`vsce package failed: ${sizes.vsixError}`);
    }
    // The same tree as one bundle (esbuild.js --one-bundle), in the same windows: what loading on first use saves.
    const single = stageExtension(REPO_ROOT, true);
    const other = ctx.compareWith ? stageExtension(ctx.compareWith) : undefined;
    const variants: Variant[] = [
      { label: 'one bundle (esbuild.js --one-bundle)', stage: single.stage, key: 'oneBundle' },
    ];
    try {
      ctx.rows.push({
        scenario,
        metric: 'dist/extension.js, one bundle (production)',
        value: `${kb(single.distBytes).toFixed(1)} KB (${(kb(single.distBytes) - kb(sizes.distBytes)).toFixed(1)} KB more loaded at activation)`,
        verdict: 'info',
      });
      ctx.data.footprintOneBundleSizes = { distBytes: single.distBytes };
      if (other) {
        ctx.rows.push({
          scenario,
          metric: `dist/extension.js of ${ctx.compareWith} (compared)`,
          value: `${kb(other.distBytes).toFixed(1)} KB`,
          verdict: 'info',
        });
        ctx.rows.push({
          scenario,
          metric: `VSIX of ${ctx.compareWith} (compared)`,
          value: `${kb(other.vsixBytes).toFixed(1)} KB`,
          verdict: 'info',
        });
        variants.push({ label: `${ctx.compareWith} (compared)`, stage: other.stage, key: 'compared' });
      }
      await measureInCodeServer(ctx, scenario, sizes.stage, variants);
      if (ctx.savedList) {
        await measureSavedList(ctx, scenario, sizes.stage);
      }
    } finally {
      for (const v of [single, other]) {
        if (v) {
          fs.rmSync(v.stage, { recursive: true, force: true });
        }
      }
    }
  } finally {
    fs.rmSync(sizes.stage, { recursive: true, force: true });
  }
}

/** Another build measured in the same windows as this tree's. */
interface Variant {
  label: string;
  stage: string;
  /** Where its cycles go in the JSON result (`footprintVariants.<key>`). */
  key: string;
}

/**
 * Windows of `stage`, and of each variant (one bundle; `--compare-with`'s build) alternating with them in the
 * same code-server (the order turns each round: A B C, B C A, …), so every build meets the same load.
 */
async function measureInCodeServer(
  ctx: BenchContext,
  scenario: string,
  stage: string,
  variants: Variant[],
): Promise<void> {
  const builds = [{ label: 'this tree', stage, key: 'this' }, ...variants].map((b) => ({
    ...b,
    probe: buildProbe(b.stage),
    cycles: [] as Cycle[],
  }));
  const server = await startServer({ models: 30 });
  const dirs = makeScratchDirs('model-access-bench');
  const outDir = path.join(dirs.root, 'probe-out');
  fs.mkdirSync(outDir);
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    ctx.log(`${scenario}: starting code-server…`);
    cs = await startCodeServer({
      dirs,
      smokeTestDriver: true,
      env: {
        MODEL_ACCESS_BASE_URL: server.url,
        MODEL_ACCESS_API_KEY: Object.values(server.keys)[0],
        MODEL_ACCESS_BENCH_OUT: outDir,
      },
    });
    browser = await launchChromium(dirs);
    const warmup = 1;
    // The activate() target is a median over at least 20 windows; --quick shows the trend with fewer.
    const runs = ctx.windows ?? (ctx.quick ? 8 : WINDOWS);
    for (let i = 0; i < warmup + runs; i++) {
      ctx.log(`${scenario}: window ${i + 1}/${warmup + runs}${i < warmup ? ' (warm-up)' : ''}…`);
      const order = builds.map((_, k) => builds[(k + i) % builds.length]);
      for (const b of order) {
        const c = await cycle(
          browser,
          cs,
          server,
          b.stage,
          b.probe,
          outDir,
          path.join(dirs.root, `workspace-${b.key}-${i}`),
          { activationOnly: !ctx.modelsView },
        );
        if (i >= warmup) {
          b.cycles.push(c);
        }
      }
    }
    const [self, ...others] = builds;
    if (ctx.profile) {
      await profileActivation(
        ctx,
        scenario,
        (i) =>
          cycle(
            browser as Browser,
            cs as CodeServer,
            server,
            self.stage,
            self.probe,
            outDir,
            path.join(dirs.root, `workspace-profiled-${i}`),
            { activationOnly: true },
          ),
        outDir,
      );
    }
    const cycles = self.cycles;
    ctx.data.footprintVariants = Object.fromEntries(others.map((b) => [b.key, { label: b.label, cycles: b.cycles }]));
    // A window whose extension something else activated first (VS Code asking the chat provider for its models
    // at startup) has no activation left to time: its ~0 ms is left out, and counted.
    const timed = (cs: Cycle[]) => {
      const kept = cs.filter((c) => !c.probe.wasActive);
      const skipped = cs.length - kept.length;
      return { s: summarize(kept.map((c) => c.probe.activateMs)), note: skipped ? `; ${skipped} already active` : '' };
    };
    const firstCommand = (cs: Cycle[]) =>
      summarize(cs.map((c) => c.probe.firstCommandMs ?? Number.NaN).filter(Number.isFinite));
    for (const b of others) {
      ctx.rows.push(
        {
          scenario,
          metric: `activate() of ${b.label} (same windows)`,
          value: `${formatSummary(timed(b.cycles).s, 'ms', 1)}${timed(b.cycles).note}`,
          verdict: 'info',
        },
        {
          scenario,
          metric: `first requests command of ${b.label}`,
          value: formatSummary(firstCommand(b.cycles), 'ms', 1),
          verdict: 'info',
        },
      );
    }
    const { s: activate, note: alreadyActive } = timed(cycles);
    const mainLoad = summarize(
      cycles
        .map((c) => c.probe.loaded.find((l) => l.file === 'extension.js')?.ms ?? Number.NaN)
        .filter(Number.isFinite),
    );
    const own = summarize(cycles.map((c) => c.probe.ownActivateMs ?? Number.NaN).filter(Number.isFinite));
    const bundles = [...new Set(cycles.flatMap((c) => c.probe.loaded.map((l) => l.file)))].sort();
    const byCommand = [...new Set(cycles.flatMap((c) => (c.probe.loadedByCommand ?? []).map((l) => l.file)))].sort();
    const view = summarize(cycles.map((c) => c.viewMs));
    const during = Math.max(...cycles.map((c) => c.requestsDuringActivation));
    const before = Math.max(...cycles.map((c) => c.requestsBeforeView));
    ctx.data.footprintCodeServer = { cycles };
    ctx.rows.push(
      {
        scenario,
        metric: 'activate() in code-server ext host',
        value: `${formatSummary(activate, 'ms', 1)}${alreadyActive}`,
        verdict: 'info',
      },
      {
        scenario,
        metric: '… of which loading dist/extension.js',
        value:
          mainLoad.n > 0 ? formatSummary(mainLoad, 'ms', 1) : 'not seen (the host did not load it through require)',
        verdict: 'info',
      },
      {
        scenario,
        // Issue 48's target is the extension's own work; loading the bundle and the host's part are beside it.
        metric: "… of which the extension's activate() function",
        value: own.n > 0 ? formatSummary(own, 'ms', 1) : 'not seen',
        target: `≤ ${ACTIVATE_TARGET_MS} ms, median of ≥ ${WINDOWS} windows`,
        verdict: own.n < WINDOWS ? 'n/a' : verdict(own.median <= ACTIVATE_TARGET_MS),
      },
      {
        scenario,
        metric: 'files of dist/ loaded by activate()',
        value: bundles.join(', ') || '(none seen)',
        target: 'extension.js',
        verdict: bundles.length === 0 ? 'n/a' : verdict(bundles.length === 1 && bundles[0] === 'extension.js'),
      },
      {
        scenario,
        metric: 'first requests command (Toggle Response Headers, nothing open)',
        value: `${formatSummary(firstCommand(cycles), 'ms', 1)}; loads ${byCommand.join(', ') || 'nothing'}`,
        verdict: 'info',
      },
      {
        scenario,
        metric: 'requests during activation',
        value: `${during} (before the view opens: ${before})`,
        target: '0',
        verdict: verdict(during === 0),
      },
      {
        scenario,
        metric: 'Models view click → first model rows (30 models)',
        value: formatSummary(view, 'ms', 0),
        verdict: 'info',
      },
    );
    if (!(own.median <= ACTIVATE_TARGET_MS)) {
      ctx.notes.push(
        `activate() took ${activate.median.toFixed(1)} ms (median of ${activate.n} windows, min ${activate.min.toFixed(1)}); the target, ≤ ${ACTIVATE_TARGET_MS} ms, is the extension's own part. Where it goes (medians): loading dist/extension.js ${mainLoad.n > 0 ? `${mainLoad.median.toFixed(1)} ms` : 'not timed'}, the extension's activate() function ${own.n > 0 ? `${own.median.toFixed(1)} ms` : 'not timed'}, the rest is the extension host's own work (the extension's context, storage, the activation event).`,
      );
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await server.close();
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
}

/** Where activation's time goes: a CPU profile of `activate()` in a few more windows (the probe's profiler). */
async function profileActivation(
  ctx: BenchContext,
  scenario: string,
  window: (i: number) => Promise<Cycle>,
  outDir: string,
): Promise<void> {
  const dir = path.join(ctx.outDir, `activation-profile-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'profile'), '');
  try {
    for (let i = 0; i < PROFILED_WINDOWS; i++) {
      ctx.log(`${scenario}: profiled window ${i + 1}/${PROFILED_WINDOWS}…`);
      await window(i);
    }
  } finally {
    fs.rmSync(path.join(outDir, 'profile'), { force: true });
  }
  for (const f of fs.readdirSync(outDir).filter((f) => f.endsWith('.cpuprofile'))) {
    fs.renameSync(path.join(outDir, f), path.join(dir, f));
  }
  const summary = activationProfileSummary(dir, 16);
  ctx.data.activationProfile = summary;
  ctx.notes.push(`CPU profile of activate() in the extension host (${summary.file}):\n${summary.text}`);
}

/**
 * Models view click → first rows at 100,000 models with the list saved by an earlier window: one window loads
 * the list from the service (and saves it), then each window opens in the same browser profile (the salt of
 * the saved list's fingerprint is in its secret storage) while the service is slow to answer.
 */
async function measureSavedList(ctx: BenchContext, scenario: string, stage: string): Promise<void> {
  const probeEntry = buildProbe(stage);
  const models = 100_000;
  const server = await startServer({ models, pageSize: 1000 });
  const dirs = makeScratchDirs('model-access-bench-saved');
  const outDir = path.join(dirs.root, 'probe-out');
  fs.mkdirSync(outDir);
  const storage = path.join(dirs.data, 'User', 'globalStorage', EXTENSION_ID);
  const savedFile = () =>
    fs.existsSync(storage) ? fs.readdirSync(storage).find((f) => /^models-.*\.json$/.test(f)) : undefined;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    ctx.log(`${scenario}: code-server with ${models} models, saved list…`);
    cs = await startCodeServer({
      dirs,
      smokeTestDriver: true,
      env: {
        MODEL_ACCESS_BASE_URL: server.url,
        MODEL_ACCESS_API_KEY: Object.values(server.keys)[0],
        MODEL_ACCESS_BENCH_OUT: outDir,
      },
    });
    browser = await launchChromium(dirs);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const newPage = () => context.newPage();
    ctx.log(`${scenario}: first window loads and saves the list…`);
    await cycle(browser, cs, server, stage, probeEntry, outDir, path.join(dirs.root, 'workspace-load'), {
      newPage,
      afterRows: () => waitFor('the saved list', 180_000, () => savedFile(), 200).then(() => undefined),
    });
    // The service answers late from now on: the rows measured are the saved list's.
    server.setFaults({ latencyMs: 10_000, paths: ['/v1/models'] });
    const runs = ctx.quick ? 3 : 5;
    const cycles: Cycle[] = [];
    for (let i = 0; i < runs; i++) {
      ctx.log(`${scenario}: window ${i + 1}/${runs} with the saved list…`);
      cycles.push(
        await cycle(browser, cs, server, stage, probeEntry, outDir, path.join(dirs.root, `workspace-saved-${i}`), {
          newPage,
        }),
      );
    }
    const view = summarize(cycles.map((c) => c.viewMs));
    ctx.data.footprintSavedList = { models, cycles };
    ctx.rows.push({
      scenario,
      metric: 'Models view click → first rows (100k models, saved list)',
      value: formatSummary(view, 'ms', 0),
      target: `≤ ${WARM_100K_TARGET_MS} ms`,
      verdict: verdict(view.median <= WARM_100K_TARGET_MS),
    });
  } finally {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await server.close();
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
}
