/**
 * What a check run needs beyond listing the tests: sending, reading answers, evaluating, the JSON Schema
 * subset, the results tables — and the agent tools, which run the same engine. Loaded on the first run or the
 * first tool call (dist/checks.js, esbuild.js LAZY): activation registers Test Explorer's controller, the
 * editor helpers and the tools' names only.
 */
export { firstFailure, runCheckFile } from './core/fileRun';
export { modelTable, resultsTable, tableAsCsv, tableAsText } from './core/resultsTable';
export { runRecord } from './core/messages';
export { groupAttempts, judgeAttempts } from './core/repeats';
export { gridAsTable, modelGrid, rowsByModel } from './core/modelGrid';
export { modelGridHtml, parseGridMessage } from './core/modelGridPage';
export { agentTools } from './agentTools/languageModelTools';
