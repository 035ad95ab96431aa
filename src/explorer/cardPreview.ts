import * as vscode from 'vscode';
import type { NetworkSettings } from '../api/dispatcher';
import type { ModelEntry } from '../api/types';
import { FAILURE_ACTIONS } from '../domain/failure';
import { displayText, clean } from '../common/text';
import { BuiltinCommands } from '../ids';
import type { RedactingLog } from '../platform/log';
import type { Ui } from '../platform/ui';
import { fetchCard } from './core/cardFetch';
import { plainTextAsMarkdown, prepareCardSource, sanitizeRenderedCard } from '../domain/cardMarkdown';
import { checkCardLink, rawCardLink } from './core/linkSafety';
import { modelDocumentName, modelDocumentQuery } from './core/documentName';
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
  private readonly _onDidPreview = new vscode.EventEmitter<ModelEntry>();
  /** Fires when a card is shown in the Markdown preview. */
  readonly onDidPreview = this._onDidPreview.event;
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

  /**
   * The preview document of `id`'s card; with `environment` (a row under that environment's root) its title and
   * query name it too, as Inspect Model's do: the same id in two environments is two tabs, each with the card
   * its own entry links to.
   */
  static uriFor(id: string, environment?: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: CARD_SCHEME,
      path: `/${modelDocumentName(id, environment, 'model', 100)} card.md`,
      query: modelDocumentQuery(id, environment),
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
    const body = result.kind === 'markdown' ? await this.renderCard(result.text) : plainTextAsMarkdown(result.text);
    const note = result.truncated
      ? `\n\n---\n*The card is longer than the preview reads; open it in the browser for the rest.*\n`
      : '';
    const text = `${body}${note}`;
    const uri = CardPreviews.uriFor(model.id, environment);
    this.contents.set(uri.toString(), text);
    this._onDidChange.fire(uri);
    await vscode.workspace.openTextDocument(uri);
    await vscode.commands.executeCommand(BuiltinCommands.showMarkdownPreview, uri);
    this._onDidPreview.fire(model);
    return { kind: 'preview', uri, text };
  }

  /**
   * A Markdown card rendered by the preview's own engine and rebuilt from the allow-list (core/cardMarkdown.ts).
   * Without the built-in Markdown extension's renderer the card is shown as plain text: never unsanitized.
   */
  private async renderCard(markdown: string): Promise<string> {
    try {
      const html = await vscode.commands.executeCommand<unknown>(
        BuiltinCommands.renderMarkdown,
        prepareCardSource(markdown),
      );
      if (typeof html === 'string') {
        return sanitizeRenderedCard(html);
      }
    } catch (e) {
      this.deps.log.warn(
        l10n.t('The Markdown renderer failed ({0}); the card is shown as plain text.', clean(String(e))),
      );
    }
    return plainTextAsMarkdown(markdown);
  }

  dispose(): void {
    this.registration.dispose();
    this._onDidChange.dispose();
    this.contents.clear();
  }
}
