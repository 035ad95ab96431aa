// The CI configuration kept in the repository runs what .ci/run runs (`npm test`, every layer, the packaging
// of the VSIX included) on the system the setup is written for: Debian with the Node .ci/run requires.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');
const workflow = readFileSync(path.join(ROOT, '.github/workflows/ci.yml'), 'utf8');
const ciRun = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');

describe('the GitHub Actions workflow', () => {
  it('runs .ci/run, which runs npm test', () => {
    assert.match(workflow, /^\s+run: bash \.ci\/run$/m);
    assert.match(ciRun, /^npm test\b/m);
  });

  it("uses the Node .ci/run requires, on Debian (setup-vscode.js installs Debian's chromium package)", () => {
    const required = /"\$major" -lt (\d+)/.exec(ciRun)?.[1];
    assert.ok(required, '.ci/run checks the Node major version');
    assert.match(workflow, new RegExp(`image: node:${required}-bookworm$`, 'm'));
  });

  it('keeps the VSIX the packaging layer built, and the screenshots of a failed run', () => {
    assert.match(workflow, /path: model-access-\*\.vsix/);
    assert.match(workflow, /if: failure\(\)[\s\S]*path: test-results\//);
  });
});
