import * as vscode from 'vscode';
import type { BaseUrlSource } from './config';
import type { Redactor } from '../api/redact';
import { originOf } from '../api/baseUrl';
import { candidateScopes, scopeOf } from '../domain/keyScope';
import type { DisplayText } from '../common/text';
import { KeyMessages } from '../domain/keyMessages';
import { l10n } from './l10n';
import { Lifecycle } from './lifecycle';
import { onSecretChange } from './secretChanges';

export type KeySource = 'secretStorage' | 'environment';

export interface ResolvedKey {
  key: string;
  source: KeySource;
  /** The origin the key is bound to. */
  origin: string;
  /**
   * What the key is bound to: the scope it was stored for (`https://gw` or `https://gw/team-a`), or for
   * the environment key, the origin.
   */
  scope: string;
}

export interface KeyChange {
  /** The origin whose key changed, when known. */
  origin?: string;
  /** The scope whose key changed, when known. */
  scope?: string;
}

const PREFIX = 'modelAccess.apiKey/';
const ENV_KEY = 'MODEL_ACCESS_API_KEY';

/**
 * How a key's source is described to people — never the key itself: "stored key for <scope>", "key from
 * MODEL_ACCESS_API_KEY" or "no key" (the wording lives in domain/keyMessages.ts).
 */
export function describeKeySource(source: KeySource | undefined, scope?: string): DisplayText {
  return KeyMessages.keySource(source, scope);
}

/**
 * API keys in `SecretStorage`, one per scope: a service origin plus a path prefix (`https://host:port` or
 * `https://host:port/team-a`, see keyScope.ts), so a key saved for one server — or one team's prefix on a
 * shared gateway — is never sent to another. A URL gets the key of the longest stored scope it lies under;
 * a key stored for the bare origin (every key stored before scopes existed) serves every path on it.
 * Secret names are `modelAccess.apiKey/<scope>`, so origin keys keep their old names.
 * `MODEL_ACCESS_API_KEY` is the fallback when nothing is stored: it is bound to the origin of
 * `MODEL_ACCESS_BASE_URL` when that is set, and otherwise used only for a base URL from user settings or
 * the environment (a workspace's settings cannot redirect it to their own server).
 */
export class ApiKeyStore extends Lifecycle {
  private readonly _onDidChange = new vscode.EventEmitter<KeyChange>();
  /** Fires when a key changes here or in another window. */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly options: {
      env?: Record<string, string | undefined>;
      /** `MODEL_ACCESS_BASE_URL`, when set. */
      environmentBaseUrl?: () => string | undefined;
      redactor?: Redactor;
    } = {},
  ) {
    super();
    this.own(
      this._onDidChange,
      onSecretChange(secrets, PREFIX, (scope) => this._onDidChange.fire({ origin: originOf(scope), scope })),
    );
  }

  private static secretName(scope: string): string {
    return PREFIX + scope;
  }

  private static requireScope(url: string): string {
    const scope = scopeOf(url);
    if (!scope) {
      throw new Error(l10n.t('The service URL is not a valid http(s) URL.'));
    }
    return scope;
  }

  /** The stored key serving `baseUrl` (longest stored scope first) and its scope. */
  private async findStored(baseUrl: string): Promise<{ key: string; scope: string } | undefined> {
    const scopes = candidateScopes(baseUrl);
    const values = await Promise.all(scopes.map((scope) => this.secrets.get(ApiKeyStore.secretName(scope))));
    const i = values.findIndex((v) => !!v);
    return i < 0 ? undefined : { key: values[i] as string, scope: scopes[i] };
  }

  /** The key to use for `baseUrl`, and where it came from. */
  async get(baseUrl: string, baseUrlSource: BaseUrlSource = 'user'): Promise<ResolvedKey | undefined> {
    const origin = originOf(baseUrl);
    if (!origin) {
      return undefined;
    }
    const stored = await this.findStored(baseUrl);
    if (stored) {
      this.options.redactor?.add(stored.key);
      return { key: stored.key, source: 'secretStorage', origin, scope: stored.scope };
    }
    const envKey = (this.options.env ?? process.env)[ENV_KEY]?.trim();
    if (envKey && this.environmentKeyApplies(origin, baseUrlSource)) {
      this.options.redactor?.add(envKey);
      return { key: envKey, source: 'environment', origin, scope: origin };
    }
    return undefined;
  }

  private environmentKeyApplies(origin: string, baseUrlSource: BaseUrlSource): boolean {
    const envBase = this.options.environmentBaseUrl?.();
    if (envBase) {
      return originOf(envBase) === origin;
    }
    return baseUrlSource !== 'workspace';
  }

  /**
   * The scope of the key stored in SecretStorage that serves `baseUrl`, or undefined when none does (the
   * environment is not consulted).
   */
  async storedScope(baseUrl: string): Promise<string | undefined> {
    return (await this.findStored(baseUrl))?.scope;
  }

  /** Whether a key stored in SecretStorage serves `baseUrl` (the environment is not consulted). */
  async hasStored(baseUrl: string): Promise<boolean> {
    return (await this.storedScope(baseUrl)) !== undefined;
  }

  /**
   * Stores `key` for the scope of `baseUrl`: its origin when it has no path, else origin + path prefix
   * (a pasted `/v1` does not count). Returns that scope.
   */
  async store(baseUrl: string, key: string): Promise<string> {
    const scope = ApiKeyStore.requireScope(baseUrl);
    const value = key.trim();
    if (!value) {
      throw new Error(l10n.t('The API key is empty.'));
    }
    this.options.redactor?.add(value);
    await this.secrets.store(ApiKeyStore.secretName(scope), value);
    // SecretStorage fires onDidChange too, but not always before this returns: fire now so the UI follows.
    this._onDidChange.fire({ origin: originOf(scope), scope });
    return scope;
  }

  /**
   * Deletes the key stored for exactly the scope of `baseUrl` (pass a scope from `storedScope` to delete
   * the key that serves a URL); keys for longer or shorter prefixes stay.
   */
  async delete(baseUrl: string): Promise<void> {
    const scope = ApiKeyStore.requireScope(baseUrl);
    await this.secrets.delete(ApiKeyStore.secretName(scope));
    this._onDidChange.fire({ origin: originOf(scope), scope });
  }
}
