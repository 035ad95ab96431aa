import * as vscode from 'vscode';
import type { PostEndpoint, ServerSentEvent } from '../../api/types';
import { BuiltinCommands, Settings } from '../../ids';
import type { Services } from '../../services';
import { ENDPOINTS, readEndpoint, withEndpoint } from '../../domain/payload/endpointHeader';
import type { RequestHistory } from './history';
import { parsePayload, payloadModel, wantsStream } from '../../domain/payload/parse';
import { variableContext } from '../../domain/payload/variableContext';
import { resolvePayload } from '../../domain/payload/variables';
import type { EnvAccess } from '../../platform/envAccess';
import { payloadEnvironment, unresolvedMessage } from '../payloads/variableEditing';
import type { ResponseRecord } from '../answers/core/responseFormat';
import type { ResponseDocuments } from '../answers/responseView';
import { textToSend } from './core/sendText';
import { newStreamState, readStream } from './core/streamText';
import { finishStream, formatBytes, summarize, usageOfRecord } from '../answers/core/responseFormat';
import { clean, type DisplayText } from '../../common/text';
import { l10n } from '../../platform/l10n';
import type { SafePickItem } from '../../platform/ui';
import {
  clientOrReport,
  failedMessage,
  historyId,
  recordAnswer,
  followOutcome,
  offerWayOut,
  runExchange,
} from './exchange';
import { embeddingInputs } from '../answers/core/embeddingsView';
import { EmbeddingsPictures } from '../answers/embeddingsPanel';
import { answerColumn, isEmbeddingsTab } from '../answers/answerPlacement';

/** What Send reads: an editor, or a payload document and no selection (the conversation panel's Send). */
export type SendSource = Pick<vscode.TextEditor, 'document' | 'selection'>;

/** How a Send is asked for: `quiet` leaves failures to the caller, who shows them (the conversation panel). */
export interface SendOptions {
  quiet?: boolean;
}

export type SendOutcome =
  | { kind: 'sent'; responseUri: vscode.Uri; record: ResponseRecord }
  | { kind: 'invalid'; message: DisplayText }
  | { kind: 'notSent'; message: DisplayText };

/**
 * Sends the active payload: parse (nothing is sent when it is not JSON), pick the endpoint, POST with a
 * cancellable progress notification, and fill the payload's response document — live for streams.
 */
export class RequestSender implements vscode.Disposable {
  /** One request in flight per payload: a new send replaces the previous one. */
  private readonly inFlight = new Map<string, AbortController>();
  /**
   * Shows the answer of a conversation payload where the person wants it (the conversation panel); resolves
   * false when the answer document should show it instead.
   */
  answerView?: (payload: vscode.Uri, endpoint: PostEndpoint) => Promise<boolean>;
  /**
   * Called once an answer `answerView` showed has ended (complete, stopped or failed), unless a newer Send of
   * the payload replaced it: the conversation panel writes it into the payload, whichever way it was sent.
   */
  answerEnded?: (payload: vscode.Uri, record: ResponseRecord) => Promise<unknown>;
  readonly diagnostics = vscode.languages.createDiagnosticCollection('model-access-payload');
  /**
   * Whether the last Send left a notification up ("Nothing was sent…", a failure with its way out). The next
   * Send hides it: a toast about an earlier attempt next to a new answer reads as if the new one failed.
   * The API cannot close one notification, so the toasts are hidden; they stay in the notification center.
   */
  private leftMessage = false;

  constructor(
    private readonly deps: Services,
    private readonly responses: ResponseDocuments,
    private readonly history: RequestHistory,
    private readonly envAccess: EnvAccess,
    /** Where an embeddings answer is drawn when answers open rendered (`modelAccess.answers.openAs`). */
    private readonly pictures?: EmbeddingsPictures,
  ) {}

  async send(editor: SendSource | undefined, fixed?: PostEndpoint, options: SendOptions = {}): Promise<SendOutcome> {
    if (this.leftMessage) {
      this.leftMessage = false;
      void vscode.commands.executeCommand(BuiltinCommands.hideToasts).then(undefined, () => undefined);
    }
    if (!editor) {
      return this.notSent(l10n.t('Open a JSON payload (or run "Model Access: New Request…") to send it.'));
    }
    const doc = editor.document;
    // The selection only when it is a whole JSON object or array; New Request's selected placeholder is not.
    const selection = editor.selection.isEmpty
      ? undefined
      : { start: doc.offsetAt(editor.selection.start), end: doc.offsetAt(editor.selection.end) };
    const { text, offset: baseOffset } = textToSend(doc.getText(), selection);
    const parsed = parsePayload(text);
    if (!parsed.ok) {
      const p = parsed.problem;
      const start = doc.positionAt(baseOffset + p.offset);
      const end = doc.positionAt(baseOffset + p.offset + p.length);
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(start, end),
        l10n.t('Not valid JSON: {0}', clean(p.message)),
        vscode.DiagnosticSeverity.Error,
      );
      diagnostic.source = 'Model Access';
      this.diagnostics.set(doc.uri, [diagnostic]);
      const message = l10n.t(
        'Nothing was sent: the payload is not valid JSON at line {0}, column {1} ({2}).',
        start.line + 1,
        start.character + 1,
        clean(p.message),
      );
      this.leftMessage = true;
      void this.deps.ui.error(message);
      return { kind: 'invalid', message };
    }
    this.diagnostics.delete(doc.uri);

    const target = payloadEnvironment(doc.getText(), this.deps.environments);
    if (target.missing !== undefined) {
      const message = l10n.t(
        'Nothing was sent: this payload is pinned to environment {0} (// @env), and no environment has that name in modelAccess.environments.',
        clean(target.missing),
      );
      this.leftMessage = true;
      void this.deps.ui.error(message);
      return { kind: 'invalid', message };
    }
    const env = target.env;
    const resolved = resolvePayload(
      parsed.value,
      variableContext(env, { envPolicy: this.envAccess.policyFor(doc.uri) }),
    );
    if (resolved.problems.length > 0) {
      const message = unresolvedMessage(resolved.problems);
      if (resolved.problems.some((p) => p.refusedEnv !== undefined)) {
        // Allow NAME remembers the name for this workspace and sends again.
        this.leftMessage = true;
        void this.envAccess
          .offerAllow(this.deps.ui, message, resolved.problems)
          .then((allowed) => (allowed ? this.send(editor, fixed) : undefined));
      } else {
        this.leftMessage = true;
        void this.deps.ui.error(message);
      }
      return { kind: 'invalid', message };
    }
    // Values from the process environment are secrets: the log and the answers shown are scrubbed of them.
    resolved.secrets.forEach((s) => this.deps.log.redactor.add(s));

    const endpoint =
      fixed ??
      readEndpoint(doc.getText()) ??
      ('edit' in editor ? await this.askEndpoint(editor as vscode.TextEditor) : undefined);
    if (!endpoint) {
      return this.notSent(l10n.t('No endpoint was chosen; nothing was sent.'));
    }

    const client = await clientOrReport(this.deps, env);
    if ('notReady' in client) {
      return this.notSent(client.notReady);
    }

    const key = doc.uri.toString();
    this.inFlight.get(key)?.abort();
    const controller = new AbortController();
    this.inFlight.set(key, controller);

    const stream = wantsStream(resolved.value);
    const uri = this.responses.uriFor(doc.uri, stream ? 'text' : 'json', this.deps.config.responseInNewTab);
    const record: ResponseRecord = {
      method: 'POST',
      endpoint,
      startedAt: Date.now(),
      requestJson: resolved.shownJson,
      environment: env?.name,
    };
    if (endpoint === '/v1/embeddings') {
      record.inputs = embeddingInputs(resolved.value);
    }
    this.responses.set(uri, record);
    // An embeddings answer opens as its picture once it is here (the page has nothing to draw before); a Chat
    // or Responses answer in its conversation panel; the Markdown source stays one command away (Open Answer
    // as Text).
    const picture = endpoint === '/v1/embeddings' && this.deps.config.answersOpenAs === 'panel';
    const inPanel = !picture && (await this.answerView?.(doc.uri, endpoint)) === true;
    if (!picture && !inPanel) {
      // Shown (in the answer language) before the request goes out: a language change made while a stream
      // redraws the document races with the redraws.
      await this.responses.show(uri);
    }

    const title = l10n.t('Model Access: POST {0}', clean(endpoint));
    const failure = await runExchange(title, record, controller, async (progress) => {
      progress.report({ message: l10n.t('waiting for the answer…') });
      // The `{{$env}}` values go out in the body: an echo of them (a header, the body) comes back redacted.
      const result = await client.post(endpoint, resolved.json, {
        stream,
        signal: controller.signal,
        secrets: resolved.secrets,
      });
      recordAnswer(record, result);
      if (result.events) {
        progress.report({ message: l10n.t('receiving…') });
        await this.readStream(uri, record, result.events, controller);
      }
    });
    const replaced = this.inFlight.get(key) !== controller;
    if (!replaced) {
      this.inFlight.delete(key);
    }
    if (failure) {
      this.deps.log.error(`POST ${endpoint} failed: ${failure}`);
    }
    finishStream(record, this.deps.log.redactor.removeSecrets);
    if (record.status !== undefined && record.status < 400) {
      // Counted in the Usage view, priced for the answer document and the panel (the model as shown: a
      // `{{$env}}` reference stays a reference, and has no price).
      record.priced = this.deps.meter.record({
        model: payloadModel(JSON.parse(resolved.shownJson)),
        environment: env?.name,
        usage: usageOfRecord(record),
      });
    }
    this.responses.redrawNow(uri);
    if (picture) {
      await this.showPicture(uri, record);
    }
    await this.history.add({
      id: historyId(record),
      endpoint,
      // As shown, never a secret; the payload is kept as written, so Send Again resolves it anew.
      model: payloadModel(JSON.parse(resolved.shownJson)),
      environment: env?.name,
      status: record.status,
      ended: record.cancelled
        ? 'cancelled'
        : record.limitReached
          ? 'limit'
          : record.error && record.status !== undefined && record.stream
            ? 'failed'
            : undefined,
      at: new Date(record.startedAt).toISOString(),
      elapsedMs: record.elapsedMs,
      payload: text,
      source: doc.uri.scheme === 'untitled' ? undefined : doc.uri.toString(),
      summary: summarize(record, this.deps.log.redactor.removeSecrets),
    });
    if (inPanel && !replaced) {
      await this.answerEnded?.(doc.uri, record);
    }
    if (options.quiet) {
      // The caller shows the failure where it belongs.
    } else if (inPanel && record.failure) {
      // The conversation panel shows the failure with its ways out: one error, not a toast over the panel too.
    } else if (record.limitReached) {
      this.leftMessage = true;
      void this.deps.ui
        .warn(l10n.t('POST {0}: {1}', clean(endpoint), clean(record.error)), l10n.t('Open Settings'))
        .then((a) =>
          a
            ? vscode.commands.executeCommand(
                BuiltinCommands.openSettings,
                `${Settings.section}.${Settings.maxResponseMegabytes}`,
              )
            : undefined,
        );
    } else if (record.failure && !record.cancelled) {
      // Retry sends the payload as it is now, from its editor, to the same endpoint.
      this.leftMessage = true;
      offerWayOut(this.deps, failedMessage(`POST ${endpoint}`, record.error), record.failure, async () =>
        this.send(await vscode.window.showTextDocument(doc, { preview: false }), endpoint),
      );
    }
    if (!record.cancelled && (record.failure || (record.status !== undefined && record.status < 400))) {
      followOutcome(this.deps, env, record.failure);
    }
    return { kind: 'sent', responseUri: uri, record };
  }

  /** The embeddings picture in the answers' column; an answer with nothing to draw (an error) as its document. */
  private async showPicture(uri: vscode.Uri, record: ResponseRecord): Promise<void> {
    if (this.pictures && EmbeddingsPictures.canShow(record)) {
      this.pictures.show(uri, record, { column: answerColumn(isEmbeddingsTab), preserveFocus: true });
    } else {
      await this.responses.show(uri);
    }
  }

  /** Cancels the request in flight for a payload (what the notification's Cancel button does). */
  cancel(payload: vscode.Uri): boolean {
    const controller = this.inFlight.get(payload.toString());
    controller?.abort();
    return controller !== undefined;
  }

  /**
   * Reads a stream into the record. What it keeps (text + raw events) is bounded by
   * `modelAccess.limits.maxResponseMegabytes`: at the limit the request is aborted with a message that
   * says how to raise it, so an endless stream cannot exhaust the extension host's memory.
   */
  private async readStream(
    uri: vscode.Uri,
    record: ResponseRecord,
    events: AsyncIterable<ServerSentEvent>,
    controller: AbortController,
  ): Promise<void> {
    const state = newStreamState();
    const rawEvents: string[] = [];
    record.stream = state;
    record.rawEvents = rawEvents;
    const limit = this.deps.config.maxResponseBytes;
    const end = await readStream(events, state, rawEvents, limit, (rawChars) => {
      record.bytes = rawChars;
      this.responses.redrawSoon(uri);
    });
    if (end === 'limit') {
      record.limitReached = true;
      record.error = l10n.t(
        'The answer passed {0} (modelAccess.limits.maxResponseMegabytes) and was stopped there. Raise the setting to receive longer answers.',
        clean(formatBytes(limit)),
      );
      controller.abort();
    }
  }

  private async askEndpoint(editor: vscode.TextEditor): Promise<PostEndpoint | undefined> {
    const pick = await this.deps.ui.pick<SafePickItem & { path: PostEndpoint }>(
      ENDPOINTS.map((e) => ({ label: clean(`POST ${e.path}`), description: e.label, path: e.path })),
      {
        title: l10n.t('Send this payload to which endpoint?'),
        placeHolder: l10n.t('The choice is recorded as a first-line comment in the file'),
      },
    );
    if (!pick) {
      return undefined;
    }
    await recordEndpoint(editor, pick.path);
    return pick.path;
  }

  private notSent(message: DisplayText): SendOutcome {
    return { kind: 'notSent', message };
  }

  dispose(): void {
    for (const c of this.inFlight.values()) {
      c.abort();
    }
    this.diagnostics.dispose();
  }
}

/** Writes (or replaces) the `// POST …` header in the document, as an undoable edit. */
export async function recordEndpoint(editor: vscode.TextEditor, endpoint: PostEndpoint): Promise<void> {
  const doc = editor.document;
  const text = doc.getText();
  const updated = withEndpoint(text, endpoint);
  const firstLineEnd = doc.lineAt(0).range.end;
  const headerNow = updated.slice(0, updated.indexOf('\n') >= 0 ? updated.indexOf('\n') : updated.length);
  await editor.edit((b) => {
    if (readEndpoint(text) !== undefined || /^\s*\/\/\s*POST\s/i.test(doc.lineAt(0).text)) {
      b.replace(new vscode.Range(new vscode.Position(0, 0), firstLineEnd), headerNow);
    } else {
      b.insert(new vscode.Position(0, 0), `${headerNow}\n`);
    }
  });
}
