import * as vscode from 'vscode';
import { displayText } from '../common/text';
import type { DisplayText } from '../common/text';
import type { VariableContext } from '../domain/payload/variables';
import type { ModelChange } from '../domain/registry/changes';
import { changeMark } from '../domain/registry/changeText';
import { l10n } from '../platform/l10n';
import type { RefreshChanges } from '../platform/modelChanges';
import type { Services } from '../services';
import { readCheckLines } from './core/checkFile';
import { coveredParts } from './core/continuousCover';
import { payloadChanges, type EnvironmentChanges } from './core/payloadModels';

/** What the follower needs of the Test Explorer controller. */
export interface FollowHost {
  readonly controller: vscode.TestController;
  /** Every payload's test item (the payloads are looked for first when none is known yet). */
  payloadItems(): Promise<vscode.TestItem[]>;
  read(uri: vscode.Uri): Promise<string | undefined>;
  /** A file next to the payload (its dataset), read only inside its workspace folder. */
  readBeside(uri: vscode.Uri, file: string): Promise<string | undefined>;
  /** The variables of the payload's environment: its `// @env`, else the active one (undefined: no such one). */
  variables(pinned: string | undefined, uri: vscode.Uri): VariableContext | undefined;
  readonly maxRows: number;
  run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void>;
}

/** A continuous run Test Explorer asked for, until it is stopped. */
interface Watch {
  request: vscode.TestRunRequest;
  token: vscode.CancellationToken;
}

const MODELS_NAMED = 3;

/**
 * Checks follow the registry: when a refresh finds that models changed (a new version, lifecycle news, added,
 * gone), the checks whose payloads send to one of them in that environment are marked outdated in Test
 * Explorer, re-run by themselves under a continuous run, and otherwise offered once in a notification with
 * *Run Checks Affected by Model Changes*. A continuous run follows the registry only: re-running on every save
 * would send requests to the service at each one.
 */
export class ModelFollow implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watches = new Set<Watch>();
  /** The changes found by this window's refreshes, per service and key (the later change of an id wins). */
  private readonly found = new Map<string, Map<string, ModelChange>>();
  private handling: Promise<void> = Promise.resolve();
  private invalidated: string[] = [];

  constructor(
    private readonly host: FollowHost,
    private readonly deps: Pick<Services, 'changes' | 'catalog' | 'ui' | 'log'>,
  ) {
    this.disposables.push(
      deps.changes.onDidFindChanges((found) => {
        this.handling = this.modelsChanged(found).catch((e: unknown) =>
          // A background follow-up: the checks stay as they were, the log says why.
          deps.log.warn(`Following the model changes in Test Explorer failed: ${String(e)}`),
        );
      }),
    );
  }

  /** Resolves once the latest change was handled: items marked outdated, continuous runs and an accepted offer done. */
  settled(): Promise<void> {
    return this.handling;
  }

  /** The ids of the test items the latest change marked outdated. */
  lastInvalidated(): readonly string[] {
    return this.invalidated;
  }

  /** A continuous run: kept until Test Explorer stops it (its token), run again when its checks' models change. */
  watch(request: vscode.TestRunRequest, token: vscode.CancellationToken): void {
    const watch = { request, token };
    this.watches.add(watch);
    const stop = token.onCancellationRequested(() => {
      this.watches.delete(watch);
      stop.dispose();
    });
  }

  /** Runs the checks whose models changed since the list was last seen or in this window; their item ids. */
  async runAffected(): Promise<string[]> {
    const state = this.deps.catalog.serviceState;
    const byId = new Map<string, ModelChange>();
    const shown = this.deps.changes.current;
    shown?.changes.byId.forEach((c, id) => byId.set(id, c));
    this.found.get(state.identity ?? '')?.forEach((c, id) => byId.set(id, c));
    if (byId.size === 0) {
      void this.deps.ui.info(l10n.t('No model changed since the model list was last marked as seen.'));
      return [];
    }
    const affected = await this.affected({ environment: state.environment ?? '', changes: { byId } });
    if (affected.size === 0) {
      void this.deps.ui.info(l10n.t('No check uses a model that changed: {0}', this.modelsText([...byId.values()])));
      return [];
    }
    const items = [...affected.keys()];
    await this.runItems(items);
    return items.map((i) => i.id);
  }

  private async modelsChanged(found: RefreshChanges): Promise<void> {
    if (found.identity !== this.deps.catalog.serviceState.identity) {
      // The active environment changed since: its checks are not these.
      return;
    }
    const known = this.found.get(found.identity) ?? new Map<string, ModelChange>();
    found.changes.byId.forEach((c, id) => known.set(id, c));
    this.found.set(found.identity, known);
    const affected = await this.affected(found);
    if (affected.size === 0) {
      return;
    }
    const items = [...affected.keys()];
    this.host.controller.invalidateTestResults(items);
    this.invalidated = items.map((i) => i.id);
    const offered = await this.runWatched(items);
    if (offered.length === 0) {
      return;
    }
    const changes = offered.flatMap((i) => affected.get(i) ?? []);
    const message =
      offered.length === 1
        ? l10n.t('1 check uses a model that changed: {0}', this.modelsText(changes))
        : l10n.t('{0} checks use models that changed: {1}', offered.length, this.modelsText(changes));
    const run = l10n.t('Run Checks Affected by Model Changes');
    if ((await this.deps.ui.info(message, run)) === run) {
      await this.runItems(offered);
    }
  }

  /** The payload items whose models changed, with those changes. */
  private async affected(found: EnvironmentChanges): Promise<Map<vscode.TestItem, ModelChange[]>> {
    const out = new Map<vscode.TestItem, ModelChange[]>();
    for (const item of await this.host.payloadItems()) {
      const uri = item.uri;
      const text = uri && (await this.host.read(uri));
      if (!uri || text === undefined) {
        continue;
      }
      // A dataset is read only when a `{{variable}}` may name the model from its rows.
      const each = text.includes('{{') ? readCheckLines(text).each : undefined;
      const data = each && !each.problem ? await this.host.readBeside(uri, each.file) : undefined;
      const changes = payloadChanges(text, found, {
        variables: (pinned) => this.host.variables(pinned, uri),
        readText: (file) => (file === each?.file ? data : undefined),
        maxRows: this.host.maxRows,
      });
      if (changes.length > 0) {
        out.set(item, changes);
      }
    }
    return out;
  }

  /** Runs the items that continuous runs cover; the items left to offer. */
  private async runWatched(items: vscode.TestItem[]): Promise<vscode.TestItem[]> {
    const left = new Set(items);
    const runs: Promise<void>[] = [];
    for (const { request, token } of this.watches) {
      if (token.isCancellationRequested) {
        continue;
      }
      const covered = items.flatMap((i) => {
        const parts = coveredParts(request, i, childrenOf(i));
        if (parts.length > 0) {
          left.delete(i);
        }
        return parts;
      });
      if (covered.length > 0) {
        runs.push(this.host.run(new vscode.TestRunRequest(covered, undefined, request.profile, true), token));
      }
    }
    await Promise.all(runs);
    return items.filter((i) => left.has(i));
  }

  private async runItems(items: vscode.TestItem[]): Promise<void> {
    const source = new vscode.CancellationTokenSource();
    try {
      await this.host.run(new vscode.TestRunRequest(items), source.token);
    } finally {
      source.dispose();
    }
  }

  /** "atlas-3 (version 3 → 4), calm-2 (now deprecated) and 2 more". */
  private modelsText(changes: readonly ModelChange[]): DisplayText {
    const now = Date.now();
    const unique = [...new Map(changes.map((c) => [c.id, c])).values()];
    const named = unique
      .slice(0, MODELS_NAMED)
      .map((c) => `${displayText(c.id, 80)} (${changeMark(c, now)})`)
      .join(', ') as DisplayText;
    const more = unique.length - MODELS_NAMED;
    return more > 0 ? l10n.t('{0} and {1} more', named, more) : named;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.watches.clear();
  }
}

function childrenOf(item: vscode.TestItem): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  item.children.forEach((c) => void out.push(c));
  return out;
}
