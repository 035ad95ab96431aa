import * as vscode from 'vscode';
import { BuiltinCommands, ContextKeys } from '../ids';

/** The goals of the "Get Started" walkthrough, each reached by whatever path the person took. */
export type FirstStep = 'connected' | 'keySet' | 'browsed' | 'cardOpened';

const STORAGE_KEY = 'modelAccess.firstSteps';

const CONTEXT_KEY: Readonly<Record<FirstStep, string>> = {
  connected: ContextKeys.walkthroughConnected,
  keySet: ContextKeys.walkthroughKeySet,
  browsed: ContextKeys.walkthroughBrowsed,
  cardOpened: ContextKeys.walkthroughCardOpened,
};

/**
 * Which walkthrough goals this person has reached, kept in global state so a step stays ticked after a
 * reload, and published as context keys (`modelAccess.walkthrough.<goal>`) that the walkthrough's
 * `completionEvents` wait for. Features call `reach` where the goal is met (a card opened from the tree, the
 * details page or Preview; a URL and key from settings, a command or the environment variable), so no one
 * path is the only way to tick a step.
 */
export class FirstSteps {
  private readonly reachedSteps: Set<FirstStep>;

  constructor(private readonly memento: vscode.Memento) {
    const stored = memento.get<unknown>(STORAGE_KEY);
    this.reachedSteps = new Set(
      Array.isArray(stored) ? (stored.filter((s) => typeof s === 'string') as FirstStep[]) : [],
    );
  }

  /** Publishes the goals reached in earlier windows (call once at activation). */
  restore(): void {
    for (const step of this.reachedSteps) {
      this.publish(step);
    }
  }

  has(step: FirstStep): boolean {
    return this.reachedSteps.has(step);
  }

  reach(step: FirstStep): void {
    if (this.reachedSteps.has(step)) {
      return;
    }
    this.reachedSteps.add(step);
    void this.memento.update(STORAGE_KEY, [...this.reachedSteps]);
    this.publish(step);
  }

  private publish(step: FirstStep): void {
    void vscode.commands.executeCommand(BuiltinCommands.setContext, CONTEXT_KEY[step], true);
  }
}
