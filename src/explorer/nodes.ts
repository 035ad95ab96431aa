import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { checkCardLink } from '../api/linkSafety';
import { Commands, ItemContext } from '../ids';
import { modelCount } from '../common/counts';
import { displayText, type DisplayText } from '../common/text';
import { l10n } from '../platform/l10n';
import { treeItemId } from './core/treeItemId';
import { modelRow } from './core/modelRow';
import type { ModelChange } from '../domain/registry/changes';
import { changeMark } from '../domain/registry/changeText';
import { lifecycleSentence, readLifecycle } from '../domain/registry/lifecycle';
import { capabilitiesText, readCapabilities } from '../domain/registry/capabilities';
import { formatPrice, priceFor } from '../domain/cost/prices';

/** Highlight ranges of the filter's words in a label, for `TreeItemLabel.highlights`. */
function highlights(label: string, words: readonly string[]): [number, number][] {
  const lower = label.toLowerCase();
  const out: [number, number][] = [];
  for (const w of words) {
    const i = lower.indexOf(w);
    if (w && i >= 0) {
      out.push([i, i + w.length]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function label(text: string, words: readonly string[]): vscode.TreeItemLabel | string {
  const h = highlights(text, words);
  return h.length ? { label: text, highlights: h } : text;
}

/** A tooltip that shows registry text as text: untrusted, no HTML, everything escaped. */
function plainTooltip(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

function field(md: vscode.MarkdownString, name: string, value: string): void {
  md.appendMarkdown(`${name}: `);
  md.appendText(value);
  md.appendMarkdown('  \n');
}

/** A model's tooltip: id, family, version, card link, lifecycle, capabilities and change, as plain text. */
export function modelTooltip(
  model: ModelEntry,
  change?: ModelChange,
  now = Date.now(),
  /** `modelAccess.prices`, which overrides or fills the registry's price. */
  prices?: unknown,
): vscode.MarkdownString {
  const card = checkCardLink(model.cardUrl);
  const md = plainTooltip();
  md.appendMarkdown('**');
  md.appendText(displayText(model.id, 300) || l10n.t('(no id)'));
  md.appendMarkdown('**\n\n');
  field(md, l10n.t('Family'), displayText(model.family, 200) || '—');
  field(md, l10n.t('Version'), displayText(model.version, 200) || '—');
  field(md, l10n.t('Model Card'), card.ok ? displayText(card.url, 300) : l10n.t('none'));
  const lifecycle = lifecycleSentence(readLifecycle(model.raw), now);
  if (lifecycle) {
    field(md, l10n.t('Lifecycle'), lifecycle);
  }
  const capabilities = capabilitiesText(readCapabilities(model.raw));
  if (capabilities) {
    field(md, l10n.t('Capabilities'), capabilities);
  }
  // "no price known" rather than nothing: a missing price is not a free model.
  field(md, l10n.t('Price'), displayText(formatPrice(priceFor(model.id, model.raw, prices)), 300));
  if (change) {
    field(md, l10n.t('Since last seen'), changeMark(change, now));
  }
  return md;
}

/**
 * One model: id as label, version as description; a click runs the configured click action. The tooltip
 * is left undefined here and built on hover ({@link ModelNode.resolveTooltip}, through the provider's
 * `resolveTreeItem`): a list can hold thousands of rows, and only a few are ever hovered.
 */
export class ModelNode extends vscode.TreeItem {
  /**
   * The environment whose list holds this row, when the view shows every environment as a root; its
   * commands then go to that environment's service. Undefined: the active environment's.
   */
  environment?: string;
  /** The registry change this row shows, if any. */
  readonly change?: ModelChange;
  private readonly prices?: unknown;

  constructor(
    readonly model: ModelEntry,
    options: {
      words?: readonly string[];
      clickable: boolean;
      id?: string;
      showFamily?: boolean;
      /** What changed in the registry since the list was last seen (a gone model's row is dimmed). */
      change?: ModelChange;
      /** `modelAccess.prices`, for the price in the tooltip. */
      prices?: unknown;
      /** How many places in the workspace's code name the model. */
      uses?: number;
    },
  ) {
    const text = displayText(model.id) || l10n.t('(no id)');
    super(label(text, options.words ?? []), vscode.TreeItemCollapsibleState.None);
    this.id = options.id;
    this.change = options.change;
    this.prices = options.prices;
    // The flat list is sorted by family but has no family rows: each row names its family after the version.
    const row = modelRow(model, {
      showFamily: options.showFamily ?? false,
      change: options.change,
      now: Date.now(),
      uses: options.uses,
    });
    this.description = row.description;
    const card = checkCardLink(model.cardUrl);
    this.contextValue = card.ok ? ItemContext.modelWithCard : ItemContext.model;
    this.iconPath =
      options.change?.kind === 'gone'
        ? new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'))
        : row.stage === 'retired'
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
          : row.stage === 'deprecated' || row.stage === 'retiring'
            ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
            : new vscode.ThemeIcon(card.ok ? 'sparkle' : 'circle-outline');
    this.accessibilityInformation = { label: row.spoken };
    if (options.clickable) {
      this.command = { command: Commands.modelClicked, title: l10n.t('Open'), arguments: [this] };
    }
  }

  /** Builds the tooltip if it is not there yet; returns it. */
  resolveTooltip(): vscode.MarkdownString {
    if (!(this.tooltip instanceof vscode.MarkdownString)) {
      this.tooltip = modelTooltip(this.model, this.change, Date.now(), this.prices);
    }
    return this.tooltip;
  }
}

/** A family: collapsible, with the number of models it holds. */
export class FamilyNode extends vscode.TreeItem {
  constructor(
    readonly family: string,
    readonly models: readonly ModelEntry[],
    options: { words?: readonly string[]; expanded: boolean; newMembers?: boolean },
  ) {
    const text = displayText(family, 120);
    super(
      label(text, options.words ?? []),
      options.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    this.id = treeItemId(['f', family]);
    this.description = options.newMembers
      ? l10n.t('{0} · new members', modelCount(models.length))
      : modelCount(models.length);
    if (options.newMembers) {
      this.accessibilityInformation = { label: l10n.t('{0}, {1}', text, this.description as DisplayText) };
    }
    this.contextValue = ItemContext.family;
    this.iconPath = new vscode.ThemeIcon('layers');
    const md = plainTooltip();
    // The family name is registry text: appended as text, between the localized parts.
    md.appendMarkdown(`${l10n.t('Family')} **`);
    md.appendText(displayText(family, 300));
    md.appendMarkdown(`**: ${modelCount(models.length)}`);
    this.tooltip = md;
  }
}

/** A line of information in the tree (a failure with its action, "no match", "N more"). */
export class MessageNode extends vscode.TreeItem {
  constructor(text: DisplayText, icon: string, command?: vscode.Command, tooltip?: string) {
    super(displayText(text, 300), vscode.TreeItemCollapsibleState.None);
    this.iconPath = new vscode.ThemeIcon(icon);
    this.contextValue = ItemContext.message;
    this.command = command;
    if (tooltip) {
      this.tooltip = tooltip;
      // A string tooltip becomes the row's accessible name, which must still say the visible label
      // ("Set API Key…", "Retry") before the reason.
      this.accessibilityInformation = {
        label: l10n.t('{0}: {1}', displayText(text, 300), displayText(tooltip.replace(/\s+/g, ' '), 500)),
      };
    }
  }
}

export type ModelsTreeNode = ModelNode | FamilyNode | MessageNode;
