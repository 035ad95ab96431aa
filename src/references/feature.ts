import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { Settings } from '../ids';
import { Lifecycle } from '../platform/lifecycle';
import type { Services } from '../services';
import { ReferenceDiagnostics } from './diagnostics';
import { ReferenceFixes } from './fixes';
import { ReferenceHover } from './hover';
import { ModelsInUse } from './modelsInUse';
import { ReferenceIndex } from './referenceIndex';
import { RegistrySnapshot } from './registrySnapshot';
import { RetiringNote } from './statusNote';
import { TrySuccessor } from './trySuccessor';

const DEFAULT_WARN_DAYS = 90;

/** `modelAccess.references.warnDays`: a whole number of days, 0 or more. */
function warnDays(): number {
  const v = vscode.workspace.getConfiguration(Settings.section).get<unknown>(Settings.referencesWarnDays);
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : DEFAULT_WARN_DAYS;
}

/** Files only: the index reads the disk, and a hover or fix on another scheme would name a file it never read. */
const SELECTOR: vscode.DocumentSelector = { scheme: 'file' };

/**
 * The references feature, built (dist/refs.js) just after activation: the index follows the registry
 * (every refresh, and the models gone since the list was last seen) and the files; the Problems view, hover,
 * quick fixes, Models in Use, the status note and the Models view's counts follow the index.
 */
export class ReferencesFeature extends Lifecycle {
  readonly index: ReferenceIndex;
  readonly diagnostics: ReferenceDiagnostics;
  readonly modelsInUse: ModelsInUse;
  readonly note: RetiringNote;
  private readonly trial: TrySuccessor;

  constructor(private readonly deps: Services) {
    super();
    this.index = new ReferenceIndex(deps.log);
    this.diagnostics = new ReferenceDiagnostics(this.index, warnDays);
    this.modelsInUse = new ModelsInUse(this.index, warnDays);
    this.note = new RetiringNote(this.modelsInUse, warnDays);
    this.trial = new TrySuccessor(deps, this.index);
    const fixes = new ReferenceFixes(this.index, warnDays);
    this.own(
      this.index,
      this.diagnostics,
      this.modelsInUse,
      this.note,
      vscode.languages.registerHoverProvider(SELECTOR, new ReferenceHover(this.index, warnDays)),
      vscode.languages.registerCodeActionsProvider(SELECTOR, fixes, ReferenceFixes.metadata),
      deps.catalog.onDidChange(() => this.followRegistry()),
      deps.catalog.onDidChangeStatus(() => this.followRegistry()),
      deps.changes.onDidChange(() => this.followRegistry()),
      this.index.onDidChange(() => this.countUses()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.section}.${Settings.referencesWarnDays}`)) {
          this.diagnostics.update();
          this.modelsInUse.update();
        }
      }),
      { dispose: () => deps.usage.set(new Map()) },
    );
    this.followRegistry();
    // A list saved by an earlier window is known without a request; the first load (the Models view, a
    // command) refreshes it. Nothing here calls the service.
    void deps.catalog.showSaved();
  }

  private lastModels: readonly ModelEntry[] | undefined;
  private lastGone: readonly ModelEntry[] | undefined;

  /**
   * A new registry for the index on every list the catalog holds (a refresh makes a new one) and every change
   * in what is gone since the list was last seen. No list (not loaded, no connection): the index empties, so
   * nothing is called unknown while the registry is unknown.
   */
  private followRegistry(): void {
    if (this.deps.catalog.status.kind === 'loading' && this.lastModels !== undefined) {
      // A first load shows its pages as they arrive: the index scans once, when the list is whole.
      return;
    }
    const models = this.deps.catalog.models;
    const gone = (this.deps.changes.current?.changes.gone ?? []).flatMap((c) => (c.before ? [c.before] : []));
    if (models === this.lastModels && sameIds(gone, this.lastGone)) {
      return;
    }
    this.lastModels = models;
    this.lastGone = gone;
    this.index.setRegistry(models.length > 0 ? new RegistrySnapshot(models, gone) : undefined);
  }

  private countUses(): void {
    const counts = new Map<string, number>();
    for (const file of this.index.all.values()) {
      for (const ref of file.refs) {
        counts.set(ref.id, (counts.get(ref.id) ?? 0) + 1);
      }
    }
    this.deps.usage.set(counts);
  }

  trySuccessor(arg: unknown): Promise<void> {
    return this.trial.run(arg);
  }

  switchReferences(from: unknown, to: unknown): Promise<boolean> {
    return this.trial.switchReferences(from, to);
  }

  /** Rescan Model References: reads every file again. */
  rescan(): Promise<void> {
    this.index.rebuild();
    return this.index.settled();
  }

  /** Resolves once the index has settled and everything that follows it has caught up. */
  settled(): Promise<void> {
    return this.index.settled();
  }
}

function sameIds(a: readonly ModelEntry[], b: readonly ModelEntry[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((m, i) => m.id === b[i].id);
}
