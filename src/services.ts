import { ModelSelection } from './platform/modelSelection';
import * as vscode from 'vscode';
import { Views } from './ids';
import { ApiKeyStore } from './platform/apiKeys';
import { ModelCatalog } from './platform/catalog';
import { ModelListCache } from './platform/modelCache';
import { ModelChanges } from './platform/modelChanges';
import { EnvironmentCatalogs } from './platform/environmentCatalogs';
import { Config } from './platform/config';
import { ServiceConnection } from './platform/connection';
import { ClientCertificatePassphrases } from './platform/passphrases';
import { HeaderSecrets } from './platform/headerSecrets';
import { Environments } from './platform/environments';
import { askWith, KeyConsent } from './domain/keyConsent';
import { RedactingLog } from './platform/log';
import { createUi, type Ui } from './platform/ui';
import { FirstSteps } from './platform/firstSteps';
import { UsageMeter } from './platform/usageMeter';
import { ModelUsage } from './platform/modelUsage';

/**
 * The shared, vscode-bound services every feature receives: built once in `activate()`, handed to each
 * feature's `register(services)`.
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly config: Config;
  readonly keys: ApiKeyStore;
  /** The configured environments and the active one (remembered per workspace). */
  readonly environments: Environments;
  /** The configured service: URL + key + one client (`getClient()`), and the consent for workspace URLs. */
  readonly connection: ServiceConnection;
  /** The organization's models, loaded once and shared by the tree, completions, pickers and chat. */
  readonly catalog: ModelCatalog;
  /** Every environment's models (the active one's is `catalog`), for the all-environments view and chat. */
  readonly catalogs: EnvironmentCatalogs;
  /** What changed in the active environment's list since the person last marked it as seen. */
  readonly changes: ModelChanges;
  /** The Output channel; it removes every registered secret (and credential-looking text) from each line. */
  readonly log: RedactingLog;
  /** Prompts, messages, clipboard and browser; replaceable by tests. */
  readonly ui: Ui;
  /** The model row selected in the Models view (the explorer writes it). */
  readonly selection: ModelSelection;
  /** The walkthrough goals reached (a card opened, a request sent…), kept across reloads. */
  readonly firstSteps: FirstSteps;
  /** Prices, the cost of each answer, the totals per window and day, the last rate limits per environment. */
  readonly meter: UsageMeter;
  /** How many places in the workspace's code name each model (references write it, the Models view reads it). */
  readonly usage: ModelUsage;
  /** What integration tests observe: features add their parts; `activate()` returns it only under a test runner. */
  readonly testApi: PlatformTestApi & Record<string, unknown>;
}

/**
 * The platform's part of what integration tests observe (see `ModelAccessApi` in src/testApi.ts): features add
 * theirs under their own names, so this layer names no feature.
 */
export interface PlatformTestApi {
  catalog: ModelCatalog;
  /** The saved model lists (tests find and damage the files). */
  modelCache: ModelListCache;
  catalogs: EnvironmentCatalogs;
  /** Registry changes since the list was last marked as seen (and the seen lists on disk). */
  changes: ModelChanges;
  seenLists: ModelListCache;
  keys: ApiKeyStore;
  environments: Environments;
  connection: ServiceConnection;
  log: RedactingLog;
  /** The model row selected in the Models view, as New Request reads it. */
  selection: ModelSelection;
  meter: UsageMeter;
  /** Prompts, messages, clipboard and browser: replace members to answer prompts or observe. */
  ui: Ui;
  /** Replaces how Model Cards are opened (default `vscode.env.openExternal`); returns a restore function. */
  setOpener(opener: (url: string) => Thenable<boolean>): () => void;
}

/** Builds the services; their disposables go into `context.subscriptions`. */
export function createServices(context: vscode.ExtensionContext, log: RedactingLog): Services {
  const config = new Config();
  // Every key read or stored is registered with the log's redactor there, and nowhere else.
  const keys = new ApiKeyStore(context.secrets, {
    environmentBaseUrl: () => config.environmentBaseUrl,
    redactor: log.redactor,
  });
  const ui = createUi();
  // Allowances for service URLs from workspace settings, kept in workspace state (never synced).
  const consent = new KeyConsent(
    context.workspaceState,
    askWith((message, detail, ...actions) => ui.ask(message, detail, ...actions)),
  );
  const passphrases = new ClientCertificatePassphrases(context.secrets, log.redactor);
  const headerSecrets = new HeaderSecrets(context.secrets, log.redactor);
  // The active environment is this workspace's choice, kept in workspace state (never synced).
  const environments = new Environments(config, context.workspaceState);
  const connection = new ServiceConnection(
    config,
    environments,
    keys,
    consent,
    (entry) => log.request(entry),
    passphrases,
    (message) => log.warn(message),
    headerSecrets,
  );
  // The last good list per environment and service, shown at once by the next window (global storage is
  // this machine's, never synced).
  const modelCache = new ModelListCache(
    context.globalStorageUri.fsPath,
    context.secrets,
    () => config.rememberModelList,
    (message) => log.info(message),
  );
  const progress = <T>(task: () => Promise<T>) =>
    vscode.window.withProgress({ location: { viewId: Views.models } }, task);
  const catalog = new ModelCatalog(connection, progress, modelCache);
  const catalogs = new EnvironmentCatalogs(catalog, environments, connection, progress, modelCache);
  // The list each environment's service was last marked as seen with, beside the saved lists.
  const seenLists = new ModelListCache(
    context.globalStorageUri.fsPath,
    context.secrets,
    () => config.rememberModelList,
    (message) => log.info(message),
    'seen',
  );
  const changes = new ModelChanges(catalog, seenLists);
  context.subscriptions.push(
    config,
    keys,
    passphrases,
    headerSecrets,
    environments,
    connection,
    catalog,
    catalogs,
    changes,
    config.onDidChange((e) => {
      if (e.cache && !config.rememberModelList) {
        void modelCache.clear();
        void seenLists.clear();
      }
    }),
    { dispose: () => void modelCache.flush() },
  );
  const selection = new ModelSelection();
  const firstSteps = new FirstSteps(context.globalState);
  // Totals per day in global storage (this machine's; counts and amounts only).
  const meter = new UsageMeter(config, environments, catalogs, connection, context.globalState);
  const usage = new ModelUsage();
  context.subscriptions.push(meter, usage);
  const testApi: PlatformTestApi & Record<string, unknown> = {
    catalog,
    selection,
    meter,
    catalogs,
    modelCache,
    changes,
    seenLists,
    keys,
    environments,
    connection,
    log,
    ui,
    setOpener(opener) {
      const previous = ui.openExternal;
      ui.openExternal = opener;
      return () => {
        ui.openExternal = previous;
      };
    },
  };
  return {
    context,
    config,
    keys,
    environments,
    connection,
    catalog,
    catalogs,
    changes,
    log,
    ui,
    selection,
    firstSteps,
    meter,
    usage,
    testApi,
  };
}
