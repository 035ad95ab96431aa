// The oldest VS Code the manifest claims is one the integration suite runs on in `npm test`.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { OLDEST_VSCODE, TESTED_VSCODE } from '../../../scripts/setup-vscode';

describe('engines.vscode', () => {
  it('claims exactly the oldest VS Code that npm test runs the integration suite on', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      engines: { vscode: string };
    };
    const claimed = /^\^(\d+\.\d+)\.\d+$/.exec(pkg.engines.vscode)?.[1];
    assert.equal(
      claimed,
      OLDEST_VSCODE,
      `engines.vscode is ${pkg.engines.vscode}; the suite's oldest is ${OLDEST_VSCODE}`,
    );
    assert.ok(TESTED_VSCODE.includes(OLDEST_VSCODE));
  });
});
