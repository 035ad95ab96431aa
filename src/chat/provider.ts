import * as vscode from 'vscode';
import type { PostResult } from '../api/types';
import type { Services } from '../services';
import { classifyChatError } from './core/errors';
import { ChatStreamReader, readCompletion, toChatPayload, type OutputPart } from './core/messages';
import { chatModels, type ChatModelInfo } from './core/modelInfo';
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

  constructor(
    private readonly deps: Services,
    private readonly settings: ChatSettings,
  ) {
    super();
    // A refresh, a new key or another organization all arrive as catalog changes (a reload may fire twice:
    // cleared, then filled), so changes are coalesced before VS Code is told to ask again.
    this.own(
      deps.catalog.onDidChange(() => this.changed()),
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
    const catalog = this.deps.catalog;
    // First use before the Models view was opened: load the list (without a key this settles at once).
    await Promise.race([catalog.ensureLoaded().catch(() => undefined), cancelled(token)]);
    if (token.isCancellationRequested) {
      return [];
    }
    return chatModels(catalog.models, this.settings.models, this.settings.defaults);
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
    const payload = toChatPayload(model.id, messages, {
      tools: options.tools,
      toolMode: options.toolMode,
      modelOptions: options.modelOptions,
      supportsTools: Boolean(model.capabilities?.toolCalling),
      supportsImages: Boolean(model.capabilities?.imageInput),
    });
    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    const report = (part: OutputPart) => {
      progress.report(
        part.kind === 'text'
          ? new vscode.LanguageModelTextPart(part.text)
          : new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input),
      );
    };
    try {
      const client = await this.deps.connection.getClient();
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
      const verdict = classifyChatError(e, model.id);
      this.deps.log.warn(`Chat with ${model.id} failed: ${verdict.message}`);
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
