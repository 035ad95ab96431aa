/**
 * What people are told about where API keys are stored and sent, in one place. Messages are `msg`
 * templates (src/text.ts): the literal parts are ours, every value — URLs a workspace may have written
 * among them — goes through the display function. Log lines are plain strings (the log cleans them).
 * Pure; no `vscode` import.
 */
import { msg, plural, type DisplayText } from './text';

export const ENV_KEY_NAME = 'MODEL_ACCESS_API_KEY';

export const KeyMessages = {
  // The question before a stored key first goes to a URL from workspace settings (a modal warning).
  consentQuestion: (url: string, keyScope: string, fromEnvironment: boolean): DisplayText =>
    fromEnvironment
      ? msg`Use the key from ${ENV_KEY_NAME} with ${url}, set by this workspace?`
      : msg`Use the key stored for ${keyScope} with ${url}, set by this workspace?`,
  consentDetail: (url: string): DisplayText =>
    msg`This workspace's settings (modelAccess.baseUrl) point Model Access at ${url}. Whoever wrote those settings chose that URL, not you: allow it only if it is a service you trust with this key. The answer is kept for this workspace.`,
  allow: 'Allow',
  notNow: 'Not now',

  // Shown instead of a request (tree, status bar, errors) until the key is allowed.
  notAllowed: (url: string, keyScope: string, fromEnvironment: boolean): DisplayText =>
    fromEnvironment
      ? msg`This workspace sets the service URL to ${url}. The key from ${ENV_KEY_NAME} is not sent there until you allow it.`
      : msg`This workspace sets the service URL to ${url}. The key stored for ${keyScope} is not sent there until you allow it.`,

  // Model Access: Allow Stored Key for Workspace URL
  allowNoUrl: (): DisplayText => msg`No service URL is set, so there is no key to allow.`,
  allowNothingToAsk: (url: string): DisplayText =>
    msg`The service URL ${url} comes from your own settings: its key is used without asking.`,
  allowNoKey: (url: string): DisplayText => msg`No API key is stored for ${url}. Run "Model Access: Set API Key".`,
  allowAlready: (url: string): DisplayText => msg`The key is already allowed for ${url} in this workspace.`,

  // Model Access: Set API Key
  setKeyTitle: (scope: string): DisplayText => msg`Model Access: API Key for ${scope}`,
  setKeyPrompt: (scope: string, originOnly: boolean, fromWorkspace: boolean): DisplayText => {
    const where = originOnly
      ? msg`Stored in VS Code's SecretStorage for ${scope}: sent to any path there, never to another server.`
      : msg`Stored in VS Code's SecretStorage for ${scope}: sent only to URLs under that path.`;
    return fromWorkspace
      ? msg`${where} This URL was set by this workspace's settings (modelAccess.baseUrl), not by you.`
      : where;
  },
  keySaved: (scope: string, count: number): DisplayText =>
    msg`API key saved for ${scope}: it sees ${plural(count, 'model')}.`,
  keySavedLog: (scope: string, count: number): string =>
    `API key saved for ${scope}; it sees ${plural(count, 'model')}.`,
  keySavedUncheckedLog: (scope: string): string => `API key saved for ${scope} without a successful check.`,

  // Model Access: Clear API Key
  keyRemoved: (scope: string): DisplayText => msg`API key for ${scope} removed.`,
  keyRemovedLog: (scope: string): string => `API key removed for ${scope}.`,
};
