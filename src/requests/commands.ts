import * as vscode from 'vscode';
import type { PostEndpoint } from '../api/types';
import { Commands } from '../ids';
import { l10n } from '../platform/l10n';
import type { EnvAccess } from '../platform/envAccess';
import type { Services } from '../services';
import {
  openAnswerAsText,
  previewResponse,
  saveResponseBody,
  showRawEvents,
  toggleResponseHeaders,
} from './answers/answerCommands';
import { EmbeddingsPictures } from './answers/embeddingsPanel';
import { ResponseDocuments } from './answers/responseView';
import { copyAsCode, importCurlCommand } from './code/codeCommands';
import { ModelComparisons } from './compare/compare';
import { Conversations } from './conversation/conversation';
import { showConversation } from './conversation/conversationCommands';
import { ConversationPanels } from './conversation/conversationPanel';
import { completeHandlers, type Handler, type OnDemandCommand } from './onDemand';
import { newRequest } from './payloads/newRequest';
import { changeEndpoint, offerNewPayload, openScratchFolder, payloadActions } from './payloads/payloadCommands';
import type { PayloadDocuments } from './payloads/payloadDocuments';
import type { ScratchFiles } from './payloads/scratchFiles';
import { RequestHistory } from './send/history';
import { clearHistory, showHistory } from './send/historyCommands';
import { RequestSender, type SendOutcome } from './send/send';
import { uploadFile } from './send/upload';

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

/** The editor a command acts on: the document it was given (opened if needed), else the active one. */
async function editorFor(arg: unknown): Promise<vscode.TextEditor | undefined> {
  if (arg instanceof vscode.Uri && arg.toString() !== vscode.window.activeTextEditor?.document.uri.toString()) {
    return vscode.window.showTextDocument(arg, { preview: false });
  }
  return vscode.window.activeTextEditor;
}

export function requestCommands(deps: Services, eager: EagerParts): RequestCommands {
  const { scratch, payloads } = eager;
  const responses = new ResponseDocuments(deps.log.redactor.removeSecrets);
  const history = new RequestHistory(deps.context.globalState);
  // Send shows an embeddings answer as its picture (modelAccess.answers.openAs), so the page comes first.
  const embeddings = new EmbeddingsPictures(responses, deps.log.redactor.removeSecrets);
  const sender = new RequestSender(deps, responses, history, eager.envAccess, embeddings);
  const handlers = new Map<OnDemandCommand, Handler>();
  const command = (id: OnDemandCommand, run: Handler) => void handlers.set(id, run);

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
  // …and writes it into the payload once it has ended: the file is the truth, whichever way it was sent.
  sender.answerEnded = (payload, record) => panels.answered(payload, record);
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

  command(Commands.newRequest, (arg?: unknown, endpointArg?: unknown) => newRequest(deps, scratch, arg, endpointArg));
  command(Commands.sendRequest, sendTo());
  command(Commands.sendToResponses, sendTo('/v1/responses'));
  command(Commands.sendToChat, sendTo('/v1/chat'));
  command(Commands.sendToEmbeddings, sendTo('/v1/embeddings'));
  command(Commands.changeEndpoint, async (arg?: unknown) =>
    changeEndpoint(deps, payloads, scratch, await editorFor(arg)),
  );
  command(Commands.payloadActions, async (arg?: unknown) =>
    payloadActions(deps, payloads, responses, await editorFor(arg)),
  );
  command(Commands.copyAsCode, (arg?: unknown, target?: unknown, endpoint?: unknown) =>
    copyAsCode(deps, payloads, eager.envAccess, arg, target, endpoint),
  );
  command(Commands.importCurl, (arg?: unknown) => importCurlCommand(deps, scratch, arg));
  command(Commands.openScratchFolder, () => openScratchFolder(deps, scratch));
  command(Commands.uploadFile, (arg?: unknown, purpose?: unknown) =>
    uploadFile(deps, responses, history, arg, typeof purpose === 'string' ? purpose : undefined),
  );
  command(Commands.compareModels, (arg?: unknown) => comparisons.compare(arg));
  command(Commands.reply, (arg?: unknown) => conversations.reply(arg));
  command(Commands.regenerate, (arg?: unknown) => conversations.regenerate(arg));
  command(Commands.forkConversation, (arg?: unknown) => conversations.fork(arg));
  command(Commands.attachFileToConversation, (arg?: unknown) => conversations.attachFile(arg));
  command(Commands.useFileInNewRequest, (arg?: unknown) => conversations.useFileInNewRequest(arg));
  command(Commands.showConversation, (arg?: unknown) => showConversation(deps, payloads, panels, arg));
  command(Commands.showHistory, () => showHistory(deps, history, scratch, sendPayload));
  command(Commands.clearHistory, () => clearHistory(deps, history));
  command(Commands.toggleResponseHeaders, () => toggleResponseHeaders(responses));
  command(Commands.showRawEvents, () => showRawEvents(deps, responses));
  command(Commands.previewResponse, () => previewResponse(deps, responses, embeddings));
  command(Commands.openAnswerAsText, (arg?: unknown) => openAnswerAsText(deps, responses, arg));
  command(Commands.saveResponseBody, () => saveResponseBody(deps, responses));

  return {
    api: { scratch, responses, history, sender, payloads, comparisons, conversations, panels, embeddings },
    handlers: completeHandlers(handlers),
    dispose: () => disposables.forEach((d) => d.dispose()),
  };
}
