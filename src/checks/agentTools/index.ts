/**
 * The agent tools as VS Code's language model tools (package.json `languageModelTools`): registered at
 * activation by name only; what they do (languageModelTools.ts, in dist/checks.js with the engine it runs)
 * loads the first time an agent prepares or invokes one, so activation stays as it was.
 */
import * as vscode from 'vscode';
import { onFirstUse } from '../../common/onFirstUse';
import type { Services } from '../../services';
import { TOOL_NAMES, VSCODE_TOOL_PREFIX, type ToolName } from './core/names';

const load = onFirstUse(() => require('../runner') as typeof import('../runner'));

/**
 * What integration tests drive: the tools' names in VS Code, each tool's prepareInvocation, and its invoke as
 * VS Code calls it once the person confirmed (the confirmation dialog itself is VS Code's).
 */
export interface AgentToolsApi {
  names: readonly string[];
  prepare(name: ToolName, input: unknown): Promise<vscode.PreparedToolInvocation>;
  invoke(name: ToolName, input: unknown): Promise<vscode.LanguageModelToolResult>;
}

export function registerAgentTools(deps: Services): { disposables: vscode.Disposable[]; api: AgentToolsApi } {
  const tools = onFirstUse(() => load().agentTools(deps));
  const none = new vscode.CancellationTokenSource().token;
  const api: AgentToolsApi = {
    names: TOOL_NAMES.map((n) => `${VSCODE_TOOL_PREFIX}${n}`),
    prepare: (name, input) => tools().prepare(name, { input }, none),
    invoke: (name, input) => tools().invoke(name, { input, toolInvocationToken: undefined }, none),
  };
  const disposables = TOOL_NAMES.map((name) =>
    vscode.lm.registerTool<unknown>(`${VSCODE_TOOL_PREFIX}${name}`, {
      prepareInvocation: (options, token) => tools().prepare(name, options, token),
      invoke: (options, token) => tools().invoke(name, options, token),
    }),
  );
  return { disposables, api };
}
