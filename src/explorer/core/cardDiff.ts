/**
 * Model Cards side by side in VS Code's diff editor, and the cards a person last read. Pure, no `vscode`.
 *
 * The text compared is the card's own text ({@link cardSourceText}): the Markdown or plain text its server
 * sent, which is what a person reads and edits, so a changed score is one changed line and no generated markup
 * (`<h1 dir="auto">`, `<td>…</td>`) stands between. Invisible characters are shown as marks, as the preview
 * shows them. Cards kept before the source was kept compare as the preview showed them ({@link cardDiffText}).
 * The diff documents are plain text: no link, no rendering.
 */
import { revealInvisible } from '../../common/html';
import { l10n } from '../../common/l10n';
import { clean, type DisplayText } from '../../common/text';

/**
 * A card's text as its server sent it (Markdown or plain text), for reading in a diff: bidi and zero-width
 * characters as visible marks, control characters replaced, line breaks as `\n`; `truncated` adds a last line
 * saying the card is longer than what was read.
 */
export function cardSourceText(source: string, truncated = false): string {
  const text = revealInvisible(source);
  const body = text.endsWith('\n') || text === '' ? text : `${text}\n`;
  return truncated ? `${body}${l10n.t('(The card is longer than what was read; the rest is not compared.)')}\n` : body;
}

/**
 * The preview's text of a card (the card rendered and rebuilt from the allow-list, one line of HTML), one block
 * per line: the renderer's own line breaks, which the preview's text writes as `&#10;`, become line breaks again.
 * Only for cards kept before their source was kept (Show Card Changes against such a card).
 */
export function cardDiffText(previewText: string): string {
  const m = /^<div class="model-card">([\s\S]*)<\/div>\n([\s\S]*)$/.exec(previewText);
  if (!m) {
    // A plain-text card (a fenced block) is already lines.
    return previewText;
  }
  const [, html, rest] = m;
  const body = html.replace(/&#13;/g, '').replace(/&#10;/g, '\n');
  return `${body.endsWith('\n') ? body : `${body}\n`}${rest}`;
}

/** Why a side of the comparison has no card: no link, a link that is refused, a web page, or a failed read. */
export type MissingCard =
  { kind: 'noLink' } | { kind: 'refused'; reason: string } | { kind: 'browser' } | { kind: 'failed'; message: string };

/** The text of a side that has no card to show, saying why (the other side still shows its card). */
export function missingCardText(id: string, missing: MissingCard): string {
  const model = clean(id);
  let why: DisplayText;
  switch (missing.kind) {
    case 'noLink':
      why = l10n.t('“{0}” has no Model Card link.', model);
      break;
    case 'refused':
      why = l10n.t('The Model Card of “{0}” was not read. {1}', model, clean(missing.reason));
      break;
    case 'browser':
      why = l10n.t('The Model Card of “{0}” is a web page, not text: open it in the browser.', model);
      break;
    case 'failed':
      why = l10n.t('The Model Card of “{0}” could not be read. {1}', model, clean(missing.message));
      break;
  }
  return `(${why})\n`;
}

/** A card as last read in the preview. */
export interface KeptCard {
  /** The preview's text when it was read. */
  text: string;
  /** The card's own text ({@link cardSourceText}) when it was read; absent in cards kept by older versions. */
  source?: string;
  /** When it was read (epoch ms). */
  at: number;
}

/** The cards last read, most recent first, each under {@link keptCardKey}. */
export interface KeptCards {
  version: 1;
  cards: ({ key: string } & KeptCard)[];
}

/** How many cards are kept, and how much text in all: the store lives in VS Code's global state. */
export const KEPT_CARDS_MAX = 30;
export const KEPT_TEXT_MAX = 1_000_000;

/**
 * The key a card is kept under: the environment, the service's origin (never the key: one person's cards do
 * not depend on it) and the model id, so the same id on two services is two cards.
 */
export function keptCardKey(environment: string, origin: string, id: string): string {
  return JSON.stringify([environment, origin, id]);
}

/** The stored value read back tolerantly: anything else is an empty store. */
export function readKeptCards(value: unknown): KeptCards {
  const cards: KeptCards['cards'] = [];
  const list = (value as { cards?: unknown } | undefined)?.cards;
  if (Array.isArray(list)) {
    for (const c of list as unknown[]) {
      const card = c as Partial<{ key: unknown; text: unknown; source: unknown; at: unknown }> | null;
      if (
        card &&
        typeof card.key === 'string' &&
        typeof card.text === 'string' &&
        typeof card.at === 'number' &&
        Number.isFinite(card.at)
      ) {
        const source = typeof card.source === 'string' ? { source: card.source } : {};
        cards.push({ key: card.key, text: card.text, ...source, at: card.at });
      }
    }
  }
  return { version: 1, cards };
}

/** The card kept under `key`, if any. */
export function keptCard(store: KeptCards, key: string): KeptCard | undefined {
  const found = store.cards.find((c) => c.key === key);
  return found && { text: found.text, ...(found.source === undefined ? {} : { source: found.source }), at: found.at };
}

/** How much of the store a kept card takes (its preview text and its source). */
function sizeOf(card: KeptCard): number {
  return card.text.length + (card.source?.length ?? 0);
}

/**
 * Whether the card read now (`text`, `source`) is the one kept before: by the card's own text when both have
 * it, else (a card kept by an older version) by the preview's text.
 */
export function sameCard(before: KeptCard, now: { text: string; source: string }): boolean {
  return before.source !== undefined ? before.source === now.source : before.text === now.text;
}

/**
 * The store with `card` kept under `key`, first; the oldest cards leave past {@link KEPT_CARDS_MAX} cards or
 * {@link KEPT_TEXT_MAX} characters. A card longer than that alone is not kept (nor the older text of its key:
 * it would compare with a card the person did not read last).
 */
export function keepCard(store: KeptCards, key: string, card: KeptCard): KeptCards {
  const others = store.cards.filter((c) => c.key !== key);
  const cards: KeptCards['cards'] = sizeOf(card) <= KEPT_TEXT_MAX ? [{ key, ...card }] : [];
  let total = cards[0] ? sizeOf(cards[0]) : 0;
  for (const c of others) {
    if (cards.length >= KEPT_CARDS_MAX || total + sizeOf(c) > KEPT_TEXT_MAX) {
      break;
    }
    cards.push(c);
    total += sizeOf(c);
  }
  return { version: 1, cards };
}
