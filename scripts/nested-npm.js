// What every script needs to start npm (or a Node program that may run npm) from inside `npm test` /
// `npm run demo`, and to install the project's own dependencies when a fresh clone has none.
//
// `npm run x` hands its child a lot of environment: `npm_config_*` (every npm setting, including
// `npm_config_user_agent` = "npm/11 node/v20 …" and the machine's `nodedir`), `npm_*` (package and
// lifecycle facts), `INIT_CWD`, `NODE`, `COLOR`, and PATH entries it put in front (node_modules/.bin of
// every parent folder, npm's node-gyp shim). A nested npm install inherits all of it. code-server's
// postinstall reads the Node major from `npm_config_user_agent`, so installing it with Node 24 first on
// PATH still failed with "code-server currently requires node v24 … you are on node v20". Every child
// that is npm, or that may start npm, gets `childEnv()` instead of `process.env`.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

// How to reach the registry is not tied to the outer npm or its Node: a mirror, proxy or CA given to
// the outer npm through the environment stays valid for the nested one.
const KEEP_NPM_CONFIG =
  /^npm_config_(registry|.*:registry|cafile|ca|proxy|https_proxy|http_proxy|noproxy|strict_ssl|cache)$/i;

/**
 * `process.env` (or `base`) without what an outer `npm run` added, merged with `extra`.
 * Outside npm it only drops `npm_*` variables, which then came from the user's shell and would leak
 * settings meant for the outer npm too.
 */
function childEnv(extra = {}, base = process.env) {
  const underNpm = Boolean(base.npm_lifecycle_event || base.npm_execpath);
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    if (/^npm_/i.test(key) && !KEEP_NPM_CONFIG.test(key)) {
      continue;
    }
    env[key] = value;
  }
  if (underNpm) {
    delete env.INIT_CWD;
    delete env.COLOR;
    if (base.NODE && base.NODE === base.npm_node_execpath) {
      delete env.NODE;
    }
    // npm run prepends node_modules/.bin of the package and of every parent folder, then its node-gyp
    // shim: drop that prefix so the child sees the PATH the user had.
    const parts = (base.PATH ?? '').split(path.delimiter);
    while (
      parts.length > 0 &&
      /(^|[\\/])node_modules[\\/]\.bin$|[\\/]@npmcli[\\/]run-script[\\/]lib[\\/]node-gyp-bin$/.test(parts[0])
    ) {
      parts.shift();
    }
    env.PATH = parts.join(path.delimiter);
  }
  return { ...env, ...extra };
}

/**
 * Why node_modules does not match package-lock.json, or undefined when it does: npm ci writes
 * node_modules/.package-lock.json (every installed package with its version); each package the lock
 * requires must be there with the same version. Optional packages (other platforms' binaries) may be
 * absent.
 */
function dependenciesStale(root = ROOT) {
  const lockFile = path.join(root, 'package-lock.json');
  const installedFile = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(path.join(root, 'node_modules'))) {
    return 'node_modules is missing';
  }
  if (!fs.existsSync(installedFile)) {
    return 'node_modules/.package-lock.json is missing';
  }
  let lock;
  let installed;
  try {
    lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')).packages ?? {};
    installed = JSON.parse(fs.readFileSync(installedFile, 'utf8')).packages ?? {};
  } catch (e) {
    return `cannot read the lock files (${e instanceof Error ? e.message : e})`;
  }
  for (const [key, entry] of Object.entries(lock)) {
    if (key === '' || !key.startsWith('node_modules/') || entry.link) {
      continue;
    }
    const have = installed[key];
    if (!have) {
      if (entry.optional) {
        continue;
      }
      return `${key.slice('node_modules/'.length)} is not installed`;
    }
    if (have.version !== entry.version) {
      return `${key.slice('node_modules/'.length)} is ${have.version}, package-lock.json wants ${entry.version}`;
    }
  }
  return undefined;
}

/**
 * Runs `npm ci` when node_modules is missing or does not match package-lock.json.
 * Returns true when it installed, false when nothing was needed; throws when npm ci failed.
 */
function ensureDependencies({ root = ROOT, log = (msg) => console.log(msg), stdio = 'inherit' } = {}) {
  const why = dependenciesStale(root);
  if (!why) {
    return false;
  }
  log(`installing dependencies with npm ci (${why})`);
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio, env: childEnv() });
  if (r.status !== 0) {
    throw new Error(`npm ci failed (${r.status ?? r.error})`);
  }
  return true;
}

module.exports = { childEnv, dependenciesStale, ensureDependencies };
