import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ModelService, ServiceClientOptions } from './api/types';
import { ApiKeyStore, KeySource } from './auth/apiKeys';
import { scopeOf } from './auth/keyScope';
import type { BaseUrl, Config } from './config';
import { originOf } from './serviceUrl';
import { hostOf } from './text';

export type SetupState = 'needsUrl' | 'needsKey' | 'ready';

/** What is configured right now; never carries the key itself. */
export interface ServiceState {
  setup: SetupState;
  baseUrl?: BaseUrl;
  host?: string;
  keySource?: KeySource;
  /** What the key in use is bound to: the scope it was stored for (`https://gw/team-a`), or an origin. */
  keyScope?: string;
  /**
   * Changes when the URL's scope or the key changes (a hash, not the key): a model list loaded under one
   * identity is not shown as "the last good list" under another.
   */
  identity?: string;
}

export type ClientFactory = (options: ServiceClientOptions) => ModelService;

/** Builds the error `getClient()` rejects with when the service is not configured. */
export type ConfigErrorFactory = (message: string) => Error;

/**
 * The service as configured: base URL (settings/environment) + key (SecretStorage/environment) + one
 * client, rebuilt when the settings that shape it change. `onDidChange` fires when the URL, the key
 * (in this or another window) or the connection settings change.
 */
export class ServiceConnection implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly disposables: vscode.Disposable[] = [];
  private client: { signature: string; client: ModelService } | undefined;
  private debounce: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly config: Config,
    readonly keys: ApiKeyStore,
    private readonly createClient: ClientFactory,
    private readonly configError: ConfigErrorFactory,
    private readonly onRequest?: ServiceClientOptions['onRequest'],
  ) {
    this.disposables.push(
      config.onDidChange((e) => {
        if (e.service) {
          this.fireSoon();
        }
      }),
      // SecretStorage reports changes from other windows too; a store here may report twice.
      keys.onDidChange(() => this.fireSoon()),
    );
  }

  private fireSoon(): void {
    if (this.debounce) {
      clearTimeout(this.debounce);
    }
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this._onDidChange.fire();
    }, 30);
  }

  async state(): Promise<ServiceState> {
    const baseUrl = this.config.baseUrl;
    if (!baseUrl || !originOf(baseUrl.url)) {
      return { setup: 'needsUrl', baseUrl };
    }
    const host = hostOf(baseUrl.url);
    const key = await this.keys.get(baseUrl.url, baseUrl.source);
    if (!key) {
      return { setup: 'needsKey', baseUrl, host };
    }
    const identity = `${scopeOf(baseUrl.url)} ${key.scope} ${createHash('sha256').update(key.key).digest('hex').slice(0, 16)}`;
    return { setup: 'ready', baseUrl, host, keySource: key.source, keyScope: key.scope, identity };
  }

  /** The client for the configured service. Rejects with a `config` error when the URL or key is missing. */
  async getClient(): Promise<ModelService> {
    const state = await this.state();
    if (state.setup === 'needsUrl' || !state.baseUrl) {
      throw this.configError('No service URL is set. Run "Model Access: Set Service URL".');
    }
    if (state.setup === 'needsKey') {
      throw this.configError(`No API key is set for ${state.host}. Run "Model Access: Set API Key".`);
    }
    return this.clientFor(state.baseUrl);
  }

  /**
   * A client for `baseUrl` whose key is looked up per request for that URL's scope, so a client never
   * sends one scope's key to another. `keyOverride` is for checking a key before saving it.
   */
  clientFor(baseUrl: BaseUrl, keyOverride?: string): ModelService {
    const options = this.config.clientOptions(baseUrl.url);
    if (keyOverride !== undefined) {
      return this.createClient({ ...options, apiKey: async () => keyOverride, onRequest: this.onRequest });
    }
    const signature = JSON.stringify([options, baseUrl.source]);
    if (this.client?.signature !== signature) {
      const old = this.client?.client;
      const url = baseUrl.url;
      const source = baseUrl.source;
      this.client = {
        signature,
        client: this.createClient({
          ...options,
          apiKey: async () => (await this.keys.get(url, source))?.key,
          onRequest: this.onRequest,
        }),
      };
      // In-flight requests of the old client finish or fail on their own; then its connections close.
      void old?.dispose().catch(() => undefined);
    }
    return this.client.client;
  }

  dispose(): void {
    if (this.debounce) {
      clearTimeout(this.debounce);
    }
    void this.client?.client.dispose().catch(() => undefined);
    this.client = undefined;
    this.disposables.forEach((d) => d.dispose());
    this._onDidChange.dispose();
  }
}
