import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { FAILURE_ACTIONS } from '../common/failure';
import { Commands } from '../ids';
import type { ModelCatalog } from '../platform/catalog';
import { FamilyNode, MessageNode, ModelNode, ModelsTreeNode } from './nodes';
import { FamilyGroup, familyOf, filterModels, groupSorted, sortModels } from './core/sorting';
import { treeItemId } from './core/treeItemId';
import { Lifecycle } from '../platform/lifecycle';
import { clean } from '../common/text';
import { l10n } from '../platform/l10n';

/** How the view presents the catalog; owned by the view controller, read by the provider. */
export interface ViewOptions {
  grouped: boolean;
  filter: string | undefined;
  /** Whether clicking a model does something (`modelAccess.modelClickAction` is not `none`). */
  clickable: boolean;
}

/** Above this many children under one parent, the rest is summarised (filter to narrow). */
export const MAX_CHILDREN = 2000;
/** Families start expanded while the whole list stays below this size. */
const EXPAND_BELOW = 300;

/**
 * Renders the catalog as a tree. It never fetches: it reads `catalog.models` and `catalog.status` and
 * re-renders when they change.
 */
export class ModelsTreeProvider extends Lifecycle implements vscode.TreeDataProvider<ModelsTreeNode> {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ModelsTreeNode | undefined | void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  /** The last filtered, sorted list and its groups: one sort per list/filter change, not per render. */
  private memo:
    | { models: readonly ModelEntry[]; filter: string | undefined; sorted: ModelEntry[]; groups?: FamilyGroup[] }
    | undefined;

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly options: () => ViewOptions,
  ) {
    super();
    this.own(
      catalog.onDidChange(() => this.refresh()),
      catalog.onDidChangeStatus(() => this.refresh()),
    );
  }

  refresh(): void {
    this._onDidChangeTreeData.fire();
  }

  getTreeItem(element: ModelsTreeNode): vscode.TreeItem {
    return element;
  }

  /** On hover (or click): the model's tooltip, which rows do not build up front. */
  resolveTreeItem(item: vscode.TreeItem, element: ModelsTreeNode): vscode.TreeItem {
    if (element instanceof ModelNode) {
      element.resolveTooltip();
      if (item !== element) {
        item.tooltip = element.tooltip;
      }
    }
    return item;
  }

  getChildren(element?: ModelsTreeNode): ModelsTreeNode[] {
    if (element instanceof FamilyNode) {
      // A group's models are already sorted.
      return this.modelNodes(element.models, this.options(), ['m', element.family]);
    }
    if (element) {
      return [];
    }
    return this.rootNodes();
  }

  private rootNodes(): ModelsTreeNode[] {
    const status = this.catalog.status;
    if (status.kind === 'needsUrl' || status.kind === 'needsKey') {
      return []; // the view's welcome content explains what to do
    }
    const out: ModelsTreeNode[] = [];
    if (status.kind === 'error') {
      const action = FAILURE_ACTIONS[status.failure.action];
      const tooltip = [status.failure.message, status.failure.detail].filter(Boolean).join('\n');
      out.push(new MessageNode(action.title, action.icon, { command: action.command, title: action.title }, tooltip));
    }
    const all = this.catalog.models;
    if (all.length === 0) {
      return out; // empty and loading states come from the welcome content
    }
    const options = this.options();
    const models = this.sorted(all, options.filter);
    if (models.length === 0) {
      out.push(
        new MessageNode(l10n.t('No models match “{0}”. Clear filter', clean(options.filter ?? '')), 'filter', {
          command: Commands.clearFilter,
          title: l10n.t('Clear Filter'),
        }),
      );
      return out;
    }
    if (!options.grouped) {
      return out.concat(this.modelNodes(models, options, ['m']));
    }
    const expanded = models.length < EXPAND_BELOW || Boolean(options.filter);
    const words = this.words(options);
    const memo = this.memo as NonNullable<typeof this.memo>;
    // `models` is already sorted: group it in one pass, no second sort.
    memo.groups ??= groupSorted(models);
    for (const group of memo.groups) {
      out.push(new FamilyNode(group.family, group.models, { words, expanded }));
    }
    return out;
  }

  private sorted(all: readonly ModelEntry[], filter: string | undefined): ModelEntry[] {
    if (this.memo?.models !== all || this.memo.filter !== filter) {
      this.memo = { models: all, filter, sorted: sortModels(filterModels(all, filter)) };
    }
    return this.memo.sorted;
  }

  private words(options: ViewOptions): string[] {
    return (options.filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  }

  /** `sorted` must already be in display order. */
  private modelNodes(
    sorted: readonly ModelEntry[],
    options: ViewOptions,
    idPrefix: readonly string[],
  ): ModelsTreeNode[] {
    const shown = sorted.slice(0, MAX_CHILDREN);
    const words = this.words(options);
    // Registries may repeat an id; tree item ids must be unique, so later duplicates get a counter. The
    // parts are JSON-encoded, never joined with a separator that an id could itself contain.
    const seen = new Map<string, number>();
    const nodes: ModelsTreeNode[] = shown.map((model) => {
      const key = treeItemId([...idPrefix, familyOf(model), model.id]);
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      return new ModelNode(model, {
        words,
        clickable: options.clickable,
        id: treeItemId([...idPrefix, familyOf(model), model.id, n]),
      });
    });
    if (sorted.length > shown.length) {
      nodes.push(
        new MessageNode(
          sorted.length - shown.length === 1
            ? l10n.t('1 more model: use Filter to narrow the list')
            : l10n.t('{0} more models: use Filter to narrow the list', sorted.length - shown.length),
          'ellipsis',
          {
            command: Commands.filterModels,
            title: l10n.t('Filter'),
          },
        ),
      );
    }
    return nodes;
  }

  override dispose(): void {
    this._onDidChangeTreeData.dispose();
    super.dispose();
  }
}
