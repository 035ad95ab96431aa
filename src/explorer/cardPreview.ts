import * as vscode from 'vscode';
import type { NetworkSettings } from '../api/dispatcher';
import type { ModelEntry } from '../api/types';
import { FAILURE_ACTIONS } from '../domain/failure';
import { displayText, clean, type DisplayText } from '../common/text';
import { seenDay } from '../domain/registry/changes';
import { cardSourceText, sameCard, type MissingCard, type KeptCard } from './core/cardDiff';
import type { KeptCards } from './keptCards';
import { BuiltinCommands } from '../ids';
import type { RedactingLog } from '../platform/log';
import type { Ui } from '../platform/ui';
import { fetchCard } from '../api/cardFetch';
import { plainTextAsMarkdown, prepareCardSource, sanitizeRenderedCard } from '../domain/cardMarkdown';
import { checkCardLink, rawCardLink } from '../api/linkSafety';
import { modelDocumentName, modelDocumentQuery } from './core/documentName';
import { l10n } from '../platform/l10n';

export const CARD_SCHEME = 'model-access-card';

export type CardPreviewOutcome =
  /** `changedSince`: when the card kept before, which differs, was read (epoch ms). */
  | { kind: 'preview'; uri: vscode.Uri; text: string; changedSince?: number }
  | { kind: 'browser'; opened: unknown }
  | { kind: 'failed'; message: string };

/** How many reported changes Show Card Changes can still show (each holds two cards). */
const MAX_CHANGES = 20;

/**
 * A card as the preview shows it (`text`) and as its server sent it (`source`, through cardSourceText: what
 * Compare Model Cards and Show Card Changes diff), or why there is none.
 */
export type CardText =
  | { kind: 'text'; text: string; source: string }
  | { kind: 'missing'; missing: MissingCard; contentType?: string; setup?: boolean };

/** A card that changed since it was last read: the card kept then, and the card read now. */
export interface CardChange {
  model: ModelEntry;
  environment: string | undefined;
  before: KeptCard;
  /** The preview's text now. */
  after: string;
  /** The card's own text now (cardSourceText). */
  afterSource: string;
}

/** The line above a changed card in the preview (our text: Markdown-safe, the date is digits and a month). */
function changedNote(at: number): string {
  const day = clean(seenDay(at, Date.now()).replace(/[\\`*_[\]<>#|~]/g, ''));
  return `*${l10n.t('This card changed since you last read it on {0}.', day)}*\n\n`;
}

/**
 * Model Cards in VS Code's Markdown preview: the card is fetched without the API key but through the service's
 * proxy and trust settings (see api/cardFetch.ts), made safe (core/cardMarkdown.ts) and served from a
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
  /** Cards whose preview reported a change, by kept-card key, oldest first. */
  private readonly changes = new Map<string, CardChange>();

  constructor(
    private readonly deps: {
      ui: Ui;
      log: RedactingLog;
      /** `environment`: the row's, whose service "Inspect Model" asks when there is no card to open. */
      openCard: (model: ModelEntry, environment?: string) => Promise<unknown>;
      /** The proxy, roots and client certificate a card is fetched with (never the key), for `environment`. */
      network: (environment?: string) => Promise<NetworkSettings>;
      /** The cards last read, and the key of a model's card in `environment` (undefined: no service to tie it to). */
      kept: KeptCards;
      keptKey: (id: string, environment?: string) => string | undefined;
      /** Shows a change in the diff editor (Show Card Changes). */
      showChanges: (change: CardChange) => Promise<unknown>;
    },
    private readonly now: () => number = Date.now,
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
   * A model's card as the preview shows it, read but not opened: the text, or why there is none (no link, a
   * refused link, a web page, a failed read with whether the network setup is the cause). Compare Model
   * Cards and the preview read cards through this one path.
   */
  async read(model: ModelEntry, environment?: string): Promise<CardText> {
    const link = model.cardUrl ?? rawCardLink(model.raw);
    const check = checkCardLink(link);
    if (!check.ok) {
      return {
        kind: 'missing',
        missing:
          typeof link !== 'string' || link.trim() === ''
            ? { kind: 'noLink' }
            : { kind: 'refused', reason: check.reason },
      };
    }
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: l10n.t('Reading the Model Card of {0}', displayText(model.id, 60)),
      },
      async () => fetchCard(check.url, { network: await this.deps.network(environment) }),
    );
    if (result.kind === 'browser') {
      return { kind: 'missing', missing: { kind: 'browser' }, contentType: result.contentType };
    }
    if (result.kind === 'failed') {
      return { kind: 'missing', missing: { kind: 'failed', message: result.message }, setup: result.setup === true };
    }
    const body = result.kind === 'markdown' ? await this.renderCard(result.text) : plainTextAsMarkdown(result.text);
    const note = result.truncated
      ? `\n\n---\n*The card is longer than the preview reads; open it in the browser for the rest.*\n`
      : '';
    return { kind: 'text', text: `${body}${note}`, source: cardSourceText(result.text, result.truncated) };
  }

  /**
   * Says that a card could not be read, with the way out: open it in the browser, and Diagnose Connection
   * when the proxy or TLS setup is the cause (the same network the service is reached through).
   */
  warnUnread(model: ModelEntry, environment: string | undefined, failure: string, setup: boolean): DisplayText {
    const message = l10n.t('The Model Card of {0} could not be previewed. {1}', clean(model.id), clean(failure));
    this.deps.log.warn(message);
    const browser = l10n.t('Open in Browser');
    const diagnose = setup ? [FAILURE_ACTIONS.diagnose.title] : [];
    void this.deps.ui.warn(message, browser, ...diagnose).then((a) => {
      if (a === browser) {
        return this.deps.openCard(model, environment);
      }
      return a ? vscode.commands.executeCommand(FAILURE_ACTIONS.diagnose.command, environment) : undefined;
    });
    return message;
  }

  /**
   * `environment`: the environment whose root the model's row is under (none: the active one); the card is
   * fetched through its network settings (its client certificate only for its origin). A card served as
   * Markdown or plain text opens rendered in the preview; a web page (or no card, or a refused link) takes the
   * browser path (`openCard`), whose checks and messages are the usual ones. A click on a model row comes here
   * with `unreadInBrowser`: a card that could not be read (a host only the browser reaches, behind a sign-in)
   * opens in the browser, as a click always did, and the reason is logged.
   */
  async preview(
    model: ModelEntry,
    environment?: string,
    options: { unreadInBrowser?: boolean } = {},
  ): Promise<CardPreviewOutcome> {
    const card = await this.read(model, environment);
    if (card.kind === 'missing') {
      const missing = card.missing;
      if (missing.kind === 'failed' && options.unreadInBrowser) {
        this.deps.log.info(
          l10n.t(
            'The Model Card of {0} could not be read here ({1}): opening it in the browser.',
            clean(model.id),
            clean(missing.message),
          ),
        );
      } else if (missing.kind === 'failed') {
        return { kind: 'failed', message: this.warnUnread(model, environment, missing.message, card.setup === true) };
      }
      if (missing.kind === 'browser') {
        this.deps.log.info(
          card.contentType
            ? l10n.t(
                'The Model Card of {0} is {1}: opening it in the browser.',
                clean(model.id),
                clean(card.contentType),
              )
            : l10n.t('The Model Card of {0} is not text: opening it in the browser.', clean(model.id)),
        );
      }
      // No card, a refused link (the usual message, with Inspect offered), or a web page: the browser path.
      return { kind: 'browser', opened: await this.deps.openCard(model, environment) };
    }
    const changed = await this.remember(model, environment, card);
    const text = changed ? `${changedNote(changed.before.at)}${card.text}` : card.text;
    const uri = CardPreviews.uriFor(model.id, environment);
    this.contents.set(uri.toString(), text);
    this._onDidChange.fire(uri);
    await vscode.workspace.openTextDocument(uri);
    await vscode.commands.executeCommand(BuiltinCommands.showMarkdownPreview, uri);
    this._onDidPreview.fire(model);
    if (changed) {
      this.announceChange(changed);
    }
    return { kind: 'preview', uri, text, changedSince: changed?.before.at };
  }

  /**
   * Keeps `text` as the card last read; returns the change when the card kept before differs (the first
   * preview of a card, or a service with no URL, says nothing).
   */
  private async remember(
    model: ModelEntry,
    environment: string | undefined,
    card: { text: string; source: string },
  ): Promise<CardChange | undefined> {
    const key = this.deps.keptKey(model.id, environment);
    if (key === undefined) {
      return undefined;
    }
    const before = this.deps.kept.get(key);
    await this.deps.kept.keep(key, { text: card.text, source: card.source, at: this.now() });
    if (!before || sameCard(before, card)) {
      this.changes.delete(key);
      return undefined;
    }
    const change: CardChange = { model, environment, before, after: card.text, afterSource: card.source };
    // The latest last (Show Card Changes from the palette takes it), and only the latest few.
    this.changes.delete(key);
    this.changes.set(key, change);
    for (const old of this.changes.keys()) {
      if (this.changes.size <= MAX_CHANGES) {
        break;
      }
      this.changes.delete(old);
    }
    return change;
  }

  private announceChange(change: CardChange): void {
    const show = l10n.t('Show Card Changes');
    void this.deps.ui
      .info(
        l10n.t(
          'The Model Card of {0} changed since you last read it on {1}.',
          displayText(change.model.id, 80),
          seenDay(change.before.at, this.now()),
        ),
        show,
      )
      .then((a) => (a === show ? this.deps.showChanges(change) : undefined));
  }

  /**
   * The change the preview last reported for a model (`model` undefined: the latest one), kept for Show Card
   * Changes until the card is previewed again unchanged.
   */
  changeOf(model?: ModelEntry, environment?: string): CardChange | undefined {
    if (!model) {
      return [...this.changes.values()].pop();
    }
    const key = this.deps.keptKey(model.id, environment);
    return key === undefined ? undefined : this.changes.get(key);
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
    this._onDidPreview.dispose();
    this.contents.clear();
    this.changes.clear();
  }
}
