// Entry of the integration suite inside a real VS Code extension host. Both runners load it:
// the offline runner (code-server + Chromium, `npm run test:integration`) through the workbench payload,
// and @vscode/test-cli (`npm run test:electron`, desktop VS Code, needs internet) through .vscode-test.mjs.
//
// Every `test/integration/**/*.test.ts` is bundled into out/integration/index.js by `node esbuild.js --tests`
// (esbuild.js lists them at build time); dropping a new file there is enough.
//
// Results go to a JSON file ({passes, failures, pending, total, failed:[{title, error}]}) because the
// browser window does not close when the run ends; the mocha output also streams to `<results>.log`.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

declare const __INTEGRATION_TEST_FILES__: string[];

export interface IntegrationResults {
  passes: number;
  failures: number;
  pending: number;
  total: number;
  durationMs: number;
  passed: string[];
  failed: Array<{ title: string; error: string }>;
}

/** Where results are written: $MODEL_ACCESS_TEST_RESULTS, else test-results/integration-results.json. */
export function resultsPath(): string {
  return (
    process.env.MODEL_ACCESS_TEST_RESULTS ||
    path.resolve(__dirname, '..', '..', 'test-results', 'integration-results.json')
  );
}

function loadTestFiles(): void {
  for (const file of __INTEGRATION_TEST_FILES__) {
    const name = file.replace(/^\.\//, '').replace(/\.test\.ts$/, '');
    // esbuild turns this template into a glob over ./**/*.test.ts and bundles every match.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(`./${name}.test.ts`);
  }
}

// @vscode/test-cli (.vscode-test.mjs) loads this bundle as a spec file into its own mocha, with
// describe/it already global: register the tests right away for it. run() is not called in that mode.
if (typeof (globalThis as { describe?: unknown }).describe === 'function') {
  loadTestFiles();
}

export function run(): Promise<void> {
  const results = resultsPath();
  const logFile = `${results}.log`;
  fs.mkdirSync(path.dirname(results), { recursive: true });
  fs.rmSync(results, { force: true });
  fs.writeFileSync(logFile, '');
  const out = (line: string) => {
    fs.appendFileSync(logFile, `${line}\n`);
    console.log(line);
  };

  const started = Date.now();
  const summary: IntegrationResults = {
    passes: 0,
    failures: 0,
    pending: 0,
    total: 0,
    durationMs: 0,
    passed: [],
    failed: [],
  };

  return new Promise<void>((resolve, reject) => {
    const finish = (fatal?: unknown) => {
      summary.durationMs = Date.now() - started;
      summary.total = summary.passes + summary.failures + summary.pending;
      if (fatal !== undefined) {
        summary.failures += 1;
        summary.failed.push({ title: 'loading the integration suite', error: errorText(fatal) });
        out(`✘ loading the integration suite: ${errorText(fatal)}`);
      }
      out(
        `\n${summary.passes} passing, ${summary.failures} failing, ${summary.pending} pending (${summary.durationMs} ms)`,
      );
      fs.writeFileSync(results, JSON.stringify(summary, null, 2));
      if (summary.failures > 0) {
        reject(new Error(`${summary.failures} integration test(s) failed`));
      } else {
        resolve();
      }
    };
    try {
      const grep = process.env.MODEL_ACCESS_TEST_GREP;
      // Output comes from the listeners below; the Base reporter only keeps mocha's stats.
      const mocha = new Mocha({
        ui: 'bdd',
        timeout: Number(process.env.MODEL_ACCESS_TEST_TIMEOUT) || 30_000,
        color: false,
        reporter: Mocha.reporters.Base,
        ...(grep ? { grep: new RegExp(grep) } : {}),
      });
      // Defines describe/it/before… on the global object for the bundled test modules.
      mocha.suite.emit('pre-require', globalThis, 'integration', mocha);
      loadTestFiles();
      out(`integration suite: ${__INTEGRATION_TEST_FILES__.length} file(s) in VS Code ${vscodeVersion()}`);
      let depth = 0;
      const indent = () => '  '.repeat(depth);
      const runner = mocha.run(() => finish());
      runner.on('suite', (suite) => {
        if (suite.title) {
          out(`${indent()}${suite.title}`);
        }
        depth += 1;
      });
      runner.on('suite end', () => {
        depth -= 1;
      });
      runner.on('pass', (test) => {
        summary.passes += 1;
        summary.passed.push(test.fullTitle());
        out(`${indent()}✔ ${test.title} (${test.duration ?? 0} ms)`);
      });
      runner.on('fail', (test, err) => {
        summary.failures += 1;
        summary.failed.push({ title: test.fullTitle(), error: errorText(err) });
        out(`${indent()}✘ ${test.title}\n${errorText(err).replace(/^/gm, `${indent()}    `)}`);
      });
      runner.on('pending', (test) => {
        summary.pending += 1;
        out(`${indent()}- ${test.title} (pending)`);
      });
    } catch (e) {
      finish(e);
    }
  });
}

function vscodeVersion(): string {
  return `${vscode.version} (${vscode.env.appName}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'})`;
}

function errorText(e: unknown): string {
  if (e instanceof Error) {
    return e.stack ?? `${e.name}: ${e.message}`;
  }
  return String(e);
}
