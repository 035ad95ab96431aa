// Configuration for @vscode/test-cli: `npm run test:electron` runs the integration suite in desktop
// VS Code (downloaded by @vscode/test-electron, so it needs internet; CI uses the offline code-server
// runner instead: `npm run test:integration`). The bundle out/integration/index.js holds every
// test/integration/**/*.test.ts; it registers them when loaded as a spec file.
import { defineConfig } from '@vscode/test-cli';
import fs from 'node:fs';
import path from 'node:path';

// An empty folder to open (.vscode-test/ is git-ignored and also holds the downloaded VS Code).
const workspace = path.resolve('.vscode-test', 'workspace');
fs.mkdirSync(workspace, { recursive: true });

export default defineConfig({
  label: 'integration',
  files: 'out/integration/index.js',
  version: process.env.VSCODE_TEST_VERSION ?? 'stable',
  workspaceFolder: workspace,
  launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  mocha: { ui: 'bdd', timeout: 30000, color: true },
});
