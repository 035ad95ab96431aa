import type * as vscode from 'vscode';
import type { Services } from '../services';
import { explorerCommands } from './commands';
import { inspectIn, ModelDocuments } from './inspect';
import { ModelsView } from './modelsView';
import { ModelNode } from './nodes';
import { CardPreviews } from './cardPreview';
import type { ModelDetailsPanels } from './details';
import { openModelCard } from './modelCard';
import type { ModelEntry } from '../api/types';
import { onFirstUse } from '../common/onFirstUse';
import { RegistryChangesPage, registryChangeCommands } from './registryChanges';
import { CardComparisons } from './cardCompare';
import { KeptCards } from './keptCards';
import { scopeOf } from '../domain/keyScope';

/** The Models view, Model Cards, Inspect, and the per-model commands. */
export function register(services: Services): vscode.Disposable[] {
  const { catalog, config, connection, environments, log } = services;
  const view = new ModelsView(catalog, config, services.catalogs, services.changes, services.usage);
  const changesPage = new RegistryChangesPage(services);
  const documents = new ModelDocuments(log);
  // `environment`: a row's, under that environment's root (none: the active one). A card's "Inspect Model"
  // and the network a card is fetched through belong to the row's environment too.
  const inspect = (model: ModelEntry, environment?: string) => inspectIn(services, documents, model, environment);
  const openCard = async (model: ModelEntry, environment?: string) => {
    const outcome = await openModelCard(model, {
      ui: services.ui,
      log,
      inspect: (m) => inspect(m, environment).then(() => undefined),
    });
    if (outcome === 'opened') {
      services.firstSteps.reach('cardOpened');
    }
    return outcome;
  };
  const network = (environment?: string) =>
    connection.keylessNetwork(environment === undefined ? environments.active : environments.find(environment));
  // The card last read per environment, service origin and model (never the key), to say that a card changed.
  const keptKey = (id: string, environment?: string) => {
    const env = environment === undefined ? environments.active : environments.find(environment);
    const origin = env && scopeOf(env.baseUrl);
    return env && origin ? KeptCards.key(env.name, origin, id) : undefined;
  };
  const cards = new CardPreviews({
    ui: services.ui,
    log,
    openCard,
    network,
    kept: new KeptCards(services.context.globalState),
    keptKey,
    // Called once a preview has reported a change, after `comparisons` exists.
    showChanges: (change): Promise<unknown> => comparisons.showChange(change),
  });
  const comparisons = new CardComparisons(services, cards);
  // A card read in the preview counts for the walkthrough like one opened in the browser.
  cards.onDidPreview(() => services.firstSteps.reach('cardOpened'));
  // Model Details (details.ts, dist/details.js) loads when the first details tab opens.
  const loadDetails = onFirstUse((): ModelDetailsPanels => {
    const { ModelDetailsPanels } = require('./details') as typeof import('./details');
    return new ModelDetailsPanels(services, {
      openCard,
      previewCard: (model, environment) => cards.preview(model, environment),
    });
  });
  const details = { show: (model: ModelEntry, environment?: string) => loadDetails().show(model, environment) };
  Object.assign(services.testApi, { view, documents, cards, changesPage, cardComparisons: comparisons });
  Object.defineProperty(services.testApi, 'details', { get: loadDetails, enumerable: true, configurable: true });
  // First load once activation has returned (no network inside activate): the view asked for it. Otherwise
  // the list saved by an earlier window is read from disk, so the view shows it as soon as it opens.
  setTimeout(() => {
    if (view.treeView.visible) {
      view.load();
    } else {
      void catalog.showSaved();
    }
  }, 0);
  return [
    view,
    // Palette commands (New Request) use the model row selected here; a family or an environment clears it.
    view.treeView.onDidChangeSelection((e) => {
      const row = e.selection.length === 1 ? e.selection[0] : undefined;
      services.selection.current =
        row instanceof ModelNode ? { model: row.model, environment: row.environment } : undefined;
    }),
    documents,
    cards,
    comparisons,
    changesPage,
    ...registryChangeCommands(services, changesPage),
    { dispose: () => loadDetails.loaded?.dispose() },
    ...explorerCommands(services, { view, details, cards, inspect, openCard }),
    // A new service or key (here or in another window) replaces the list.
    connection.onDidChange(
      () => void (catalog.status.kind === 'idle' && !view.treeView.visible ? catalog.refreshSetup() : catalog.reload()),
    ),
  ];
}
