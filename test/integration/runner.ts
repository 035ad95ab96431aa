// Offline integration runner (`npm run test:integration`): builds the extension and the suite, starts
// code-server (a real VS Code: 1.139 by default, or an older one we claim to support) with the smoke-test driver, opens the workbench in headless Chromium
// with a payload that loads this repo as the extension under development and out/integration/index.js as
// the test entry, then waits for the results JSON written by that entry.
// Two windows, one after the other: a trusted one for the whole suite, then one with workspace trust on and
// the folder untrusted (Restricted Mode) for the suites titled "Restricted Mode" (they skip themselves in a
// trusted window). The second is left out when --grep cannot match "Restricted Mode".
// Exits non-zero on any failure, on zero tests executed, or without a result before the deadline.
// Every process group it starts is stopped in all cases (also on Ctrl+C).
//
// Options: --vscode <ver>   VS Code version: 1.139 (default), 1.104 (the oldest in package.json engines),
//                           newest, oldest (see scripts/setup-vscode.js); or env MODEL_ACCESS_VSCODE
//          --grep <regex>   only tests whose full title matches
//          --compat         only the compatibility suites (COMPAT_SUITES below): what `npm test` runs on the
//                           older VS Code it supports, beside the whole suite on the newest
//          --no-build       skip `node esbuild.js --tests`
//          --keep           keep the scratch folder (profile, logs) for inspection
//          --headed         show the browser (needs a display)
// Env:     MODEL_ACCESS_IT_DEADLINE_S   seconds to wait for results (default 600)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { resolveVSCodeVersion, VSCODE_VERSIONS } from '../../scripts/setup-vscode';
import { REPO_ROOT, launchChromium, makeScratchDirs, startCodeServer, type CodeServer } from '../harness/codeServer';
import { onInterrupt, stopAllGroups, waitFor } from '../harness/processes';
import type { IntegrationResults } from './index';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const DEADLINE_S = Number(process.env.MODEL_ACCESS_IT_DEADLINE_S) || 600;
const VSCODE = resolveVSCodeVersion(option('--vscode'));
const RESULTS_COPY = path.join(REPO_ROOT, 'test-results', `integration-results-${VSCODE}.json`);

function log(msg: string): void {
  console.log(`[integration] ${msg}`);
}

/** The suites that need an untrusted window (see test/integration/restricted.test.ts). */
const RESTRICTED_SUITE = 'Restricted Mode';

/**
 * The suites run on an older VS Code by `npm test`: those whose behaviour rests on VS Code APIs that change
 * between versions (activation and contributions, every command from the palette, the tree view, the
 * language-model chat provider, the testing API, workspace trust, webview answers). The rest exercises the
 * extension's own logic (keys, networks, environments, settings) through the same APIs on the same Node.js
 * (scripts/setup-vscode.js: both tested versions ship Node 24), so running it twice cost five minutes of
 * `npm test` and found nothing new. `npm run test:integration -- --vscode 1.135` runs everything there.
 */
const COMPAT_SUITES = [
  'extension',
  'Commands from the palette',
  'Models explorer',
  'Chat models',
  'Checks',
  RESTRICTED_SUITE,
  'Answers: rendered or as text',
];
/** Matches the full title of a test in one of COMPAT_SUITES (a suite's title starts the full title). */
const COMPAT_GREP = `^(?:${COMPAT_SUITES.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`;

async function main(): Promise<number> {
  const started = Date.now();
  const asked = option('--grep');
  const grep = flag('--compat') ? (asked ? `^(?=${COMPAT_GREP})(?=.*(?:${asked}))` : COMPAT_GREP) : asked;
  if (!flag('--no-build')) {
    const build = spawnSync(process.execPath, ['esbuild.js', '--tests'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (build.status !== 0) {
      log('build failed');
      return 1;
    }
  }
  const entry = path.join(REPO_ROOT, 'out', 'integration', 'index.js');
  if (!fs.existsSync(entry)) {
    log(`${entry} is missing (build with: node esbuild.js --tests)`);
    return 1;
  }
  const passes: Array<{ untrusted: boolean; grep?: string }> = [{ untrusted: false, grep }];
  if (!grep || new RegExp(grep).test(RESTRICTED_SUITE)) {
    // Only the Restricted Mode suites there, narrowed by --grep when given (both must match).
    passes.push({ untrusted: true, grep: grep ? `^(?=.*${RESTRICTED_SUITE})(?=.*(?:${grep}))` : RESTRICTED_SUITE });
  }
  const total: IntegrationResults = {
    passes: 0,
    failures: 0,
    pending: 0,
    total: 0,
    durationMs: 0,
    passed: [],
    failed: [],
  };
  for (const pass of passes) {
    const results = await runWindow(entry, pass.untrusted, pass.grep);
    if (!results) {
      return 1;
    }
    for (const key of ['passes', 'failures', 'pending', 'total', 'durationMs'] as const) {
      total[key] += results[key];
    }
    total.passed.push(...results.passed);
    total.failed.push(...results.failed);
  }
  fs.mkdirSync(path.dirname(RESULTS_COPY), { recursive: true });
  fs.writeFileSync(RESULTS_COPY, JSON.stringify(total, null, 2));
  log(
    `integration: ${total.passes} passed, ${total.failures} failed, ${total.pending} pending in ${secondsSince(started)} s (VS Code ${VSCODE}${flag('--compat') ? ', compatibility suites' : ''}${passes.length > 1 ? `, ${passes.length} windows` : ''})`,
  );
  if (total.failures > 0) {
    return 1;
  }
  if (total.passes === 0) {
    log('FAILED: zero integration tests were executed');
    return 1;
  }
  return 0;
}

/**
 * One code-server + one workbench window running the suite; its results, or undefined when the window
 * failed (its failures are printed, with the logs, before it is closed).
 */
async function runWindow(
  entry: string,
  untrusted: boolean,
  grep: string | undefined,
): Promise<IntegrationResults | undefined> {
  const started = Date.now();
  const window = untrusted ? 'untrusted window (Restricted Mode)' : 'trusted window';

  const dirs = makeScratchDirs('model-access-it');
  const resultsFile = path.join(dirs.root, 'results.json');
  const logFile = `${resultsFile}.log`;
  const consoleLines: string[] = [];
  const serverLines: string[] = [];
  let browser: Browser | undefined;
  let codeServer: CodeServer | undefined;
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await stopAllGroups();
  };
  onInterrupt(cleanup);

  let exitCode = 1;
  let outcome: IntegrationResults | undefined;
  let extensionHostExitedAt: number | undefined;
  try {
    log(`VS Code ${VSCODE} (code-server ${VSCODE_VERSIONS[VSCODE].codeServer})`);
    codeServer = await startCodeServer({
      dirs,
      vscodeVersion: VSCODE,
      smokeTestDriver: true,
      untrustedWorkspace: untrusted,
      trustedDomains: ['https://cards.example'],
      env: {
        MODEL_ACCESS_TEST_RESULTS: resultsFile,
        ...(grep ? { MODEL_ACCESS_TEST_GREP: grep } : {}),
      },
      onLine: (line) => {
        serverLines.push(line);
        if (/Extension Host Process exited/.test(line)) {
          extensionHostExitedAt ??= Date.now();
        }
      },
    });
    log(`${window}: code-server ${codeServer.url} ready after ${secondsSince(started)} s`);

    browser = await launchChromium(dirs, { headless: !flag('--headed') });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (msg) => consoleLines.push(`[${msg.type()}] ${msg.text()}`));
    page.on('pageerror', (err) => consoleLines.push(`[pageerror] ${err.message}`));
    const url = codeServer.workbenchUrl({
      payload: [
        ['extensionDevelopmentPath', codeServer.remoteUri(REPO_ROOT)],
        ['extensionTestsPath', codeServer.remoteUri(entry.replace(/\.js$/, ''))],
      ],
    });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });

    // Stream the suite's own log while waiting for the results file.
    let printed = 0;
    const pump = () => {
      if (!fs.existsSync(logFile)) {
        return;
      }
      const text = fs.readFileSync(logFile, 'utf8');
      if (text.length > printed) {
        process.stdout.write(text.slice(printed));
        printed = text.length;
      }
    };
    const results = await waitFor<IntegrationResults>(
      'the integration results file',
      DEADLINE_S * 1000,
      () => {
        pump();
        if (!fs.existsSync(resultsFile)) {
          // The entry's run() rejected or crashed before writing results: do not wait for the deadline.
          if (extensionHostExitedAt !== undefined && Date.now() - extensionHostExitedAt > 10_000) {
            throw new Error('the extension host exited without writing results (see the logs below)');
          }
          return undefined;
        }
        try {
          return JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as IntegrationResults;
        } catch {
          return undefined; // Being written.
        }
      },
      500,
    );
    pump();
    log(
      `${window}: ${results.passes} passed, ${results.failures} failed, ${results.pending} pending in ${secondsSince(started)} s (VS Code ${VSCODE})`,
    );
    for (const f of results.failed) {
      log(`FAILED: ${f.title}\n${f.error}`);
    }
    outcome = results;
    if (results.failures === 0) {
      exitCode = 0;
    }
  } catch (e) {
    log(`FAILED: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    if (exitCode !== 0) {
      printDiagnostics(consoleLines, serverLines, codeServer);
    }
    await cleanup();
    if (exitCode === 0 && !flag('--keep')) {
      fs.rmSync(dirs.root, { recursive: true, force: true });
    } else {
      log(`scratch folder (profile, logs) kept: ${dirs.root}`);
    }
  }
  return outcome;
}

/** On failure: what the workbench console, code-server and the extension host said. */
function printDiagnostics(consoleLines: string[], serverLines: string[], codeServer: CodeServer | undefined): void {
  const section = (title: string, lines: string[], n = 60) => {
    const relevant = lines
      .filter((l) => !/ENOTFOUND|open-vsx\.org|telemetry|marketplace/i.test(l))
      .map((l) => l.replace(/%c\s*(\w+)\s+color: #[0-9a-f]+\s?/i, '$1 '));
    if (relevant.length > 0) {
      console.log(
        `\n----- ${title} (last ${Math.min(n, relevant.length)} lines) -----\n${relevant.slice(-n).join('\n')}`,
      );
    }
  };
  section('workbench console', consoleLines);
  section('code-server', serverLines, 30);
  for (const file of codeServer?.logFiles() ?? []) {
    if (/exthost|remoteexthost|extensionHost/i.test(file)) {
      section(
        `extension host log ${path.basename(path.dirname(file))}/${path.basename(file)}`,
        fs.readFileSync(file, 'utf8').split('\n'),
        60,
      );
    }
  }
}

function secondsSince(t: number): string {
  return ((Date.now() - t) / 1000).toFixed(1);
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    void stopAllGroups().finally(() => process.exit(1));
  },
);
