import type { ModelUsage } from '../platform/modelUsage';
import * as vscode from 'vscode';
import type { Config } from '../platform/config';
import { ContextKeys, Views, BuiltinCommands } from '../ids';
import { clean, displayText, type DisplayText } from '../common/text';
import { l10n } from '../platform/l10n';
import type { ModelCatalog } from '../platform/catalog';
import type { ModelsTreeNode } from './nodes';
import { ModelsTreeProvider, ViewOptions } from './treeProvider';
import { filterModels } from '../domain/modelSorting';
import { Lifecycle } from '../platform/lifecycle';
import type { EnvironmentCatalogs } from '../platform/environmentCatalogs';
import { EnvironmentRootsProvider, type EnvironmentNode } from './environmentRoots';
import { updatedAgo } from '../domain/savedModelList';
import type { ModelChanges } from '../platform/modelChanges';
import { changesSummary } from '../domain/registry/changes';

/** How often "updated N min ago" is brought up to date while a saved list is shown. */
const AGE_TICK_MS = 30_000;

/**
 * The Models view: the tree view, its message line, title description and the context keys its menus
 * and welcome content depend on. The filter lives here (it is a view concern, not catalog state).
 */
export class ModelsView extends Lifecycle {
  /** The active environment's tree (what the view shows unless every environment is a root). */
  readonly provider: ModelsTreeProvider;
  /** What the view shows: `provider`, or every environment as a root above its own tree. */
  readonly roots: EnvironmentRootsProvider;
  readonly treeView: vscode.TreeView<ModelsTreeNode | EnvironmentNode>;
  private _filter: string | undefined;
  private readonly contextValues = new Map<string, unknown>();
  private ageTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly config: Config,
    private readonly catalogs: EnvironmentCatalogs,
    /** The registry changes since the active environment's list was last seen (rows, message, badge). */
    private readonly changes?: ModelChanges,
    /** How many places in the workspace's code name each model (shown on its row). */
    usage?: ModelUsage,
  ) {
    super();
    this.provider = new ModelsTreeProvider(catalog, () => this.options(), changes, usage);
    this.roots = new EnvironmentRootsProvider(
      this.provider,
      catalogs,
      () => this.options(),
      () => config.showAllEnvironments,
    );
    this.treeView = vscode.window.createTreeView(Views.models, {
      treeDataProvider: this.roots,
      showCollapseAll: true,
    });
    this.own(
      this.provider,
      this.roots,
      this.treeView,
      catalog.onDidChange(() => this.update()),
      catalog.onDidChangeStatus(() => this.update()),
      ...(changes ? [changes.onDidChange(() => this.update())] : []),
      config.onDidChange((e) => {
        if (e.view) {
          this.update();
          this.provider.refresh();
          this.roots.refresh();
        }
        if (e.allEnvironments && this.treeView.visible) {
          this.load();
        }
      }),
      // The environment left behind gets a list of its own: loaded at once while every environment is shown.
      catalogs.onDidSwitch(() => {
        if (config.showAllEnvironments) {
          void catalogs.ensureLoaded();
        }
      }),
      this.treeView.onDidChangeVisibility((e) => {
        if (e.visible) {
          this.load();
        }
      }),
    );
    this.update();
  }

  /** Loads what the view shows, once: the active environment's list, or every environment's. */
  load(): void {
    void this.catalog.ensureLoaded();
    if (this.config.showAllEnvironments) {
      void this.catalogs.ensureLoaded();
    }
  }

  options(): ViewOptions {
    return {
      grouped: this.config.groupByFamily,
      filter: this._filter,
      clickable: this.config.modelClickAction !== 'none',
      prices: this.config.prices,
    };
  }

  get filter(): string | undefined {
    return this._filter;
  }

  setFilter(text: string | undefined): void {
    const value = text?.trim() || undefined;
    if (value === this._filter) {
      return;
    }
    this._filter = value;
    this.update();
    this.provider.refresh();
    this.roots.refresh();
  }

  private setContext(key: string, value: unknown): void {
    if (this.contextValues.get(key) === value) {
      return;
    }
    this.contextValues.set(key, value);
    void vscode.commands.executeCommand(BuiltinCommands.setContext, key, value);
  }

  private update(): void {
    const status = this.catalog.status;
    const models = this.catalog.models;
    const state = this.catalog.serviceState;
    // While idle the status says nothing about the setup: the service state does, once it has been read.
    // A passing "ready" (before the URL and key were read, or while a load is about to report them
    // missing) would tick the walkthrough's setup steps.
    const setup =
      status.kind === 'needsUrl' || status.kind === 'needsKey'
        ? status.kind
        : status.kind !== 'idle'
          ? 'ready'
          : this.catalog.setupKnown
            ? state.setup
            : undefined;
    if (setup) {
      this.setContext(ContextKeys.setup, setup);
    }
    let catalogState: string = status.kind;
    if (status.kind === 'ready' && models.length === 0) {
      catalogState = 'empty';
    }
    this.setContext(ContextKeys.catalogState, catalogState);
    this.setContext(ContextKeys.grouped, this.config.groupByFamily);
    this.setContext(ContextKeys.filtered, this._filter !== undefined);

    this.treeView.description =
      state.host && status.kind !== 'needsUrl'
        ? state.environment && state.environment !== state.host
          ? `${displayText(state.environment, 60)} · ${state.host}`
          : state.host
        : undefined;

    const lines: DisplayText[] = [];
    if (this._filter !== undefined) {
      const shown = filterModels(models, this._filter).length;
      const filter = displayText(this._filter, 60);
      lines.push(
        models.length === 1
          ? l10n.t('Filter “{0}”: {1} of 1 model.', filter, shown)
          : l10n.t('Filter “{0}”: {1} of {2} models.', filter, shown, models.length),
      );
    }
    const saved = this.catalog.savedListShown && models.length > 0 ? this.catalog.loadedAt : undefined;
    if (status.kind === 'error') {
      lines.push(displayText(status.failure.message, 400));
      if (saved) {
        lines.push(l10n.t('Showing the saved list, {0}.', updatedAgo(saved.getTime(), Date.now())));
      } else if (models.length > 0 && this.catalog.loadedAt) {
        lines.push(l10n.t('Showing the list from {0}.', clean(this.catalog.loadedAt.toLocaleTimeString())));
      }
    } else if (saved) {
      const age = updatedAgo(saved.getTime(), Date.now());
      lines.push(
        status.kind === 'loading' ? l10n.t('Saved list, {0}. Refreshing…', age) : l10n.t('Saved list, {0}.', age),
      );
    } else if (status.kind === 'ready') {
      const skipped = this.catalog.skipped;
      if (skipped > 0) {
        lines.push(
          skipped === 1
            ? l10n.t('1 entry without an identifier was skipped.')
            : l10n.t('{0} entries without an identifier were skipped.', skipped),
        );
      }
      lines.push(...this.catalog.warnings.map((w) => displayText(w, 200)));
    }
    const shown = this.changes?.current;
    if (shown && !this.config.showAllEnvironments) {
      lines.push(l10n.t('{0}.', changesSummary(shown.changes, shown.seenAt, Date.now())));
    }
    const count = this.changes?.count ?? 0;
    this.treeView.badge =
      count > 0
        ? {
            value: count,
            tooltip:
              count === 1
                ? l10n.t('1 registry change since last seen')
                : l10n.t('{0} registry changes since last seen', count),
          }
        : undefined;
    this.treeView.message = lines.length ? lines.join(' ') : undefined;
    this.tickAge(saved !== undefined);
  }

  /** While a saved list is shown, its age moves on. */
  private tickAge(on: boolean): void {
    if (on && !this.ageTimer) {
      this.ageTimer = setInterval(() => this.update(), AGE_TICK_MS);
    } else if (!on && this.ageTimer) {
      clearInterval(this.ageTimer);
      this.ageTimer = undefined;
    }
  }

  override dispose(): void {
    this.tickAge(false);
    super.dispose();
  }
}
