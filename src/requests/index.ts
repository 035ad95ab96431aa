import * as vscode from 'vscode';
import { Commands } from '../ids';
import type { Services } from '../services';
import { PayloadDocuments } from './payloadDocuments';
import { ModelCompletion, ModelDiagnostics, modelHover, PAYLOAD_SELECTOR, PayloadCodeLens } from './payloadEditing';
import { RESPONSE_GONE, RESPONSE_SCHEME } from './responseScheme';
import { ScratchFiles } from './scratchFiles';
import { variableProviders } from './variableEditing';
import type { RequestCommands } from './commands';

export type { RequestsApi } from './commands';

/** The commands whose code (commands.ts, dist/requests.js) loads when one of them first runs. */
const ON_DEMAND = [
  Commands.newRequest,
  Commands.sendRequest,
  Commands.sendToResponses,
  Commands.sendToChat,
  Commands.sendToEmbeddings,
  Commands.changeEndpoint,
  Commands.payloadActions,
  Commands.copyAsCode,
  Commands.importCurl,
  Commands.openScratchFolder,
  Commands.uploadFile,
  Commands.compareModels,
  Commands.showHistory,
  Commands.clearHistory,
  Commands.toggleResponseHeaders,
  Commands.showRawEvents,
  Commands.saveResponseBody,
  Commands.reply,
  Commands.regenerate,
  Commands.forkConversation,
  Commands.attachFileToConversation,
  Commands.showConversation,
  Commands.useFileInNewRequest,
];

/**
 * Scratch payloads, sending and uploading, response documents, history, Copy as Code and Import cURL.
 * What must work as soon as a payload is open stays here: its completion, hover, diagnostics, CodeLens and
 * variable providers, and the response documents' scheme. The commands register here too, and their code
 * is loaded the first time one runs.
 */
export function register(deps: Services): vscode.Disposable[] {
  const scratch = new ScratchFiles(deps.context.globalStorageUri);
  const payloads = new PayloadDocuments(scratch, () => void deps.catalog.ensureLoaded());
  const responseChanged = new vscode.EventEmitter<vscode.Uri>();
  let loaded: RequestCommands | undefined;
  const load = (): RequestCommands => {
    if (!loaded) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild.js makes it dist/<feature>.js
      const { requestCommands } = require('./commands') as typeof import('./commands');
      loaded = requestCommands(deps, { scratch, payloads, responseChanged });
      deps.context.subscriptions.push(loaded);
    }
    return loaded;
  };
  const run = (id: string, args: unknown[]): unknown => {
    const handler = load().handlers.get(id);
    if (!handler) {
      throw new Error(`no handler for ${id}`);
    }
    return handler(...args);
  };
  const answered = new Set<string>();
  const lens = new PayloadCodeLens(scratch, (uri) => answered.has(uri.toString()));
  // Tests reach the loaded part through the test API; reaching it loads it.
  Object.defineProperty(deps.testApi, 'requests', { get: () => load().api, enumerable: true, configurable: true });
  return [
    payloads,
    responseChanged,
    vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, {
      onDidChange: responseChanged.event,
      provideTextDocumentContent: (uri) => loaded?.api.responses.provideTextDocumentContent(uri) ?? RESPONSE_GONE,
    }),
    new ModelDiagnostics(deps.catalog, scratch),
    ...variableProviders(deps.environments, scratch),
    vscode.languages.registerCodeLensProvider(PAYLOAD_SELECTOR, lens),
    // A payload's first answer adds Reply to its CodeLens.
    responseChanged.event((uri) => {
      if (!answered.has(uri.query)) {
        answered.add(uri.query);
        lens.refresh();
      }
    }),
    vscode.languages.registerCompletionItemProvider(PAYLOAD_SELECTOR, new ModelCompletion(deps.catalog, scratch), '"'),
    modelHover(deps.catalog, scratch),
    ...ON_DEMAND.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => run(id, args))),
  ];
}
