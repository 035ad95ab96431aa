import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { ServiceError } from '../api/errors';
import type { ModelService, RequestLogEntry, ServiceClientOptions } from '../api/types';
import type { NetworkSettings } from '../api/dispatcher';
import { ApiKeyStore, KeySource, ResolvedKey } from './apiKeys';
import { KEY_NOT_ALLOWED, KeyConsent } from '../domain/keyConsent';
import { displayUrl, scopeOf } from '../domain/keyScope';
import { KeyMessages } from '../domain/keyMessages';
import type { BaseUrl, Config } from './config';
import type { Environment } from '../domain/environments';
import type { Environments } from './environments';
import { originOf } from '../api/baseUrl';
import { HEADER_SECRET_MISSING, NO_KEY } from '../domain/failure';
import { clean, hostOf } from '../common/text';
import { l10n } from './l10n';
import { debounce } from '../common/debounce';
import { onFirstUse } from '../common/onFirstUse';
import { Lifecycle } from './lifecycle';
import type { ClientCertificatePassphrases } from './passphrases';
import type { HeaderSecrets } from './headerSecrets';

export type SetupState = 'needsUrl' | 'needsKey' | 'ready';

/** What is configured right now; never carries the key itself. */
export interface ServiceState {
  setup: SetupState;
  /** The environment's name (the shorthand environment is named after its host). */
  environment?: string;
  baseUrl?: BaseUrl;
  host?: string;
  keySource?: KeySource;
  /** What the key in use is bound to: the scope it was stored for (`https://gw/team-a`), or an origin. */
  keyScope?: string;
  /**
   * The URL comes from workspace settings and the person has not allowed the key for it yet: the first
   * request asks (once), and nothing is sent with the key until they allow it.
   */
  needsConsent?: boolean;
  /**
   * Changes when the environment, the URL's scope, its headers or the key change (a hash, not the key): a
   * model list loaded under one identity is not shown as "the last good list" under another.
   */
  identity?: string;
}

/**
 * The service as configured: base URL (settings/environment) + key (SecretStorage/environment) + one
 * client, rebuilt when the settings that shape it change. `onDidChange` fires when the URL, the key
 * (in this or another window), an allowance or the connection settings change.
 *
 * A key goes to a URL from *workspace* settings only once the person allowed it for that workspace and
 * URL (`consent`): the first `getClient()` asks, requests made while the question is open wait for the
 * same answer, and after "Not now" `getClient()` rejects with a `keyNotAllowed` config error without
 * asking again until the person does it themselves (Allow Stored Key for Workspace URL).
 */
export class ServiceConnection extends Lifecycle {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  private readonly _onDidAnswer = new vscode.EventEmitter<{ environment: string; entry: RequestLogEntry }>();
  /** Every answer (or failure) a client of an environment saw, as the log line has it, by environment. */
  readonly onDidAnswer = this._onDidAnswer.event;
  readonly onDidChange = this._onDidChange.event;
  /** One client per environment (by name), rebuilt when its settings change. */
  private readonly clients = new Map<string, { signature: string; client: ModelService }>();
  // SecretStorage and settings report one change several times; listeners reload once.
  private readonly fireSoon = debounce(() => this._onDidChange.fire(), 30);

  constructor(
    private readonly config: Config,
    readonly environments: Environments,
    readonly keys: ApiKeyStore,
    /** Allowances for URLs from workspace settings. */
    readonly consent: KeyConsent,
    private readonly onRequest?: ServiceClientOptions['onRequest'],
    /** The client certificate's passphrase per origin (SecretStorage). */
    readonly passphrases?: ClientCertificatePassphrases,
    /** Where warnings about weakened checks go (the log). */
    private readonly warn?: (message: string) => void,
    /** Values of the environments' secret headers (SecretStorage, bound to each environment's URL). */
    readonly headerSecrets?: HeaderSecrets,
  ) {
    super();
    if (passphrases) {
      this.own(passphrases.onDidChange(() => this.fireSoon()));
    }
    if (headerSecrets) {
      this.own(headerSecrets.onDidChange(() => this.fireSoon()));
    }
    this.own(
      consent.onDidChange(() => this.fireSoon()),
      config.onDidChange((e) => {
        if (e.service) {
          this.fireSoon();
        }
      }),
      // SecretStorage reports changes from other windows too; a store here may report twice.
      keys.onDidChange(() => this.fireSoon()),
      // Another environment: listeners hear it now, so a refresh in flight for the old one is dropped at once.
      environments.onDidSwitch(() => {
        this.fireSoon.cancel();
        this._onDidChange.fire();
      }),
      environments.onDidChangeList(() => this.dropUnusedClients()),
    );
  }

  /** The active environment (undefined when no service is configured at all). */
  get environment(): Environment | undefined {
    return this.environments.active;
  }

  /** The secret headers of `env` whose value is not stored yet (names only: no value is ever read out). */
  async unsetSecretHeaders(env: Environment): Promise<string[]> {
    const values = await Promise.all(env.secretHeaders.map((h) => this.headerSecrets?.get(env.baseUrl, h)));
    return env.secretHeaders.filter((_, i) => !values[i]);
  }

  /** What is configured for `env` (default: the active environment) right now. */
  async state(env: Environment | undefined = this.environments.active): Promise<ServiceState> {
    const baseUrl = env && { url: env.baseUrl, source: env.source };
    const environment = env?.name;
    if (!baseUrl || !originOf(baseUrl.url)) {
      return { setup: 'needsUrl', baseUrl, environment };
    }
    const host = hostOf(baseUrl.url);
    const key = await this.keys.get(baseUrl.url, baseUrl.source);
    if (!key) {
      return { setup: 'needsKey', baseUrl, host, environment };
    }
    const secrets = await Promise.all(env.secretHeaders.map((h) => this.headerSecrets?.get(env.baseUrl, h)));
    const hash = createHash('sha256')
      .update(key.key)
      .update(JSON.stringify([env.headers, env.secretHeaders, secrets]))
      .digest('hex')
      .slice(0, 16);
    const identity = `${JSON.stringify(env.name)} ${scopeOf(baseUrl.url)} ${key.scope} ${hash}`;
    const needsConsent = this.needsConsent(baseUrl, key);
    return {
      setup: 'ready',
      environment,
      baseUrl,
      host,
      keySource: key.source,
      keyScope: key.scope,
      needsConsent,
      identity,
    };
  }

  /** Whether sending `key` to `baseUrl` waits for the person's allowance. */
  private needsConsent(baseUrl: BaseUrl, key: ResolvedKey | undefined): boolean {
    return baseUrl.source === 'workspace' && key !== undefined && !this.consent.isAllowed(baseUrl.url);
  }

  /**
   * Asks (once at a time) whether the key may go to the workspace's URL; `again` asks even after "Not now"
   * (the person asked for it). Resolves true when it may, also when no question is needed.
   */
  async allowKey(again = false, env?: Environment): Promise<boolean> {
    return this.askConsent(await this.state(env ?? this.environments.active), again);
  }

  private askConsent(state: ServiceState, again: boolean): Promise<boolean> {
    if (!state.needsConsent || !state.baseUrl || !state.keyScope) {
      return Promise.resolve(true);
    }
    return this.consent.request(
      { url: displayUrl(state.baseUrl.url), keyScope: state.keyScope, keySource: state.keySource ?? 'secretStorage' },
      { again },
    );
  }

  /**
   * The client for `env` (default: the active environment). Rejects with a `config` error when the URL
   * or key is missing, or (code `keyNotAllowed`) when the person did not allow the key for the workspace's URL.
   */
  async getClient(env: Environment | undefined = this.environments.active): Promise<ModelService> {
    const state = await this.state(env);
    if (state.setup === 'needsUrl' || !state.baseUrl) {
      throw configError(l10n.t('No service URL is set. Run "Model Access: Set Service URL".'));
    }
    if (state.setup === 'needsKey') {
      throw configError(
        l10n.t('No API key is set for {0}. Run "Model Access: Set API Key".', clean(state.host)),
        NO_KEY,
      );
    }
    if (state.needsConsent && !(await this.askConsent(state, false))) {
      const message = KeyMessages.notAllowed(
        displayUrl(state.baseUrl.url),
        state.keyScope ?? '',
        state.keySource === 'environment',
      );
      throw configError(message, KEY_NOT_ALLOWED);
    }
    const active = env as Environment;
    this.passphrase = this.config.clientCertificate
      ? { url: active.baseUrl, value: await this.passphrases?.get(active.baseUrl) }
      : undefined;
    return this.clientFor(active);
  }

  /**
   * How a request that carries no key (a Model Card) reaches its URL: the same proxy inputs and roots as the
   * service, and the client certificate, with its passphrase, only for the origin of `env` (default: the
   * active environment; a row under another environment's root passes its own), and only where the service's
   * credentials may go (a URL from workspace settings once the person allowed it).
   */
  /**
   * Whether the client certificate may be presented to `env`'s service: it identifies the person as surely as
   * the key, so a URL from workspace settings gets it only once the person allowed the key there.
   */
  certificateAllowed(env: Pick<Environment, 'baseUrl' | 'source'>): boolean {
    return env.source !== 'workspace' || this.consent.isAllowed(env.baseUrl);
  }

  async keylessNetwork(env: Environment | undefined = this.environments.active): Promise<NetworkSettings> {
    const { proxy, trust } = this.config.networkInputs();
    const certificate = this.config.clientCertificate;
    const origin = env && originOf(env.baseUrl);
    if (!env || !origin || !certificate || !this.certificateAllowed(env)) {
      return { proxy, trust, serviceOrigin: origin };
    }
    const passphrase = await this.passphrases?.get(env.baseUrl);
    return {
      proxy,
      trust,
      serviceOrigin: origin,
      clientCertificate: { origin, certificate: { ...certificate, passphrase } },
    };
  }

  /** The passphrase read for the URL the last `getClient()` served (never put in a client's signature). */
  private passphrase: { url: string; value: string | undefined } | undefined;

  /**
   * The client options for `env`: its URL, its headers, and the client certificate's passphrase when it was
   * stored for that origin.
   */
  private optionsFor(env: Environment): Omit<ServiceClientOptions, 'apiKey'> {
    const options = { ...this.config.clientOptions(env.baseUrl), headers: { ...env.headers } };
    if (options.tls?.clientCertificate && !this.certificateAllowed(env)) {
      options.tls = { ...options.tls, clientCertificate: undefined };
    }
    const cc = options.tls?.clientCertificate;
    const pass = this.passphrase;
    if (cc && pass && originOf(pass.url) === originOf(env.baseUrl) && pass.value) {
      options.tls = { ...options.tls, clientCertificate: { ...cc, passphrase: pass.value } };
    }
    return options;
  }

  /**
   * A client for `env` whose key is looked up per request for its URL's scope, so a client never sends
   * one scope's key to another, nor a key to a workspace's URL before it was allowed there. The
   * environment's headers go with every request of this client, and so only to its origin.
   * `keyOverride` is for checking a key before saving it.
   */
  clientFor(env: Environment, keyOverride?: string): ModelService {
    const options = this.optionsFor(env);
    const names = [...env.secretHeaders];
    const environment = env.name;
    const secretHeaders = names.length ? () => this.readSecretHeaders(environment, env.baseUrl, names) : undefined;
    const onRequest = (entry: RequestLogEntry) => {
      this.onRequest?.(entry);
      this._onDidAnswer.fire({ environment, entry });
    };
    if (keyOverride !== undefined) {
      return newClient({ ...options, apiKey: async () => keyOverride, secretHeaders, onRequest });
    }
    // A hash: the options may hold the client certificate's passphrase.
    const signature = createHash('sha256')
      .update(JSON.stringify([options, env.source, names]))
      .digest('hex');
    const cached = this.clients.get(env.name);
    if (cached?.signature !== signature) {
      if (options.proxy?.url && !options.proxy.bypass && options.proxy.strictSSL === false) {
        this.warn?.(
          "http.proxyStrictSSL is off: the proxy's own certificate is not verified. The service's certificate still is.",
        );
      }
      const url = env.baseUrl;
      const source = env.source;
      this.clients.set(env.name, {
        signature,
        client: newClient({
          ...options,
          apiKey: async () => {
            const key = await this.keys.get(url, source);
            return key && !this.needsConsent({ url, source }, key) ? key.key : undefined;
          },
          secretHeaders,
          onRequest,
        }),
      });
      // In-flight requests of the old client finish or fail on their own; then its connections close.
      void cached?.client.dispose().catch(() => undefined);
    }
    return (this.clients.get(env.name) as { client: ModelService }).client;
  }

  /**
   * The values of an environment's secret headers for its URL; a config error (code `headerSecretMissing`)
   * names the first one not set yet, so nothing is sent without it.
   */
  private async readSecretHeaders(
    environment: string,
    url: string,
    names: readonly string[],
  ): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const name of names) {
      const value = await this.headerSecrets?.get(url, name);
      if (!value) {
        throw configError(
          l10n.t(
            'The secret header {0} of environment {1} has no value yet. Run "Model Access: Set Environment Header Secret…".',
            clean(name),
            clean(environment),
          ),
          HEADER_SECRET_MISSING,
        );
      }
      out[name] = value;
    }
    return out;
  }

  /** Closes the clients of environments that are no longer configured. */
  private dropUnusedClients(): void {
    const names = new Set(this.environments.list.map((e) => e.name));
    for (const [name, entry] of this.clients) {
      if (!names.has(name)) {
        this.clients.delete(name);
        void entry.client.dispose().catch(() => undefined);
      }
    }
  }

  override dispose(): void {
    this.fireSoon.cancel();
    for (const entry of this.clients.values()) {
      void entry.client.dispose().catch(() => undefined);
    }
    this.clients.clear();
    this._onDidChange.dispose();
    this._onDidAnswer.dispose();
    super.dispose();
  }
}

/**
 * The service client and the HTTP code under it (api/client.ts, built into dist/client.js by esbuild.js) load
 * with the first client, when the first request is about to be made, not at activation.
 */
const clientModule = onFirstUse(() => require('../api/client') as typeof import('../api/client'));

function newClient(options: ServiceClientOptions): ModelService {
  const { ServiceClient } = clientModule();
  return new ServiceClient(options);
}

/** What `getClient()` rejects with when the service is not configured (`code` says why, when it matters). */
function configError(message: string, code?: string): ServiceError {
  return new ServiceError({ kind: 'config', message, code });
}
