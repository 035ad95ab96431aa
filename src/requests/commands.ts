import * as vscode from 'vscode';
import type { PostEndpoint } from '../api/types';
import { Commands, BuiltinCommands } from '../ids';
import { pinToEnvironment } from '../domain/payload/variables';
import { commandEnvironment } from '../platform/environments';
import { modelFromArg } from '../domain/commandArgs';
import { copyAsCode, importCurlCommand } from './codeCommands';
import type { Services } from '../services';
import { ENDPOINTS, readEndpoint } from '../domain/payload/endpointHeader';
import { RequestHistory } from './history';
import { describeEntry, type HistoryEntry } from './core/historyEntries';
import type { PayloadDocuments } from './payloadDocuments';
import { ResponseDocuments } from './responseView';
import type { ScratchFiles } from './scratchFiles';
import { RequestSender, recordEndpoint, type SendOutcome } from './send';
import { textToSend } from './core/sendText';
import { starterPayload } from './core/templates';
import { uploadFile } from './upload';
import { ModelComparisons } from './compare';
import { answerColumn } from './answerPlacement';
import { RESPONSE_SCHEME } from './responseScheme';
import type { EnvAccess } from '../platform/envAccess';
import { Conversations } from './conversation';
import { ConversationPanels, panelTarget } from './conversation/conversationPanel';
import { EmbeddingsPictures } from './embeddingsPanel';
import { clean, displayText } from '../common/text';
import { suitsEndpoint } from '../domain/modelKind';
import { modelPickItems } from '../platform/modelPicks';
import type { SafePickItem } from '../platform/ui';
import { l10n } from '../platform/l10n';
import { completeHandlers, type Handler, type OnDemandCommand } from './onDemand';

/**
 * The requests feature's commands and what they need (sending, uploads, response documents, history,
 * Copy as Code, Import cURL, Compare Models): loaded on the first command, as dist/requests.js, by index.ts,
 * which keeps the payload editors' providers and the response documents' scheme from activation on.
 */

/** What integration tests reach through the extension's test API. */
export interface RequestsApi {
  scratch: ScratchFiles;
  responses: ResponseDocuments;
  history: RequestHistory;
  sender: RequestSender;
  payloads: PayloadDocuments;
  comparisons: ModelComparisons;
  conversations: Conversations;
  /** The conversation panels (Show Conversation, and Send's answers of Chat and Responses payloads). */
  panels: ConversationPanels;
  embeddings: EmbeddingsPictures;
}

/** What index.ts builds at activation and hands over. */
export interface EagerParts {
  scratch: ScratchFiles;
  payloads: PayloadDocuments;
  /** The response scheme's change event, registered at activation: response documents redraw through it. */
  responseChanged: vscode.EventEmitter<vscode.Uri>;
  /** Which `{{$env NAME}}` a payload may read. */
  envAccess: EnvAccess;
}

export interface RequestCommands extends vscode.Disposable {
  readonly api: RequestsApi;
  /** The handler of each of the feature's commands (onDemand.ts), by id. */
  readonly handlers: ReadonlyMap<OnDemandCommand, Handler>;
}

export function requestCommands(deps: Services, eager: EagerParts): RequestCommands {
  const { scratch, payloads } = eager;
  const responses = new ResponseDocuments(deps.log.redactor.removeSecrets);
  const history = new RequestHistory(deps.context.globalState);
  const sender = new RequestSender(deps, responses, history, eager.envAccess);
  const handlers = new Map<OnDemandCommand, Handler>();
  const command = (id: OnDemandCommand, run: Handler) => void handlers.set(id, run);

  const editorFor = async (arg: unknown): Promise<vscode.TextEditor | undefined> => {
    if (arg instanceof vscode.Uri && arg.toString() !== vscode.window.activeTextEditor?.document.uri.toString()) {
      return vscode.window.showTextDocument(arg, { preview: false });
    }
    return vscode.window.activeTextEditor;
  };
  /** Only payloads are sent (and may get a `// POST` line); any other document is offered a copy instead. */
  const sendPayload = async (editor: vscode.TextEditor | undefined, endpoint?: PostEndpoint): Promise<SendOutcome> =>
    editor && !payloads.isPayload(editor.document)
      ? offerNewPayload(deps, scratch, editor, endpoint)
      : sender.send(editor, endpoint);
  const conversations = new Conversations(deps, scratch, payloads, responses, sender);
  const panels = new ConversationPanels(deps, responses, sender, scratch);
  // Send shows a conversation's answer in its panel (modelAccess.answers.openAs), else as the answer document.
  sender.answerView = async (payload, endpoint) => {
    if (!panels.wantsPanel(endpoint)) {
      return false;
    }
    await panels.show(payload);
    return true;
  };
  const embeddings = new EmbeddingsPictures(responses, deps.log.redactor.removeSecrets);
  const sendTo =
    (endpoint?: PostEndpoint) =>
    async (arg?: unknown): Promise<SendOutcome> => {
      const editor = await editorFor(arg);
      // Send from inside an earlier user turn: the person may drop the turns after it first.
      if (endpoint !== '/v1/embeddings' && !(await conversations.beforeSend(editor))) {
        return { kind: 'notSent', message: l10n.t('Nothing was sent.') };
      }
      return sendPayload(editor, endpoint);
    };

  const comparisons = new ModelComparisons(deps, history, (doc) => payloads.isPayload(doc), eager.envAccess);
  const disposables: vscode.Disposable[] = [
    comparisons,
    panels,
    embeddings,
    responses,
    history,
    sender,
    responses.onDidChange((uri) => eager.responseChanged.fire(uri)),
  ];

  command(Commands.newRequest, async (arg?: unknown, endpointArg?: unknown) => {
    // A newcomer may get here before anything loaded the list: load it once, so the template names a model.
    await deps.catalog.ensureLoaded();
    // A model given by a row's menu, the details page or another command is the one used. From the palette,
    // the row selected in the Models view is, when it suits the endpoint; otherwise the person picks.
    const given = modelFromArg(arg, deps.catalog.models);
    const row = given ? undefined : deps.selection.current;
    const target = commandEnvironment(deps.environments, deps.ui, row ?? arg);
    if (!target) {
      return undefined;
    }
    const catalog =
      target.env && target.env.name !== deps.environments.active?.name
        ? deps.catalogs.catalogFor(target.env)
        : deps.catalog;
    // A row selected before a switch to another environment (whose list does not hold it) is not used.
    const selected = row && catalog.models.some((m) => m.id === row.model.id) ? row : undefined;
    // A row under another environment's root: the payload is pinned there, so Send goes where the model is.
    const pin = target.name !== undefined && target.name !== deps.environments.active?.name ? target.name : undefined;
    const preferred = given ?? selected?.model;
    // The endpoints the model suits come first.
    const endpoints = preferred
      ? [...ENDPOINTS].sort(
          (a, b) => Number(suitsEndpoint(preferred, b.path)) - Number(suitsEndpoint(preferred, a.path)),
        )
      : ENDPOINTS;
    const endpoint =
      ENDPOINTS.find((e) => e.path === endpointArg)?.path ??
      (
        await deps.ui.pick(
          endpoints.map((e) => ({ label: e.label, description: clean(`POST ${e.path}`), path: e.path })),
          {
            title: preferred ? l10n.t('New request for {0}', clean(preferred.id)) : l10n.t('New request'),
            placeHolder: l10n.t('Which endpoint?'),
          },
        )
      )?.path;
    if (!endpoint) {
      return undefined;
    }
    let model = given ?? (selected && suitsEndpoint(selected.model, endpoint) ? selected.model : undefined);
    if (!model && catalog.models.length > 0) {
      const picked = await deps.ui.pick(modelPickItems(catalog.models, undefined, endpoint), {
        title: l10n.t('New request: which model for POST {0}?', clean(endpoint)),
        placeHolder: selected
          ? l10n.t(
              '{0} (selected in the Models view) may not answer POST {1}; the models that suit it come first',
              clean(selected.model.id),
              clean(endpoint),
            )
          : l10n.t(
              'The models that suit POST {0} come first; type to search by id, version or family',
              clean(endpoint),
            ),
        matchOnDescription: true,
      });
      if (!picked?.model) {
        return undefined;
      }
      model = picked.model;
    }
    const payload = starterPayload(endpoint, model?.id ?? '', deps.config.requestTemplates);
    return scratch.create(endpoint, (pin !== undefined && pinToEnvironment(payload, pin)) || payload);
  });
  command(Commands.sendRequest, sendTo());
  command(Commands.sendToResponses, sendTo('/v1/responses'));
  command(Commands.sendToChat, sendTo('/v1/chat'));
  command(Commands.sendToEmbeddings, sendTo('/v1/embeddings'));
  command(Commands.changeEndpoint, async (arg?: unknown) => {
    const editor = await editorFor(arg);
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
  });
  // The CodeLens actions sit on line 1; this quick pick (Ctrl+Shift+Alt+Enter) offers them wherever the cursor is.
  command(Commands.payloadActions, async (arg?: unknown) => {
    const editor = await editorFor(arg);
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
    // A conversation's next steps, once the payload has an answer (the CodeLens offers them on line 1 too).
    if ((endpoint === '/v1/chat' || endpoint === '/v1/responses') && responses.latestFor(uri)) {
      actions.splice(
        1,
        0,
        { label: l10n.t('$(reply) Reply'), run: Commands.reply },
        { label: l10n.t('$(refresh) Regenerate'), run: Commands.regenerate },
        { label: l10n.t('$(comment-discussion) Show Conversation'), run: Commands.showConversation },
      );
    }
    const pick = await deps.ui.pick(actions, {
      title: l10n.t('Payload actions · {0}', clean(uri.path.split('/').pop())),
    });
    if (!pick) {
      return undefined;
    }
    // Compare reads the active payload; the others take the document.
    return vscode.commands.executeCommand(pick.run, pick.run === Commands.compareModels ? undefined : uri);
  });
  command(Commands.copyAsCode, (arg?: unknown, target?: unknown, endpoint?: unknown) =>
    copyAsCode(deps, payloads, arg, target, endpoint),
  );
  command(Commands.importCurl, (arg?: unknown) => importCurlCommand(deps, scratch, arg));
  command(Commands.openScratchFolder, async () => {
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
  });
  command(Commands.uploadFile, (arg?: unknown, purpose?: unknown) =>
    uploadFile(deps, responses, history, arg, typeof purpose === 'string' ? purpose : undefined),
  );
  command(Commands.compareModels, (arg?: unknown) => comparisons.compare(arg));
  command(Commands.reply, (arg?: unknown) => conversations.reply(arg));
  command(Commands.regenerate, (arg?: unknown) => conversations.regenerate(arg));
  command(Commands.forkConversation, (arg?: unknown) => conversations.fork(arg));
  command(Commands.attachFileToConversation, (arg?: unknown) => conversations.attachFile(arg));
  command(Commands.useFileInNewRequest, (arg?: unknown) => conversations.useFileInNewRequest(arg));
  command(Commands.showConversation, async (arg?: unknown) => {
    const payload = panelTarget(arg);
    const doc = payload && (await vscode.workspace.openTextDocument(payload));
    if (!payload || !doc || !payloads.isPayload(doc)) {
      void deps.ui.info(l10n.t('Open a conversation payload (Chat or Responses), then Show Conversation.'));
      return undefined;
    }
    return panels.show(payload, { focus: true });
  });
  command(Commands.showHistory, async () => showHistory(deps, history, scratch, sendPayload));
  command(Commands.clearHistory, async () => {
    await history.clear();
    void deps.ui.info(l10n.t('Request history cleared.'));
  });
  command(Commands.toggleResponseHeaders, () => {
    const active = responses.active();
    if (active) {
      active.record.showHeaders = !active.record.showHeaders;
      responses.redrawNow(active.uri);
    }
  });
  command(Commands.showRawEvents, async () => {
    const active = responses.active();
    if (active?.record.rawEventsWithheld) {
      void deps.ui.info(
        l10n.t(
          'The raw events of this answer are not shown: the answer held your API key, split across events. The output text (with the key removed) is in the response document.',
        ),
      );
      return;
    }
    const raw = active?.record.rawEvents;
    if (!raw) {
      void deps.ui.info(l10n.t('The active response is not a stream of events.'));
      return;
    }
    const doc = await vscode.workspace.openTextDocument({
      language: 'plaintext',
      content: deps.log.redactor.removeSecrets(raw.join('\n\n')),
    });
    // With the answers (where the response is, when it is the active editor): never a third column.
    const fromAnswer = vscode.window.activeTextEditor?.document.uri.scheme === RESPONSE_SCHEME;
    await vscode.window.showTextDocument(doc, {
      viewColumn: fromAnswer ? vscode.ViewColumn.Active : answerColumn(),
      preview: true,
    });
  });
  command(Commands.previewResponse, async () => {
    const active = responses.active();
    if (!active) {
      void deps.ui.info(l10n.t('Open a response first.'));
      return;
    }
    // The preview opens in the answer's own column (focused there first): never a third column. Embeddings
    // get a page of our own (heat map, norms, similarity table); other answers VS Code's Markdown preview.
    await responses.show(active.uri, { focus: true });
    if (EmbeddingsPictures.canShow(active.record)) {
      embeddings.show(active.uri, active.record);
      return;
    }
    await vscode.commands.executeCommand(BuiltinCommands.showMarkdownPreview, active.uri);
  });
  command(Commands.saveResponseBody, async () => {
    const active = responses.active();
    const body = active && responses.fullBody(active.uri);
    if (!active || body === undefined) {
      void deps.ui.info(l10n.t('Open a response first.'));
      return;
    }
    const target = await deps.ui.saveDialog({
      saveLabel: l10n.t('Save response body'),
      filters: { [l10n.t('JSON')]: ['json'], [l10n.t('Text')]: ['txt'] },
    });
    if (target) {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(body));
    }
  });

  return {
    api: { scratch, responses, history, sender, payloads, comparisons, conversations, panels, embeddings },
    handlers: completeHandlers(handlers),
    dispose: () => disposables.forEach((d) => d.dispose()),
  };
}

/**
 * Send on a document that is not a payload (a project's package.json, say). It is never written to: the
 * person may copy its JSON (the selected object or array, else all of it) into a new scratch payload, which
 * opens for review. Nothing is sent.
 */
async function offerNewPayload(
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
  const created = await scratch.create(pick.path, textToSend(doc.getText(), selection).text);
  return {
    kind: 'notSent',
    message: l10n.t(
      'Copied the JSON of {0} into a new payload ({1}); send it from there.',
      clean(name),
      clean(created.document.uri.path.split('/').pop()),
    ),
  };
}

async function showHistory(
  deps: Services,
  history: RequestHistory,
  scratch: ScratchFiles,
  sendPayload: (editor: vscode.TextEditor | undefined, endpoint?: PostEndpoint) => Promise<SendOutcome>,
): Promise<void> {
  // The active environment's requests (and those from before environments); the others on request.
  const active = deps.environments.active?.name;
  const mine = (e: HistoryEntry) => !e.environment || e.environment === active;
  const entries = history.entries.filter(mine);
  const others = history.entries.length - entries.length;
  if (history.entries.length === 0) {
    void deps.ui.info(l10n.t('No requests yet.'));
    return;
  }
  type HistoryPick = SafePickItem & { entry?: HistoryEntry; all?: boolean };
  const items = (list: readonly HistoryEntry[]): HistoryPick[] =>
    list.map((e) => ({
      label: displayText(describeEntry(e)),
      description: displayText(new Date(e.at).toLocaleString()),
      detail: displayText(e.summary, 300),
      entry: e,
    }));
  let pick = await deps.ui.pick<HistoryPick>(
    [
      ...items(entries),
      ...(others > 0
        ? [
            {
              label:
                others === 1
                  ? l10n.t('1 request to other environments…')
                  : l10n.t('{0} requests to other environments…', others),
              all: true,
            },
          ]
        : []),
    ],
    { title: active ? l10n.t('Request history · {0}', clean(active)) : l10n.t('Request history'), matchOnDetail: true },
  );
  if (pick?.all) {
    pick = await deps.ui.pick<HistoryPick>(items(history.entries), {
      title: l10n.t('Request history · every environment'),
      matchOnDetail: true,
    });
  }
  if (!pick?.entry) {
    return;
  }
  const chosen = pick.entry;
  const action = await deps.ui.pick(
    [
      { label: l10n.t('$(go-to-file) Re-open the payload'), run: 'open' },
      { label: l10n.t('$(play) Send it again'), run: 'send' },
      { label: l10n.t('$(output) Show the response summary'), run: 'show' },
    ],
    { title: displayText(describeEntry(chosen)) },
  );
  if (!action) {
    return;
  }
  if (action.run === 'show') {
    void deps.ui.info(
      l10n.t('{0}: {1}', describeEntry(chosen), chosen.summary ? clean(chosen.summary) : l10n.t('(empty answer)')),
    );
    return;
  }
  const editor = await reopen(chosen, scratch);
  if (editor && action.run === 'send' && chosen.endpoint !== '/v1/files') {
    await sendPayload(editor, chosen.endpoint);
  }
}

/** The payload's own file when it still exists, else a new scratch file holding what was sent. */
async function reopen(entry: HistoryEntry, scratch: ScratchFiles): Promise<vscode.TextEditor | undefined> {
  if (entry.endpoint === '/v1/files') {
    return entry.source
      ? vscode.window.showTextDocument(vscode.Uri.parse(entry.source), { preview: false })
      : undefined;
  }
  if (entry.source) {
    try {
      return await vscode.window.showTextDocument(vscode.Uri.parse(entry.source), { preview: false });
    } catch {
      // Deleted or moved: fall through to a new scratch file.
    }
  }
  return scratch.create(entry.endpoint, entry.payload);
}
