import * as vscode from 'vscode';
import { shareableEnvironments, type Environment } from '../common/environments';
import { BuiltinCommands, Commands, ContextKeys, Settings } from '../ids';
import { displayText, hostOf, msg, plural } from '../common/text';
import { Lifecycle } from '../platform/lifecycle';
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
      switchEnvironment(deps, typeof name === 'string' ? name : undefined),
    ),
    vscode.commands.registerCommand(Commands.copyEnvironments, () => copyEnvironments(deps)),
    environments.onDidChangeList(reportProblems),
    environments.onDidSwitch((env) => log.info(env ? `Environment: ${env.name} (${env.baseUrl})` : 'No environment')),
  ];
}

type EnvironmentPick = SafePickItem & { name?: string; edit?: boolean };

/**
 * Makes another environment active for this workspace: by name (from a test or a link), or from a quick
 * pick that says for each whether a key is set. Resolves with the active environment's name afterwards.
 */
async function switchEnvironment(deps: Services, name?: string): Promise<string | undefined> {
  const { environments, ui, keys } = deps;
  if (name !== undefined) {
    if (!(await environments.switchTo(name))) {
      void ui.warn(msg`There is no environment named ${name} in modelAccess.environments.`);
    }
    return environments.active?.name;
  }
  const list = environments.list;
  const active = environments.active;
  const items: EnvironmentPick[] = await Promise.all(
    list.map(async (env) => ({
      label: msg`${env === active ? '$(check)' : '$(blank)'} ${env.name}`,
      description: displayText(env.baseUrl, 200),
      detail: await keyLine(env, keys),
      name: env.name,
    })),
  );
  items.push({ label: msg`$(gear) Edit environments in settings…`, edit: true });
  const pick = await ui.pick(items, {
    title: 'Model Access: Switch Environment',
    placeHolder: list.length
      ? `Active: ${active?.name ?? 'none'} · the choice is kept for this workspace`
      : 'No environments yet: add them to modelAccess.environments',
    matchOnDescription: true,
  });
  if (pick?.edit) {
    await vscode.commands.executeCommand(BuiltinCommands.openSettings, `${Settings.section}.${Settings.environments}`);
  } else if (pick?.name !== undefined) {
    await environments.switchTo(pick.name);
  }
  return environments.active?.name;
}

async function keyLine(env: Environment, keys: ApiKeyStore): Promise<ReturnType<typeof msg>> {
  const headers = Object.keys(env.headers).length;
  const extra = headers ? ` · ${plural(headers, 'header')}` : '';
  try {
    const key = await keys.get(env.baseUrl, env.source);
    return key ? msg`API key set for ${key.scope}${extra}` : msg`No API key for ${hostOf(env.baseUrl)} yet${extra}`;
  } catch {
    return msg`API key unknown${extra}`;
  }
}

/** The environments as JSON on the clipboard (names, URLs, headers, variables; never a key). */
async function copyEnvironments(deps: Services): Promise<string> {
  const json = JSON.stringify(shareableEnvironments(deps.environments.list), null, 2);
  await deps.ui.copy(json);
  void deps.ui.info(
    msg`Copied ${plural(shareableEnvironments(deps.environments.list).length, 'environment')} as JSON for modelAccess.environments. API keys are not included: each person sets their own.`,
  );
  return json;
}

/**
 * The active environment in the status bar (a click switches), shown once there is more than one to
 * choose from; also the context key that puts Switch Environment in the Models view's title.
 */
export class EnvironmentStatusBar extends Lifecycle {
  readonly item: vscode.StatusBarItem;

  constructor(private readonly environments: Environments) {
    super();
    this.item = vscode.window.createStatusBarItem('modelAccess.environment', vscode.StatusBarAlignment.Left, 51);
    this.item.name = 'Model Access Environment';
    this.item.command = Commands.switchEnvironment;
    this.own(
      this.item,
      environments.onDidSwitch(() => this.update()),
      environments.onDidChangeList(() => this.update()),
    );
    this.update();
  }

  private update(): void {
    const list = this.environments.list;
    const active = this.environments.active;
    const multiple = list.length > 1;
    void vscode.commands.executeCommand(BuiltinCommands.setContext, ContextKeys.multipleEnvironments, multiple);
    if (!multiple || !active) {
      this.item.hide();
      return;
    }
    this.item.text = `$(server-environment) ${displayText(active.name, 60)}`;
    const md = new vscode.MarkdownString('', true);
    md.isTrusted = false;
    md.appendMarkdown('**Model Access environment**\n\n');
    md.appendText(`${displayText(active.name, 100)}: ${displayText(active.baseUrl, 200)}`);
    md.appendMarkdown('\n\n');
    md.appendText(`${plural(list.length, 'environment')} configured. Click to switch.`);
    this.item.tooltip = md;
    this.item.accessibilityInformation = {
      label: `Model Access environment ${displayText(active.name, 60)}; click to switch`,
    };
    this.item.show();
  }
}
