import * as vscode from 'vscode';
import { Commands } from '../ids';
import { modelPickItems } from '../platform/modelPicks';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import { checkModelChoices } from './core/modelChoices';
import { ChecksController, type ChecksApi as RunApi } from './controller';
import { CHECK_SELECTOR, ExpectationCompletion, ExpectationDiagnostics, ExpectationHover } from './editing';
import { ModelGridPanel, type ModelGridApi } from './modelGridPanel';
import { ChecksSettings } from './settings';

/** What integration tests observe and drive: the runs, and the page of results across models. */
export type ChecksApi = RunApi & { grid: ModelGridApi };

const MIN_MODELS = 2;
const MAX_MODELS = 6;

/**
 * Checks: payloads with `// @expect` lines are tests in Test Explorer (run, cancel, failures at their lines),
 * over a dataset (`// @each`), on several models; the editor helps write the lines (completion, hover,
 * diagnostics). The same core runs them from a terminal (src/cli/check.ts).
 */
export function register(deps: Services): vscode.Disposable[] {
  const checks = new ChecksController(deps, new ChecksSettings());
  const grid = new ModelGridPanel(deps.ui);
  const api: ChecksApi = { ...checks.api, grid: grid.api };
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
    new ExpectationDiagnostics(),
    vscode.languages.registerCompletionItemProvider(CHECK_SELECTOR, new ExpectationCompletion(), ' '),
    vscode.languages.registerHoverProvider(CHECK_SELECTOR, new ExpectationHover()),
    vscode.commands.registerCommand(Commands.runChecks, async (arg?: unknown) => {
      // From a payload's editor (title bar, palette): its checks; elsewhere every check.
      const item = arg instanceof vscode.Uri ? checks.itemFor(arg) : await activePayloadItem();
      await checks.api.run(item ? [item] : undefined);
    }),
    vscode.commands.registerCommand(Commands.runChecksOnModels, async (arg?: unknown) => {
      const item = arg instanceof vscode.Uri ? checks.itemFor(arg) : await activePayloadItem();
      if (!item) {
        void deps.ui.info(l10n.t('Open a payload with // @expect lines to run its checks on several models.'));
        return;
      }
      await deps.catalog.ensureLoaded();
      // Only the models that fit the payload's endpoint, its own model checked (src/checks/core/modelChoices.ts).
      const text = item.uri ? (await vscode.workspace.openTextDocument(item.uri)).getText() : '';
      const choices = checkModelChoices(text, deps.catalog.models);
      const picked = await deps.ui.pickMany(
        modelPickItems(choices.models, choices.picked, choices.endpoint, Date.now(), deps.config.prices),
        {
          title: l10n.t('Run checks on models: pick {0} to {1}', MIN_MODELS, MAX_MODELS),
        },
      );
      const models = (picked ?? []).map((p) => p.model?.id).filter((id): id is string => id !== undefined);
      if (!picked) {
        return;
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
        grid.show(made);
      }
    }),
    vscode.commands.registerCommand(Commands.saveCheckResults, () => checks.saveTable()),
    vscode.commands.registerCommand(Commands.showModelGrid, () => grid.show()),
    vscode.commands.registerCommand(Commands.runChecksAffectedByModelChanges, () => checks.runAffectedByModelChanges()),
  ];
}
