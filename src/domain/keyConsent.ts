/**
 * Allowing a stored key to be sent to a service URL that a workspace's settings chose: asked once per
 * workspace and URL, remembered in workspace state (never synced). Pure; no `vscode` import — the
 * question itself is asked by the function given to the constructor.
 */
import type { DisplayText } from '../common/text';
import { scopeOf } from './keyScope';
import { KeyMessages } from './keyMessages';

/** The part of `vscode.Memento` used here (`context.workspaceState` is one). */
export interface ConsentMemento {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface ConsentQuestion {
  /** The base URL the workspace chose. */
  url: string;
  /** Where the key that would be sent comes from: the scope it was stored for, or the environment. */
  keyScope: string;
  keySource: 'secretStorage' | 'environment';
}

/** Asks the person; resolves true only when they allowed it. */
export type AskConsent = (question: ConsentQuestion) => PromiseLike<boolean>;

const STATE_KEY = 'modelAccess.keyAllowedFor';

/** The `code` of the config error a request fails with while the key is not allowed for the workspace's URL. */
export const KEY_NOT_ALLOWED = 'keyNotAllowed';

/**
 * One question at a time per URL: a request while it is open joins it (a refresh never asks twice), and
 * after "Not now" nothing asks again by itself in this window — only `request(…, { again: true })`, an
 * explicit action of the person, does.
 */
export class KeyConsent {
  private readonly pending = new Map<string, Promise<boolean>>();
  private readonly declined = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly memento: ConsentMemento,
    private readonly ask: AskConsent,
  ) {}

  /** URLs are compared as the scope a key would be stored for (`…/v1` and a trailing slash do not count). */
  private static id(url: string): string {
    return scopeOf(url) ?? url.trim();
  }

  private allowedList(): string[] {
    const v = this.memento.get<unknown>(STATE_KEY, []);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  /** Whether the person allowed a stored key for `url` in this workspace. */
  isAllowed(url: string): boolean {
    return this.allowedList().includes(KeyConsent.id(url));
  }

  /** Whether the person answered "Not now" for `url` in this window (nothing asks again by itself). */
  isDeclined(url: string): boolean {
    return this.declined.has(KeyConsent.id(url));
  }

  /** Whether the question for `url` is open right now. */
  isAsking(url: string): boolean {
    return this.pending.has(KeyConsent.id(url));
  }

  private async remember(id: string): Promise<void> {
    this.declined.delete(id);
    const list = this.allowedList();
    if (!list.includes(id)) {
      await this.memento.update(STATE_KEY, [...list, id]);
    }
  }

  /** Records the allowance (when the person entered the key for this URL themselves) and tells listeners. */
  async allow(url: string): Promise<void> {
    await this.remember(KeyConsent.id(url));
    this.notify();
  }

  /** Forgets the allowance and any "Not now" for `url`, or for every URL. */
  async forget(url?: string): Promise<void> {
    if (url === undefined) {
      this.declined.clear();
      await this.memento.update(STATE_KEY, undefined);
    } else {
      const id = KeyConsent.id(url);
      this.declined.delete(id);
      await this.memento.update(
        STATE_KEY,
        this.allowedList().filter((x) => x !== id),
      );
    }
    this.notify();
  }

  /**
   * Resolves true when a key may be sent to `question.url`: already allowed, or allowed now. Asks at most
   * once at a time; after "Not now" resolves false without asking unless `again` (the person asked).
   */
  request(question: ConsentQuestion, options: { again?: boolean } = {}): Promise<boolean> {
    if (this.isAllowed(question.url)) {
      return Promise.resolve(true);
    }
    const id = KeyConsent.id(question.url);
    const open = this.pending.get(id);
    if (open) {
      return open;
    }
    if (this.declined.has(id) && !options.again) {
      return Promise.resolve(false);
    }
    const asked = (async () => {
      let allowed = false;
      try {
        allowed = (await this.ask(question)) === true;
      } catch {
        allowed = false;
      }
      // No change event: whoever asked is waiting for this answer and carries on with it.
      if (allowed) {
        await this.remember(id);
      } else {
        this.declined.add(id);
      }
      return allowed;
    })().finally(() => this.pending.delete(id));
    this.pending.set(id, asked);
    return asked;
  }

  /** Called when `allow` or `forget` changed what is allowed (not for answers to `request`). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  private notify(): void {
    for (const l of [...this.listeners]) {
      l();
    }
  }
}

/**
 * Asks through `ask` (a modal question: message, detail, buttons — `ui.ask`) whether the key may go to the
 * URL: true only for "Allow" — "Not now" and dismissing the dialog both mean no.
 */
export function askWith(
  ask: (message: DisplayText, detail: DisplayText, ...actions: DisplayText[]) => PromiseLike<string | undefined>,
): AskConsent {
  return async (q) => {
    const message = KeyMessages.consentQuestion(q.url, q.keyScope, q.keySource === 'environment');
    const allow = KeyMessages.allow();
    const answer = await ask(message, KeyMessages.consentDetail(q.url), allow, KeyMessages.notNow());
    return answer === allow;
  };
}
