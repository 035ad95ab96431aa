import * as vscode from 'vscode';
import type { NetworkSettings } from '../api/dispatcher';
import type { ModelEntry } from '../api/types';
import { FAILURE_ACTIONS } from '../domain/failure';
import { displayText, clean } from '../common/text';
import { BuiltinCommands } from '../ids';
import type { RedactingLog } from '../platform/log';
import type { Ui } from '../platform/ui';
import { fetchCard } from './core/cardFetch';
import { plainTextAsMarkdown, sanitizeCardMarkdown } from '../domain/cardMarkdown';
import { checkCardLink, rawCardLink } from './core/linkSafety';
import { l10n } from '../platform/l10n';

export const CARD_SCHEME = 'model-access-card';

export type CardPreviewOutcome =
  | { kind: 'preview'; uri: vscode.Uri; text: string }
  | { kind: 'browser'; opened: unknown }
  | { kind: 'failed'; message: string };

/**
 * Model Cards in VS Code's Markdown preview: the card is fetched without the API key but through the service's
 * proxy and trust settings (see core/cardFetch.ts), made safe (core/cardMarkdown.ts) and served from a
 * read-only virtual document the preview renders.
 * A card that is an HTML page opens in the browser instead, through the usual card checks.
 */
export class CardPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly deps: {
      ui: Ui;
      log: RedactingLog;
      /** `environment`: the row's, whose service "Inspect Model" asks when there is no card to open. */
      openCard: (model: ModelEntry, environment?: string) => Promise<unknown>;
      /** The proxy, roots and client certificate a card is fetched with (never the key), for `environment`. */
      network: (environment?: string) => Promise<NetworkSettings>;
    },
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CARD_SCHEME, this);
  }

  static uriFor(id: string): vscode.Uri {
    const title = displayText(id, 100).replace(/[/\\]/g, '∕') || 'model';
    return vscode.Uri.from({
      scheme: CARD_SCHEME,
      path: `/${title} card.md`,
      query: new URLSearchParams({ id }).toString(),
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? 'Run "Model Access: Preview Model Card" to load this card.\n';
  }

  /**
   * `environment`: the environment whose root the model's row is under (none: the active one); the card is
   * fetched through its network settings (its client certificate only for its origin).
   */
  async preview(model: ModelEntry, environment?: string): Promise<CardPreviewOutcome> {
    const link = model.cardUrl ?? rawCardLink(model.raw);
    if (!checkCardLink(link).ok) {
      // The usual message (no card, or why the link is refused), with Inspect offered.
      return { kind: 'browser', opened: await this.deps.openCard(model, environment) };
    }
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: l10n.t('Reading the Model Card of {0}', displayText(model.id, 60)),
      },
      async () => fetchCard(link as string, { network: await this.deps.network(environment) }),
    );
    if (result.kind === 'browser') {
      this.deps.log.info(
        result.contentType
          ? l10n.t(
              'The Model Card of {0} is {1}: opening it in the browser.',
              clean(model.id),
              clean(result.contentType),
            )
          : l10n.t('The Model Card of {0} is not text: opening it in the browser.', clean(model.id)),
      );
      return { kind: 'browser', opened: await this.deps.openCard(model, environment) };
    }
    if (result.kind === 'failed') {
      const message = l10n.t(
        'The Model Card of {0} could not be previewed. {1}',
        clean(model.id),
        clean(result.message),
      );
      this.deps.log.warn(message);
      const browser = l10n.t('Open in Browser');
      // A proxy or TLS failure is the same network the service is reached through: the diagnosis explains it.
      const diagnose = result.setup ? [FAILURE_ACTIONS.diagnose.title] : [];
      void this.deps.ui.warn(message, browser, ...diagnose).then((a) => {
        if (a === browser) {
          return this.deps.openCard(model, environment);
        }
        return a ? vscode.commands.executeCommand(FAILURE_ACTIONS.diagnose.command, environment) : undefined;
      });
      return { kind: 'failed', message };
    }
    const body = result.kind === 'markdown' ? sanitizeCardMarkdown(result.text) : plainTextAsMarkdown(result.text);
    const note = result.truncated
      ? `\n\n---\n*The card is longer than the preview reads; open it in the browser for the rest.*\n`
      : '';
    const text = `${body}${note}`;
    const uri = CardPreviews.uriFor(model.id);
    this.contents.set(uri.toString(), text);
    this._onDidChange.fire(uri);
    await vscode.workspace.openTextDocument(uri);
    await vscode.commands.executeCommand(BuiltinCommands.showMarkdownPreview, uri);
    return { kind: 'preview', uri, text };
  }

  dispose(): void {
    this.registration.dispose();
    this._onDidChange.dispose();
    this.contents.clear();
  }
}
