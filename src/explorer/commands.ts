import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { Commands } from '../ids';
import { environmentFromArg, modelFromArg } from '../domain/commandArgs';
import { checkCardLink } from '../api/linkSafety';
import type { CardOutcome } from './modelCard';
import type { InspectOutcome } from './inspect';
import { clean, displayText, type DisplayText } from '../common/text';
import { l10n } from '../platform/l10n';
import { flash } from '../platform/ui';
import { modelPickItems, type ModelPickItem as PickItem } from '../platform/modelPicks';
import type { Services } from '../services';
import type { ModelsView } from './modelsView';
import type { ModelDetailsPanels } from './details';
import type { CardPreviews } from './cardPreview';
import { commandEnvironment } from '../platform/environments';

/** The services and the explorer's own parts. */
type ExplorerDeps = Services & {
  view: ModelsView;
  /**
   * Inspect and Open Model Card for a model listed in `environment` (a row under that environment's root),
   * or in the active environment when none is named.
   */
  inspect: (model: ModelEntry, environment?: string) => Promise<InspectOutcome | undefined>;
  openCard: (model: ModelEntry, environment?: string) => Promise<CardOutcome>;
  /** Opens (or reveals) a model's details tab; the tabs' code loads on the first. */
  details: Pick<ModelDetailsPanels, 'show'>;
  cards: CardPreviews;
};

type ModelPickItem = PickItem & { run?: string };

/** Refresh, filter, grouping, and the per-model commands (card, inspect, copy id, quick pick). */
export function explorerCommands(
  services: Services,
  parts: Pick<ExplorerDeps, 'view' | 'details' | 'cards' | 'inspect' | 'openCard'>,
): vscode.Disposable[] {
  const deps: ExplorerDeps = { ...services, ...parts };
  // Every per-model command acts on the environment its argument names (a row under an environment's root,
  // or `{ model, environment }` from another feature), else on the active one.
  const { inspect, openCard } = parts;
  return [
    vscode.commands.registerCommand(Commands.refreshModels, () =>
      deps.config.showAllEnvironments ? deps.catalogs.reloadAll() : deps.catalog.refresh(),
    ),
    vscode.commands.registerCommand(Commands.filterModels, () => filterModels(deps)),
    vscode.commands.registerCommand(Commands.clearFilter, () => deps.view.setFilter(undefined)),
    vscode.commands.registerCommand(Commands.viewAsGroups, () => deps.config.setGroupByFamily(true)),
    vscode.commands.registerCommand(Commands.viewAsList, () => deps.config.setGroupByFamily(false)),
    vscode.commands.registerCommand(Commands.openModelCard, async (arg?: unknown): Promise<CardOutcome | undefined> => {
      const model = await modelOrPick(deps, arg, l10n.t('Open the Model Card of…'));
      return model ? openCard(model, environmentFromArg(arg)) : undefined;
    }),
    vscode.commands.registerCommand(
      Commands.inspectModel,
      async (arg?: unknown): Promise<InspectOutcome | undefined> => {
        const model = await modelOrPick(deps, arg, l10n.t('Inspect model…'));
        return model ? inspect(model, environmentFromArg(arg)) : undefined;
      },
    ),
    vscode.commands.registerCommand(Commands.copyModelId, async (arg?: unknown) => {
      const model = await modelOrPick(deps, arg, l10n.t('Copy the id of…'));
      if (model) {
        await deps.ui.copy(model.id);
        flash('copy', l10n.t('Copied {0}', displayText(model.id, 60)));
      }
      return model?.id;
    }),
    vscode.commands.registerCommand(Commands.showModelDetails, async (arg?: unknown) => {
      const model = await modelOrPick(deps, arg, l10n.t('Show the details of…'));
      return model ? showDetails(deps, model, arg) : undefined;
    }),
    vscode.commands.registerCommand(Commands.previewModelCard, async (arg?: unknown) => {
      const model = await modelOrPick(deps, arg, l10n.t('Preview the Model Card of…'));
      return model ? deps.cards.preview(model, environmentFromArg(arg)) : undefined;
    }),
    vscode.commands.registerCommand(Commands.modelClicked, async (arg?: unknown) => {
      const model = modelFromArg(arg, deps.catalog.models);
      if (!model) {
        return undefined;
      }
      switch (deps.config.modelClickAction) {
        case 'openModelCard':
          return clickCard(deps, model, environmentFromArg(arg));
        case 'showDetails':
          return showDetails(deps, model, arg);
        case 'inspect':
          return inspect(model, environmentFromArg(arg));
        default:
          return undefined;
      }
    }),
    vscode.commands.registerCommand(Commands.showModels, () => showModels(deps)),
  ];
}

/**
 * A click on a model with the card as its action: a card served as Markdown or plain text opens rendered in
 * VS Code (Preview Model Card's path); a web page, a card that could not be read, no card or a refused link goes
 * the browser's way. Returns
 * the browser path's outcome as Open Model Card does ('opened', 'noCard', …), else the preview's.
 */
async function clickCard(deps: ExplorerDeps, model: ModelEntry, environment: string | undefined) {
  const outcome = await deps.cards.preview(model, environment, { unreadInBrowser: true });
  return outcome.kind === 'browser' ? (outcome.opened as CardOutcome) : outcome;
}

async function showDetails(deps: ExplorerDeps, model: ModelEntry, arg: unknown) {
  const target = commandEnvironment(deps.environments, deps.ui, arg);
  return target ? deps.details.show(model, target.name) : undefined;
}

/** The model a command was given, or one picked from the catalog (loading it first if needed). */
async function modelOrPick(deps: ExplorerDeps, arg: unknown, title: DisplayText): Promise<ModelEntry | undefined> {
  const given = modelFromArg(arg, deps.catalog.models);
  if (given) {
    return given;
  }
  await deps.catalog.ensureLoaded();
  const items = modelPickItems(deps.catalog.models, undefined, undefined, Date.now(), deps.config.prices);
  if (items.length === 0) {
    void deps.ui.info(describeEmpty(deps));
    return undefined;
  }
  const picked = await deps.ui.pick(items, {
    title,
    placeHolder: l10n.t('Type to search by id, family or version'),
    matchOnDescription: true,
  });
  return picked?.model;
}

function describeEmpty(deps: ExplorerDeps): DisplayText {
  const status = deps.catalog.status;
  switch (status.kind) {
    case 'needsUrl':
      return l10n.t('No service URL is set. Run "Model Access: Set Service URL".');
    case 'needsKey':
      return l10n.t('No API key is set. Run "Model Access: Set API Key".');
    case 'error':
      return displayText(status.failure.message, 500);
    default:
      return l10n.t('No models are available to your organization.');
  }
}

async function filterModels(deps: ExplorerDeps): Promise<void> {
  const text = await deps.ui.input({
    title: l10n.t('Filter Models'),
    prompt: l10n.t('Show models whose id, family or version contain all of these words (empty clears the filter)'),
    value: deps.view.filter ?? '',
    placeHolder: l10n.t('e.g. aurora 2'),
  });
  if (text !== undefined) {
    deps.view.setFilter(text);
  }
}

/** The status bar's picker: every model (type to search), then what to do with the one picked. */
async function showModels(deps: ExplorerDeps): Promise<void> {
  await deps.catalog.ensureLoaded();
  const status = deps.catalog.status;
  if (status.kind === 'needsUrl' || status.kind === 'needsKey') {
    await vscode.commands.executeCommand(status.kind === 'needsUrl' ? Commands.setBaseUrl : Commands.setApiKey);
    return;
  }
  const items: ModelPickItem[] = [];
  if (status.kind === 'error') {
    items.push({
      label: l10n.t('$(refresh) Retry'),
      detail: displayText(status.failure.message, 500),
      run: Commands.refreshModels,
      alwaysShow: true,
    });
  }
  items.push(...modelPickItems(deps.catalog.models, undefined, undefined, Date.now(), deps.config.prices));
  if (items.length === 0) {
    void deps.ui.info(describeEmpty(deps));
    return;
  }
  const picked = await deps.ui.pick(items, {
    title: l10n.t('Models on {0}', clean(deps.catalog.serviceState.host ?? l10n.t('the service'))),
    placeHolder: l10n.t('Type to search by id, family or version'),
    matchOnDescription: true,
  });
  if (picked?.run) {
    await vscode.commands.executeCommand(picked.run);
    return;
  }
  const model = picked?.model;
  if (!model) {
    return;
  }
  const hasCard = checkCardLink(model.cardUrl).ok;
  const actions: ModelPickItem[] = [
    {
      label: l10n.t('$(link-external) Open Model Card'),
      run: Commands.openModelCard,
      description: hasCard ? undefined : l10n.t('no card link'),
    },
    { label: l10n.t('$(info) Show Model Details'), run: Commands.showModelDetails },
    { label: l10n.t('$(json) Inspect Model'), run: Commands.inspectModel },
    { label: l10n.t('$(copy) Copy Model ID'), run: Commands.copyModelId },
    { label: l10n.t('$(new-file) New Request with this Model'), run: Commands.newRequest },
  ];
  const action = await deps.ui.pick(actions, { title: displayText(model.id, 120) });
  if (action?.run) {
    await vscode.commands.executeCommand(action.run, model);
  }
}
