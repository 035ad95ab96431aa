import * as vscode from 'vscode';
import type { Environment } from '../domain/environments';
import { FAILURE_ACTIONS } from '../domain/failure';
import { displayText, type DisplayText } from '../common/text';
import { Commands } from '../ids';
import type { ModelCatalog } from '../platform/catalog';
import type { EnvironmentCatalogs } from '../platform/environmentCatalogs';
import { l10n } from '../platform/l10n';
import { Lifecycle } from '../platform/lifecycle';
import { treeItemId } from './core/treeItemId';
import { MessageNode, ModelNode, type ModelsTreeNode } from './nodes';
import { ModelsTreeProvider, type ViewOptions } from './treeProvider';

/** Commands a tree row runs that take the name of the environment they are for as their first argument. */
const FOR_ENVIRONMENT: ReadonlySet<string> = new Set([
  Commands.setApiKey,
  Commands.setHeaderSecret,
  Commands.allowStoredKey,
  Commands.diagnoseConnection,
]);

/** What an environment's root says about its list: loading, key missing, error or how many models. */
export function environmentState(catalog: ModelCatalog): DisplayText {
  const status = catalog.status;
  const count = catalog.models.length;
  switch (status.kind) {
    case 'needsUrl':
      return l10n.t('no valid URL');
    case 'needsKey':
      return l10n.t('API key missing');
    case 'loading':
      return l10n.t('loading…');
    case 'error':
      return l10n.t('error: {0}', displayText(status.failure.message, 80));
    case 'ready':
      return count === 1 ? l10n.t('1 model') : l10n.t('{0} models', count);
    default:
      return l10n.t('not loaded yet');
  }
}

/** One environment as a root of the Models view; its children are that environment's models. */
export class EnvironmentNode extends vscode.TreeItem {
  constructor(
    readonly environment: Environment,
    readonly catalog: ModelCatalog,
    active: boolean,
  ) {
    super(
      displayText(environment.name, 100),
      active ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    this.id = treeItemId(['env', environment.name]);
    const state = environmentState(catalog);
    this.description = active ? l10n.t('active · {0}', state) : state;
    this.contextValue = 'environment';
    this.iconPath = new vscode.ThemeIcon(
      catalog.status.kind === 'error' ? 'warning' : active ? 'vm-active' : 'server-environment',
    );
    const md = new vscode.MarkdownString('', true);
    md.isTrusted = false;
    md.appendText(`${displayText(environment.name, 100)}: ${displayText(environment.baseUrl, 200)}`);
    md.appendMarkdown('\n\n');
    md.appendText(catalog.status.kind === 'error' ? displayText(catalog.status.failure.message, 400) : state);
    this.tooltip = md;
  }
}

type Node = ModelsTreeNode | EnvironmentNode;

/**
 * The Models view's rows: the active environment's tree (`main`), or with `showAll()` every environment as a
 * root above its own tree. Each environment's tree is the same provider the view uses for one environment,
 * over that environment's catalog; its rows get ids scoped to the environment, so the same model under two
 * environments stays two rows.
 */
export class EnvironmentRootsProvider extends Lifecycle implements vscode.TreeDataProvider<Node> {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<Node | undefined | void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly trees = new Map<string, { catalog: ModelCatalog; provider: ModelsTreeProvider }>();
  /** Which environment's tree made a row (to ask that tree for the row's children). */
  private readonly owners = new WeakMap<object, { environment: string; provider: ModelsTreeProvider }>();

  constructor(
    private readonly main: ModelsTreeProvider,
    private readonly catalogs: EnvironmentCatalogs,
    private readonly options: () => ViewOptions,
    private readonly showAll: () => boolean,
  ) {
    super();
    this.own(
      this._onDidChangeTreeData,
      main.onDidChangeTreeData((e) => {
        if (!this.showAll()) {
          this._onDidChangeTreeData.fire(e);
        }
      }),
      catalogs.onDidChange(() => {
        if (this.showAll()) {
          this.refresh();
        }
      }),
    );
  }

  refresh(): void {
    this._onDidChangeTreeData.fire();
  }

  getTreeItem(element: Node): vscode.TreeItem {
    return element;
  }

  resolveTreeItem(item: vscode.TreeItem, element: Node): vscode.TreeItem {
    if (element instanceof EnvironmentNode) {
      return item;
    }
    return (this.owners.get(element)?.provider ?? this.main).resolveTreeItem(item, element);
  }

  getChildren(element?: Node): Node[] {
    if (!this.showAll()) {
      return element instanceof EnvironmentNode ? [] : this.main.getChildren(element);
    }
    if (!element) {
      const active = this.catalogs.activeName;
      this.dropRemoved();
      return this.catalogs
        .all()
        .map(({ environment, catalog }) => new EnvironmentNode(environment, catalog, environment.name === active));
    }
    if (element instanceof EnvironmentNode) {
      const { environment, catalog } = element;
      if (catalog.status.kind === 'needsKey') {
        return [
          new MessageNode(FAILURE_ACTIONS.setApiKey.title, FAILURE_ACTIONS.setApiKey.icon, {
            command: Commands.setApiKey,
            title: FAILURE_ACTIONS.setApiKey.title,
            arguments: [environment.name],
          }),
        ];
      }
      return this.scoped(environment.name, this.treeFor(environment.name, catalog), undefined);
    }
    const owner = this.owners.get(element);
    return owner ? this.scoped(owner.environment, owner.provider, element) : [];
  }

  /** The rows of `provider` under `parent`, with ids scoped to the environment, remembered as its rows. */
  private scoped(environment: string, provider: ModelsTreeProvider, parent: ModelsTreeNode | undefined): Node[] {
    const rows = provider.getChildren(parent);
    for (const row of rows) {
      if (row.id !== undefined) {
        row.id = treeItemId(['in', environment, row.id]);
      }
      if (row instanceof ModelNode) {
        row.environment = environment;
      }
      // The way out of a root's error (a rejected key, a secret header without a value, a diagnosis) is for that
      // environment.
      if (row instanceof MessageNode && row.command && FOR_ENVIRONMENT.has(row.command.command)) {
        row.command = { ...row.command, arguments: [environment] };
      }
      this.owners.set(row, { environment, provider });
    }
    return rows;
  }

  /** The tree of one environment's catalog (made again when its catalog changed: it became active or not). */
  private treeFor(environment: string, catalog: ModelCatalog): ModelsTreeProvider {
    const known = this.trees.get(environment);
    if (known?.catalog === catalog) {
      return known.provider;
    }
    known?.provider.dispose();
    const provider = new ModelsTreeProvider(catalog, this.options);
    this.trees.set(environment, { catalog, provider });
    return provider;
  }

  private dropRemoved(): void {
    const names = new Set(this.catalogs.all().map((e) => e.environment.name));
    for (const [name, tree] of this.trees) {
      if (!names.has(name)) {
        tree.provider.dispose();
        this.trees.delete(name);
      }
    }
  }

  override dispose(): void {
    for (const tree of this.trees.values()) {
      tree.provider.dispose();
    }
    this.trees.clear();
    super.dispose();
  }
}
