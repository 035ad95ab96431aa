import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import {
  changeCount,
  compareLists,
  prepareList,
  type PreparedList,
  type RegistryChanges,
} from '../domain/registry/changes';
import type { SavedList } from '../domain/savedModelList';
import type { ModelCatalog } from './catalog';
import type { ModelListCache } from './modelCache';
import { Lifecycle } from './lifecycle';

/** The changes shown: from the list last marked as seen to the list loaded now, for one service and key. */
export interface ShownChanges {
  changes: RegistryChanges;
  /** When the list compared against was seen (epoch ms). */
  seenAt: number;
  /** The service identity both lists belong to (never shown: it holds the key). */
  identity: string;
}

/** What one refresh found changed in the active environment's list (the models changed event). */
export interface RefreshChanges {
  /** The environment whose list it is (as the service state names it). */
  environment: string;
  /** The service and key it belongs to (never shown: it holds the key). */
  identity: string;
  /**
   * Against the list compared last in this window for this service and key, or, on the first refresh in this
   * window, against the list last marked as seen (what changed since the previous window).
   */
  changes: RegistryChanges;
}

/**
 * "What changed since you last looked", per environment, service and key: the list a person last marked as
 * seen is kept on disk (`seen-….json` beside the saved lists, same binding and fingerprint), and every list
 * the catalog loads in full is compared with it. The first load of a service marks nothing: its list becomes
 * the seen one. A failed load, or one whose list may be partial (the client's warnings: page cap, size cap,
 * repeated cursor), computes nothing and leaves what is shown. Mark as Seen makes the list shown the seen one.
 * `onDidFindChanges` says what each refresh found changed (Test Explorer follows it), never on a first load.
 */
export class ModelChanges extends Lifecycle {
  private _current: ShownChanges | undefined;
  private generation = 0;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** The changes shown changed (computed, cleared, marked as seen). */
  readonly onDidChange = this._onDidChange.event;
  private pending: Promise<void> = Promise.resolve();
  /**
   * The seen list as last read, prepared for comparing: the cache hands back the same list until the file
   * changes (Mark as Seen, another window), so a refresh pays only for the pass over the new list.
   */
  private prepared: { saved: SavedList; list: PreparedList } | undefined;
  private readonly _onDidFindChanges = new vscode.EventEmitter<RefreshChanges>();
  /** A refresh found models changed (added, gone, a new version, lifecycle news) since the list before it. */
  readonly onDidFindChanges = this._onDidFindChanges.event;
  /** The list compared last per service and key in this window (a few environments at most). */
  private readonly lastCompared = new Map<string, readonly ModelEntry[]>();

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly seen: ModelListCache,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.own(
      this._onDidChange,
      this._onDidFindChanges,
      catalog.onDidChangeStatus((status) => {
        if (status.kind === 'ready' && !catalog.savedListShown) {
          this.pending = this.compare();
        }
      }),
    );
  }

  /** The changes to show, if any (undefined: nothing changed, or nothing to compare with yet). */
  get current(): ShownChanges | undefined {
    const current = this._current;
    // Changes belong to the service and key they were computed for, never to a list switched to since.
    return current && current.identity === this.catalog.serviceState.identity ? current : undefined;
  }

  get count(): number {
    return changeCount(this.current?.changes);
  }

  /** Resolves once the latest comparison is done (tests). */
  settled(): Promise<void> {
    return this.pending;
  }

  private async compare(): Promise<void> {
    const generation = ++this.generation;
    const state = this.catalog.serviceState;
    const models = this.catalog.models;
    const identity = state.identity;
    if (this.catalog.warnings.length > 0 || !identity || state.setup !== 'ready') {
      // A list that may be partial says nothing about what is gone.
      if (identity !== this._current?.identity) {
        this.set(undefined);
      }
      return;
    }
    const saved = await this.seen.read(state).catch(() => undefined);
    if (generation !== this.generation || this.catalog.models !== models) {
      return;
    }
    if (!saved) {
      // The first list of this service and key: nothing to compare with, so it is what was seen.
      this.lastCompared.set(identity, models);
      await this.save(models);
      if (generation === this.generation) {
        this.set(undefined);
      }
      return;
    }
    if (this.prepared?.saved !== saved) {
      this.prepared = { saved, list: prepareList(saved.models) };
    }
    const changes = compareLists(this.prepared.list, models);
    this.set(changeCount(changes) > 0 ? { changes, seenAt: saved.savedAt, identity } : undefined);
    const previous = this.lastCompared.get(identity);
    this.lastCompared.set(identity, models);
    const found = previous === undefined ? changes : compareLists(previous, models);
    if (changeCount(found) > 0) {
      this._onDidFindChanges.fire({ environment: state.environment ?? '', identity, changes: found });
    }
  }

  /** Mark as Seen: the list shown now becomes the one later lists are compared with. */
  async markSeen(): Promise<void> {
    this.generation++;
    await this.save(this.catalog.models);
    this.set(undefined);
  }

  private async save(models: readonly ModelEntry[]): Promise<void> {
    this.seen.write(this.catalog.serviceState, { savedAt: this.now(), models, skipped: 0, warnings: [] });
    await this.seen.flush();
  }

  private set(value: ShownChanges | undefined): void {
    if (value === undefined && this._current === undefined) {
      return;
    }
    this._current = value;
    this._onDidChange.fire();
  }
}
