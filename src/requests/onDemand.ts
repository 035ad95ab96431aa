import { Commands } from '../ids';

/**
 * The commands whose code (commands.ts, dist/requests.js) loads when one of them first runs. VS Code must know
 * them at activation, before that code is loaded, so this list is where they are declared: index.ts registers
 * each, and commands.ts's handler map is typed by it (a handler for another id does not compile, and loading
 * fails on an id without a handler).
 */
export const ON_DEMAND = [
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
  Commands.previewResponse,
  Commands.openAnswerAsText,
  Commands.reply,
  Commands.regenerate,
  Commands.forkConversation,
  Commands.attachFileToConversation,
  Commands.showConversation,
  Commands.useFileInNewRequest,
] as const;

export type OnDemandCommand = (typeof ON_DEMAND)[number];

/** A command's handler, as VS Code calls it. */
export type Handler = (...args: unknown[]) => unknown;

/** Every command of ON_DEMAND with its handler, or an error naming those without one. */
export function completeHandlers(
  handlers: ReadonlyMap<OnDemandCommand, Handler>,
): ReadonlyMap<OnDemandCommand, Handler> {
  const missing = ON_DEMAND.filter((id) => !handlers.has(id));
  if (missing.length > 0) {
    throw new Error(`requests/commands.ts has no handler for ${missing.join(', ')}`);
  }
  return handlers;
}
