// Mutation testing (`npm run mutate`, see docs/mutation-testing.md): Stryker changes the code of the modules
// that do not need VS Code, one small change (a mutant) at a time, and runs the unit tests against each; a
// mutant that leaves them green shows a promise no test holds.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'mocha',
  // The unit layer as `npx mocha` runs it (.mocharc.json: tsx/cjs, test/unit/**/*.test.ts), less the
  // property and volume tests (10,000 generated inputs, 100,000 models, a 200 MB upload): they guard
  // robustness and memory, and would run again for every mutant of every module they reach.
  // The project tests (test/unit/project) read the source text and the manifest, not behaviour: in the
  // sandbox they see the instrumented sources (every string literal wrapped in a mutant switch) and fail.
  mochaOptions: {
    config: '.mocharc.json',
    ignore: ['test/unit/project/**'],
    grep: '^(?!.*(10,000 (generated|random)|300 generated pages|100,000 models|200 MB file)).*$',
  },
  // Every module free of the VS Code API: the pure helpers, the client core, the shared domain and the pure
  // core of each feature.
  mutate: ['src/api/**/*.ts', 'src/common/**/*.ts', 'src/domain/**/*.ts', 'src/**/core/**/*.ts'],
  // Static mutants (module-level code: constant tables, regular expressions, message tables) cannot be
  // switched on per test, so each runs the whole unit layer: in src/common, 120 of 947 mutants were
  // estimated at 96 % of the run time. They are left out ("Ignored", in no score) unless
  // `npm run mutate -- --static` asks for them (docs/mutation-testing.md).
  ignoreStatic: process.env.MODEL_ACCESS_MUTATE_STATIC !== '1',
  // Each mutant runs only the tests that reach it: ~40 min instead of hours for a full run.
  coverageAnalysis: 'perTest',
  // A run after a small change re-tests only the mutants of changed code or changed tests. The file is
  // Stryker's cache, at its default place under the ignored reports/: each machine keeps its own, and a fresh
  // clone starts from nothing. Why a survivor is left is in mutation/survivor-reasons.json (committed).
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['progress', 'clear-text', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  concurrency: 2,
  // Several unit tests start the local service and wait on sockets; a slow machine must not turn a
  // surviving mutant into a "timeout" (counted as killed).
  timeoutMS: 10000,
  ignorePatterns: ['dist', 'out', '.vscode-test', 'test-results', 'bench/results', '*.vsix', '.tmp'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // The lowest target; scripts/mutate.mjs holds each folder to its own (85 % src/api and src/domain, 75 % the others).
  thresholds: { high: 85, low: 75, break: 75 },
};
