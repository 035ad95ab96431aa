import * as vscode from 'vscode';
import { Commands } from '../ids';
import { modelPickItems } from '../platform/modelPicks';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import { registerAgentTools, type AgentToolsApi } from './agentTools';
import { checkModelChoices } from './core/modelChoices';
import { ChecksController, type ChecksApi as RunApi } from './controller';
import { CHECK_SELECTOR, ExpectationCompletion, ExpectationDiagnostics, ExpectationHover } from './editing';
import { ModelGridPanel, type GridFollowUp, type ModelGridApi } from './modelGridPanel';
import { ChecksSettings } from './settings';

/** What integration tests observe and drive: the runs, the page of results across models, the agent tools. */
export type ChecksApi = RunApi & { grid: ModelGridApi; agentTools: AgentToolsApi };

const MIN_MODELS = 2;

/**
 * What a command may pass Run Checks on Several Models after the payload: the models (no pick then) and a
 * button for the grid (a command of ours, its title localized by the feature that asks).
 */
function readRunOptions(value: unknown): { models?: string[]; then?: GridFollowUp } | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const o = value as { models?: unknown; then?: unknown };
  const models = Array.isArray(o.models) ? o.models.filter((m): m is string => typeof m === 'string') : undefined;
  const then = o.then as Partial<GridFollowUp> | undefined;
  const followUp =
    then &&
    typeof then.title === 'string' &&
    typeof then.command === 'string' &&
    then.command.startsWith('modelAccess.')
      ? { title: then.title, command: then.command, arguments: Array.isArray(then.arguments) ? then.arguments : [] }
      : undefined;
  return { models, then: followUp };
}
const MAX_MODELS = 6;

/**
 * Checks: payloads with `// @expect` lines are tests in Test Explorer (run, cancel, failures at their lines),
 * over a dataset (`// @each`), on several models; the editor helps write the lines (completion, hover,
 * diagnostics). The same core runs them from a terminal (src/cli/check.ts).
 */
export function register(deps: Services): vscode.Disposable[] {
  const checks = new ChecksController(deps, new ChecksSettings());
  const grid = new ModelGridPanel(deps.ui);
  // The agent tools (language model tools) live here because run_checks and send_payload are the checks' engine.
  const agentTools = registerAgentTools(deps);
  const api: ChecksApi = { ...checks.api, grid: grid.api, agentTools: agentTools.api };
  deps.testApi.checks = api;

  const activePayloadItem = async (): Promise<vscode.TestItem | undefined> => {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc) {
      return undefined;
    }
    if (!checks.itemFor(doc.uri)) {
      await checks.refresh();
    }
    return checks.itemFor(doc.uri);
  };

  return [
    checks,
    grid,
    ...agentTools.disposables,
    new ExpectationDiagnostics(),
    vscode.languages.registerCompletionItemProvider(CHECK_SELECTOR, new ExpectationCompletion(), ' '),
    vscode.languages.registerHoverProvider(CHECK_SELECTOR, new ExpectationHover()),
    vscode.commands.registerCommand(Commands.runChecks, async (arg?: unknown) => {
      // From a payload's editor (title bar, palette): its checks; elsewhere every check.
      const item = arg instanceof vscode.Uri ? checks.itemFor(arg) : await activePayloadItem();
      await checks.api.run(item ? [item] : undefined);
    }),
    vscode.commands.registerCommand(Commands.runChecksOnModels, async (arg?: unknown, options?: unknown) => {
      if (arg instanceof vscode.Uri && !checks.itemFor(arg)) {
        await checks.refresh();
      }
      const item = arg instanceof vscode.Uri ? checks.itemFor(arg) : await activePayloadItem();
      if (!item) {
        void deps.ui.info(l10n.t('Open a payload with // @expect lines to run its checks on several models.'));
        return;
      }
      await deps.catalog.ensureLoaded();
      // Another feature may name the models (Try the Successor: the model and its successor) and what the
      // grid offers next; otherwise the person picks them.
      const asked = readRunOptions(options);
      let models = asked?.models;
      if (!models) {
        // Only the models that fit the payload's endpoint, its own model checked (src/checks/core/modelChoices.ts).
        const text = item.uri ? (await vscode.workspace.openTextDocument(item.uri)).getText() : '';
        const choices = checkModelChoices(text, deps.catalog.models);
        const picked = await deps.ui.pickMany(
          modelPickItems(choices.models, choices.picked, choices.endpoint, Date.now(), deps.config.prices),
          {
            title: l10n.t('Run checks on models: pick {0} to {1}', MIN_MODELS, MAX_MODELS),
          },
        );
        if (!picked) {
          return;
        }
        models = picked.map((p) => p.model?.id).filter((id): id is string => id !== undefined);
      }
      if (models.length < MIN_MODELS || models.length > MAX_MODELS) {
        void deps.ui.warn(
          l10n.t(
            'Pick between {0} and {1} models ({2} picked); nothing was run.',
            MIN_MODELS,
            MAX_MODELS,
            models.length,
          ),
        );
        return;
      }
      const before = checks.api.lastModelGrid();
      await checks.api.run([item], models);
      // The grid of this run (none when the payload could not run: Test Explorer says why at its line).
      const made = checks.api.lastModelGrid();
      if (made && made !== before) {
        grid.show(made, asked?.then);
      }
    }),
    vscode.commands.registerCommand(Commands.saveCheckResults, () => checks.saveTable()),
    vscode.commands.registerCommand(Commands.showModelGrid, () => grid.show()),
    vscode.commands.registerCommand(Commands.runChecksAffectedByModelChanges, () => checks.runAffectedByModelChanges()),
  ];
}
