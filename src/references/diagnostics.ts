import * as vscode from 'vscode';
import { Lifecycle } from '../platform/lifecycle';
import type { ReferenceVerdict } from './core/referenceState';
import type { ModelReference } from './core/types';
import { rangeOf } from './edits';
import type { ReferenceIndex } from './referenceIndex';

/** What the Problems view names as the source of these problems. */
export const DIAGNOSTIC_SOURCE = 'Model Access';

const SEVERITIES: Record<Exclude<ReferenceVerdict['severity'], 'none'>, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** A problem at a reference, with the reference it is about (the quick fixes read it). */
export class ReferenceDiagnostic extends vscode.Diagnostic {
  constructor(
    readonly ref: ModelReference,
    readonly verdict: ReferenceVerdict,
  ) {
    super(
      rangeOf(ref),
      verdict.message,
      SEVERITIES[verdict.severity as keyof typeof SEVERITIES] ?? vscode.DiagnosticSeverity.Hint,
    );
    this.source = DIAGNOSTIC_SOURCE;
    // The state as the code: a word, never a link (registry text is never a target).
    this.code = verdict.state;
  }
}

/**
 * The references' problems, in one collection, for every file the index holds (open or not): a retired or
 * gone model is an error, a deprecated or retiring one a warning (an error within `warnDays` of its date), an
 * unknown id one edit from a listed one information. Payloads are left to their own diagnostics.
 */
export class ReferenceDiagnostics extends Lifecycle {
  readonly collection = vscode.languages.createDiagnosticCollection('modelAccess.references');

  constructor(
    private readonly index: ReferenceIndex,
    private readonly warnDays: () => number,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.own(
      this.collection,
      index.onDidChange(() => this.update()),
    );
    this.update();
  }

  update(): void {
    const registry = this.index.registry;
    const now = this.now();
    const warnDays = this.warnDays();
    const entries: [vscode.Uri, vscode.Diagnostic[]][] = [];
    // One verdict per id and update: a workspace names few models in many places.
    const verdicts = new Map<string, ReferenceVerdict>();
    if (registry) {
      for (const file of this.index.all.values()) {
        if (file.payload) {
          continue;
        }
        const problems: vscode.Diagnostic[] = [];
        for (const ref of file.refs) {
          const key = ref.listed ? ref.id : `${ref.id}\u0000${ref.nearest ?? ''}`;
          let verdict = verdicts.get(key);
          if (!verdict) {
            verdict = registry.judge(ref, now, warnDays);
            verdicts.set(key, verdict);
          }
          if (verdict.severity !== 'none') {
            problems.push(new ReferenceDiagnostic(ref, verdict));
          }
        }
        if (problems.length > 0) {
          entries.push([file.uri, problems]);
        }
      }
    }
    this.collection.clear();
    this.collection.set(entries);
  }
}
