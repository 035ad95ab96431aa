import * as vscode from 'vscode';
import type { Environment } from '../domain/environments';
import { ModelCatalog, type ProgressRunner } from './catalog';
import type { ServiceConnection } from './connection';
import type { Environments } from './environments';
import type { ModelListCache } from './modelCache';
import { Lifecycle } from './lifecycle';

/**
 * The model lists of every environment, for the Models view's all-environments roots and the chat models
 * of all environments. The active environment's list is the shared catalog (the one the rest of the
 * extension follows); every other environment gets a catalog of its own, made when first asked for and
 * kept while the environment is configured. A key, secret header or setting change reloads the catalogs
 * whose service identity it changed; nothing loads until someone asks (`ensureLoaded`).
 */
export class EnvironmentCatalogs extends Lifecycle {
  private readonly pinned = new Map<string, { catalog: ModelCatalog; subscriptions: vscode.Disposable[] }>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** An environment's list or state changed, or the environments themselves did. */
  readonly onDidChange = this._onDidChange.event;
  /** Another environment became the active one. */
  readonly onDidSwitch: vscode.Event<unknown>;

  constructor(
    private readonly active: ModelCatalog,
    private readonly environments: Environments,
    private readonly connection: ServiceConnection,
    private readonly progress?: ProgressRunner,
    /** The saved lists, so another environment's root shows its last list at once too. */
    private readonly cache?: ModelListCache,
  ) {
    super();
    this.onDidSwitch = environments.onDidSwitch;
    this.own(
      this._onDidChange,
      active.onDidChange(() => this._onDidChange.fire()),
      active.onDidChangeStatus(() => this._onDidChange.fire()),
      environments.onDidChangeList(() => {
        this.dropRemoved();
        this._onDidChange.fire();
      }),
      environments.onDidSwitch(() => this._onDidChange.fire()),
      connection.onDidChange(() => void this.reloadChanged()),
    );
  }

  /** The name of the active environment (its catalog is the shared one). */
  get activeName(): string | undefined {
    return this.environments.active?.name;
  }

  /** Every configured environment with the catalog holding its models, in the settings' order. */
  all(): { environment: Environment; catalog: ModelCatalog }[] {
    return this.environments.list.map((environment) => ({ environment, catalog: this.catalogFor(environment) }));
  }

  /** The catalog of `env`: the shared one while `env` is active, else its own. */
  catalogFor(env: Environment): ModelCatalog {
    if (env.name === this.environments.active?.name) {
      return this.active;
    }
    let entry = this.pinned.get(env.name);
    if (!entry) {
      const name = env.name;
      // Once removed from the settings, the catalog's environment has no URL: it reports needsUrl, never
      // another environment's list.
      const gone: Environment = { ...env, baseUrl: '', headers: {}, secretHeaders: [], variables: {} };
      const catalog = new ModelCatalog(
        this.connection,
        this.progress,
        this.cache,
        () => this.environments.find(name) ?? gone,
      );
      entry = {
        catalog,
        subscriptions: [
          catalog.onDidChange(() => this._onDidChange.fire()),
          catalog.onDidChangeStatus(() => this._onDidChange.fire()),
        ],
      };
      this.pinned.set(name, entry);
    }
    return entry.catalog;
  }

  /** Loads every environment's list that was never loaded (keys missing settle at once). */
  async ensureLoaded(): Promise<void> {
    await Promise.all(this.all().map(({ catalog }) => catalog.ensureLoaded().catch(() => undefined)));
  }

  /** Reloads every environment's list (Refresh with all environments shown). */
  async reloadAll(): Promise<void> {
    await Promise.all(this.all().map(({ catalog }) => catalog.reload().catch(() => undefined)));
  }

  /**
   * After a key, secret header or settings change: reloads the other environments' catalogs that were used
   * and whose identity (URL scope, key, headers) is not the one their list was loaded under. The active
   * catalog is reloaded by the explorer already.
   */
  private async reloadChanged(): Promise<void> {
    await Promise.all(
      [...this.pinned].map(async ([name, { catalog }]) => {
        const env = this.environments.find(name);
        if (!env || env.name === this.environments.active?.name || catalog.status.kind === 'idle') {
          return;
        }
        const state = await this.connection.state(env).catch(() => undefined);
        const seen = catalog.serviceState;
        if (!state || state.setup !== seen.setup || state.identity !== seen.identity) {
          await catalog.reload().catch(() => undefined);
        }
      }),
    );
  }

  private dropRemoved(): void {
    const names = new Set(this.environments.list.map((e) => e.name));
    for (const [name, entry] of this.pinned) {
      if (!names.has(name)) {
        this.pinned.delete(name);
        entry.subscriptions.forEach((s) => s.dispose());
        entry.catalog.dispose();
      }
    }
  }

  override dispose(): void {
    for (const entry of this.pinned.values()) {
      entry.subscriptions.forEach((s) => s.dispose());
      entry.catalog.dispose();
    }
    this.pinned.clear();
    super.dispose();
  }
}
