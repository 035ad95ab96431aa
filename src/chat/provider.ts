import * as vscode from 'vscode';
import type { PostResult } from '../api/types';
import type { Services } from '../services';
import { classifyChatError } from './core/errors';
import { ChatStreamReader, offeredCallsOnly, readCompletion, type OutputPart } from './core/chatAnswer';
import { toChatPayload } from './core/chatRequest';
import { chatModels, inEnvironment, type ChatModelInfo } from './core/modelInfo';
import type { ChatSettings } from './settings';
import { estimateTokens } from './core/tokenEstimate';
import { debounce } from '../common/debounce';
import { Lifecycle } from '../platform/lifecycle';
import { l10n } from '../common/plainL10n';

const CHAT_ENDPOINT = '/v1/chat';

/**
 * The organization's models as VS Code chat models (vendor `model-access`). The list follows the catalog
 * and the `modelAccess.chat.*` settings; requests stream from `POST /v1/chat`; cancelling the request aborts
 * the HTTP call. Conversions live in messages.ts / modelInfo.ts (pure); this class is the thin VS Code glue.
 */
export class ModelAccessChatProvider extends Lifecycle implements vscode.LanguageModelChatProvider<ChatModelInfo> {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this._onDidChange.event;
  // A reload may fire twice (cleared, then filled): VS Code is told to ask again once.
  private readonly changed = debounce(() => this._onDidChange.fire(), 50);
  /**
   * Where each offered model's requests go: its environment (by name) and the id the service knows. A
   * model is answered by the environment it was listed from, with that environment's key, even after a switch.
   */
  private readonly routes = new Map<string, { environment?: string; model: string }>();

  constructor(
    private readonly deps: Services,
    private readonly settings: ChatSettings,
  ) {
    super();
    // A refresh, a new key or another organization all arrive as catalog changes (a reload may fire twice:
    // cleared, then filled), so changes are coalesced before VS Code is told to ask again.
    this.own(
      deps.catalog.onDidChange(() => this.changed()),
      // With every environment offered, any environment's list counts.
      deps.catalogs.onDidChange(() => {
        if (deps.config.showAllEnvironments) {
          this.changed();
        }
      }),
      deps.config.onDidChange((e) => {
        if (e.allEnvironments) {
          this.changed();
        }
      }),
      settings.onDidChange(() => this.changed()),
    );
  }

  async provideLanguageModelChatInformation(
    _options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<ChatModelInfo[]> {
    if (!this.settings.enabled) {
      return [];
    }
    const { catalog, catalogs, config, environments } = this.deps;
    const all = config.showAllEnvironments;
    // First use before the Models view was opened: load the lists (without a key this settles at once).
    const loaded = all ? catalogs.ensureLoaded() : catalog.ensureLoaded().catch(() => undefined);
    await Promise.race([loaded, cancelled(token)]);
    if (token.isCancellationRequested) {
      return [];
    }
    const offered: { info: ChatModelInfo; environment?: string; model: string }[] = [];
    if (all) {
      for (const { environment, catalog: list } of catalogs.all()) {
        for (const info of chatModels(list.models, this.settings.models, this.settings.defaults)) {
          offered.push({ info: inEnvironment(info, environment.name), environment: environment.name, model: info.id });
        }
      }
    } else {
      const environment = environments.active?.name;
      for (const info of chatModels(catalog.models, this.settings.models, this.settings.defaults)) {
        offered.push({ info, environment, model: info.id });
      }
    }
    this.routes.clear();
    for (const { info, environment, model } of offered) {
      this.routes.set(info.id, { environment, model });
    }
    return offered.map((o) => o.info);
  }

  async provideLanguageModelChatResponse(
    model: ChatModelInfo,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    if (token.isCancellationRequested) {
      return;
    }
    const route = this.routes.get(model.id) ?? { model: model.id };
    const payload = toChatPayload(route.model, messages, {
      tools: options.tools,
      toolMode: options.toolMode,
      modelOptions: options.modelOptions,
      supportsTools: Boolean(model.capabilities?.toolCalling),
      supportsImages: Boolean(model.capabilities?.imageInput),
    });
    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    // The tools sent with the request (none when the model does not advertise tool calling).
    const offered = new Set((payload.tools ?? []).map((t) => t.function.name));
    const report = (given: OutputPart) => {
      const part = offeredCallsOnly(given, offered);
      progress.report(
        part.kind === 'text'
          ? new vscode.LanguageModelTextPart(part.text)
          : new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input),
      );
    };
    try {
      const environment = route.environment === undefined ? undefined : this.deps.environments.find(route.environment);
      if (route.environment !== undefined && !environment) {
        throw new Error(
          l10n.t('Environment {0}, which offered {1}, is no longer configured.', route.environment, route.model),
        );
      }
      const client = await this.deps.connection.getClient(environment);
      const result: PostResult = await client.post(CHAT_ENDPOINT, payload, { stream: true, signal: abort.signal });
      if (result.error) {
        throw result.error;
      }
      if (result.events) {
        const reader = new ChatStreamReader();
        // An endless answer must not grow the chat view (and this host) without bound.
        const limit = this.deps.config.maxResponseBytes;
        let received = 0;
        for await (const event of result.events) {
          if (token.isCancellationRequested) {
            break;
          }
          if (event.data === '[DONE]') {
            break;
          }
          received += event.data.length;
          if (received > limit) {
            abort.abort();
            throw new Error(
              l10n.t(
                'The answer passed {0} MB (modelAccess.limits.maxResponseMegabytes) and was stopped there.',
                Math.round(limit / 1024 / 1024),
              ),
            );
          }
          for (const part of reader.push(event.json)) {
            report(part);
          }
        }
        if (!token.isCancellationRequested) {
          reader.end().forEach(report);
        }
      } else if (result.body?.json !== undefined) {
        // A service that ignored `stream: true` and answered with one chat.completion.
        readCompletion(result.body.json).forEach(report);
      } else {
        throw new Error(
          l10n.t(
            'The service answered {0} with {1}, not a chat answer.',
            CHAT_ENDPOINT,
            result.contentType || l10n.t('no content type'),
          ),
        );
      }
    } catch (e) {
      if (token.isCancellationRequested) {
        return;
      }
      const verdict = classifyChatError(e, route.model);
      this.deps.log.warn(`Chat with ${route.model} failed: ${verdict.message}`);
      switch (verdict.kind) {
        case 'noPermissions':
          throw vscode.LanguageModelError.NoPermissions(verdict.message);
        case 'notFound':
          throw vscode.LanguageModelError.NotFound(verdict.message);
        case 'blocked':
          throw vscode.LanguageModelError.Blocked(verdict.message);
        case 'cancelled':
          return;
        default:
          throw new Error(verdict.message);
      }
    } finally {
      // Leaving the loop early (cancellation) already closed the stream through the iterator's return().
      onCancel.dispose();
    }
  }

  async provideTokenCount(
    _model: ChatModelInfo,
    text: string | vscode.LanguageModelChatRequestMessage,
    _token: vscode.CancellationToken,
  ): Promise<number> {
    return estimateTokens(text);
  }

  override dispose(): void {
    this.changed.cancel();
    this._onDidChange.dispose();
    super.dispose();
  }
}

function cancelled(token: vscode.CancellationToken): Promise<void> {
  return new Promise((resolve) => {
    if (token.isCancellationRequested) {
      resolve();
      return;
    }
    const sub = token.onCancellationRequested(() => {
      sub.dispose();
      resolve();
    });
  });
}
