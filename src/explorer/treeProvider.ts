import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { FAILURE_ACTIONS, waysOut } from '../domain/failure';
import { Commands } from '../ids';
import { LARGE_LIST, type ModelCatalog } from '../platform/catalog';
import { FamilyNode, MessageNode, ModelNode, ModelsTreeNode } from './nodes';
import { FamilyGroup, familyOf, filterModels, groupByFamily, sortFamily, sortModels } from '../domain/modelSorting';
import { treeItemId } from './core/treeItemId';
import { Lifecycle } from '../platform/lifecycle';
import { clean } from '../common/text';
import { l10n } from '../platform/l10n';
import type { ModelChanges, ShownChanges } from '../platform/modelChanges';
import type { ModelChange } from '../domain/registry/changes';
import type { ModelUsage } from '../platform/modelUsage';

/** How the view presents the catalog; owned by the view controller, read by the provider. */
export interface ViewOptions {
  grouped: boolean;
  filter: string | undefined;
  /** Whether clicking a model does something (`modelAccess.modelClickAction` is not `none`). */
  clickable: boolean;
  /** `modelAccess.prices` (the rows' tooltips say each model's price). */
  prices?: unknown;
}

/** The change shown on a model's row: a gone entry only on the gone model's own row. */
function changeFor(changes: ReadonlyMap<string, ModelChange> | undefined, model: ModelEntry): ModelChange | undefined {
  const change = changes?.get(model.id);
  if (!change) {
    return undefined;
  }
  return change.kind === 'gone'
    ? change.before === model
      ? change
      : undefined
    : change.after === model
      ? change
      : undefined;
}

/** Above this many children under one parent, the rest is summarised (filter to narrow). */
export const MAX_CHILDREN = 2000;

/** The last filtered list, and what was derived from it when first needed. */
interface Memo {
  models: readonly ModelEntry[];
  filter: string | undefined;
  filtered: readonly ModelEntry[];
  /** The flat view's order. */
  sorted?: ModelEntry[];
  /** The grouped view's families, their models in list order. */
  groups?: FamilyGroup[];
  /** A family's models in display order, sorted when it is first expanded. */
  families: WeakMap<readonly ModelEntry[], ModelEntry[]>;
}

/**
 * Renders the catalog as a tree. It never fetches: it reads `catalog.models` and `catalog.status` and
 * re-renders when they change. Rows are built when VS Code asks for them: the grouped view's root is one
 * pass over the list (families and counts); a family's models are sorted and turned into rows only when it
 * is expanded. Ids stay the same from one list to the next, so a refresh (or the next page of a first load)
 * keeps what is expanded and selected.
 */
export class ModelsTreeProvider extends Lifecycle implements vscode.TreeDataProvider<ModelsTreeNode> {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ModelsTreeNode | undefined | void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private memo: Memo | undefined;
  /** The catalog's list with the gone models after it, made once per list and set of changes. */
  private shown:
    { models: readonly ModelEntry[]; changes: ShownChanges | undefined; all: readonly ModelEntry[] } | undefined;

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly options: () => ViewOptions,
    /** The registry changes to mark on the rows (the active environment's tree only). */
    private readonly changes?: Pick<ModelChanges, 'current' | 'onDidChange'>,
    /** How many places in the workspace name each model (the active environment's tree only). */
    private readonly usage?: Pick<ModelUsage, 'count' | 'onDidChange'>,
  ) {
    super();
    this.own(
      catalog.onDidChange(() => this.refresh()),
      catalog.onDidChangeStatus(() => this.refresh()),
      ...(changes ? [changes.onDidChange(() => this.refresh())] : []),
      ...(usage ? [usage.onDidChange(() => this.refresh())] : []),
    );
  }

  /** The rows' models: the catalog's, and the models gone since the list was last seen (until marked as seen). */
  private models(): readonly ModelEntry[] {
    const models = this.catalog.models;
    const changes = this.changes?.current;
    if (!changes || changes.changes.gone.length === 0 || models.length === 0) {
      return models;
    }
    if (this.shown?.models !== models || this.shown.changes !== changes) {
      const gone = changes.changes.gone.map((c) => c.before as ModelEntry);
      this.shown = { models, changes, all: models.concat(gone) };
    }
    return this.shown.all;
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
      return this.modelNodes(this.familySorted(element.models), this.options(), ['m', element.family]);
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
      const tooltip = [status.failure.message, status.failure.detail].filter(Boolean).join('\n');
      for (const way of waysOut(status.failure)) {
        const action = FAILURE_ACTIONS[way];
        out.push(new MessageNode(action.title, action.icon, { command: action.command, title: action.title }, tooltip));
      }
    }
    const all = this.models();
    if (all.length === 0) {
      return out; // empty and loading states come from the welcome content
    }
    const options = this.options();
    const memo = this.filtered(all, options.filter);
    const models = memo.filtered;
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
      memo.sorted ??= sortModels(models);
      return out.concat(this.modelNodes(memo.sorted, options, ['m']));
    }
    const expanded = models.length < LARGE_LIST || Boolean(options.filter);
    const words = this.words(options);
    memo.groups ??= groupByFamily(models);
    const grown = new Set(this.changes?.current?.changes.familiesWithNewMembers.map((f) => f || familyOf({})));
    for (const group of memo.groups) {
      out.push(new FamilyNode(group.family, group.models, { words, expanded, newMembers: grown.has(group.family) }));
    }
    return out;
  }

  private filtered(all: readonly ModelEntry[], filter: string | undefined): Memo {
    if (this.memo?.models !== all || this.memo.filter !== filter) {
      this.memo = {
        models: all,
        filter,
        filtered: filter ? filterModels(all, filter) : all,
        families: new WeakMap(),
      };
    }
    return this.memo;
  }

  /** A family's models in display order (sorted once per list, when first expanded). */
  private familySorted(models: readonly ModelEntry[]): readonly ModelEntry[] {
    const families = this.memo?.families;
    let sorted = families?.get(models);
    if (!sorted) {
      sorted = sortFamily(models);
      families?.set(models, sorted);
    }
    return sorted;
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
    const changes = this.changes?.current?.changes.byId;
    const nodes: ModelsTreeNode[] = shown.map((model) => {
      const key = treeItemId([...idPrefix, familyOf(model), model.id]);
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      return new ModelNode(model, {
        words,
        clickable: options.clickable,
        showFamily: !options.grouped,
        id: treeItemId([...idPrefix, familyOf(model), model.id, n]),
        // A repeated id is one model (its first entry): only that row is marked.
        change: n === 0 ? changeFor(changes, model) : undefined,
        prices: options.prices,
        uses: n === 0 ? this.usage?.count(model.id) : undefined,
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
