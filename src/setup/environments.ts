import * as vscode from 'vscode';
import type { ServiceConnection } from '../platform/connection';
import { shareableEnvironments, type Environment } from '../domain/environments';
import { readinessLine } from '../domain/environmentReadiness';
import { BuiltinCommands, Commands, ContextKeys, Settings } from '../ids';
import { clean, displayText, hostOf, type DisplayText } from '../common/text';
import { environmentNameArg } from '../domain/commandArgs';
import { l10n } from '../platform/l10n';
import { StatusBarEntry } from '../platform/statusBarEntry';
import type { Environments } from '../platform/environments';
import type { ApiKeyStore } from '../platform/apiKeys';
import type { Services } from '../services';
import type { SafePickItem } from '../platform/ui';

/** Switch Environment…, Copy Environments as JSON, and the log lines about entries left out. */
export function environmentCommands(deps: Services): vscode.Disposable[] {
  const { environments, log } = deps;
  const reportProblems = () => {
    for (const p of environments.problems) {
      log.warn(p.message);
    }
  };
  reportProblems();
  return [
    vscode.commands.registerCommand(Commands.switchEnvironment, (name?: unknown) =>
      switchEnvironment(deps, environmentNameArg(name)),
    ),
    vscode.commands.registerCommand(Commands.copyEnvironments, () => copyEnvironments(deps)),
    environments.onDidChangeList(reportProblems),
    environments.onDidSwitch((env) => log.info(env ? `Environment: ${env.name} (${env.baseUrl})` : 'No environment')),
  ];
}

type EnvironmentPick = SafePickItem & { name?: string; edit?: boolean; command?: string };

/**
 * Makes another environment active for this workspace: by name (from a test or a link), or from a quick
 * pick that says for each whether a key is set. Resolves with the active environment's name afterwards.
 */
async function switchEnvironment(deps: Services, name?: string): Promise<string | undefined> {
  const { environments, ui, keys, connection } = deps;
  if (name !== undefined) {
    if (!(await environments.switchTo(name))) {
      void ui.warn(l10n.t('There is no environment named {0} in modelAccess.environments.', clean(name)));
    }
    return environments.active?.name;
  }
  const list = environments.list;
  const active = environments.active;
  const items: EnvironmentPick[] = await Promise.all(
    list.map(async (env) => ({
      label: env === active ? l10n.t('$(check) {0}', clean(env.name)) : l10n.t('$(blank) {0}', clean(env.name)),
      description: displayText(env.baseUrl, 200),
      detail: await keyLine(env, keys, connection),
      name: env.name,
    })),
  );
  items.push({ label: l10n.t('$(add) Add Environment…'), command: Commands.addEnvironment });
  if (list.some((e) => !e.shorthand)) {
    items.push({ label: l10n.t('$(edit) Edit Environment…'), command: Commands.editEnvironment });
  }
  items.push({ label: l10n.t('$(gear) Edit environments in settings…'), edit: true });
  const pick = await ui.pick(items, {
    title: l10n.t('Model Access: Switch Environment'),
    placeHolder: list.length
      ? l10n.t('Active: {0} · the choice is kept for this workspace', active ? clean(active.name) : l10n.t('none'))
      : l10n.t('No environments yet: add one'),
    matchOnDescription: true,
  });
  if (pick?.command) {
    await vscode.commands.executeCommand(pick.command);
  } else if (pick?.edit) {
    await vscode.commands.executeCommand(BuiltinCommands.openSettings, `${Settings.section}.${Settings.environments}`);
  } else if (pick?.name !== undefined) {
    await environments.switchTo(pick.name);
  }
  return environments.active?.name;
}

/** The picker's line for `env`: its key, its headers, and which secret headers still need a value. */
async function keyLine(env: Environment, keys: ApiKeyStore, connection: ServiceConnection): Promise<DisplayText> {
  const unset = env.secretHeaders.length
    ? await connection.unsetSecretHeaders(env).catch(() => [...env.secretHeaders])
    : [];
  const key = await keys.get(env.baseUrl, env.source).then(
    (k) => (k ? { scope: k.scope, source: k.source } : ('missing' as const)),
    () => 'unknown' as const,
  );
  return readinessLine({
    key,
    host: hostOf(env.baseUrl),
    headers: Object.keys(env.headers).length,
    secretHeaders: env.secretHeaders.map((name) => ({ name, set: !unset.includes(name) })),
  });
}

/** The environments as JSON on the clipboard (names, URLs, headers, variables; never a key). */
async function copyEnvironments(deps: Services): Promise<string> {
  const json = JSON.stringify(shareableEnvironments(deps.environments.list), null, 2);
  await deps.ui.copy(json);
  void deps.ui.info(
    shareableEnvironments(deps.environments.list).length === 1
      ? l10n.t(
          'Copied 1 environment as JSON for modelAccess.environments. API keys are not included: each person sets their own.',
        )
      : l10n.t(
          'Copied {0} environments as JSON for modelAccess.environments. API keys are not included: each person sets their own.',
          shareableEnvironments(deps.environments.list).length,
        ),
  );
  return json;
}

/**
 * The active environment in the status bar (a click switches), shown once there is more than one to
 * choose from; also the context key that puts Switch Environment in the Models view's title.
 */
export class EnvironmentStatusBar extends StatusBarEntry {
  constructor(private readonly environments: Environments) {
    super('modelAccess.environment', 'Model Access Environment', 51);
    this.item.command = Commands.switchEnvironment;
    this.follow(environments.onDidSwitch, environments.onDidChangeList);
  }

  protected update(): void {
    const list = this.environments.list;
    const active = this.environments.active;
    const multiple = list.length > 1;
    void vscode.commands.executeCommand(BuiltinCommands.setContext, ContextKeys.multipleEnvironments, multiple);
    if (!multiple || !active) {
      this.item.hide();
      return;
    }
    this.item.text = `$(server-environment) ${displayText(active.name, 60)}`;
    const md = this.tooltip(l10n.t('Model Access environment'));
    md.appendText(`${displayText(active.name, 100)}: ${displayText(active.baseUrl, 200)}`);
    md.appendMarkdown('\n\n');
    md.appendText(
      list.length === 1
        ? l10n.t('1 environment configured. Click to switch.')
        : l10n.t('{0} environments configured. Click to switch.', list.length),
    );
    this.item.tooltip = md;
    this.item.accessibilityInformation = {
      label: l10n.t('Model Access environment {0}; click to switch', displayText(active.name, 60)),
    };
    this.item.show();
  }
}
