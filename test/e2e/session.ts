// One shared UI session for every e2e step file (loaded first through .mocharc.json `file`):
// packages the VSIX (or takes $MODEL_ACCESS_VSIX), starts the local Model Access Service, installs the VSIX
// into a fresh code-server (a newcomer's profile: no service URL, no key) and opens the workbench in
// headless Chromium (1280×800). Step files import `e2e` and drive `e2e.page` as a person would; the first
// one (05-walkthrough) sets the service URL through the walkthrough, and later ones rely on it.
// Root hooks: a screenshot of every failed step goes to test-results/, and everything is stopped at the end.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  REPO_ROOT,
  installExtensions,
  launchChromium,
  makeScratchDirs,
  startCodeServer,
  type CodeServer,
  type ScratchDirs,
} from '../harness/codeServer';
import { onInterrupt, stopAllGroups } from '../harness/processes';
import { startServer, type RunningServer } from '../server';
import { RESULTS_DIR, screenshot, waitForWorkbench } from './helpers';

/** Model Card URLs are served by this fake origin: the browser never leaves the machine. */
export const CARDS_ORIGIN = 'https://cards.example';

export interface E2ESession {
  page: Page;
  context: BrowserContext;
  browser: Browser;
  codeServer: CodeServer;
  /** The local Model Access Service (`service.url`, `service.keys`, `service.registry`, `service.requests`). */
  service: RunningServer;
  /** The first organization's key (what a person would paste into "Set API Key"). */
  demoKey: string;
  dirs: ScratchDirs;
  vsix: string;
  /** Every https://cards.example/** URL the browser tried to open (routed to a stub page), in order. */
  openedCardUrls: string[];
}

let current: E2ESession | undefined;
/** What the before-all hook started so far, so `after` stops it even when setup failed half way. */
const started: { service?: RunningServer; browser?: Browser } = {};

/** The running session; only valid inside steps (after the root before-all hook). */
export const e2e: E2ESession = new Proxy({} as E2ESession, {
  get(_target, prop) {
    if (!current) {
      throw new Error('the e2e session is not started (use e2e.* inside it()/before() only)');
    }
    return current[prop as keyof E2ESession];
  },
});

function log(msg: string): void {
  console.log(`      [e2e] ${msg}`);
}

/** Builds the production VSIX with `npm run package` unless $MODEL_ACCESS_VSIX names one. */
function packageVsix(): string {
  const given = process.env.MODEL_ACCESS_VSIX;
  if (given) {
    if (!fs.existsSync(given)) {
      throw new Error(`MODEL_ACCESS_VSIX=${given} does not exist`);
    }
    return path.resolve(given);
  }
  const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 300_000 });
  const vsix = path.join(REPO_ROOT, `model-access-${version}.vsix`);
  if (r.status !== 0 || !fs.existsSync(vsix)) {
    throw new Error(`npm run package failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return vsix;
}

/** Packages the exports-probe fixture (another extension that asks Model Access for its exports). */
function packageProbe(dirs: ScratchDirs): string {
  const src = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'exports-probe');
  const work = path.join(dirs.root, 'exports-probe');
  fs.cpSync(src, work, { recursive: true });
  const out = path.join(dirs.root, 'exports-probe.vsix');
  const vsce = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
  const r = spawnSync(
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out],
    { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
  if (r.status !== 0 || !fs.existsSync(out)) {
    throw new Error(`packaging the exports probe failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return out;
}

before(async function () {
  this.timeout(600_000);
  const t0 = Date.now();
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const vsix = packageVsix();
  log(`VSIX ${path.relative(REPO_ROOT, vsix)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  onInterrupt(closeStarted);
  const service = await startServer();
  started.service = service;
  const demoKey = Object.values(service.keys)[0];
  const dirs = makeScratchDirs('model-access-e2e');
  installExtensions(dirs, [vsix, packageProbe(dirs)]);
  // Steps read a Chat or Responses answer as its document; 53-conversation-panel turns the panel (the
  // default a person gets) on for its own rounds.
  const codeServer = await startCodeServer({
    dirs,
    trustedDomains: [CARDS_ORIGIN],
    userSettings: { 'modelAccess.answers.openAs': 'text' },
  });
  log(`service ${service.url}, code-server ${codeServer.url} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  const browser = await launchChromium(dirs);
  started.browser = browser;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const openedCardUrls: string[] = [];
  await context.route(`${CARDS_ORIGIN}/**`, async (route) => {
    openedCardUrls.push(route.request().url());
    await route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>Model Card</title><h1>Model Card</h1>',
    });
  });
  const page = await context.newPage();
  // A Model Card opens in a new tab, as in a browser. Left open, that tab stays in front and Chromium stops
  // painting the workbench behind it: every later action waits about 2 s for an animation frame to find its
  // target stable. The card's address is recorded by the route above; the tab is closed once it has loaded.
  context.on('page', (opened) => {
    if (opened === page) {
      return;
    }
    void opened
      .waitForLoadState('domcontentloaded', { timeout: 15_000 })
      .catch(() => undefined)
      .then(() => opened.close())
      .then(() => page.bringToFront())
      .catch(() => undefined);
  });
  await page.goto(codeServer.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await waitForWorkbench(page);
  current = { page, context, browser, codeServer, service, demoKey, dirs, vsix, openedCardUrls };
  log(`workbench ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
});

afterEach(async function () {
  const test = this.currentTest;
  if (current && test?.state === 'failed') {
    const name = `e2e-failed-${test
      .fullTitle()
      .replace(/[^a-z0-9]+/gi, '-')
      .toLowerCase()
      .slice(0, 80)}`;
    const file = await screenshot(current.page, name).catch(() => undefined);
    if (file) {
      log(`screenshot of the failure: ${path.relative(REPO_ROOT, file)}`);
    }
  }
});

after(async function () {
  this.timeout(60_000);
  const s = current;
  current = undefined;
  await closeStarted();
  await stopAllGroups();
  const failed = this.test?.parent?.suites.some(hasFailure) ?? false;
  if (s && !failed && !process.env.MODEL_ACCESS_KEEP) {
    fs.rmSync(s.dirs.root, { recursive: true, force: true });
  } else if (s) {
    log(`scratch folder (profile, logs) kept: ${s.dirs.root}`);
  }
});

async function closeStarted(): Promise<void> {
  const { browser, service } = started;
  started.browser = undefined;
  started.service = undefined;
  await browser?.close().catch(() => undefined);
  await service?.close().catch(() => undefined);
}

function hasFailure(suite: Mocha.Suite): boolean {
  return suite.tests.some((t) => t.state === 'failed') || suite.suites.some(hasFailure);
}
