import * as vscode from 'vscode';
import type { BaseUrlSource } from '../config';
import type { Redactor } from '../redact';
import { originOf } from '../serviceUrl';

export type KeySource = 'secretStorage' | 'environment';

export interface ResolvedKey {
  key: string;
  source: KeySource;
  /** The origin the key is bound to. */
  origin: string;
}

export interface KeyChange {
  /** The origin whose key changed, when known. */
  origin?: string;
}

const PREFIX = 'modelAccess.apiKey/';
const ENV_KEY = 'MODEL_ACCESS_API_KEY';

/** How a key's source is described to people — never the key itself. */
export function describeKeySource(source: KeySource | undefined): string {
  switch (source) {
    case 'secretStorage':
      return 'stored in VS Code SecretStorage';
    case 'environment':
      return `from the ${ENV_KEY} environment variable`;
    default:
      return 'not set';
  }
}

/**
 * API keys in `SecretStorage`, one per service origin (`https://host:port`), so a key saved for one server
 * is never sent to another. `MODEL_ACCESS_API_KEY` is the fallback when nothing is stored: it is bound to
 * the origin of `MODEL_ACCESS_BASE_URL` when that is set, and otherwise used only for a base URL from
 * user settings or the environment (a workspace's settings cannot redirect it to their own server).
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<KeyChange>();
  /** Fires when a key changes here or in another window. */
  readonly onDidChange = this._onDidChange.event;
  private readonly listener: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly options: {
      env?: Record<string, string | undefined>;
      /** `MODEL_ACCESS_BASE_URL`, when set. */
      environmentBaseUrl?: () => string | undefined;
      redactor?: Redactor;
    } = {},
  ) {
    this.listener = secrets.onDidChange((e) => {
      if (e.key.startsWith(PREFIX)) {
        this._onDidChange.fire({ origin: e.key.slice(PREFIX.length) });
      }
    });
  }

  private static secretName(origin: string): string {
    return PREFIX + origin;
  }

  private static requireOrigin(originOrUrl: string): string {
    const origin = originOf(originOrUrl);
    if (!origin) {
      throw new Error('The service URL is not a valid http(s) URL.');
    }
    return origin;
  }

  /** The key to use for `baseUrl` (any URL under the origin), and where it came from. */
  async get(baseUrl: string, baseUrlSource: BaseUrlSource = 'user'): Promise<ResolvedKey | undefined> {
    const origin = originOf(baseUrl);
    if (!origin) {
      return undefined;
    }
    const stored = await this.secrets.get(ApiKeyStore.secretName(origin));
    if (stored) {
      this.options.redactor?.add(stored);
      return { key: stored, source: 'secretStorage', origin };
    }
    const envKey = (this.options.env ?? process.env)[ENV_KEY]?.trim();
    if (envKey && this.environmentKeyApplies(origin, baseUrlSource)) {
      this.options.redactor?.add(envKey);
      return { key: envKey, source: 'environment', origin };
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

  /** Whether a key is stored in SecretStorage for the origin of `baseUrl` (the environment is not consulted). */
  async hasStored(baseUrl: string): Promise<boolean> {
    const origin = originOf(baseUrl);
    return origin !== undefined && (await this.secrets.get(ApiKeyStore.secretName(origin))) !== undefined;
  }

  async store(baseUrl: string, key: string): Promise<void> {
    const origin = ApiKeyStore.requireOrigin(baseUrl);
    const value = key.trim();
    if (!value) {
      throw new Error('The API key is empty.');
    }
    this.options.redactor?.add(value);
    await this.secrets.store(ApiKeyStore.secretName(origin), value);
    // SecretStorage fires onDidChange too, but not always before this returns: fire now so the UI follows.
    this._onDidChange.fire({ origin });
  }

  async delete(baseUrl: string): Promise<void> {
    const origin = ApiKeyStore.requireOrigin(baseUrl);
    await this.secrets.delete(ApiKeyStore.secretName(origin));
    this._onDidChange.fire({ origin });
  }

  dispose(): void {
    this.listener.dispose();
    this._onDidChange.dispose();
  }
}
