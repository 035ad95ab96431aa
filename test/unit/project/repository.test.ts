// What git holds is what people write. Tool caches and generated reports stay on the machine that made them
// (reports/, ignored): Stryker's incremental file once took 98 % of the lines changed in the history and
// drowned every review. CONTRIBUTING.md, "Commits".
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const MAX_BYTES = 1024 * 1024;

/** Tracked files that still exist in the work tree (a deletion not yet committed is not held). */
function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out
    .split('\0')
    .filter((f) => f.length > 0)
    .filter((f) => existsSync(path.join(ROOT, f)));
}

/** Names tools give their caches and reports. */
const CACHE_NAME =
  /(^|\/)(stryker-incremental\.json|\.stryker-tmp\/|reports\/|test-results\/|\.vscode-test\/|node_modules\/|dist\/|[^/]*\.cpuprofile$|[^/]*\.vsix$|\.eslintcache$|[^/]*\.tsbuildinfo$)/;

describe('the repository holds what people write', () => {
  const files = trackedFiles();

  it('tracks the project (git ls-files sees its sources)', () => {
    assert.ok(files.includes('package.json') && files.includes('src/ids.ts'), 'git ls-files lists the sources');
  });

  it('has no tracked file over 1 MB', () => {
    const large = files
      .map((f) => ({ f, size: statSync(path.join(ROOT, f)).size }))
      .filter(({ size }) => size > MAX_BYTES)
      .map(({ f, size }) => `${f}: ${(size / MAX_BYTES).toFixed(1)} MB`);
    assert.deepEqual(large, []);
  });

  it('tracks no tool cache or generated report (Stryker, test results, builds, profiles)', () => {
    assert.deepEqual(
      files.filter((f) => CACHE_NAME.test(f)),
      [],
    );
  });

  it('recognizes the names of caches and reports', () => {
    for (const name of [
      'test/mutation/stryker-incremental.json',
      'reports/mutation/mutation.json',
      'dist/extension.js',
      'activate.cpuprofile',
      'model-access-0.1.0.vsix',
    ]) {
      assert.match(name, CACHE_NAME);
    }
    assert.doesNotMatch('mutation/survivor-reasons.json', CACHE_NAME);
    assert.doesNotMatch('src/explorer/core/distance.ts', CACHE_NAME);
  });
});
