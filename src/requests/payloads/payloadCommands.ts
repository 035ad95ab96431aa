import * as vscode from 'vscode';
import type { PostEndpoint } from '../../api/types';
import { clean } from '../../common/text';
import { ENDPOINTS, readEndpoint } from '../../domain/payload/endpointHeader';
import { BuiltinCommands, Commands } from '../../ids';
import { l10n } from '../../platform/l10n';
import type { SafePickItem } from '../../platform/ui';
import type { Services } from '../../services';
import type { ResponseDocuments } from '../answers/responseView';
import { textToSend } from '../send/core/sendText';
import { recordEndpoint, type SendOutcome } from '../send/send';
import type { PayloadDocuments } from './payloadDocuments';
import type { ScratchFiles } from './scratchFiles';

/** Change Endpoint…: rewrites the payload's `// POST` line (any other document is offered a copy instead). */
export async function changeEndpoint(
  deps: Services,
  payloads: PayloadDocuments,
  scratch: ScratchFiles,
  editor: vscode.TextEditor | undefined,
): Promise<void> {
  if (!editor) {
    return;
  }
  if (!payloads.isPayload(editor.document)) {
    await offerNewPayload(deps, scratch, editor);
    return;
  }
  const current = readEndpoint(editor.document.lineAt(0).text);
  const pick = await deps.ui.pick(
    ENDPOINTS.map((e) => ({
      label: clean(`POST ${e.path}`),
      description: e.path === current ? l10n.t('current') : e.label,
      path: e.path,
    })),
    { title: l10n.t('Send this payload to…') },
  );
  if (pick) {
    await recordEndpoint(editor, pick.path);
  }
}

/** Payload Actions…: every action of a payload, wherever the cursor is (the CodeLens sits on line 1). */
export async function payloadActions(
  deps: Services,
  payloads: PayloadDocuments,
  responses: ResponseDocuments,
  editor: vscode.TextEditor | undefined,
): Promise<unknown> {
  // The CodeLens actions sit on line 1; this quick pick (Ctrl+Shift+Alt+Enter) offers them wherever the cursor is.
  if (!editor || !payloads.isPayload(editor.document)) {
    void deps.ui.info(l10n.t('Open a payload first (Model Access: New Request… makes one).'));
    return undefined;
  }
  const uri = editor.document.uri;
  const endpoint = readEndpoint(editor.document.lineAt(0).text);
  const actions: (SafePickItem & { run: string })[] = [
    {
      label: endpoint ? l10n.t('$(play) Send to POST {0}', clean(endpoint)) : l10n.t('$(play) Send…'),
      description: l10n.t('Ctrl+Alt+Enter (Cmd+Alt+Enter on macOS)'),
      run: Commands.sendRequest,
    },
    { label: l10n.t('$(arrow-swap) Change endpoint…'), run: Commands.changeEndpoint },
    { label: l10n.t('$(code) Copy as Code…'), run: Commands.copyAsCode },
    { label: l10n.t('$(split-horizontal) Compare Models…'), run: Commands.compareModels },
  ];
  // A conversation's next steps, once the payload has an answer (line 1's CodeLens has room for two
  // actions only: Send and the conversation; everything else is here).
  const conversation = endpoint === '/v1/chat' || endpoint === '/v1/responses';
  if (conversation && responses.latestFor(uri)) {
    actions.splice(
      1,
      0,
      {
        label: l10n.t('$(reply) Reply'),
        description: l10n.t('Ctrl+Alt+R (Ctrl+Cmd+R on macOS)'),
        run: Commands.reply,
      },
      { label: l10n.t('$(refresh) Regenerate'), run: Commands.regenerate },
      { label: l10n.t('$(comment-discussion) Show Conversation'), run: Commands.showConversation },
    );
  } else if (conversation) {
    actions.splice(1, 0, {
      label: l10n.t('$(comment-discussion) Show Conversation'),
      run: Commands.showConversation,
    });
  }
  if (responses.latestFor(uri)) {
    actions.push({ label: l10n.t('$(markdown) Open Answer as Text'), run: Commands.openAnswerAsText });
  }
  const pick = await deps.ui.pick(actions, {
    title: l10n.t('Payload actions · {0}', clean(uri.path.split('/').pop())),
  });
  if (!pick) {
    return undefined;
  }
  // Compare reads the active payload; the others take the document.
  return vscode.commands.executeCommand(pick.run, pick.run === Commands.compareModels ? undefined : uri);
}

/** Open Scratch Folder: a scratch payload to open, or the folder in a new window. */
export async function openScratchFolder(deps: Services, scratch: ScratchFiles): Promise<void> {
  const files = await scratch.list();
  const items = [
    ...files.map((uri) => ({ label: l10n.t('$(json) {0}', clean(uri.path.split('/').pop())), uri })),
    { label: l10n.t('$(folder-opened) Open the scratch folder in a new window'), uri: undefined },
  ];
  const pick = await deps.ui.pick(items, {
    title: l10n.t('Scratch payloads ({0})', clean(scratch.folder.fsPath)),
    placeHolder: files.length ? l10n.t('Open a scratch payload') : l10n.t('No scratch payloads yet'),
  });
  if (pick?.uri) {
    await vscode.window.showTextDocument(pick.uri, { preview: false });
  } else if (pick) {
    await vscode.workspace.fs.createDirectory(scratch.folder);
    await vscode.commands.executeCommand(BuiltinCommands.openFolder, scratch.folder, { forceNewWindow: true });
  }
}

/**
 * Send on a document that is not a payload (a project's package.json, say). It is never written to: the
 * person may copy its JSON (the selected object or array, else all of it) into a new scratch payload, which
 * opens for review. Nothing is sent.
 */
export async function offerNewPayload(
  deps: Services,
  scratch: ScratchFiles,
  editor: vscode.TextEditor,
  endpoint?: PostEndpoint,
): Promise<SendOutcome> {
  const doc = editor.document;
  const name = doc.uri.path.split('/').pop() || doc.uri.path;
  const order = [...ENDPOINTS].sort((a, b) => Number(b.path === endpoint) - Number(a.path === endpoint));
  const pick = await deps.ui.pick(
    order.map((e) => ({
      label: clean(`POST ${e.path}`),
      description: l10n.t('{0} — new payload from this JSON', e.label),
      path: e.path,
    })),
    {
      title: l10n.t('{0} is not a Model Access payload; it will not be changed', clean(name)),
      placeHolder: l10n.t('Copy its JSON into a new payload for which endpoint? (Escape: do nothing)'),
    },
  );
  if (!pick) {
    return {
      kind: 'notSent',
      message: l10n.t('{0} is not a payload; nothing was sent and it was not changed.', clean(name)),
    };
  }
  const selection = editor.selection.isEmpty
    ? undefined
    : { start: doc.offsetAt(editor.selection.start), end: doc.offsetAt(editor.selection.end) };
  // Copied from that file: the new payload reads the `{{$env}}` names that file may read.
  const created = await scratch.create(pick.path, textToSend(doc.getText(), selection).text, doc.uri);
  return {
    kind: 'notSent',
    message: l10n.t(
      'Copied the JSON of {0} into a new payload ({1}); send it from there.',
      clean(name),
      clean(created.document.uri.path.split('/').pop()),
    ),
  };
}
