import * as vscode from 'vscode';
import { onFirstUse } from '../common/onFirstUse';
import { newNonce } from '../common/html';
import { displayText } from '../common/text';
import { l10n } from '../platform/l10n';
import { flash, type Ui } from '../platform/ui';
import type { ModelGrid } from './core/modelGrid';

export const MODEL_GRID_VIEW_TYPE = 'modelAccess.modelGrid';

/** The run code (dist/checks.js): the grid's page and CSV, loaded with the run that made the grid. */
const load = onFirstUse(() => require('./runner') as typeof import('./runner'));

/** A button another feature asks the grid to show after its run (Switch N references): one of our commands. */
export interface GridFollowUp {
  /** Localized by the feature that asks, with any registry text through the display function. */
  title: string;
  command: string;
  arguments: unknown[];
}

/** What integration tests observe and drive of the page. */
export interface ModelGridApi {
  /** The grid of the last several-models run (kept when the page is closed: Show Results Across Models). */
  grid(): ModelGrid | undefined;
  /** The page as last drawn, while it is open. */
  html(): string | undefined;
  /** What pressing Save as CSV does; resolves with the file written. */
  saveCsv(): Promise<vscode.Uri | undefined>;
  /** What pressing the follow-up button (Switch N references) does, when the grid has one. */
  followUp(): Promise<unknown>;
}

/**
 * Results Across Models: the grid of the last Run Checks on Several Models in one webview of our own, opened
 * (or redrawn) when such a run ends and again by its command after it was closed. Its one button saves the
 * grid as CSV where the person chooses.
 */
export class ModelGridPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: ModelGrid | undefined;
  private drawn: string | undefined;
  private then: GridFollowUp | undefined;

  constructor(private readonly ui: Ui) {}

  get api(): ModelGridApi {
    return {
      grid: () => this.shown,
      html: () => (this.panel ? this.drawn : undefined),
      saveCsv: () => this.saveCsv(),
      followUp: () => this.followUp(),
    };
  }

  /** Shows `grid` (the last run's when omitted); false when no several-models run has ended yet. */
  show(grid: ModelGrid | undefined = this.shown, then?: GridFollowUp): boolean {
    if (!grid) {
      void this.ui.info(l10n.t('Run Checks on Several Models first: there are no results across models yet.'));
      return false;
    }
    // A new grid drops the previous one's button; showing the same grid again keeps it.
    if (grid !== this.shown || then) {
      this.then = then;
    }
    this.shown = grid;
    let panel = this.panel;
    if (panel) {
      panel.reveal(undefined, false);
    } else {
      // In the active column, not beside: beside the payload at 900 px each would get too narrow for a grid.
      panel = vscode.window.createWebviewPanel(
        MODEL_GRID_VIEW_TYPE,
        l10n.t('Results Across Models'),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { enableScripts: true, enableCommandUris: false, localResourceRoots: [], retainContextWhenHidden: false },
      );
      const created = panel;
      created.onDidDispose(() => {
        if (this.panel === created) {
          this.panel = undefined;
        }
      });
      created.webview.onDidReceiveMessage((m: unknown) => {
        const action = load().parseGridMessage(m);
        if (action === 'saveCsv') {
          void this.saveCsv();
        } else if (action === 'followUp') {
          void this.followUp();
        }
      });
      this.panel = panel;
    }
    panel.title = l10n.t('Results Across Models · {0}', displayText(grid.payload, 60));
    this.drawn = load().modelGridHtml(grid, newNonce(), panel.webview.cspSource, this.then?.title);
    panel.webview.html = this.drawn;
    return true;
  }

  /** Writes the grid as CSV where the person chooses; says where in the page and the status bar. */
  async saveCsv(): Promise<vscode.Uri | undefined> {
    const grid = this.shown;
    if (!grid) {
      return undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${grid.payload.replace(/\.[^.]*$/, '')}-models.csv`;
    const target = await this.ui.saveDialog({
      filters: { CSV: ['csv'] },
      saveLabel: l10n.t('Save Results'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    });
    if (!target) {
      return undefined;
    }
    const { gridAsTable, tableAsCsv } = load();
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(tableAsCsv(gridAsTable(grid))));
    const said = l10n.t('Saved {0}', displayText(vscode.workspace.asRelativePath(target), 200));
    flash('save', said);
    void this.panel?.webview.postMessage({ announce: said });
    return target;
  }

  /** Runs the follow-up button's command (nothing when the grid has none). */
  followUp(): Promise<unknown> {
    const then = this.then;
    return then ? Promise.resolve(vscode.commands.executeCommand(then.command, ...then.arguments)) : Promise.resolve();
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
