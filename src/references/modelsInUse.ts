import * as vscode from 'vscode';
import { modelCount } from '../common/counts';
import { displayText, type DisplayText } from '../common/text';
import { isoDay } from '../domain/registry/lifecycle';
import { ItemContext, Views } from '../ids';
import { l10n } from '../platform/l10n';
import { Lifecycle } from '../platform/lifecycle';
import type { ReferenceState, ReferenceVerdict } from './core/referenceState';
import type { ModelReference } from './core/types';
import { rangeOf } from './edits';
import type { ReferenceIndex } from './referenceIndex';

/** One model the workspace names, with every place that names it. */
export interface UsedModel {
  id: string;
  verdict: ReferenceVerdict;
  places: { uri: vscode.Uri; ref: ModelReference }[];
}

/** Retiring first: what breaks first comes first. */
const ORDER: Record<ReferenceState, number> = {
  retired: 0,
  gone: 0,
  retiring: 1,
  deprecated: 2,
  unknown: 3,
  preview: 4,
  current: 5,
};

/** The lifecycle badge of a row: the state and its date, in the words of the rest of the extension. */
export function badge(verdict: ReferenceVerdict): DisplayText {
  const day = verdict.date !== undefined ? isoDay(verdict.date) : undefined;
  switch (verdict.state) {
    case 'retired':
      return day ? l10n.t('retired {0}', day) : l10n.t('retired');
    case 'gone':
      return l10n.t('no longer listed');
    case 'retiring':
      return day ? l10n.t('retires {0}', day) : l10n.t('retiring');
    case 'deprecated':
      // A deprecated model's date is its deprecation (one with a retirement date is retiring).
      return !day
        ? l10n.t('deprecated')
        : (verdict.date as number) <= Date.now()
          ? l10n.t('deprecated since {0}', day)
          : l10n.t('deprecated from {0}', day);
    case 'unknown':
      return l10n.t('not in the registry');
    case 'preview':
      return l10n.t('preview');
    default:
      return l10n.t('current');
  }
}

const placesText = (n: number): DisplayText => (n === 1 ? l10n.t('1 place') : l10n.t('{0} places', n));

/** A model row: its id, how many places name it, its lifecycle badge and date. */
export class UsedModelNode extends vscode.TreeItem {
  constructor(readonly used: UsedModel) {
    super(displayText(used.id, 200), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `model:${JSON.stringify(used.id)}`;
    const words = [placesText(used.places.length), badge(used.verdict)];
    this.description = words.join(' · ');
    this.accessibilityInformation = {
      label: l10n.t('{0}, {1}', displayText(used.id, 200), words.join(', ') as DisplayText),
    };
    const md = new vscode.MarkdownString('', false);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendText(used.verdict.message || displayText(used.id, 200));
    this.tooltip = md;
    this.contextValue = ItemContext.usedModel;
    this.iconPath =
      used.verdict.severity === 'error'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
        : used.verdict.severity === 'warning'
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
          : used.verdict.severity === 'information'
            ? new vscode.ThemeIcon('info')
            : new vscode.ThemeIcon('pass');
  }
}

/** One place: the file and line; a click opens it with the id selected. */
export class ReferenceNode extends vscode.TreeItem {
  constructor(
    readonly uri: vscode.Uri,
    readonly ref: ModelReference,
  ) {
    super(
      l10n.t('{0}:{1}', displayText(vscode.workspace.asRelativePath(uri), 300), ref.line + 1),
      vscode.TreeItemCollapsibleState.None,
    );
    this.id = `ref:${uri.toString()}:${ref.line}:${ref.character}`;
    this.resourceUri = uri;
    this.contextValue = ItemContext.reference;
    this.iconPath = vscode.ThemeIcon.File;
    this.command = {
      command: 'vscode.open',
      title: l10n.t('Open'),
      arguments: [uri, { selection: rangeOf(ref), preview: true }],
    };
  }
}

export type ModelsInUseNode = UsedModelNode | ReferenceNode;

/**
 * Models in Use: the registry's models the workspace names, retiring first, each with its count and
 * lifecycle badge; under each, the places that name it.
 */
export class ModelsInUse extends Lifecycle implements vscode.TreeDataProvider<ModelsInUseNode> {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly treeView: vscode.TreeView<ModelsInUseNode>;
  private models: UsedModel[] = [];

  constructor(
    private readonly index: ReferenceIndex,
    private readonly warnDays: () => number,
  ) {
    super();
    this.treeView = vscode.window.createTreeView(Views.modelsInUse, { treeDataProvider: this, showCollapseAll: true });
    this.own(
      this._onDidChangeTreeData,
      this.treeView,
      index.onDidChange(() => this.update()),
    );
    this.update();
  }

  /** The models named, in the view's order. */
  get used(): readonly UsedModel[] {
    return this.models;
  }

  update(): void {
    const registry = this.index.registry;
    const now = Date.now();
    const byId = new Map<string, UsedModel>();
    if (registry) {
      for (const file of this.index.all.values()) {
        for (const ref of file.refs) {
          let used = byId.get(ref.id);
          if (!used) {
            used = { id: ref.id, verdict: registry.judge(ref, now, this.warnDays()), places: [] };
            byId.set(ref.id, used);
          }
          used.places.push({ uri: file.uri, ref });
        }
      }
    }
    this.models = [...byId.values()].sort(
      (a, b) =>
        ORDER[a.verdict.state] - ORDER[b.verdict.state] ||
        (a.verdict.date ?? Infinity) - (b.verdict.date ?? Infinity) ||
        b.places.length - a.places.length ||
        a.id.localeCompare(b.id),
    );
    for (const m of this.models) {
      m.places.sort(
        (a, b) =>
          a.uri.toString().localeCompare(b.uri.toString()) ||
          a.ref.line - b.ref.line ||
          a.ref.character - b.ref.character,
      );
    }
    this.treeView.message = registry
      ? undefined
      : l10n.t('Load the model list (Models view) to see which of its models this workspace names.');
    this.treeView.description = registry && this.models.length > 0 ? modelCount(this.models.length) : undefined;
    this._onDidChangeTreeData.fire();
  }

  getTreeItem(node: ModelsInUseNode): vscode.TreeItem {
    return node;
  }

  getChildren(node?: ModelsInUseNode): ModelsInUseNode[] {
    if (!node) {
      return this.models.map((m) => new UsedModelNode(m));
    }
    return node instanceof UsedModelNode ? node.used.places.map((p) => new ReferenceNode(p.uri, p.ref)) : [];
  }

  getParent(node: ModelsInUseNode): ModelsInUseNode | undefined {
    if (node instanceof ReferenceNode) {
      const used = this.models.find((m) => m.places.some((p) => p.ref === node.ref));
      return used ? new UsedModelNode(used) : undefined;
    }
    return undefined;
  }
}
