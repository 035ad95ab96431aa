import * as vscode from 'vscode';
import { normalizeBaseUrl, validateBaseUrl } from '../api/baseUrl';
import {
  environmentNameProblem,
  environmentNames,
  withAddedEnvironment,
  withEditedEnvironment,
} from '../domain/environmentEdits';
import type { Environment } from '../domain/environments';
import { environmentNameArg } from '../domain/commandArgs';
import { Commands, Settings } from '../ids';
import { clean, displayText, hostOf, type DisplayText } from '../common/text';
import { l10n } from '../platform/l10n';
import type { SafePickItem } from '../platform/ui';
import type { Services } from '../services';
import type { SetKeyOutcome } from './commands';

/** Which settings file an environment was written to. */
export type SettingsTarget = 'user' | 'workspace';

/**
 * What Add/Edit Environment did, for tests and callers: the environment's name, the settings file written,
 * and the key step (`stored`: a stored key already serves the URL; `unchanged`: the URL did not change;
 * `notListed`: written to user settings that this workspace's own list hides, so no key was asked for).
 */
export interface EnvironmentEditOutcome {
  name: string;
  target: SettingsTarget;
  key: SetKeyOutcome | 'stored' | 'unchanged' | 'notListed';
}

/** VS Code's commands that open a settings file as JSON, at the setting (the list is edited there). */
const OPEN_SETTINGS_JSON: Record<SettingsTarget, string> = {
  user: 'workbench.action.openSettingsJson',
  workspace: 'workbench.action.openWorkspaceSettingsFile',
};

/** Add Environment… and Edit Environment…: a short guided flow that writes `modelAccess.environments`. */
export function environmentEditorCommands(deps: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.addEnvironment, () => addEnvironment(deps)),
    vscode.commands.registerCommand(Commands.editEnvironment, (name?: unknown) =>
      editEnvironment(deps, environmentNameArg(name)),
    ),
  ];
}

/** Steps 1 and 2 of either flow: the name, then the URL (https, or http on this machine). */
async function askNameAndUrl(
  deps: Services,
  title: (step: number) => DisplayText,
  current?: Environment,
): Promise<{ name: string; baseUrl: string } | undefined> {
  const { ui, config, environments } = deps;
  const taken = [...environments.list.map((e) => e.name), ...environmentNames(config.environmentsSetting().user)];
  const name = await ui.input({
    title: title(1),
    prompt: l10n.t('A name for this service, shown in the status bar and in Switch Environment.'),
    placeHolder: l10n.t('Production'),
    value: current?.name ?? '',
    ignoreFocusOut: true,
    validateInput: (text) => environmentNameProblem(text, taken, current?.name),
  });
  if (name === undefined || environmentNameProblem(name, taken, current?.name)) {
    return undefined;
  }
  const allowInsecure = config.allowInsecureHttp;
  const url = await ui.input({
    title: title(2),
    prompt: l10n.t(
      'The base URL of its Model Access Service (requests go to <URL>/v1/…): https, or http only on this machine.',
    ),
    placeHolder: l10n.t('https://models.example.com'),
    value: current?.baseUrl ?? '',
    ignoreFocusOut: true,
    validateInput: (text) => validateBaseUrl(text, allowInsecure),
  });
  if (url === undefined || validateBaseUrl(url, allowInsecure)) {
    return undefined;
  }
  return { name: name.trim(), baseUrl: normalizeBaseUrl(url) };
}

/**
 * Where a new environment is written: the person's user settings, unless this workspace has its own list
 * (which then hides the user's) and they choose the workspace's file. Undefined when dismissed.
 */
async function chooseTarget(deps: Services): Promise<SettingsTarget | undefined> {
  if (!deps.config.environmentsSetting().workspaceHasList) {
    return 'user';
  }
  const items: (SafePickItem & { target: SettingsTarget })[] = [
    {
      label: l10n.t('$(account) Your user settings'),
      detail: l10n.t("Only for you. Not listed while this workspace's settings have their own environments."),
      target: 'user',
    },
    {
      label: l10n.t("$(folder) This workspace's settings"),
      detail: l10n.t('Shared with whoever opens this folder (the name and URL; never a key).'),
      target: 'workspace',
    },
  ];
  const pick = await deps.ui.pick(items, {
    title: l10n.t('Model Access: Add Environment'),
    placeHolder: l10n.t('This workspace lists its own environments. Where should the new one go?'),
    ignoreFocusOut: true,
  });
  return pick?.target;
}

/** The key step: the one stored for the URL's scope serves it, else Set API Key (hidden input, checked). */
async function keyStep(deps: Services, name: string, baseUrl: string): Promise<SetKeyOutcome | 'stored'> {
  if (await deps.keys.hasStored(baseUrl)) {
    return 'stored';
  }
  return (await vscode.commands.executeCommand<SetKeyOutcome>(Commands.setApiKey, name)) ?? 'cancelled';
}

/** Says what was written where, with a button to the settings file for headers and variables. */
function reportWritten(deps: Services, message: DisplayText, target: SettingsTarget): void {
  const open = l10n.t('Add Headers or Variables…');
  void Promise.resolve(deps.ui.info(message, open)).then((a) =>
    a === open
      ? vscode.commands.executeCommand(OPEN_SETTINGS_JSON[target], {
          revealSetting: { key: `${Settings.section}.${Settings.environments}`, edit: true },
        })
      : undefined,
  );
}

async function addEnvironment(deps: Services): Promise<EnvironmentEditOutcome | undefined> {
  const { config, environments, log } = deps;
  const entry = await askNameAndUrl(deps, (step) => l10n.t('Model Access: Add Environment ({0}/3)', step));
  if (!entry) {
    return undefined;
  }
  const target = await chooseTarget(deps);
  if (!target) {
    return undefined;
  }
  const setting = config.environmentsSetting();
  await config.setEnvironments(
    withAddedEnvironment(target === 'user' ? setting.user : setting.workspace, entry),
    target,
  );
  log.info(`Environment added to the ${target} settings: ${entry.name} (${entry.baseUrl})`);
  // The one just added is the one to work with. In user settings beside a workspace's own list it is not in
  // effect in this window (the workspace's list is), so there is no key to ask for here.
  if (!(await environments.switchTo(entry.name))) {
    void deps.ui.info(
      l10n.t(
        'Environment {0} added to your user settings. This workspace lists its own environments, so it is used in your other windows; set its key there.',
        clean(entry.name),
      ),
    );
    return { name: entry.name, target, key: 'notListed' };
  }
  const key = await keyStep(deps, entry.name, entry.baseUrl);
  reportWritten(
    deps,
    target === 'user'
      ? l10n.t(
          'Environment {0} added to your user settings (modelAccess.environments). Headers and variables are optional.',
          clean(entry.name),
        )
      : l10n.t(
          "Environment {0} added to this workspace's settings (modelAccess.environments). Headers and variables are optional.",
          clean(entry.name),
        ),
    target,
  );
  return { name: entry.name, target, key };
}

type EditPick = SafePickItem & { env: Environment };

async function editEnvironment(deps: Services, name?: string): Promise<EnvironmentEditOutcome | undefined> {
  const { ui, config, environments, log } = deps;
  let env = name === undefined ? undefined : environments.find(name);
  if (name !== undefined && !env) {
    void ui.warn(l10n.t('There is no environment named {0} in modelAccess.environments.', clean(name)));
    return undefined;
  }
  if (!env) {
    const items: EditPick[] = environments.list.map((e) => ({
      label: displayText(e.name, 60),
      description: displayText(e.baseUrl, 200),
      detail: e.shorthand ? l10n.t('modelAccess.baseUrl: edited with Set Service URL…') : undefined,
      env: e,
    }));
    if (!items.length) {
      void ui
        .info(l10n.t('No environments yet.'), l10n.t('Add Environment…'))
        .then((a) => (a ? vscode.commands.executeCommand(Commands.addEnvironment) : undefined));
      return undefined;
    }
    env = (await ui.pick(items, { title: l10n.t('Model Access: Edit Environment'), matchOnDescription: true }))?.env;
    if (!env) {
      return undefined;
    }
  }
  if (env.source === 'environment') {
    void ui.warn(l10n.t('{0} comes from MODEL_ACCESS_BASE_URL: change that variable instead.', clean(env.name)));
    return undefined;
  }
  if (env.shorthand) {
    // The one-service shorthand is modelAccess.baseUrl, which has its own command.
    await vscode.commands.executeCommand(Commands.setBaseUrl);
    return undefined;
  }
  const before = env;
  const entry = await askNameAndUrl(deps, (step) => l10n.t('Model Access: Edit Environment ({0}/3)', step), before);
  if (!entry) {
    return undefined;
  }
  const target: SettingsTarget = before.source === 'workspace' ? 'workspace' : 'user';
  const setting = config.environmentsSetting();
  const edited = withEditedEnvironment(target === 'user' ? setting.user : setting.workspace, before.name, entry);
  if (!edited) {
    void ui.error(l10n.t('The environment {0} is no longer in the settings; nothing was changed.', clean(before.name)));
    return undefined;
  }
  const wasActive = environments.active?.name === before.name;
  await config.setEnvironments(edited, target);
  log.info(`Environment edited in the ${target} settings: ${entry.name} (${entry.baseUrl})`);
  if (wasActive) {
    await environments.switchTo(entry.name);
  }
  const key = entry.baseUrl === before.baseUrl ? 'unchanged' : await keyStep(deps, entry.name, entry.baseUrl);
  reportWritten(
    deps,
    target === 'user'
      ? l10n.t('Environment {0} ({1}) saved in your user settings.', clean(entry.name), hostOf(entry.baseUrl))
      : l10n.t("Environment {0} ({1}) saved in this workspace's settings.", clean(entry.name), hostOf(entry.baseUrl)),
    target,
  );
  return { name: entry.name, target, key };
}
