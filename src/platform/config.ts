import * as vscode from 'vscode';
import type { ServiceClientOptions } from '../api/types';
import { AnswerOpenAs, ModelClickAction, ModelClickActions, Settings } from '../ids';
import { normalizeBaseUrl } from '../api/baseUrl';
import { resolveProxy, type ProxyInputs } from '../api/proxy';
import type { TrustOptions } from '../api/trust';
import { megabytes } from '../common/settingValues';
import { DEFAULT_MAX_RESPONSE_MEGABYTES } from '../api/answerLimits';
import type { ClientCertificate } from '../api/dispatcher';
import { homedir } from 'node:os';
import * as path from 'node:path';

function expandHome(file: string): string {
  const f = file.trim();
  return f === '~' || f.startsWith('~/') || f.startsWith('~\\') ? path.join(homedir(), f.slice(1)) : f;
}
import { readEnvironments, type ReadEnvironments } from '../domain/environments';

/** Where the base URL in use came from. Workspace-provided URLs are treated with more caution. */
export type BaseUrlSource = 'user' | 'workspace' | 'environment';

export interface BaseUrl {
  url: string;
  source: BaseUrlSource;
}

export interface ConfigChange {
  /** Something that changes which service is called or how (URL, proxy, TLS, timeouts). */
  service: boolean;
  /** Grouping, the click action or the prices changed (items render differently). */
  view: boolean;
  /** Whether the model list is kept on disk changed. */
  cache: boolean;
  /** `modelsView.showAllEnvironments` changed (the view's roots and the chat models change). */
  allEnvironments?: boolean;
}

const ENV_BASE_URL = 'MODEL_ACCESS_BASE_URL';

/**
 * Typed access to `modelAccess.*` (and the editor's `http.*` proxy settings). The only module that calls
 * `getConfiguration`; everything else reads settings through it.
 */
export class Config implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<ConfigChange>();
  readonly onDidChange = this._onDidChange.event;
  private readonly listener: vscode.Disposable;

  constructor(private readonly env: Record<string, string | undefined> = process.env) {
    this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
      // First of the extension's listeners (Config is built first): what the others read is the new settings.
      this.snapshot = undefined;
      const key = (name: string) => `${Settings.section}.${name}`;
      const service =
        e.affectsConfiguration(key(Settings.baseUrl)) ||
        e.affectsConfiguration(key(Settings.environments)) ||
        e.affectsConfiguration(key(Settings.allowInsecureHttp)) ||
        e.affectsConfiguration(key(Settings.requestTimeoutSeconds)) ||
        e.affectsConfiguration(`${Settings.section}.limits`) ||
        e.affectsConfiguration(`${Settings.section}.tls`) ||
        e.affectsConfiguration('http.proxy') ||
        e.affectsConfiguration('http.noProxy') ||
        e.affectsConfiguration('http.proxyStrictSSL') ||
        e.affectsConfiguration('http.proxyAuthorization') ||
        e.affectsConfiguration('http.proxySupport') ||
        e.affectsConfiguration('http.systemCertificates');
      const allEnvironments = e.affectsConfiguration(key(Settings.showAllEnvironments));
      const view =
        allEnvironments ||
        e.affectsConfiguration(key(Settings.groupByFamily)) ||
        e.affectsConfiguration(key(Settings.modelClickAction)) ||
        e.affectsConfiguration(key(Settings.prices));
      const cache = e.affectsConfiguration(key(Settings.rememberModelList));
      if (service || view || cache) {
        this._onDidChange.fire({ service, view, cache, allEnvironments });
      }
    });
  }

  private snapshot: vscode.WorkspaceConfiguration | undefined;
  private readonly trustListener = vscode.workspace.onDidGrantWorkspaceTrust(() => (this.snapshot = undefined));

  /**
   * One `getConfiguration` per turn of the event loop: activation alone read it about 40 times, each a copy of
   * the settings in the extension host. The snapshot goes when the turn's microtasks end, or before that when
   * the settings change (the extension host can handle several messages in one turn, a change among them) or
   * the workspace becomes trusted.
   */
  private section(): vscode.WorkspaceConfiguration {
    if (this.snapshot === undefined) {
      this.snapshot = vscode.workspace.getConfiguration(Settings.section);
      queueMicrotask(() => (this.snapshot = undefined));
    }
    return this.snapshot;
  }

  /**
   * The configured base URL: the setting, else `MODEL_ACCESS_BASE_URL`; undefined when neither is set.
   * Read level by level (`inspect()`): a value in folder or workspace settings is the workspace's choice
   * (`source: 'workspace'`) unless the user's own settings hold the same URL.
   */
  get baseUrl(): BaseUrl | undefined {
    const inspected = this.section().inspect<string>(Settings.baseUrl);
    // Restricted Mode: VS Code already hides workspace values of restricted settings; never read them anyway.
    const workspace = vscode.workspace.isTrusted
      ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue)
      : undefined;
    const user = inspected?.globalValue;
    const userUrl = typeof user === 'string' && user.trim() ? normalizeBaseUrl(user) : undefined;
    if (typeof workspace === 'string' && workspace.trim()) {
      const url = normalizeBaseUrl(workspace);
      return { url, source: url === userUrl ? 'user' : 'workspace' };
    }
    if (userUrl) {
      return { url: userUrl, source: 'user' };
    }
    const fromEnv = this.env[ENV_BASE_URL]?.trim();
    if (fromEnv) {
      return { url: normalizeBaseUrl(fromEnv), source: 'environment' };
    }
    return undefined;
  }

  /**
   * The environments: `modelAccess.environments` (a workspace's list when the workspace is trusted and has
   * one, else the user's), with the base URL above as the shorthand environment named after its host.
   */
  get environments(): ReadEnvironments {
    const inspected = this.section().inspect<unknown>(Settings.environments);
    const workspace = vscode.workspace.isTrusted
      ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue)
      : undefined;
    const shorthand = this.baseUrl;
    return workspace !== undefined
      ? readEnvironments(workspace, 'workspace', shorthand)
      : readEnvironments(inspected?.globalValue, 'user', shorthand);
  }

  /**
   * Where the environments shown come from (a trusted workspace's own list, else the user's), and the
   * setting's value as that settings file holds it, for Add/Edit Environment to edit.
   */
  environmentsSetting(): { workspaceHasList: boolean; user: unknown; workspace: unknown } {
    const inspected = this.section().inspect<unknown>(Settings.environments);
    const workspace = inspected?.workspaceValue;
    return {
      workspaceHasList: vscode.workspace.isTrusted && (inspected?.workspaceFolderValue ?? workspace) !== undefined,
      user: inspected?.globalValue,
      workspace,
    };
  }

  /** Writes `modelAccess.environments` to the user's settings, or the workspace's when the person chose it. */
  async setEnvironments(value: unknown[], target: 'user' | 'workspace'): Promise<void> {
    await this.section().update(
      Settings.environments,
      value,
      target === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
    );
  }

  /** The base URL given by the environment (`MODEL_ACCESS_BASE_URL`), whatever the setting says. */
  get environmentBaseUrl(): string | undefined {
    const v = this.env[ENV_BASE_URL]?.trim();
    return v ? normalizeBaseUrl(v) : undefined;
  }

  async setBaseUrl(url: string | undefined): Promise<void> {
    await this.section().update(
      Settings.baseUrl,
      url ? normalizeBaseUrl(url) : undefined,
      vscode.ConfigurationTarget.Global,
    );
  }

  /** Keep the last good model list on disk and show it at once in the next window. */
  get rememberModelList(): boolean {
    return this.section().get<boolean>(Settings.rememberModelList, true);
  }

  get groupByFamily(): boolean {
    return this.section().get<boolean>(Settings.groupByFamily, true);
  }

  /** Whether the Models view shows every environment as a root (and chat offers the models of all). */
  get showAllEnvironments(): boolean {
    return this.section().get<boolean>(Settings.showAllEnvironments, false);
  }

  async setGroupByFamily(value: boolean): Promise<void> {
    await this.section().update(Settings.groupByFamily, value, vscode.ConfigurationTarget.Global);
  }

  get modelClickAction(): ModelClickAction {
    const v = this.section().get<string>(Settings.modelClickAction, 'openModelCard');
    return (ModelClickActions as readonly string[]).includes(v) ? (v as ModelClickAction) : 'openModelCard';
  }

  /** Only honoured from user settings (the setting is application-scoped): a workspace cannot opt in. */
  get allowInsecureHttp(): boolean {
    return this.section().inspect<boolean>(Settings.allowInsecureHttp)?.globalValue === true;
  }

  get requestTimeoutSeconds(): number {
    const v = this.section().get<number>(Settings.requestTimeoutSeconds, 30);
    return Number.isFinite(v) && v > 0 ? Math.min(v, 3600) : 30;
  }

  /** Starter payloads per endpoint path (`/v1/chat` → object) replacing the built-in ones. */
  get requestTemplates(): Record<string, unknown> {
    const v = this.section().get<unknown>(Settings.requestTemplates, {});
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }

  /** The `purpose` offered first when uploading a file. */
  get defaultFilePurpose(): string {
    const v = this.section().get<string>(Settings.defaultFilePurpose, 'user_data');
    return typeof v === 'string' && v.trim() ? v.trim() : 'user_data';
  }

  /** What one answer may hold in memory (streamed text + raw events, or a body), in bytes. */
  get maxResponseBytes(): number {
    return megabytes(
      this.section().get<number>(Settings.maxResponseMegabytes, DEFAULT_MAX_RESPONSE_MEGABYTES),
      DEFAULT_MAX_RESPONSE_MEGABYTES,
    );
  }

  get maxModels(): number {
    const v = this.section().get<number>(Settings.maxModels, 100_000);
    return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : 100_000;
  }

  /** `modelAccess.prices` as written: src/domain/cost/prices.ts reads it (tolerantly, any shape). */
  get prices(): unknown {
    return this.section().get<unknown>(Settings.prices);
  }

  get maxListBytes(): number {
    return megabytes(this.section().get<number>(Settings.maxListMegabytes, 256), 256);
  }

  /** Responses conversations: send `previous_response_id` and the new turn only, not the whole conversation. */
  get conversationPreviousResponseId(): boolean {
    return this.section().get<boolean>(Settings.conversationPreviousResponseId, false) === true;
  }

  /** The largest file Attach File to Conversation writes into a payload, in bytes. */
  get maxAttachmentBytes(): number {
    return megabytes(this.section().get<number>(Settings.maxAttachmentMegabytes, 4), 4);
  }

  /** Open each answer in a new tab instead of reusing the payload's response document. */
  /** How Send shows an answer: rendered (`panel`, the default) or as its Markdown source document (`text`). */
  get answersOpenAs(): AnswerOpenAs {
    const value = this.section().get<string>(Settings.answersOpenAs);
    return AnswerOpenAs.find((v) => v === value) ?? 'panel';
  }

  get responseInNewTab(): boolean {
    return this.section().get<boolean>(Settings.responseInNewTab, false) === true;
  }

  /**
   * PEM files of extra certificate authorities (`~/` expanded); blank entries dropped. User settings only:
   * they decide whom the connection that carries the key trusts, which no workspace may choose.
   */
  get caCertificates(): string[] {
    const v = this.section().inspect<unknown>(Settings.tlsCaCertificates)?.globalValue ?? [];
    return Array.isArray(v)
      ? v.filter((f): f is string => typeof f === 'string' && f.trim() !== '').map(expandHome)
      : [];
  }

  /**
   * The client certificate's files (no passphrase: that lives in SecretStorage), or undefined when unset.
   * User settings only: a workspace must not choose which files identify the person, nor where.
   */
  get clientCertificate(): ClientCertificate | undefined {
    const v = this.section().inspect<unknown>(Settings.tlsClientCertificate)?.globalValue ?? {};
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      return undefined;
    }
    const r = v as Record<string, unknown>;
    const file = (k: string): string | undefined =>
      typeof r[k] === 'string' && (r[k] as string).trim() ? expandHome(r[k] as string) : undefined;
    const cc = { certFile: file('certFile'), keyFile: file('keyFile'), pfxFile: file('pfxFile') };
    return cc.certFile || cc.keyFile || cc.pfxFile ? cc : undefined;
  }

  /**
   * The proxy inputs (VS Code's http.* settings and the environment) and the trust settings, before a target
   * is chosen: the service client resolves them for its URL, a Model Card for the card's.
   */
  networkInputs(): { proxy: ProxyInputs; trust: TrustOptions } {
    const http = vscode.workspace.getConfiguration('http');
    return {
      proxy: {
        setting: http.get<string>('proxy'),
        noProxySetting: http.get<string[]>('noProxy'),
        strictSSL: http.get<boolean>('proxyStrictSSL'),
        authorization: http.get<string>('proxyAuthorization') ?? undefined,
        support: http.get<string>('proxySupport'),
        env: this.env,
      },
      trust: {
        systemCertificates: http.get<boolean>('systemCertificates', true) !== false,
        caFiles: this.caCertificates,
        env: this.env,
      },
    };
  }

  /** Everything but the key provider that the service client needs, from settings and the environment. */
  clientOptions(baseUrl: string): Omit<ServiceClientOptions, 'apiKey'> {
    const timeoutMs = this.requestTimeoutSeconds * 1000;
    const network = this.networkInputs();
    return {
      baseUrl,
      allowInsecureHttp: this.allowInsecureHttp,
      maxBodyBytes: this.maxResponseBytes,
      maxModels: this.maxModels,
      maxListBytes: this.maxListBytes,
      timeouts: { headersMs: timeoutMs, bodyIdleMs: timeoutMs },
      proxy: resolveProxy(baseUrl, network.proxy),
      tls: { ...network.trust, clientCertificate: this.clientCertificate },
    };
  }

  dispose(): void {
    this.listener.dispose();
    this.trustListener.dispose();
    this._onDidChange.dispose();
  }
}
