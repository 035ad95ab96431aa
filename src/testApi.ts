/**
 * What integration tests observe and drive: the platform's services and each feature's parts. Only
 * src/extension.ts (which returns it under a test runner) and tests import this file, so no layer below the
 * features depends on them.
 */
import type { PlatformTestApi } from './services';
import type { ModelDocuments } from './explorer/inspect';
import type { CardPreviews } from './explorer/cardPreview';
import type { CardComparisons } from './explorer/cardCompare';
import type { ModelDetailsPanels } from './explorer/details';
import type { ModelsView } from './explorer/modelsView';
import type { RegistryChangesPage } from './explorer/registryChanges';
import type { RequestsApi } from './requests';
import type { ChecksApi } from './checks';
import type { ReferencesApi } from './references';
import type { ModelsStatusBar } from './setup/statusBar';
import type { EnvironmentStatusBar } from './setup/environments';
import type { UsageView } from './setup/usageView';

/**
 * The objects integration tests observe and drive. `activate()` returns it only when the extension runs
 * under a test runner (`ExtensionMode.Test`): it holds the key store and replaceable prompts, and any
 * installed extension can call `getExtension(…).activate()`, so an installed copy exports nothing.
 */
export interface ModelAccessApi extends PlatformTestApi {
  view: ModelsView;
  documents: ModelDocuments;
  /** Model Details tabs, one per model. */
  details: ModelDetailsPanels;
  /** Model Cards previewed in the editor. */
  cards: CardPreviews;
  /** Compare Model Cards and Show Card Changes. */
  cardComparisons: CardComparisons;
  /** Show Changes' page (registry changes since the list was last seen). */
  changesPage: RegistryChangesPage;
  statusBar: ModelsStatusBar;
  environmentBar: EnvironmentStatusBar;
  /** The Usage view: requests, tokens and cost since the window opened and per day. */
  usageView: UsageView;
  /** Scratch requests: scratch files, response documents, history, the sender. */
  requests: RequestsApi;
  /** Payload checks in Test Explorer: the test controller, refresh, run, outcomes, the last results tables. */
  checks: ChecksApi;
  /** Model ids in the workspace's code: the index, its problems, Models in Use (loaded just after activation). */
  references: ReferencesApi;
}
