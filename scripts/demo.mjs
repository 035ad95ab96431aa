#!/usr/bin/env node
// `npm run demo`: the extension against the built-in local Model Access Service, in a real VS Code.
// From a fresh clone: installs what it needs (npm ci when node_modules is missing or does not match
// package-lock.json; setup of code-server when desktop `code` is not on PATH), builds and packages the VSIX, starts the local service
// with the demo registry, then opens VS Code with the VSIX installed in the demo's own profile whose settings
// point `modelAccess.baseUrl` at the service (env MODEL_ACCESS_API_KEY carries the demo key as a fallback).
// Prints the URL to open, the base URL and the demo key; Ctrl+C stops everything it started and keeps the files.
//
// The demo's folder holds the workspace (the checks and payloads a person makes), VS Code's user data
// (settings, environments, keys, scratch payloads, history) and extensions. It is named at start and reused by
// the next run: $MODEL_ACCESS_DEMO_DIR, else $XDG_STATE_HOME/model-access/demo, else
// ~/.local/state/model-access/demo (state, not a cache: what is in it is the person's work).
//
//   npm run demo                            desktop `code` if on PATH, else code-server on 127.0.0.1
//   npm run demo -- --code-server           force code-server
//   npm run demo -- --port 8080             code-server port (default: 8080, or a free one if taken)
//   npm run demo -- --service-port 8123     local service port (default: 8123, or a free one if taken)
//   npm run demo -- --fresh                 start over: remove the demo's folder first (it says what goes)
//   npm run demo -- --registry-changes      the service's registry has changed since the last run (one model
//                                           new, one gone, a new version, one retiring): what the Models view shows
//   npm run demo -- --check                 start everything, check the workbench shows "Model Access"
//                                           in headless Chromium (screenshot test-results/demo.png), stop
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nestedNpm from './nested-npm.js';

const { childEnv, ensureDependencies } = nestedNpm;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const check = args.includes('--check');
const fresh = args.includes('--fresh');
const registryChanges = args.includes('--registry-changes');

function say(msg) {
  console.log(`[demo] ${msg}`);
}

// Children get childEnv(): nothing of the outer `npm run demo` (its npm_config_user_agent names Node 20,
// which broke code-server's install when the setup ran npm from here).
function mustRun(cmd, cmdArgs, env = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: childEnv(env) });
  if (r.status !== 0) {
    console.error(`[demo] ${cmd} ${cmdArgs.join(' ')} failed (${r.status ?? r.error})`);
    process.exit(1);
  }
}

/**
 * Why the VSIX must be built again (undefined when it need not be): it is missing, or a file it is made from
 * (the sources, the build, the manifest, the docs and media it carries, the installed dependencies) changed
 * after it was written. A checkout or a pull touches the files it changes, so they count as changed.
 */
function vsixStale(vsix) {
  let built;
  try {
    built = fs.statSync(vsix).mtimeMs;
  } catch {
    return 'none built yet';
  }
  const inputs = [
    'src',
    'scripts',
    'media',
    'l10n',
    'esbuild.js',
    'package.json',
    'package-lock.json',
    'package.nls.json',
    '.vscodeignore',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'node_modules/.package-lock.json',
  ];
  const newer = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return undefined; // Not there (l10n/ before the first build): nothing of it is in the VSIX.
    }
    // A folder's own time changes when a file in it is added, renamed or removed.
    if (st.mtimeMs > built || !st.isDirectory()) {
      return st.mtimeMs > built ? p : undefined;
    }
    for (const name of fs.readdirSync(p)) {
      const found = newer(path.join(p, name));
      if (found) {
        return found;
      }
    }
    return undefined;
  };
  for (const input of inputs) {
    const found = newer(path.join(ROOT, input));
    if (found) {
      return `${path.relative(ROOT, found)} changed since ${path.basename(vsix)} was built`;
    }
  }
  return undefined;
}

function onPath(cmd) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, cmd)));
}

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function choosePort(preferred) {
  if (await portFree(preferred)) {
    return preferred;
  }
  const { freePort } = require('../test/harness/processes.ts');
  return freePort();
}

// The demo's folder (see the top): named at start, reused, removed only by --fresh (and only when it is one).
function demoDirs() {
  const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  const root = path.resolve(process.env.MODEL_ACCESS_DEMO_DIR || path.join(state, 'model-access', 'demo'));
  const marker = path.join(root, '.model-access-demo');
  const d = {
    root,
    home: path.join(root, 'home'),
    data: path.join(root, 'data'),
    extensions: path.join(root, 'extensions'),
    workspace: path.join(root, 'workspace'),
  };
  const exists = fs.existsSync(root) && fs.readdirSync(root).length > 0;
  if (exists && !fs.existsSync(marker)) {
    console.error(`[demo] ${root} is not empty and is not a demo folder: set MODEL_ACCESS_DEMO_DIR to another folder`);
    process.exit(1);
  }
  if (exists && fresh) {
    say(
      `--fresh: removing ${root}: the workspace (${countFiles(d.workspace)} files), VS Code's settings, ` +
        'environments, keys, scratch payloads and history, and the installed extension',
    );
    fs.rmSync(root, { recursive: true, force: true });
  }
  const reused = fs.existsSync(marker);
  Object.values(d).forEach((p) => fs.mkdirSync(p, { recursive: true }));
  fs.writeFileSync(marker, 'The folder of `npm run demo`: kept between runs; `npm run demo -- --fresh` removes it.\n');
  say(
    reused
      ? `reusing the demo folder ${root} (workspace: ${countFiles(d.workspace)} files; --fresh starts over)`
      : `the demo folder is ${root} (kept after Ctrl+C, reused next time)`,
  );
  return d;
}

function countFiles(dir) {
  try {
    return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}

const dirs = demoDirs();

// 1. Dependencies.
try {
  ensureDependencies({ root: ROOT, log: say, stdio: ['ignore', 'inherit', 'inherit'] });
} catch (e) {
  console.error(`[demo] ${e.message}`);
  process.exit(1);
}
// TypeScript helpers (the test harness and the local service) are loaded through tsx.
require('tsx/cjs/api').register();
const { startGroup, onInterrupt, stopAllGroups } = require('../test/harness/processes.ts');

const useDesktop = !check && !args.includes('--code-server') && onPath('code');
if (!useDesktop) {
  say('checking code-server setup (first run installs it: a few minutes)');
  mustRun(process.execPath, [path.join(ROOT, 'scripts', 'setup-vscode.js')]);
}

// 2. VSIX: built again only when something it is made from changed since it was packaged.
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const vsix = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
const stale = vsixStale(vsix);
if (stale) {
  say(`building and packaging the VSIX (${stale})`);
  mustRun('npm', ['run', '--silent', 'package'], { npm_config_loglevel: 'error' });
} else {
  say(`the VSIX is up to date with the sources: ${path.basename(vsix)}, not built again`);
}

// 3. The local service, as its own process (first stdout line: {"url","keys"}).
const servicePort = await choosePort(Number(option('--service-port', '8123')));
const serviceInfo = await new Promise((resolve, reject) => {
  let settled = false;
  const group = startGroup(
    'local service',
    process.execPath,
    [
      require.resolve('tsx/cli'),
      path.join(ROOT, 'test', 'server', 'cli.ts'),
      '--port',
      String(servicePort),
      // The registry's cards point at a host that does not exist here: the service serves them itself.
      '--local-cards',
      // Streamed answers arrive word by word at a reading pace, as a real model's do (tests stream at full speed).
      '--stream-delay',
      '45',
      ...(registryChanges ? ['--registry-changes'] : []),
    ],
    {
      cwd: ROOT,
      env: childEnv(),
      onLine: (line, stream) => {
        if (!settled && stream === 'stdout') {
          settled = true;
          try {
            resolve(JSON.parse(line));
          } catch {
            reject(new Error(`unexpected first line from the local service: ${line}`));
          }
        }
      },
    },
  );
  void group.exited.then((code) => {
    if (!settled) {
      settled = true;
      reject(new Error(`the local service exited (${code}):\n${group.tail(20)}`));
    } else {
      say(`the local service stopped (${code})`);
    }
  });
}).catch(async (e) => {
  console.error(`[demo] ${e.message}`);
  await stopAllGroups();
  process.exit(1);
});
const baseUrl = serviceInfo.url;
const [org, demoKey] = Object.entries(serviceInfo.keys)[0];

// 4. VS Code with the VSIX in the demo's folder (named at start), kept between runs.
// A newcomer's first start: the extension offers its walkthrough when VS Code would on install (the harness's quiet
// profile turns that off for tests).
const userSettings = { 'modelAccess.baseUrl': baseUrl, 'workbench.welcomePage.walkthroughs.openOnInstall': true };
const extraEnv = { MODEL_ACCESS_API_KEY: demoKey };
const keptMessage = () =>
  `your work is kept in ${dirs.root} (workspace: ${dirs.workspace}); \`npm run demo\` opens it again, ` +
  '`npm run demo -- --fresh` starts over';
let stopping = false;
const shutdown = async (code) => {
  if (stopping) {
    return;
  }
  stopping = true;
  await stopAllGroups();
  say(keptMessage());
  process.exit(code);
};
onInterrupt(() => {
  stopping = true;
  say(keptMessage());
});

let openUrl;
if (useDesktop) {
  const { writeUserSettings } = require('../test/harness/codeServer.ts');
  writeUserSettings(dirs, { 'workbench.startupEditor': 'none' }, userSettings, true);
  mustRun('code', [
    '--user-data-dir',
    dirs.data,
    '--extensions-dir',
    dirs.extensions,
    '--install-extension',
    vsix,
    '--force',
  ]);
  const group = startGroup(
    'code',
    'code',
    ['--user-data-dir', dirs.data, '--extensions-dir', dirs.extensions, '--new-window', '--wait', dirs.workspace],
    {
      env: childEnv(extraEnv),
    },
  );
  void group.exited.then(() => {
    say('VS Code was closed');
    void shutdown(0);
  });
  openUrl = '(desktop VS Code window)';
} else {
  const { installExtensions, startCodeServer, launchChromium } = require('../test/harness/codeServer.ts');
  installExtensions(dirs, [vsix]);
  const port = await choosePort(Number(option('--port', '8080')));
  const cs = await startCodeServer({
    dirs,
    port,
    userSettings,
    keepUserSettings: true,
    env: extraEnv,
    trustedDomains: ['https://cards.example'],
  }).catch(async (e) => {
    console.error(`[demo] ${e.message}`);
    await shutdown(1);
  });
  void cs.group.exited.then((code) => {
    if (!stopping) {
      say(`code-server exited (${code})`);
      void shutdown(1);
    }
  });
  openUrl = cs.workbenchUrl();
  if (check) {
    const { openViewContainer, readViewText, screenshot, waitForWorkbench } = require('../test/e2e/helpers.ts');
    const browser = await launchChromium(dirs);
    let ok = false;
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(openUrl, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await waitForWorkbench(page);
      await openViewContainer(page);
      await page.waitForTimeout(2000);
      const text = await readViewText(page, 'Models');
      const file = await screenshot(page, 'demo');
      say(
        `check: the Model Access view shows ${JSON.stringify(text.slice(0, 120))}; screenshot ${path.relative(ROOT, file)}`,
      );
      ok = true;
    } catch (e) {
      console.error(`[demo] check failed: ${e instanceof Error ? e.message : e}`);
    } finally {
      await browser.close().catch(() => undefined);
    }
    await shutdown(ok ? 0 : 1);
  }
}

console.log(`
  Model Access demo is running.

    Open VS Code:   ${openUrl}
    Base URL:       ${baseUrl}   (modelAccess.baseUrl in the demo profile)
    Demo API key:   ${demoKey}   (organization "${org}"; also in MODEL_ACCESS_API_KEY)
    Other keys:     ${
      Object.entries(serviceInfo.keys)
        .slice(1)
        .map(([o, k]) => `${o}: ${k}`)
        .join(', ') || '-'
    }

    Demo folder:    ${dirs.root}   (workspace, settings, keys; kept)

  In the Model Access activity-bar entry, run "Set API Key" with the demo key if asked.
  Ctrl+C stops the service and VS Code and keeps the demo folder; \`npm run demo -- --fresh\` starts over.
  To see what a registry change looks like: Ctrl+C, then \`npm run demo -- --registry-changes\`.
`);
// Keep running until Ctrl+C (handled by the harness: stops every process group).
setInterval(() => undefined, 1 << 30);
