/**
 * The agent tools' names, and which only read: all that activation needs to register them in VS Code (the
 * descriptions and schemas, definitions.ts, load with the tools). Pure; no `vscode` import.
 */
export const TOOL_NAMES = ['list_models', 'get_model', 'run_checks', 'send_payload'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** VS Code's name of a tool: one extension's tools share a prefix (package.json `languageModelTools`). */
export const VSCODE_TOOL_PREFIX = 'modelAccess_';

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** Whether a tool only reads (MCP `readOnlyHint`), or sends requests that spend the budget (`openWorldHint`). */
export const READ_ONLY: Record<ToolName, boolean> = {
  list_models: true,
  get_model: true,
  run_checks: false,
  send_payload: false,
};
