import * as vscode from 'vscode';
import { describeKeySource } from '../platform/apiKeys';
import { displayUrl, isOriginScope, scopeOf } from '../domain/keyScope';
import { KeyMessages } from '../domain/keyMessages';
import { describeFailure } from '../domain/failure';
import { Commands } from '../ids';
import { originOf, validateBaseUrl } from '../api/baseUrl';
import { clean, displayText, hostOf } from '../common/text';
import { environmentNameArg } from '../domain/commandArgs';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import type { BaseUrl } from '../platform/config';

/** What Set API Key did, for tests. */
export type SetKeyOutcome = 'saved' | 'cancelled' | 'noUrl';

/** Set Service URL, Set API Key, Clear API Key, Allow Stored Key for Workspace URL, Show Log. */
export function setupCommands(deps: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.setBaseUrl, () => setBaseUrl(deps)),
    vscode.commands.registerCommand(Commands.setApiKey, (name?: unknown) => setApiKey(deps, environmentNameArg(name))),
    vscode.commands.registerCommand(Commands.clearApiKey, () => clearApiKey(deps)),
    vscode.commands.registerCommand(Commands.allowStoredKey, (name?: unknown) =>
      allowStoredKey(deps, environmentNameArg(name)),
    ),
    vscode.commands.registerCommand(Commands.showLog, () => deps.log.show()),
  ];
}

async function setBaseUrl(deps: Services): Promise<string | undefined> {
  const { config, ui } = deps;
  const allowInsecure = config.allowInsecureHttp;
  const value = await ui.input({
    title: l10n.t('Model Access: Service URL'),
    prompt: l10n.t('The base URL of the Model Access Service; requests go to <URL>/v1/…'),
    placeHolder: l10n.t('https://models.example.com'),
    value: config.baseUrl?.url ?? '',
    ignoreFocusOut: true,
    validateInput: (text) => validateBaseUrl(text, allowInsecure),
  });
  if (value === undefined || validateBaseUrl(value, allowInsecure)) {
    return undefined;
  }
  await config.setBaseUrl(value);
  const url = config.baseUrl;
  // The URL just set is the one to work with, also when other environments are configured.
  const shorthand = deps.environments.list.find((e) => e.shorthand);
  if (shorthand && url?.source !== 'workspace') {
    await deps.environments.switchTo(shorthand.name);
  }
  if (url && url.source === 'workspace') {
    void ui.warn(
      l10n.t('Saved to your user settings, but this workspace sets modelAccess.baseUrl, which takes precedence.'),
    );
  }
  if (url && !(await deps.keys.get(url.url, url.source))) {
    void ui
      .info(l10n.t('Service URL set to {0}. Now set the API key for it.', hostOf(value)), l10n.t('Set API Key'))
      .then((a) => (a ? vscode.commands.executeCommand(Commands.setApiKey) : undefined));
  }
  return value;
}

/**
 * Asks for the key (password input), checks it with `GET /v1/models` against the configured service and
 * saves it in SecretStorage for that URL's scope: its origin when the URL has no path, else origin + path
 * prefix. A rejected or uncheckable key is saved only when asked to. For a URL from workspace settings the
 * prompt says so, and entering the key there counts as allowing it for that workspace and URL.
 */
async function setApiKey(deps: Services, environmentName?: string): Promise<SetKeyOutcome> {
  const { ui, keys, connection } = deps;
  const env = environmentName === undefined ? deps.environments.active : deps.environments.find(environmentName);
  const baseUrl = env && { url: env.baseUrl, source: env.source };
  if (!env || !baseUrl || !originOf(baseUrl.url)) {
    void ui
      .warn(l10n.t('Set the service URL first: the key is stored for that service only.'), l10n.t('Set Service URL'))
      .then((a) => (a ? vscode.commands.executeCommand(Commands.setBaseUrl) : undefined));
    return 'noUrl';
  }
  const host = hostOf(baseUrl.url);
  const scope = scopeOf(baseUrl.url) as string;
  const fromWorkspace = baseUrl.source === 'workspace';
  const save = async (value: string) => {
    if (fromWorkspace) {
      await connection.consent.allow(baseUrl.url);
    }
    await keys.store(baseUrl.url, value);
  };
  for (;;) {
    const key = await ui.input({
      title: KeyMessages.setKeyTitle(scope),
      prompt: KeyMessages.setKeyPrompt(scope, isOriginScope(scope), fromWorkspace),
      placeHolder: l10n.t('Paste your API key'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) =>
        text.trim() === ''
          ? l10n.t('Enter the API key.')
          : /\s/.test(text.trim())
            ? l10n.t('An API key has no spaces.')
            : undefined,
    });
    if (key === undefined || key.trim() === '') {
      return 'cancelled';
    }
    const value = key.trim();
    deps.log.redactor.add(value);
    const check = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: l10n.t('Checking the API key with {0}…', host),
        cancellable: true,
      },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        const client = connection.clientFor(env, value);
        try {
          const result = await client.listModels({ signal: abort.signal });
          return { ok: true as const, count: result.models.length };
        } catch (e) {
          return { ok: false as const, cancelled: token.isCancellationRequested, failure: describeFailure(e, host) };
        } finally {
          sub.dispose();
          void client.dispose().catch(() => undefined);
        }
      },
    );
    if (check.ok) {
      await save(value);
      deps.log.info(KeyMessages.keySavedLog(scope, check.count));
      void ui.info(KeyMessages.keySaved(scope, check.count));
      return 'saved';
    }
    if (check.cancelled) {
      return 'cancelled';
    }
    const rejected = check.failure.action === 'setApiKey';
    const question = rejected
      ? l10n.t('{0} rejected this API key ({1}). Save it anyway?', host, check.failure.status ?? 401)
      : l10n.t('Could not check the API key: {0} Save it anyway?', clean(check.failure.message));
    const enterAgain = l10n.t('Enter Again');
    const saveAnyway = l10n.t('Save Anyway');
    const answer = await ui.warn(displayText(deps.log.redactor.redact(question), 600), enterAgain, saveAnyway);
    if (answer === saveAnyway) {
      await save(value);
      deps.log.info(KeyMessages.keySavedUncheckedLog(scope));
      return 'saved';
    }
    if (answer !== enterAgain) {
      return 'cancelled';
    }
  }
}

/** The active environment's URL and where it came from, as the key store and consent take it. */
function activeBaseUrl(deps: Services): BaseUrl | undefined {
  const env = deps.environments.active;
  return env && { url: env.baseUrl, source: env.source };
}

async function clearApiKey(deps: Services): Promise<boolean> {
  const { ui, keys } = deps;
  const baseUrl = activeBaseUrl(deps);
  if (!baseUrl || !originOf(baseUrl.url)) {
    void ui.info(l10n.t('No service URL is set, so there is no API key to clear.'));
    return false;
  }
  const host = hostOf(baseUrl.url);
  // The key that serves this URL: stored for its own prefix, a shorter one, or the origin.
  const scope = await keys.storedScope(baseUrl.url);
  if (!scope) {
    const current = await keys.get(baseUrl.url, baseUrl.source);
    void ui.info(
      current
        ? l10n.t('No API key is stored for {0}; the key in use is {1}.', host, describeKeySource(current.source))
        : l10n.t('No API key is stored for {0}.', host),
    );
    return false;
  }
  await keys.delete(scope);
  deps.log.info(KeyMessages.keyRemovedLog(scope));
  void ui.info(KeyMessages.keyRemoved(scope));
  return true;
}

/**
 * Asks again whether the stored key may go to the URL the workspace's settings chose (after "Not now",
 * or before the first request). Resolves true when it may. `environmentName`: the environment of the Models
 * view's root whose row ran it (default: the active one).
 */
async function allowStoredKey(deps: Services, environmentName?: string): Promise<boolean> {
  const { ui, keys, connection, catalogs } = deps;
  const env = environmentName === undefined ? deps.environments.active : deps.environments.find(environmentName);
  const baseUrl = env && { url: env.baseUrl, source: env.source };
  if (!baseUrl || !originOf(baseUrl.url)) {
    void ui.info(KeyMessages.allowNoUrl());
    return false;
  }
  const url = displayUrl(baseUrl.url);
  if (baseUrl.source !== 'workspace') {
    void ui.info(KeyMessages.allowNothingToAsk(url));
    return true;
  }
  if (!(await keys.get(baseUrl.url, baseUrl.source))) {
    void ui.info(KeyMessages.allowNoKey(url));
    return false;
  }
  if (connection.consent.isAllowed(baseUrl.url)) {
    void ui.info(KeyMessages.allowAlready(url));
    return true;
  }
  const allowed = await connection.allowKey(true, env);
  if (allowed && env) {
    void catalogs.catalogFor(env).reload();
  }
  return allowed;
}
