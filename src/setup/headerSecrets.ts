import * as vscode from 'vscode';
import { headerProblem, SECRET_HEADER_VALUE, type Environment } from '../domain/environments';
import { displayUrl, scopeOf } from '../domain/keyScope';
import { clean, displayText } from '../common/text';
import { BuiltinCommands, Commands, Settings } from '../ids';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import type { SafePickItem } from '../platform/ui';

/** What Set Environment Header Secret did (tests read it; people see the notification). */
export type HeaderSecretOutcome = 'stored' | 'cleared' | 'cancelled' | 'none';

export function headerSecretCommands(deps: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.setHeaderSecret, (environment?: unknown, header?: unknown) =>
      setHeaderSecret(
        deps,
        typeof environment === 'string' ? environment : undefined,
        typeof header === 'string' ? header : undefined,
      ),
    ),
  ];
}

/**
 * Asks for the value of a secret header (password input) and stores it in SecretStorage for the
 * environment's URL. Which environment and header: the arguments, else the active environment when it has
 * secret headers, else a pick; an empty value removes the stored one. The value is never shown again.
 */
async function setHeaderSecret(deps: Services, environment?: string, header?: string): Promise<HeaderSecretOutcome> {
  const { environments, ui } = deps;
  const secrets = deps.connection.headerSecrets;
  const candidates = environments.list.filter((e) => e.secretHeaders.length > 0);
  if (!secrets || candidates.length === 0) {
    const open = l10n.t('Open Settings');
    const answer = await ui.info(
      l10n.t(
        'No environment has a secret header. In modelAccess.environments, give a header the value {0}, then run this command to set it.',
        clean(SECRET_HEADER_VALUE),
      ),
      open,
    );
    if (answer === open) {
      await vscode.commands.executeCommand(
        BuiltinCommands.openSettings,
        `${Settings.section}.${Settings.environments}`,
      );
    }
    return 'none';
  }
  const env =
    environment !== undefined
      ? candidates.find((e) => e.name.toLowerCase() === environment.toLowerCase())
      : await pickEnvironment(deps, candidates);
  if (!env) {
    if (environment !== undefined) {
      void ui.warn(l10n.t('Environment {0} has no secret header.', clean(environment)));
    }
    return 'cancelled';
  }
  const name =
    header !== undefined
      ? env.secretHeaders.find((h) => h.toLowerCase() === header.toLowerCase())
      : await pickHeader(deps, env);
  if (!name) {
    if (header !== undefined) {
      void ui.warn(l10n.t('{0} is not a secret header of environment {1}.', clean(header), clean(env.name)));
    }
    return 'cancelled';
  }
  const scope = scopeOf(env.baseUrl);
  if (!scope) {
    void ui.warn(l10n.t('The URL of environment {0} is not a valid http(s) URL.', clean(env.name)));
    return 'cancelled';
  }
  const isSet = (await secrets.get(env.baseUrl, name)) !== undefined;
  const value = await ui.input({
    title: l10n.t('{0} for {1}', clean(name), clean(env.name)),
    prompt: isSet
      ? l10n.t(
          'A value is stored; enter a new one, or clear the box to remove it. Sent only to {0}.',
          clean(displayUrl(scope)),
        )
      : l10n.t('The value is kept in secret storage and sent only to {0}.', clean(displayUrl(scope))),
    placeHolder: l10n.t('Paste the value of {0}', clean(name)),
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => {
      if (text.trim() === '') {
        return isSet ? undefined : l10n.t('Enter the value.');
      }
      // The text is never echoed: only that it cannot be sent.
      return headerProblem(name, text.trim()) ? l10n.t('A header value cannot hold a line break.') : undefined;
    },
  });
  if (value === undefined || (value.trim() === '' && !isSet) || headerProblem(name, value.trim())) {
    return 'cancelled';
  }
  const stored = await secrets.set(env.baseUrl, name, value);
  if (value.trim() === '') {
    void ui.info(l10n.t('Removed the value of {0} for {1}.', clean(name), clean(displayUrl(stored))));
    return 'cleared';
  }
  void ui.info(l10n.t('Stored the value of {0} for {1} in secret storage.', clean(name), clean(displayUrl(stored))));
  return 'stored';
}

type EnvironmentPick = SafePickItem & { env: Environment };

async function pickEnvironment(deps: Services, candidates: Environment[]): Promise<Environment | undefined> {
  const active = deps.environments.active;
  if (candidates.length === 1) {
    return candidates[0];
  }
  const ordered = [...candidates].sort((a, b) => Number(b === active) - Number(a === active));
  const pick = await deps.ui.pick<EnvironmentPick>(
    ordered.map((env) => ({
      label: displayText(env.name, 100),
      description: displayText(env.baseUrl, 200),
      detail: displayText(env.secretHeaders.join(', '), 200),
      env,
    })),
    { title: l10n.t('Model Access: Set Environment Header Secret'), placeHolder: l10n.t('Which environment?') },
  );
  return pick?.env;
}

type HeaderPick = SafePickItem & { header: string };

async function pickHeader(deps: Services, env: Environment): Promise<string | undefined> {
  if (env.secretHeaders.length === 1) {
    return env.secretHeaders[0];
  }
  const secrets = deps.connection.headerSecrets;
  const items: HeaderPick[] = await Promise.all(
    env.secretHeaders.map(async (header) => ({
      label: displayText(header, 100),
      description: (await secrets?.get(env.baseUrl, header)) ? l10n.t('set') : l10n.t('not set yet'),
      header,
    })),
  );
  const pick = await deps.ui.pick(items, {
    title: l10n.t('Model Access: Set Environment Header Secret'),
    placeHolder: l10n.t('Which header of {0}?', clean(env.name)),
  });
  return pick?.header;
}
