import * as vscode from 'vscode';
import { environmentFromArg } from '../domain/commandArgs';
import { activeEnvironment, findEnvironment, type Environment, type EnvironmentProblem } from '../domain/environments';
import type { Config } from './config';
import { Lifecycle } from './lifecycle';
import { l10n } from './l10n';
import type { Ui } from './ui';
import { clean } from '../common/text';

/** Workspace state (never synced): each window keeps its own choice. */
const ACTIVE_KEY = 'modelAccess.activeEnvironment';

/**
 * The configured environments and the one this workspace works with. The choice is remembered by name
 * in workspace state; when that name is gone from the settings, the first environment is active.
 * `onDidSwitch` fires, synchronously, when the active environment becomes another one (a switch, or the
 * settings removed the active one), so a refresh in flight for the old one can be abandoned at once.
 */
export class Environments extends Lifecycle {
  private readonly _onDidSwitch = new vscode.EventEmitter<Environment | undefined>();
  readonly onDidSwitch = this._onDidSwitch.event;
  private readonly _onDidChangeList = new vscode.EventEmitter<void>();
  /** The list changed (names, URLs, headers or variables). */
  readonly onDidChangeList = this._onDidChangeList.event;
  private current: Environment | undefined;

  constructor(
    private readonly config: Config,
    private readonly state: vscode.Memento,
  ) {
    super();
    this.current = this.active;
    this.own(
      this._onDidSwitch,
      this._onDidChangeList,
      config.onDidChange((e) => {
        if (e.service) {
          this._onDidChangeList.fire();
          this.notice();
        }
      }),
    );
  }

  get list(): readonly Environment[] {
    return this.config.environments.environments;
  }

  /** What in `modelAccess.environments` was left out, for the log. */
  get problems(): readonly EnvironmentProblem[] {
    return this.config.environments.problems;
  }

  get active(): Environment | undefined {
    return activeEnvironment(this.list, this.state.get<string>(ACTIVE_KEY));
  }

  find(name: string | undefined): Environment | undefined {
    return findEnvironment(this.list, name);
  }

  /**
   * The environment a command's argument belongs to (a row under an environment's root in the Models view),
   * else the active one. `missing` is the row's environment when it is no longer configured.
   */
  ofArg(arg: unknown): { env: Environment | undefined; name?: string; missing?: string } {
    const name = environmentFromArg(arg);
    if (name === undefined) {
      return { env: this.active };
    }
    const env = this.find(name);
    return env ? { env, name } : { env: undefined, name, missing: name };
  }

  /** Makes `name` the active environment of this workspace; false when there is none by that name. */
  async switchTo(name: string): Promise<boolean> {
    const env = this.find(name);
    if (!env) {
      return false;
    }
    await this.state.update(ACTIVE_KEY, env.name);
    this.notice();
    return true;
  }

  /** Fires `onDidSwitch` when the active environment is another one than last seen. */
  private notice(): void {
    const now = this.active;
    const before = this.current;
    this.current = now;
    if (now?.name !== before?.name || now?.baseUrl !== before?.baseUrl) {
      this._onDidSwitch.fire(now);
    }
  }
}

/**
 * The environment a command acts on (see `Environments.ofArg`), or undefined after telling the person that
 * the row's environment was removed from the settings since the row was shown.
 */
export function commandEnvironment(
  environments: Environments,
  ui: Pick<Ui, 'error'>,
  arg: unknown,
): { env: Environment | undefined; name?: string } | undefined {
  const target = environments.ofArg(arg);
  if (target.missing !== undefined) {
    void ui.error(
      l10n.t('The environment {0} is no longer configured; refresh the Models view.', clean(target.missing)),
    );
    return undefined;
  }
  return target;
}
