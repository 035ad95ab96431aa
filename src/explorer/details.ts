import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { chatModelId, chatSelection } from '../domain/chatModels';
import { describeFailure } from '../domain/failure';
import { newNonce } from '../common/html';
import { displayText, type DisplayText } from '../common/text';
import { ChatVendor, Commands, Settings } from '../ids';
import type { Services } from '../services';
import { flash } from '../platform/ui';
import { detailsHtml, parseDetailsMessage, type DetailsMessage, type DetailsPageState } from './core/detailsHtml';
import { checkCardLink } from '../api/linkSafety';
import { modelDetails } from './core/modelDetails';
import { formatPrice, priceFor } from '../domain/cost/prices';
import { l10n } from '../platform/l10n';

export const DETAILS_VIEW_TYPE = 'modelAccess.modelDetails';

/** What tests observe of one open details tab. */
export interface DetailsTab {
  panel: vscode.WebviewPanel;
  state: DetailsPageState;
  /** Resolves when the refresh started last has settled. */
  refreshed: Promise<void>;
  /** The entry as the service last gave it. */
  entry?: ModelEntry;
  /** The model's id, as the service knows it. */
  id: string;
  /** The environment the tab reads from, when it was opened from that environment's root; else the active one. */
  environment?: string;
  /** What the page's live region was last given to read out ("Copied …"). */
  lastAnnounced?: string;
}

/** `environment`: the tab's (see `DetailsTab.environment`). */
interface Actions {
  openCard(model: ModelEntry, environment?: string): Promise<unknown>;
  previewCard(model: ModelEntry, environment?: string): Promise<unknown>;
}

/**
 * Model Details: one editor tab per model (a webview under a strict CSP), filled from the catalog's entry at
 * once and from `GET /v1/models/{id}` as soon as it answers. The page only posts which button was pressed;
 * everything it asks for is checked and done here.
 */
export class ModelDetailsPanels implements vscode.Disposable {
  readonly tabs = new Map<string, DetailsTab>();

  constructor(
    private readonly services: Services,
    private readonly actions: Actions,
  ) {}

  /**
   * Opens (or reveals) the tab of `model`. With `environment` (a row under that environment's root) the tab
   * reads the model from that environment's service, whichever is active; tabs are one per model and
   * environment.
   */
  async show(model: ModelEntry, environment?: string): Promise<DetailsTab> {
    const key = tabKey(model.id, environment);
    const existing = this.tabs.get(key);
    if (existing) {
      existing.panel.reveal();
      this.refresh(key);
      return existing;
    }
    const title = displayText(model.id, 60) || 'Model';
    const panel = vscode.window.createWebviewPanel(
      DETAILS_VIEW_TYPE,
      environment === undefined ? title : `${title} · ${displayText(environment, 40)}`,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [], retainContextWhenHidden: false },
    );
    const tab: DetailsTab = {
      panel,
      state: {
        details: modelDetails(model),
        loading: true,
        chat: this.chatInfo(model, environment),
        price: this.priceOf(model),
      },
      refreshed: Promise.resolve(),
      id: model.id,
      environment,
    };
    this.tabs.set(key, tab);
    panel.onDidDispose(() => {
      if (this.tabs.get(key) === tab) {
        this.tabs.delete(key);
      }
    });
    panel.webview.onDidReceiveMessage((m: unknown) => {
      const message = parseDetailsMessage(m);
      if (message) {
        void this.handle(key, model.id, message).catch((e: unknown) =>
          this.services.log.error(`Model Details action failed: ${e instanceof Error ? e.message : String(e)}`),
        );
      }
    });
    this.render(tab);
    this.refresh(key);
    return tab;
  }

  /** Reads the entry again (`key`: the tab's); a failure is shown in the page, which keeps what it had. */
  refresh(key: string): Promise<void> {
    const tab = this.tabs.get(key);
    if (!tab) {
      return Promise.resolve();
    }
    const id = tab.id;
    tab.state = { ...tab.state, loading: true };
    this.render(tab);
    tab.refreshed = (async () => {
      try {
        const env = tab.environment === undefined ? undefined : this.services.environments.find(tab.environment);
        if (tab.environment !== undefined && !env) {
          throw new Error(`the environment ${displayText(tab.environment, 60)} is no longer configured`);
        }
        const entry = await (await this.services.connection.getClient(env)).getModel(id);
        tab.state = {
          ...tab.state,
          details: modelDetails(entry),
          chat: this.chatInfo(entry, tab.environment),
          price: this.priceOf(entry),
          loading: false,
          error: undefined,
          fetchedAt: new Date().toLocaleTimeString(),
        };
        tab.entry = entry;
      } catch (e) {
        const failure = describeFailure(e);
        const message =
          failure.kind === 'notFound' || failure.status === 404
            ? `The service does not know this model (404): it may have been removed or is not available to your organization.`
            : `Could not read the model from the service: ${failure.message}`;
        const full = failure.requestId ? `${message} (request id ${failure.requestId})` : message;
        tab.state = { ...tab.state, loading: false, error: this.services.log.redactor.redact(full) };
        this.services.log.warn(`Model Details of ${displayText(id, 120)}: ${full}`);
      }
      this.render(tab);
    })();
    return tab.refreshed;
  }

  /**
   * The model as chat offers it. With every environment shown, chat ids carry the environment's name (the
   * tab's, else the active one), as the chat provider offers them.
   */
  /** The model's price in words: the entry's, overridden or filled by `modelAccess.prices`. */
  private priceOf(model: ModelEntry): string {
    return formatPrice(priceFor(model.id, model.raw, this.services.config.prices));
  }

  private chatInfo(model: ModelEntry, environment: string | undefined): DetailsPageState['chat'] {
    const section = vscode.workspace.getConfiguration(Settings.section);
    if (section.get<boolean>(Settings.chatEnabled, true) === false) {
      return undefined;
    }
    const patterns = section.get<unknown>(Settings.chatModels, []);
    const selected = chatSelection(Array.isArray(patterns) ? patterns.filter((p) => typeof p === 'string') : []);
    const where = this.services.config.showAllEnvironments
      ? (environment ?? this.services.environments.active?.name)
      : undefined;
    return selected(model)
      ? { vendor: ChatVendor, id: chatModelId(model.id, where), name: displayText(model.id, 120) }
      : undefined;
  }

  /** The entry of `id` in the list of `environment` (none: the active one), when the list holds it. */
  private listed(environment: string | undefined, id: string): ModelEntry | undefined {
    const env = environment === undefined ? undefined : this.services.environments.find(environment);
    if (environment !== undefined && !env) {
      return undefined;
    }
    const catalog = env ? this.services.catalogs.catalogFor(env) : this.services.catalog;
    return catalog.models.find((m) => m.id === id);
  }

  private render(tab: DetailsTab): void {
    tab.state = { ...tab.state, copyAsCode: true };
    tab.panel.webview.html = detailsHtml(tab.state, newNonce(), tab.panel.webview.cspSource);
  }

  /**
   * Says what a button did in the status bar and in the page's live region, which screen readers read out
   * (a status bar message alone is not announced).
   */
  private announce(tab: DetailsTab, text: DisplayText): void {
    flash('copy', text);
    tab.lastAnnounced = text;
    void tab.panel.webview.postMessage({ announce: text });
  }

  private async handle(key: string, id: string, message: DetailsMessage): Promise<void> {
    const tab = this.tabs.get(key);
    if (!tab) {
      return;
    }
    const entry: ModelEntry = tab.entry ?? this.listed(tab.environment, id) ?? { id, raw: undefined };
    // What the page's buttons start goes to the tab's environment too.
    const model = { model: entry, environment: tab.environment };
    switch (message.action) {
      case 'refresh':
        return this.refresh(key);
      case 'openCard':
        await this.actions.openCard(entry, tab.environment);
        return;
      case 'previewCard':
        await this.actions.previewCard(entry, tab.environment);
        return;
      case 'newRequest':
        await vscode.commands.executeCommand(Commands.newRequest, model);
        return;
      case 'copyId':
        await this.services.ui.copy(id);
        this.announce(tab, l10n.t('Copied {0}', displayText(id, 60)));
        return;
      case 'copyChatId':
        if (tab.state.chat) {
          await this.services.ui.copy(tab.state.chat.id);
          this.announce(tab, l10n.t('Copied the chat model id {0}', displayText(id, 60)));
        }
        return;
      case 'compare':
        await vscode.commands.executeCommand(Commands.compareModels, model);
        return;
      case 'newRequestSuccessor':
      case 'compareSuccessor': {
        // The successor the page was built with (the banner's), in the tab's environment.
        const successorId = tab.state.details.lifecycle?.successor;
        if (successorId === undefined) {
          return;
        }
        const successor = this.listed(tab.environment, successorId) ?? { id: successorId, raw: undefined };
        if (message.action === 'newRequestSuccessor') {
          await vscode.commands.executeCommand(Commands.newRequest, {
            model: successor,
            environment: tab.environment,
          });
        } else {
          // Both models, no pick: the payload open (or the one New Request offers) goes to the two of them.
          await vscode.commands.executeCommand(Commands.compareModels, {
            model: entry,
            models: [id, successor.id],
            environment: tab.environment,
          });
        }
        return;
      }
      case 'copyAsCode':
        await vscode.commands.executeCommand(Commands.copyAsCode, model);
        return;
      case 'openLink': {
        // Only a link the page was built with, and only after the same checks as a card link.
        const link = message.link === undefined ? undefined : tab.state.details.links[message.link];
        const check = checkCardLink(link);
        if (check.ok) {
          this.services.log.info(`Opening a link of ${displayText(id, 200)}: ${displayText(check.url, 2048)}`);
          await this.services.ui.openExternal(check.url);
        }
        return;
      }
    }
  }

  dispose(): void {
    for (const tab of this.tabs.values()) {
      tab.panel.dispose();
    }
    this.tabs.clear();
  }
}

/** One tab per model and environment (none: the tab follows the active environment). */
function tabKey(id: string, environment: string | undefined): string {
  return environment === undefined ? id : JSON.stringify([environment, id]);
}
