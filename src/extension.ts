import * as vscode from 'vscode';
import { ServiceClient } from './api/client';
import { ServiceError } from './api/errors';
import type { ModelService, ServiceClientOptions } from './api/types';
import { ApiKeyStore } from './platform/apiKeys';
import { askWith, KeyConsent } from './common/keyConsent';
import * as modelCommands from './explorer/commands';
import * as setupCommands from './setup/commands';
import { registerChatProvider } from './chat';
import type { CommandDeps } from './commands/deps';
import { Config } from './platform/config';
import { Views } from './ids';
import { RedactingLog } from './platform/log';
import { ModelCatalog } from './platform/catalog';
import { ModelDocuments } from './explorer/inspect';
import { ModelsView } from './explorer/modelsView';
import type { RequestDeps } from './requests/deps';
import { registerRequests, type RequestsApi } from './requests';
import { ServiceConnection } from './platform/connection';
import { ModelsStatusBar } from './setup/statusBar';
import { activationFailed, createUi, Ui } from './platform/ui';
import { msg } from './common/text';
import { registerWalkthrough } from './setup/walkthrough';

/**
 * The objects integration tests observe and drive. `activate()` returns it only when the extension runs
 * under a test runner (`ExtensionMode.Test`): it holds the key store and replaceable prompts, and any
 * installed extension can call `getExtension(…).activate()`, so an installed copy exports nothing.
 */
export interface ModelAccessApi {
  catalog: ModelCatalog;
  view: ModelsView;
  keys: ApiKeyStore;
  connection: ServiceConnection;
  documents: ModelDocuments;
  log: RedactingLog;
  statusBar: ModelsStatusBar;
  /** Prompts, messages, clipboard and browser: replace members to answer prompts or observe. */
  ui: Ui;
  /** Scratch requests: scratch files, response documents, history, the sender. */
  requests: RequestsApi;
  /** Replaces how Model Cards are opened (default `vscode.env.openExternal`); returns a restore function. */
  setOpener(opener: (url: string) => Thenable<boolean>): () => void;
}

function createClient(options: ServiceClientOptions): ModelService {
  return new ServiceClient(options);
}

function configError(message: string, code?: string): Error {
  return new ServiceError({ kind: 'config', message, code });
}

export function activate(context: vscode.ExtensionContext): ModelAccessApi | undefined {
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  let log: RedactingLog | undefined;
  try {
    log = new RedactingLog();
    const config = new Config();
    const keys = new ApiKeyStore(context.secrets, {
      environmentBaseUrl: () => config.environmentBaseUrl,
      redactor: log.redactor,
    });
    const requestLog = log;
    const ui = createUi();
    // Allowances for service URLs from workspace settings, kept in workspace state (never synced).
    const consent = new KeyConsent(
      context.workspaceState,
      askWith((message, detail, ...actions) => ui.ask(message, detail, ...actions)),
    );
    const connection = new ServiceConnection(
      config,
      keys,
      createClient,
      configError,
      (entry) => requestLog.request(entry),
      consent,
    );
    const catalog = new ModelCatalog(connection, (task) =>
      vscode.window.withProgress({ location: { viewId: Views.models } }, task),
    );
    const view = new ModelsView(catalog, config);
    const documents = new ModelDocuments(log);
    const statusBar = new ModelsStatusBar(catalog);
    context.subscriptions.push(log, config, keys, connection, catalog, view, documents, statusBar);

    const deps: CommandDeps = { config, connection, keys, catalog, view, documents, log, ui };
    context.subscriptions.push(...setupCommands.register(deps), ...modelCommands.register(deps));
    // A new service or key (here or in another window) replaces the list.
    context.subscriptions.push(
      connection.onDidChange(
        () =>
          void (catalog.status.kind === 'idle' && !view.treeView.visible ? catalog.refreshSetup() : catalog.reload()),
      ),
    );

    // What the scratch-request features (src/requests/, issue 6) receive.
    const requestDeps: RequestDeps = {
      context,
      getClient: () => connection.getClient(),
      catalog,
      log,
      config,
      ui,
      redact: (text) => requestLog.redactor.removeSecrets(text),
    };
    // ── Feature registrations (each pushes its disposables into context.subscriptions): ──
    const requests = registerRequests(requestDeps);
    context.subscriptions.push(...registerChatProvider(requestDeps)); // chat models in VS Code's chat (issue 9)
    context.subscriptions.push(...registerWalkthrough(context)); // "Get Started" reopens the walkthrough (issue 12)
    // ── end of feature registrations ──

    // First load once activation has returned (no network inside activate): the view asked for it.
    setTimeout(() => {
      if (view.treeView.visible) {
        void catalog.ensureLoaded();
      }
    }, 0);
    // Not the full list: the status bar needs the setup state (URL/key) without loading models.
    void catalog.refreshSetup();

    if (!testMode) {
      return undefined;
    }
    return {
      catalog,
      view,
      keys,
      connection,
      documents,
      log,
      statusBar,
      ui,
      requests,
      setOpener(opener) {
        const previous = ui.openExternal;
        ui.openExternal = opener;
        return () => {
          ui.openExternal = previous;
        };
      },
    };
  } catch (e) {
    // VS Code does not tell the user about a failed activation; say what broke.
    const message = e instanceof Error ? e.message : String(e);
    log?.error(`Activation failed: ${message}`);
    activationFailed(msg`Model Access could not start: ${log?.redactor.redact(message) ?? message}`);
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
