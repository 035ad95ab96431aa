import * as vscode from 'vscode';
import { describeKeySource } from '../platform/apiKeys';
import { Commands } from '../ids';
import type { ModelCatalog } from '../platform/catalog';
import type { ModelChanges } from '../platform/modelChanges';
import type { Environments } from '../platform/environments';
import { StatusBarEntry } from '../platform/statusBarEntry';
import { modelCount } from '../common/counts';
import { updatedAgo } from '../domain/savedModelList';
import { clean, displayText, type DisplayText } from '../common/text';
import { l10n } from '../platform/l10n';
import { statusSpoken } from './core/statusSpoken';
import { rateLimitsLine } from './core/rateLimitsLine';
import type { UsageMeter } from '../platform/usageMeter';

/**
 * Service host and model count (or what is wrong) in the status bar, and how many registry changes the Models
 * view marks since the list was last seen; a click opens the Models view.
 */
export class ModelsStatusBar extends StatusBarEntry {
  constructor(
    private readonly catalog: ModelCatalog,
    private readonly changes: ModelChanges,
    private readonly environments: Pick<Environments, 'list' | 'onDidChangeList'>,
    private readonly usage?: Pick<UsageMeter, 'limitsOf' | 'onDidChange'>,
  ) {
    super('modelAccess.status', 'Model Access', 50);
    // One follow (one first draw) for every event, the usage meter's too.
    this.follow(
      catalog.onDidChange,
      catalog.onDidChangeStatus,
      changes.onDidChange,
      environments.onDidChangeList,
      ...(usage ? [usage.onDidChange] : []),
    );
    this.item.show();
  }

  protected update(): void {
    const status = this.catalog.status;
    const state = this.catalog.serviceState;
    // One fact per item: with several environments the environment item beside this one names the active
    // environment, so this one shows the host alone; the tooltip says both.
    const host =
      state.environment && state.host && state.environment !== state.host
        ? `${displayText(state.environment, 60)} (${state.host})`
        : (state.host ?? 'Model Access');
    const shown = this.environments.list.length > 1 ? (state.host ?? host) : host;
    const count = this.catalog.models.length;
    const md = this.tooltip('Model Access');
    this.item.backgroundColor = undefined;
    switch (status.kind) {
      case 'needsUrl':
        // The product's name, as in the manifest's category: not translated.
        // eslint-disable-next-line no-restricted-syntax
        this.item.text = '$(hubot) Model Access';
        md.appendText(l10n.t('No service URL is set. Click to set it.'));
        this.item.command = Commands.setBaseUrl;
        break;
      case 'needsKey':
        this.item.text = `$(key) ${shown}`;
        md.appendText(l10n.t('No API key is set for {0}. Click to set it.', clean(host)));
        this.item.command = Commands.setApiKey;
        break;
      case 'idle':
        this.item.text = `$(hubot) ${shown}`;
        md.appendText(l10n.t('Models on {0} are not loaded yet. Click to list them.', clean(host)));
        this.item.command = Commands.showModels;
        break;
      case 'loading':
        this.item.text = `$(sync~spin) ${shown}`;
        md.appendText(l10n.t('Loading models from {0}…', clean(host)));
        this.item.command = Commands.showModels;
        break;
      case 'ready': {
        const changed = this.changes.count;
        this.item.text = `$(hubot) ${shown} · ${modelCount(count)}${changed > 0 ? ` · ${changedCount(changed)}` : ''}`;
        md.appendText(
          count === 1 ? l10n.t('1 model on {0}.', clean(host)) : l10n.t('{0} models on {1}.', count, clean(host)),
        );
        if (changed > 0) {
          md.appendMarkdown('\n\n');
          md.appendText(
            l10n.t('{0} since you last looked: the Models view marks them, with Show Changes.', changedCount(changed)),
          );
        }
        this.item.command = Commands.showModels;
        break;
      }
      case 'error':
        this.item.text = `$(warning) ${shown}`;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        md.appendText(displayText(status.failure.message, 300));
        if (count > 0) {
          md.appendText(
            count === 1
              ? l10n.t(' Showing the last list (1 model).')
              : l10n.t(' Showing the last list ({0} models).', count),
          );
        }
        this.item.command = Commands.showModels;
        break;
    }
    const saved = this.catalog.savedListShown && count > 0 ? this.catalog.loadedAt : undefined;
    if (saved) {
      // The count above is the saved list's until the refresh lands: say so, as the view does.
      md.appendMarkdown('\n\n');
      md.appendText(l10n.t('Saved list, {0}.', updatedAgo(saved.getTime(), Date.now())));
    }
    if (status.kind !== 'needsUrl') {
      md.appendMarkdown('\n\n');
      md.appendText(l10n.t('API key: {0}.', describeKeySource(state.keySource, state.keyScope)));
    }
    const limits = this.usage?.limitsOf();
    if (limits) {
      // The last limits the active environment's service announced (any request's answer), and how old they are.
      md.appendMarkdown('\n\n');
      md.appendText(rateLimitsLine(limits, Date.now()));
    }
    this.item.tooltip = md;
    // Spoken as shown: the accessible name starts with what is visible.
    const spoken = statusSpoken(status.kind, clean(shown), count);
    const changed = status.kind === 'ready' ? this.changes.count : 0;
    this.item.accessibilityInformation = { label: changed > 0 ? `${spoken}, ${changedCount(changed)}` : spoken };
  }
}

/** "1 registry change", "4 registry changes". */
function changedCount(n: number): DisplayText {
  return n === 1 ? l10n.t('1 registry change') : l10n.t('{0} registry changes', n);
}
