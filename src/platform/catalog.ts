import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { describeFailure, Failure } from '../domain/failure';
import type { ServiceConnection, ServiceState } from './connection';
import type { ModelListCache } from './modelCache';
import type { SavedList } from '../domain/savedModelList';
import type { Environment } from '../domain/environments';

export type CatalogStatus =
  | { kind: 'needsUrl' }
  | { kind: 'needsKey' }
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ready' }
  | { kind: 'error'; failure: Failure };

/** Wraps a load so the UI can show progress (the view's progress bar); the catalog does not know how. */
export type ProgressRunner = <T>(task: () => Promise<T>) => Thenable<T>;

/** While the first load of a list runs, the rows read so far are shown at most this often. */
const PARTIAL_EVERY_MS = 250;
/**
 * A list this long or longer is large: the Models view starts its families collapsed. Rows read so far are
 * shown from this many on, so a list shown in pieces is always a large one: its families start collapsed
 * and stay so as pages arrive (VS Code keeps an item's expanded state by id), and a small list appears
 * whole, expanded, as before.
 */
export const LARGE_LIST = 300;

/**
 * The organization's models: state, one refresh at a time, and events. It keeps the last good list when
 * a refresh fails (as long as the service and key are the same), and drops it when they change.
 *
 * With a cache, a load for a list not shown yet first shows the list saved by an earlier window for the
 * same environment, service and key (`savedListShown`), while the service is asked; without one, the rows
 * of the pages read so far are shown as they arrive.
 */
export class ModelCatalog implements vscode.Disposable {
  private _models: readonly ModelEntry[] = [];
  private _status: CatalogStatus = { kind: 'idle' };
  /** The status a request's failure replaced (requestFailed), restored when a request succeeds. */
  private statusBeforeRequestFailure: CatalogStatus | undefined;
  private _state: ServiceState = { setup: 'needsUrl' };
  private _setupKnown = false;
  private _warnings: string[] = [];
  private _skipped = 0;
  private _loadedAt: Date | undefined;
  private _savedListShown = false;
  /** The saved list being read, so a load that starts meanwhile waits for it instead of reading it again. */
  private savedRead: { identity: string | undefined; list: Promise<SavedList | undefined> } | undefined;
  private listIdentity: string | undefined;

  private inFlight: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private generation = 0;
  private _requestCount = 0;

  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when the list of models changes. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeStatus = new vscode.EventEmitter<CatalogStatus>();
  /** Fires when loading starts or ends, or the setup or error state changes. */
  readonly onDidChangeStatus = this._onDidChangeStatus.event;

  constructor(
    private readonly connection: ServiceConnection,
    private readonly progress: ProgressRunner = (task) => task(),
    private readonly cache?: ModelListCache,
    /** The environment whose models this catalog holds; by default whichever is active at each load. */
    private readonly environment: () => Environment | undefined = () => connection.environment,
  ) {}

  get models(): readonly ModelEntry[] {
    return this._models;
  }
  get status(): CatalogStatus {
    return this._status;
  }
  /** The service state seen by the last load (host, key source — never the key). */
  get serviceState(): ServiceState {
    return this._state;
  }
  /** False until a setup check or a load has read the URL and key (until then `serviceState` is a guess). */
  get setupKnown(): boolean {
    return this._setupKnown;
  }
  get warnings(): readonly string[] {
    return this._warnings;
  }
  get skipped(): number {
    return this._skipped;
  }
  /** When the list shown was loaded from the service (by this window, or by an earlier one for a saved list). */
  get loadedAt(): Date | undefined {
    return this._loadedAt;
  }
  /** True while the list shown is the one saved on disk, not yet refreshed from the service in this window. */
  get savedListShown(): boolean {
    return this._savedListShown;
  }
  /** How many list loads reached the service (tests use it to check deduplication). */
  get requestCount(): number {
    return this._requestCount;
  }
  get isLoading(): boolean {
    return this.inFlight !== undefined;
  }

  /**
   * Loads the list unless a load is already running, in which case it joins that one. Resolves when the
   * catalog has settled: if a newer load replaced this one (the key or URL changed), after that one.
   */
  refresh(): Promise<void> {
    if (!this.inFlight) {
      const p = this.load().finally(() => {
        if (this.inFlight === p) {
          this.inFlight = undefined;
        }
      });
      this.inFlight = p;
    }
    return this.settled();
  }

  /** The service or key changed: abandon a running load and start over. */
  reload(): Promise<void> {
    this.generation++;
    this.abort?.abort();
    this.inFlight = undefined;
    return this.refresh();
  }

  /** Resolves once no load is running (waiting through loads that replace each other). */
  async settled(): Promise<void> {
    while (this.inFlight) {
      await this.inFlight;
    }
  }

  /**
   * Reads the setup state (URL and key present?) without calling the service, so the view's welcome
   * content and the status bar are right before the first load.
   */
  async refreshSetup(): Promise<void> {
    if (this.inFlight) {
      return;
    }
    const generation = this.generation;
    try {
      const state = await this.connection.state(this.environment());
      if (generation !== this.generation || this.inFlight) {
        return;
      }
      this._state = state;
      this._setupKnown = true;
      if (this.listIdentity !== undefined && this.listIdentity !== state.identity) {
        // A list shown before anything loaded (the saved one) belongs to the service and key it was saved for.
        this.forgetList();
      }
      if (state.setup !== 'ready') {
        this.setModels([], undefined);
        this.setStatus({ kind: state.setup });
      } else if (this._status.kind === 'needsUrl' || this._status.kind === 'needsKey') {
        this.setStatus({ kind: 'idle' });
      } else {
        this._onDidChangeStatus.fire(this._status);
      }
    } catch {
      // The next load reports it.
    }
  }

  /**
   * Shows the list saved by an earlier window, without calling the service, when nothing is shown yet (a
   * window's start, before anything asked for the list). The first load later refreshes it.
   */
  async showSaved(): Promise<void> {
    if (!this.cache || this.inFlight || this._models.length > 0 || this._status.kind !== 'idle') {
      return;
    }
    const generation = this.generation;
    const unchanged = () =>
      generation === this.generation && !this.inFlight && this._models.length === 0 && this._status.kind === 'idle';
    try {
      const state = await this.connection.state(this.environment());
      const saved = unchanged() && state.setup === 'ready' ? await this.readSaved(state) : undefined;
      if (!saved || !unchanged()) {
        return;
      }
      this._state = state;
      this._setupKnown = true;
      this.showSavedList(saved, state.identity);
    } catch {
      // Nothing shown; the first load reports any problem.
    }
  }

  private readSaved(state: ServiceState): Promise<SavedList | undefined> {
    const reading = this.savedRead;
    if (reading && reading.identity === state.identity) {
      return reading.list;
    }
    const list = this.cache ? this.cache.read(state).catch(() => undefined) : Promise.resolve(undefined);
    const read = { identity: state.identity, list };
    this.savedRead = read;
    void list.finally(() => {
      if (this.savedRead === read) {
        this.savedRead = undefined;
      }
    });
    return list;
  }

  private showSavedList(saved: SavedList, identity: string | undefined): void {
    this._warnings = [...saved.warnings];
    this._skipped = saved.skipped;
    this._loadedAt = new Date(saved.savedAt);
    this._savedListShown = true;
    this.setModels(saved.models, identity);
    this._onDidChangeStatus.fire(this._status);
  }

  /** Ensures the list was loaded at least once (first time the view or a picker needs it). */
  async ensureLoaded(): Promise<void> {
    if (this._status.kind === 'idle' || this.inFlight) {
      await this.refresh();
    }
  }

  /**
   * A request of another feature (Send, Upload, Compare) found the service unreachable or the key rejected:
   * the status (the status bar, the view's message) says so until the next load, or until a request succeeds.
   * Ignored while a load runs or the setup is incomplete (those states say more).
   */
  requestFailed(failure: Failure): void {
    if (this._status.kind === 'idle' || this._status.kind === 'ready' || this._status.kind === 'error') {
      // A failure of the list's own load stays the list's: a later request's success does not clear it.
      const before = this._status.kind === 'error' ? this.statusBeforeRequestFailure : this._status;
      this.setStatus({ kind: 'error', failure });
      this.statusBeforeRequestFailure = before;
    }
  }

  /** A request of another feature got an answer: a failure only such a request reported is over. */
  requestSucceeded(): void {
    const before = this.statusBeforeRequestFailure;
    if (before && this._status.kind === 'error') {
      this.setStatus(before);
    }
  }

  private setStatus(status: CatalogStatus): void {
    this.statusBeforeRequestFailure = undefined;
    this._status = status;
    this._onDidChangeStatus.fire(status);
  }

  private setModels(models: readonly ModelEntry[], identity: string | undefined): void {
    const changed = models !== this._models;
    this._models = models;
    this.listIdentity = identity;
    if (changed) {
      this._onDidChange.fire();
    }
  }

  private forgetList(): void {
    this._warnings = [];
    this._skipped = 0;
    this._loadedAt = undefined;
    this._savedListShown = false;
    this.setModels([], undefined);
  }

  private async load(): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    // The environment this load is for: its state and client, never those of one switched to meanwhile.
    const env = this.environment();
    let state: ServiceState;
    try {
      state = await this.connection.state(env);
    } catch (e) {
      if (current()) {
        this.setStatus({ kind: 'error', failure: describeFailure(e) });
      }
      return;
    }
    if (!current()) {
      return;
    }
    this._state = state;
    this._setupKnown = true;
    if (state.setup !== 'ready') {
      this.forgetList();
      this.setStatus({ kind: state.setup });
      return;
    }
    if (this.listIdentity !== undefined && this.listIdentity !== state.identity) {
      // Another service or key: the old list is not this one's "last good list".
      this.forgetList();
    }
    const abort = new AbortController();
    this.abort = abort;
    const before = { models: this._models, identity: this.listIdentity };
    const firstLoad = before.models.length === 0;
    let partialShown = false;
    let succeeded = false;
    let lastPartial = 0;
    const showPartial = (soFar: readonly ModelEntry[]) => {
      const now = performance.now();
      if (
        !current() ||
        this._savedListShown ||
        soFar.length < LARGE_LIST ||
        (partialShown && now - lastPartial < PARTIAL_EVERY_MS)
      ) {
        return;
      }
      partialShown = true;
      lastPartial = now;
      this.setModels(soFar.slice(), state.identity);
    };
    this.setStatus({ kind: 'loading' });
    if (firstLoad && this.cache) {
      // Read in parallel with the request: the saved list shows as soon as it is read, the request goes out
      // without waiting for it.
      void this.readSaved(state).then((saved) => {
        // Shown unless the fresh list is already there; also after a failed request (saying so).
        if (saved && current() && !succeeded && (this._models.length === 0 || partialShown)) {
          this.showSavedList(saved, state.identity);
        }
      });
    }
    try {
      const result = await this.progress(async () => {
        const client = await this.connection.getClient(env);
        this._requestCount++;
        return client.listModels({ signal: abort.signal, onPage: firstLoad ? showPartial : undefined });
      });
      if (!current()) {
        return;
      }
      succeeded = true;
      this._warnings = result.warnings;
      this._skipped = result.skipped;
      this._loadedAt = new Date();
      this._savedListShown = false;
      this.setModels(result.models, state.identity);
      this.setStatus({ kind: 'ready' });
      this.cache?.write(state, {
        savedAt: this._loadedAt.getTime(),
        models: result.models,
        skipped: result.skipped,
        warnings: result.warnings,
      });
    } catch (e) {
      if (!current()) {
        return;
      }
      if (partialShown && !this._savedListShown) {
        // The pages read before the failure are not a list anyone chose to keep: back to the last good one.
        this.setModels(before.models, before.identity);
      }
      this.setStatus({ kind: 'error', failure: describeFailure(e, state.host) });
    } finally {
      if (this.abort === abort) {
        this.abort = undefined;
      }
    }
  }

  dispose(): void {
    this.generation++;
    this.abort?.abort();
    this._onDidChange.dispose();
    this._onDidChangeStatus.dispose();
  }
}
