import * as vscode from 'vscode';
import { onFirstUse } from '../common/onFirstUse';
import type { Services } from '../services';
import { PayloadDocuments } from './payloads/payloadDocuments';
import {
  ModelCompletion,
  ModelDiagnostics,
  modelHover,
  PAYLOAD_SELECTOR,
  PayloadCodeLens,
} from './payloads/payloadEditing';
import { RESPONSE_GONE, RESPONSE_SCHEME } from './answers/responseScheme';
import { ScratchFiles } from './payloads/scratchFiles';
import { ModelFixes } from './payloads/modelFixes';
import { EnvAccess } from '../platform/envAccess';
import { variableProviders } from './payloads/variableEditing';
import { ON_DEMAND, type Handler } from './onDemand';
import { AnswerCodeLens } from './answers/answerLens';
import { CONVERSATION_VIEW_TYPE } from './answers/answerPlacement';

export type { RequestsApi } from './commands';

/** The built-in extension behind JSON validation, folding and formatting. */
const JSON_FEATURES = 'vscode.json-language-features';

/**
 * Scratch payloads, sending and uploading, response documents, history, Copy as Code and Import cURL.
 * What must work as soon as a payload is open stays here: its completion, hover, diagnostics, CodeLens and
 * variable providers, and the response documents' scheme. The commands register here too, and their code
 * is loaded the first time one runs.
 */
export function register(deps: Services): vscode.Disposable[] {
  const scratch = new ScratchFiles(deps.context.globalStorageUri);
  // Which {{$env NAME}} a payload may read: remembered per workspace.
  const envAccess = new EnvAccess(deps.context.workspaceState, (uri) => scratch.originOf(uri));
  const payloads = new PayloadDocuments(scratch, () => {
    void deps.catalog.ensureLoaded();
    // VS Code's JSON features (validation, folding, formatting) serve the payload language too
    // (jsonLanguageParticipants), but wake only for json/jsonc: a scratch payload may be the first JSON open.
    void vscode.extensions.getExtension(JSON_FEATURES)?.activate();
  });
  const responseChanged = new vscode.EventEmitter<vscode.Uri>();
  const load = onFirstUse(() => {
    const { requestCommands } = require('./commands') as typeof import('./commands');
    const loaded = requestCommands(deps, { scratch, payloads, responseChanged, envAccess });
    deps.context.subscriptions.push(loaded);
    return loaded;
  });
  // Tests reach the loaded part through the test API; reaching it loads it.
  Object.defineProperty(deps.testApi, 'requests', { get: () => load().api, enumerable: true, configurable: true });
  return [
    payloads,
    responseChanged,
    vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, {
      onDidChange: responseChanged.event,
      provideTextDocumentContent: (uri) => load.loaded?.api.responses.provideTextDocumentContent(uri) ?? RESPONSE_GONE,
    }),
    new ModelDiagnostics(deps.catalog, scratch),
    vscode.languages.registerCodeActionsProvider(PAYLOAD_SELECTOR, new ModelFixes(deps.catalog), {
      providedCodeActionKinds: ModelFixes.kinds,
    }),
    ...variableProviders(deps.environments, scratch, envAccess),
    vscode.languages.registerCodeLensProvider(PAYLOAD_SELECTOR, new PayloadCodeLens(scratch)),
    vscode.languages.registerCodeLensProvider(
      { scheme: RESPONSE_SCHEME },
      new AnswerCodeLens((uri) => load.loaded?.api.responses.get(uri)),
    ),
    // A conversation panel open at the last reload comes back in its group (onWebviewPanel activates us).
    vscode.window.registerWebviewPanelSerializer(CONVERSATION_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => load().api.panels.restore(panel, state),
    }),
    vscode.languages.registerCompletionItemProvider(PAYLOAD_SELECTOR, new ModelCompletion(deps.catalog, scratch), '"'),
    modelHover(deps.catalog, scratch),
    // completeHandlers (onDemand.ts) has checked that each has its handler.
    ...ON_DEMAND.map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => (load().handlers.get(id) as Handler)(...args)),
    ),
  ];
}
