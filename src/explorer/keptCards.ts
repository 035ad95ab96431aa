import type * as vscode from 'vscode';
import { keepCard, keptCard, keptCardKey, readKeptCards, type KeptCard } from './core/cardDiff';

/** Where the cards last read are kept in global state (small and bounded: core/cardDiff.ts). */
const STATE_KEY = 'modelAccess.keptCards';

/**
 * The Model Card a person last read in the preview, per environment, service and model, so the next preview
 * can say that the card changed since. In VS Code's global state: the same person in another window or
 * workspace read the same card. No key is in it: a card is public text, kept under the service's origin.
 */
export class KeptCards {
  constructor(private readonly state: vscode.Memento) {}

  static key(environment: string, origin: string, id: string): string {
    return keptCardKey(environment, origin, id);
  }

  get(key: string): KeptCard | undefined {
    return keptCard(readKeptCards(this.state.get(STATE_KEY)), key);
  }

  /** Keeps `card` as the one last read (a store that cannot be written keeps the earlier one: nothing breaks). */
  async keep(key: string, card: KeptCard): Promise<void> {
    await Promise.resolve(
      this.state.update(STATE_KEY, keepCard(readKeptCards(this.state.get(STATE_KEY)), key, card)),
    ).catch(() => undefined);
  }
}
