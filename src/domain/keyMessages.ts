/**
 * What people are told about where API keys are stored and sent, in one place. Messages are localized
 * templates (src/common/l10n.ts) whose values — URLs a workspace may have written among them — are cleaned
 * for display first. Log lines are plain English strings (the log cleans them). Pure; no `vscode` import.
 */
import { l10n } from '../common/l10n';
import { clean, type DisplayText } from '../common/text';

export const ENV_KEY_NAME = 'MODEL_ACCESS_API_KEY';

const env = clean(ENV_KEY_NAME);

export const KeyMessages = {
  /**
   * Where the key a URL uses comes from, in the words every place that names a key uses (Switch Environment,
   * the status bar, Diagnose Connection, Clear API Key): a stored key (and the scope it is stored for), the
   * environment variable fallback, or none. Never the key itself.
   */
  keySource: (source: 'secretStorage' | 'environment' | undefined, scope?: string): DisplayText =>
    source === 'secretStorage'
      ? scope
        ? l10n.t('stored key for {0}', clean(scope))
        : l10n.t('stored key')
      : source === 'environment'
        ? l10n.t('key from {0}', env)
        : l10n.t('no key'),

  // The question before a stored key first goes to a URL from workspace settings (a modal warning).
  consentQuestion: (url: string, keyScope: string, fromEnvironment: boolean): DisplayText =>
    fromEnvironment
      ? l10n.t('Use the key from {0} with {1}, set by this workspace?', env, clean(url))
      : l10n.t('Use the key stored for {0} with {1}, set by this workspace?', clean(keyScope), clean(url)),
  consentDetail: (url: string): DisplayText =>
    l10n.t(
      "This workspace's settings (modelAccess.baseUrl) point Model Access at {0}. Whoever wrote those settings chose that URL, not you: allow it only if it is a service you trust with this key. The answer is kept for this workspace.",
      clean(url),
    ),
  allow: (): DisplayText => l10n.t('Allow'),
  notNow: (): DisplayText => l10n.t('Not now'),

  // Shown instead of a request (tree, status bar, errors) until the key is allowed.
  notAllowed: (url: string, keyScope: string, fromEnvironment: boolean): DisplayText =>
    fromEnvironment
      ? l10n.t(
          'This workspace sets the service URL to {0}. The key from {1} is not sent there until you allow it.',
          clean(url),
          env,
        )
      : l10n.t(
          'This workspace sets the service URL to {0}. The key stored for {1} is not sent there until you allow it.',
          clean(url),
          clean(keyScope),
        ),

  // Model Access: Allow Stored Key for Workspace URL
  allowNoUrl: (): DisplayText => l10n.t('No service URL is set, so there is no key to allow.'),
  allowNothingToAsk: (url: string): DisplayText =>
    l10n.t('The service URL {0} comes from your own settings: its key is used without asking.', clean(url)),
  allowNoKey: (url: string): DisplayText =>
    l10n.t('No API key is stored for {0}. Run "Model Access: Set API Key".', clean(url)),
  allowAlready: (url: string): DisplayText =>
    l10n.t('The key is already allowed for {0} in this workspace.', clean(url)),

  // Model Access: Set API Key
  setKeyTitle: (scope: string): DisplayText => l10n.t('Model Access: API Key for {0}', clean(scope)),
  setKeyPrompt: (scope: string, originOnly: boolean, fromWorkspace: boolean): DisplayText => {
    const where = originOnly
      ? l10n.t(
          "Stored in VS Code's SecretStorage for {0}: sent to any path there, never to another server.",
          clean(scope),
        )
      : l10n.t("Stored in VS Code's SecretStorage for {0}: sent only to URLs under that path.", clean(scope));
    // Two sentences, each translated whole.
    return fromWorkspace
      ? l10n.t(
          '{0} {1}',
          where,
          l10n.t("This URL was set by this workspace's settings (modelAccess.baseUrl), not by you."),
        )
      : where;
  },
  keySaved: (scope: string, count: number): DisplayText =>
    count === 1
      ? l10n.t('API key saved for {0}: it sees 1 model.', clean(scope))
      : l10n.t('API key saved for {0}: it sees {1} models.', clean(scope), count),
  keySavedLog: (scope: string, count: number): string =>
    `API key saved for ${scope}; it sees ${count} model${count === 1 ? '' : 's'}.`,
  keySavedUncheckedLog: (scope: string): string => `API key saved for ${scope} without a successful check.`,

  // Model Access: Clear API Key
  keyRemoved: (scope: string): DisplayText => l10n.t('API key for {0} removed.', clean(scope)),
  keyRemovedLog: (scope: string): string => `API key removed for ${scope}.`,
};
