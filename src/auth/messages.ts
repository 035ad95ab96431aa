/**
 * What people are told about where API keys are stored and sent, in one place. Messages are `msg`
 * templates (src/text.ts): the literal parts are ours, every value — URLs a workspace may have written
 * among them — goes through the display function. Log lines are plain strings (the log cleans them).
 * Pure; no `vscode` import.
 */
import { msg, plural, type DisplayText } from '../text';

export const KeyMessages = {
  // Model Access: Set API Key
  setKeyTitle: (scope: string): DisplayText => msg`Model Access: API Key for ${scope}`,
  setKeyPrompt: (scope: string, originOnly: boolean): DisplayText =>
    originOnly
      ? msg`Stored in VS Code's SecretStorage for ${scope}: sent to any path there, never to another server.`
      : msg`Stored in VS Code's SecretStorage for ${scope}: sent only to URLs under that path.`,
  keySaved: (scope: string, count: number): DisplayText => msg`API key saved for ${scope}: it sees ${plural(count, 'model')}.`,
  keySavedLog: (scope: string, count: number): string => `API key saved for ${scope}; it sees ${count} models.`,
  keySavedUncheckedLog: (scope: string): string => `API key saved for ${scope} without a successful check.`,

  // Model Access: Clear API Key
  keyRemoved: (scope: string): DisplayText => msg`API key for ${scope} removed.`,
  keyRemovedLog: (scope: string): string => `API key removed for ${scope}.`,
};
