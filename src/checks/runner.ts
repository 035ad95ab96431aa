/**
 * What a check run needs beyond listing the tests: sending, reading answers, evaluating, the JSON Schema
 * subset, the results tables. Loaded on the first run (dist/checks.js, esbuild.js LAZY): activation registers
 * Test Explorer's controller and the editor helpers only.
 */
export { firstFailure, runCheckFile } from './core/fileRun';
export { modelTable, resultsTable, tableAsCsv, tableAsText } from './core/resultsTable';
export { runRecord } from './core/messages';
export { groupAttempts, judgeAttempts } from './core/repeats';
export { gridAsTable, modelGrid, rowsByModel } from './core/modelGrid';
export { modelGridHtml, parseGridMessage } from './core/modelGridPage';
