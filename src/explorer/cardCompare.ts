import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { displayText, type DisplayText } from '../common/text';
import { environmentFromArg, modelFromArg } from '../domain/commandArgs';
import { familyOf } from '../domain/modelSorting';
import { seenDay } from '../domain/registry/changes';
import { BuiltinCommands, Commands } from '../ids';
import { l10n } from '../platform/l10n';
import { modelPickItems } from '../platform/modelPicks';
import type { Services } from '../services';
import type { CardChange, CardPreviews, CardText } from './cardPreview';
import { cardDiffText, missingCardText } from './core/cardDiff';
import { modelDocumentName } from './core/documentName';

export const CARD_DIFF_SCHEME = 'model-access-card-diff';

/** What Compare Model Cards did (tests assert on it). */
export type CardCompareOutcome =
  | { kind: 'diff'; left: vscode.Uri; right: vscode.Uri; title: string }
  | { kind: 'noCards'; message: string }
  | { kind: 'cancelled' };

/** How many compared documents are kept at most (each closed one is dropped at once). */
const MAX_DOCUMENTS = 40;

/**
 * Compare Model Cards and Show Card Changes: two cards' own text (Markdown or plain text, not the preview's
 * HTML) in VS Code's diff editor.
 * The sides are read-only documents of our scheme, plain text: each comparison gets its own pair, so a
 * diff tab keeps what it showed when it was opened.
 */
export class CardComparisons implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private serial = 0;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly services: Services,
    private readonly cards: CardPreviews,
  ) {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(CARD_DIFF_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === CARD_DIFF_SCHEME) {
          this.contents.delete(d.uri.toString());
        }
      }),
      vscode.commands.registerCommand(Commands.compareModelCards, (arg?: unknown) => this.compareCommand(arg)),
      vscode.commands.registerCommand(Commands.showCardChanges, (arg?: unknown) => this.changesCommand(arg)),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ?? l10n.t('Run "Model Access: Compare Model Cards" again to see this card.')
    );
  }

  /** From a row: that model and a second one picked (its family first); from the palette: two picked. */
  private async compareCommand(arg: unknown): Promise<CardCompareOutcome> {
    const environment = environmentFromArg(arg);
    const models = await this.modelsOf(environment);
    const first =
      modelFromArg(arg, models) ?? (await this.pickModel(models, undefined, l10n.t('Compare the Model Card of…')));
    if (!first) {
      return { kind: 'cancelled' };
    }
    const second = await this.pickModel(
      models.filter((m) => m.id !== first.id),
      first,
      l10n.t('Compare the Model Card of {0} with…', displayText(first.id, 60)),
    );
    if (!second) {
      return { kind: 'cancelled' };
    }
    return this.compare(first, second, environment);
  }

  /** The two cards side by side; a side without a card says why, and a read that failed offers the way out. */
  async compare(a: ModelEntry, b: ModelEntry, environment?: string): Promise<CardCompareOutcome> {
    const [left, right] = await Promise.all([this.cards.read(a, environment), this.cards.read(b, environment)]);
    for (const [model, card] of [
      [a, left],
      [b, right],
    ] as const) {
      if (card.kind === 'missing' && card.missing.kind === 'failed') {
        this.cards.warnUnread(model, environment, card.missing.message, card.setup === true);
      }
    }
    if (left.kind === 'missing' && right.kind === 'missing') {
      const message = l10n.t(
        'Neither {0} nor {1} has a Model Card that can be compared.',
        displayText(a.id, 60),
        displayText(b.id, 60),
      );
      void this.services.ui.info(message);
      return { kind: 'noCards', message };
    }
    const title = l10n.t('Model Card: {0} ↔ {1}', displayText(a.id, 60), displayText(b.id, 60));
    return this.openDiff(
      { id: a.id, environment, text: sideText(a, left) },
      { id: b.id, environment, text: sideText(b, right) },
      title,
    );
  }

  /** Show Card Changes: the card kept from the last reading against the one the preview read now. */
  private async changesCommand(arg: unknown): Promise<CardCompareOutcome> {
    const environment = environmentFromArg(arg);
    const model = arg === undefined ? undefined : modelFromArg(arg, await this.modelsOf(environment));
    const change = this.cards.changeOf(model, environment);
    if (!change) {
      const message = model
        ? l10n.t('The Model Card of {0} has not changed since you last read it.', displayText(model.id, 60))
        : l10n.t('No Model Card you previewed has changed since you last read it.');
      void this.services.ui.info(message);
      return { kind: 'noCards', message };
    }
    return this.showChange(change);
  }

  showChange(change: CardChange): Promise<CardCompareOutcome> {
    const day = seenDay(change.before.at, Date.now());
    const title = l10n.t('Model Card: {0} ({1} ↔ now)', displayText(change.model.id, 60), day);
    // The card's own text on both sides; a card kept by an older version has only the preview's text.
    const kept = change.before.source;
    return this.openDiff(
      {
        id: change.model.id,
        environment: change.environment,
        text: kept ?? cardDiffText(change.before.text),
      },
      {
        id: change.model.id,
        environment: change.environment,
        text: kept !== undefined ? change.afterSource : cardDiffText(change.after),
      },
      title,
    );
  }

  private async openDiff(
    left: { id: string; environment?: string; text: string },
    right: { id: string; environment?: string; text: string },
    title: DisplayText,
  ): Promise<CardCompareOutcome> {
    const n = ++this.serial;
    const uriOf = (side: typeof left, which: string) =>
      vscode.Uri.from({
        scheme: CARD_DIFF_SCHEME,
        path: `/${modelDocumentName(side.id, side.environment, 'model', 100)} card`,
        query: new URLSearchParams({ n: String(n), side: which }).toString(),
      });
    const l = uriOf(left, 'a');
    const r = uriOf(right, 'b');
    this.contents.set(l.toString(), left.text);
    this.contents.set(r.toString(), right.text);
    // Documents never opened (a diff closed at once) are dropped oldest first.
    for (const key of this.contents.keys()) {
      if (this.contents.size <= MAX_DOCUMENTS) {
        break;
      }
      this.contents.delete(key);
    }
    await vscode.commands.executeCommand(BuiltinCommands.diff, l, r, title, { preview: false });
    return { kind: 'diff', left: l, right: r, title };
  }

  private async modelsOf(environment: string | undefined): Promise<readonly ModelEntry[]> {
    const env = environment === undefined ? undefined : this.services.environments.find(environment);
    const catalog = env ? this.services.catalogs.catalogFor(env) : this.services.catalog;
    await catalog.ensureLoaded();
    return catalog.models;
  }

  /** A model picked from `models`; with `near`, the models of its family first. */
  private async pickModel(
    models: readonly ModelEntry[],
    near: ModelEntry | undefined,
    title: DisplayText,
  ): Promise<ModelEntry | undefined> {
    const family = near && familyOf(near);
    const items =
      family === undefined
        ? modelPickItems(models)
        : [
            ...modelPickItems(models.filter((m) => familyOf(m) === family)),
            ...modelPickItems(models.filter((m) => familyOf(m) !== family)),
          ];
    if (items.length === 0) {
      void this.services.ui.info(l10n.t('There is no other model to compare with.'));
      return undefined;
    }
    const picked = await this.services.ui.pick(items, {
      title,
      placeHolder: l10n.t('Type to search by id, family or version'),
      matchOnDescription: true,
    });
    return picked?.model;
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
    this.contents.clear();
  }
}

function sideText(model: ModelEntry, card: CardText): string {
  return card.kind === 'text' ? card.source : missingCardText(model.id, card.missing);
}
