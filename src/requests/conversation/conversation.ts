import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PostEndpoint } from '../../api/types';
import { describeShapes, type Answer } from '../../domain/answer';
import { clean, type DisplayText } from '../../common/text';
import { BuiltinCommands, Settings } from '../../ids';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import { readEndpoint } from '../../domain/payload/endpointHeader';
import { literalText } from '../../domain/payload/variables';
import { attach, readAttachment, sizeProblem } from './core/attachments';
import { appendReply, dropLastAnswer, forkAt, turnsAfterCursor, type TextChange } from './core/edits';
import { answerOfRecord, withoutSecrets, type AnswerCut } from './core/recordAnswer';
import { isBlank, readConversation } from './core/turns';
import type { ResponseRecord } from '../answers/core/responseFormat';
import type { PayloadDocuments } from '../payloads/payloadDocuments';
import { RESPONSE_SCHEME } from '../answers/responseScheme';
import type { ResponseDocuments } from '../answers/responseView';
import type { ScratchFiles } from '../payloads/scratchFiles';
import type { RequestSender } from '../send/send';
import { INPUT_PLACEHOLDER } from '../payloads/core/templates';
import { applyTextChange } from './payloadEdit';

/** What a conversation command reports (tests read it; people read the messages). */
export type ConversationOutcome =
  { kind: 'done'; message?: DisplayText; editor?: vscode.TextEditor } | { kind: 'unchanged'; message: DisplayText };

/**
 * Carrying a conversation forward in its payload: Reply, Regenerate, Fork Conversation, Attach File to
 * Conversation, Send from an earlier turn, Use Uploaded File in a New Request. Every edit of a payload is
 * one WorkspaceEdit (one undo step); a payload that cannot take it is left exactly as it was, with a
 * message that names the problem.
 */
export class Conversations {
  constructor(
    private readonly deps: Services,
    private readonly scratch: ScratchFiles,
    private readonly payloads: PayloadDocuments,
    private readonly responses: ResponseDocuments,
    private readonly sender: RequestSender,
  ) {}

  /** Reply: the latest answer appended to its payload, then a new empty user turn with the cursor in it. */
  async reply(arg?: unknown): Promise<ConversationOutcome> {
    const target = this.answerTarget(arg);
    if ('message' in target) {
      return this.unchanged(target.message, 'info');
    }
    return this.appendAnswer(target.payload, target.record);
  }

  /** Regenerate: the last answer taken out, the rest sent again, and the new answer put in its place. */
  async regenerate(arg?: unknown): Promise<ConversationOutcome> {
    const editor = await this.payloadEditor(arg);
    if (!editor) {
      return this.unchanged(
        l10n.t('Open a conversation payload (Chat or Responses) to regenerate its answer.'),
        'info',
      );
    }
    const doc = editor.document;
    const text = doc.getText();
    const read = readConversation(text);
    if (!read.ok) {
      return this.unchanged(read.problem, 'error');
    }
    const turns = read.conversation.turns.filter((t) => !isBlank(t));
    // The answer is the last word: it goes, and what is left is sent. Otherwise (a question typed after it)
    // the payload is sent as it is, and the new answer follows the question.
    if (turns.length > 0 && turns[turns.length - 1].role === 'assistant') {
      const dropped = dropLastAnswer(text);
      if (!dropped.ok) {
        return this.unchanged(dropped.problem, 'error');
      }
      if (!(await this.applyChange(editor, dropped.change))) {
        return this.unchanged(l10n.t('The payload changed while it was being edited; nothing was sent.'), 'error');
      }
    }
    const outcome = await this.sender.send(editor);
    if (outcome.kind !== 'sent') {
      return { kind: 'unchanged', message: outcome.message };
    }
    if (outcome.record.error && !outcome.record.cancelled) {
      return { kind: 'unchanged', message: clean(outcome.record.error) };
    }
    return this.appendAnswer(doc.uri, outcome.record);
  }

  /** Fork Conversation: a new scratch payload with the conversation up to the turn under the cursor. */
  async fork(arg?: unknown): Promise<ConversationOutcome> {
    const editor = await this.payloadEditor(arg);
    if (!editor) {
      return this.unchanged(l10n.t('Open a conversation payload (Chat or Responses) to fork it.'), 'info');
    }
    const doc = editor.document;
    const text = doc.getText();
    const forked = forkAt(text, doc.offsetAt(editor.selection.active));
    if (!forked.ok) {
      return this.unchanged(forked.problem, 'error');
    }
    const read = readConversation(text);
    const endpoint: PostEndpoint =
      readEndpoint(text) ?? (read.ok && read.conversation.kind === 'responses' ? '/v1/responses' : '/v1/chat');
    // From the payload's own file: a fork of a payload that may not read every `{{$env}}` keeps that limit.
    const created = await this.scratch.create(endpoint, forked.text, doc.uri);
    const end = created.document.positionAt(created.document.getText().length);
    created.selection = new vscode.Selection(end, end);
    return {
      kind: 'done',
      editor: created,
      message: forked.turns === 1 ? l10n.t('Forked with 1 turn.') : l10n.t('Forked with {0} turns.', forked.turns),
    };
  }

  /**
   * Before Send: when the cursor is in an earlier user turn (edited to send again), offers to drop the turns
   * after it. Resolves false when the person dismissed the question (nothing is sent then).
   */
  async beforeSend(editor: vscode.TextEditor | undefined): Promise<boolean> {
    if (!editor || !this.payloads.isPayload(editor.document)) {
      return true;
    }
    const doc = editor.document;
    const later = turnsAfterCursor(doc.getText(), doc.offsetAt(editor.selection.active));
    if (!later) {
      return true;
    }
    const drop = l10n.t('Drop Later Turns and Send');
    const keep = l10n.t('Send Everything');
    const answer = await this.deps.ui.ask(
      later.later === 1
        ? l10n.t('The cursor is in turn {0}; 1 turn follows it.', later.index + 1)
        : l10n.t('The cursor is in turn {0}; {1} turns follow it.', later.index + 1, later.later),
      l10n.t('Send from this turn drops the turns after it (Undo brings them back).'),
      drop,
      keep,
    );
    if (answer === drop) {
      await this.applyChange(editor, later.change);
      return true;
    }
    return answer === keep;
  }

  /** Attach File to Conversation…: an image or a text file added to the current user turn. */
  async attachFile(arg?: unknown): Promise<ConversationOutcome> {
    const file =
      arg instanceof vscode.Uri
        ? arg
        : (
            await vscode.window.showOpenDialog({
              canSelectMany: false,
              openLabel: l10n.t('Attach to the conversation'),
            })
          )?.[0];
    if (!file) {
      return { kind: 'unchanged', message: l10n.t('No file was chosen.') };
    }
    const editor = this.visiblePayloadEditor();
    if (!editor) {
      return this.unchanged(
        l10n.t('Open the conversation payload (Chat or Responses) first, then attach the file to it.'),
        'info',
      );
    }
    const name = path.posix.basename(file.path);
    const limit = this.deps.config.maxAttachmentBytes;
    let bytes: Uint8Array;
    try {
      const tooLarge = sizeProblem(name, (await vscode.workspace.fs.stat(file)).size, limit);
      if (tooLarge) {
        // Not read at all; the way out is the setting.
        void this.deps.ui
          .error(tooLarge, l10n.t('Open Settings'))
          .then((a) =>
            a
              ? vscode.commands.executeCommand(
                  BuiltinCommands.openSettings,
                  `${Settings.section}.${Settings.maxAttachmentMegabytes}`,
                )
              : undefined,
          );
        return { kind: 'unchanged', message: tooLarge };
      }
      bytes = await vscode.workspace.fs.readFile(file);
    } catch {
      return this.unchanged(
        l10n.t('{0} cannot be read (it was moved or deleted?); nothing was added.', clean(name)),
        'error',
      );
    }
    const read = readAttachment(name, bytes, limit);
    if (!read.ok) {
      return this.unchanged(read.problem, 'error');
    }
    const doc = editor.document;
    const edit = attach(doc.getText(), read.attachment, {
      ...this.formatting(editor),
      cursor: doc.offsetAt(editor.selection.active),
    });
    if (!edit.ok) {
      return this.unchanged(edit.problem, 'error');
    }
    const shown = await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preview: false });
    await this.applyChange(shown, edit.change, edit.cursor);
    return { kind: 'done', editor: shown, message: l10n.t('Attached {0}.', clean(name)) };
  }

  /** Use Uploaded File in a New Request: a Responses payload whose user turn holds the file as `input_file`. */
  async useFileInNewRequest(arg?: unknown): Promise<ConversationOutcome> {
    let fileId = typeof arg === 'string' && arg.trim() !== '' ? arg.trim() : undefined;
    if (!fileId) {
      // The answer in view, else the last one received (an upload's answer is a notification, not a tab).
      const record = this.responses.active()?.record ?? this.responses.latestRecord();
      const id = record?.endpoint === '/v1/files' ? (record.bodyJson as { id?: unknown } | undefined)?.id : undefined;
      fileId =
        typeof id === 'string'
          ? id
          : (
              await this.deps.ui.input({
                title: l10n.t('Use an uploaded file in a new request'),
                prompt: l10n.t('The id of the uploaded file (from its upload answer)'),
                placeHolder: l10n.t('file-…'),
              })
            )?.trim();
    }
    if (!fileId) {
      return { kind: 'unchanged', message: l10n.t('No file id was given.') };
    }
    const payload = {
      // Registry text: written literally, sent as listed.
      model: literalText(this.deps.catalog.models[0]?.id ?? ''),
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: INPUT_PLACEHOLDER },
            { type: 'input_file', file_id: literalText(fileId) },
          ],
        },
      ],
      stream: false,
    };
    const editor = await this.scratch.create('/v1/responses', JSON.stringify(payload, null, 2));
    return { kind: 'done', editor };
  }

  private async appendAnswer(payload: vscode.Uri, record: ResponseRecord): Promise<ConversationOutcome> {
    if (record.endpoint !== '/v1/chat' && record.endpoint !== '/v1/responses') {
      return this.unchanged(
        l10n.t(
          'This answer came from {0}; Reply carries on conversations of /v1/chat and /v1/responses.',
          clean(record.endpoint),
        ),
        'error',
      );
    }
    const read = answerOfRecord(record);
    if (!read || read.arriving) {
      return this.unchanged(l10n.t('The answer is still arriving; reply when it is complete.'), 'info');
    }
    // As the response document shows it: without the key, even when the service echoed it.
    const answer = withoutSecrets(read.answer, this.deps.log.redactor.removeSecrets);
    if (answer.error && !read.cut) {
      return this.unchanged(
        l10n.t(
          'The answer is an error ({0}); there is nothing to reply to. Fix the payload and send it again.',
          clean(answer.error.message),
        ),
        'error',
      );
    }
    if (!hasContent(answer)) {
      return this.unchanged(
        l10n.t(
          'The answer has no text the reader can find, so nothing was appended. Looked for: {0}.',
          clean(describeShapes()),
        ),
        'error',
      );
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(payload);
    } catch {
      return this.unchanged(l10n.t('The payload of this answer is gone; nothing was appended.'), 'error');
    }
    // What arrived of a cut answer is asked about only when it is not in the payload yet (the panel keeps it).
    const kept = appendReply(doc.getText(), answer, {
      insertSpaces: true,
      tabSize: 2,
      eol: '\n',
      endpoint: readEndpoint(doc.getText()) ?? record.endpoint,
      nextTurn: false,
    });
    if (read.cut && !(kept.ok && kept.already) && !(await this.confirmCut(read.cut, answer))) {
      return { kind: 'unchanged', message: l10n.t('Nothing was appended.') };
    }
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn, preview: false });
    const edit = appendReply(doc.getText(), answer, {
      ...this.formatting(editor),
      endpoint: readEndpoint(doc.getText()) ?? record.endpoint,
      previousResponseId: this.deps.config.conversationPreviousResponseId,
    });
    if (!edit.ok) {
      return this.unchanged(edit.problem, 'error');
    }
    if (edit.already) {
      this.placeCursor(editor, edit.cursor);
      return { kind: 'done', editor, message: l10n.t('This answer is already in the conversation.') };
    }
    if (!(await this.applyChange(editor, edit.change, edit.cursor))) {
      return this.unchanged(l10n.t('The payload changed while it was being edited; try Reply again.'), 'error');
    }
    return { kind: 'done', editor };
  }

  private async confirmCut(cut: AnswerCut, answer: Answer): Promise<boolean> {
    const how: Record<AnswerCut, DisplayText> = {
      cancelled: l10n.t('The answer was cancelled before it was complete.'),
      limit: l10n.t('The answer was stopped at the size limit (modelAccess.limits.maxResponseMegabytes).'),
      truncated: l10n.t('The answer was cut at the size limit (modelAccess.limits.maxResponseMegabytes).'),
      length: l10n.t('The model stopped before the answer was complete ({0}).', clean(answer.finishReason)),
      failed: l10n.t('The answer failed before it was complete.'),
    };
    const append = l10n.t('Append What Arrived');
    const chosen = await this.deps.ui.ask(
      how[cut],
      l10n.t('{0} characters arrived. Append them to the conversation as the answer?', (answer.text ?? '').length),
      append,
    );
    return chosen === append;
  }

  /** The payload and the answer Reply works on, or why there is none. */
  private answerTarget(arg: unknown): { payload: vscode.Uri; record: ResponseRecord } | { message: DisplayText } {
    const uri =
      arg instanceof vscode.Uri
        ? arg
        : (vscode.window.activeTextEditor?.document.uri ?? this.visiblePayloadEditor()?.document.uri);
    if (!uri) {
      return { message: l10n.t('Open a payload that has an answer (or its answer), then Reply.') };
    }
    if (uri.scheme === RESPONSE_SCHEME) {
      const record = this.responses.get(uri);
      if (!record) {
        return { message: l10n.t('This answer is no longer available; send the payload again.') };
      }
      return { payload: vscode.Uri.parse(uri.query), record };
    }
    const record = this.responses.latestFor(uri);
    if (!record) {
      return { message: l10n.t('This payload has no answer yet: send it, then Reply.') };
    }
    return { payload: uri, record };
  }

  private async payloadEditor(arg: unknown): Promise<vscode.TextEditor | undefined> {
    if (arg instanceof vscode.Uri && arg.scheme !== RESPONSE_SCHEME) {
      const doc = await vscode.workspace.openTextDocument(arg);
      const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
      return vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn, preview: false });
    }
    if (arg instanceof vscode.Uri) {
      return this.payloadEditor(vscode.Uri.parse(arg.query));
    }
    const active = vscode.window.activeTextEditor;
    if (active?.document.uri.scheme === RESPONSE_SCHEME) {
      return this.payloadEditor(active.document.uri);
    }
    return active && this.payloads.isPayload(active.document) ? active : this.visiblePayloadEditor();
  }

  /** The active editor when it is a payload, else the first visible payload. */
  private visiblePayloadEditor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active && this.payloads.isPayload(active.document)) {
      return active;
    }
    return vscode.window.visibleTextEditors.find((e) => this.payloads.isPayload(e.document));
  }

  private formatting(editor: vscode.TextEditor): { insertSpaces: boolean; tabSize: number; eol: string } {
    const tabSize = Number(editor.options.tabSize);
    return {
      insertSpaces: editor.options.insertSpaces !== false,
      tabSize: Number.isInteger(tabSize) && tabSize > 0 ? tabSize : 2,
      eol: editor.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
    };
  }

  /** One WorkspaceEdit (one undo step); the cursor then at `cursor` (an offset in the new text). */
  private async applyChange(editor: vscode.TextEditor, change: TextChange, cursor?: number): Promise<boolean> {
    const doc = editor.document;
    const applied = await applyTextChange(doc, change);
    if (applied && cursor !== undefined) {
      this.placeCursor(editor, cursor);
    }
    return applied;
  }

  private placeCursor(editor: vscode.TextEditor, offset: number): void {
    const at = editor.document.positionAt(offset);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private unchanged(message: DisplayText, level: 'info' | 'error'): ConversationOutcome {
    void (level === 'info' ? this.deps.ui.info(message) : this.deps.ui.error(message));
    return { kind: 'unchanged', message };
  }
}

function hasContent(answer: Answer): boolean {
  return (answer.text !== undefined && answer.text !== '') || answer.toolCalls.length > 0;
}
